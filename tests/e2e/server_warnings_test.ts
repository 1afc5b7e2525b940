/**
 * GET /warnings reports what the server really finds (server/warnings.ts): started under a low
 * `ulimit -n`, the open-files limit is below what its configured connection limits can need, so
 * /warnings (no credentials needed) and the start-up log carry QuestDB's "TOO MANY OPEN FILES"
 * warning; the same low limit with small connection limits is enough, and /warnings is `[]`.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

const warnings = async (httpUrl: string) => {
  const res = await fetch(`${httpUrl}/warnings`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  return await res.json();
};

Deno.test({
  name: "/warnings: a low open-files limit is reported against what the configuration needs",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  // Defaults: 256 + http 64 + pg 64 + 1024 handshaking + ILP 256 + 1024 handshaking = 2688.
  const low = await startServer({ openFilesLimit: 512 });
  try {
    assert.deepEqual(await warnings(low.httpUrl), [{
      tag: "TOO MANY OPEN FILES",
      warning: "open files limit (ulimit -n) is too low [current=512, recommended=2688]",
    }]);
    assert.match(
      low.log(),
      /warning: TOO MANY OPEN FILES: open files limit \(ulimit -n\) is too low \[current=512/,
    );
  } finally {
    await low.stop();
  }
  // 256 + 16 × 5 = 336 descriptors fit under 512: nothing to warn about.
  const enough = await startServer({
    openFilesLimit: 512,
    env: {
      QDB_HTTP_NET_CONNECTION_LIMIT: "16",
      QDB_PG_NET_CONNECTION_LIMIT: "16",
      QDB_PG_NET_HANDSHAKE_LIMIT: "16",
      QDB_LINE_TCP_NET_CONNECTION_LIMIT: "16",
      QDB_LINE_TCP_NET_HANDSHAKE_LIMIT: "16",
    },
  });
  try {
    assert.deepEqual(await warnings(enough.httpUrl), []);
    assert.doesNotMatch(enough.log(), /TOO MANY OPEN FILES/);
  } finally {
    await enough.stop();
  }
});

Deno.test({
  name: "/warnings needs no credentials with access control on",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const server = await startServer({ openFilesLimit: 512, env: { QDB_ACL_ENABLED: "true" } });
  try {
    const [w] = await warnings(server.httpUrl);
    assert.equal(w.tag, "TOO MANY OPEN FILES");
  } finally {
    await server.stop();
  }
});
