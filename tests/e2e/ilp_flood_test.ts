/**
 * Issue 24, ILP over TCP: 1,500 sockets that never authenticate (access control on: they send
 * half a key id) or send nothing (access control off) are pending connections: they do not
 * count against line.tcp.net.connection.limit, are capped per address and are closed after
 * line.tcp.net.handshake.timeout. A real writer gets its rows in during the flood.
 */
import assert from "node:assert/strict";
import { Sender } from "@questdb/nodejs-client";
import { ACL_ENV, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";
import { assertFileLimit, flood } from "./flood_clients.ts";

const SOCKETS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `promise`, or a failure naming `what` after `ms` (a refused JWK client may wait forever). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) =>
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)
  );
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function rowsOf(exec: (sql: string) => Promise<{ dataset?: unknown[][] }>, table: string) {
  for (let i = 0; i < 50; i++) {
    const r = await exec(`select count() from '${table}'`);
    if (r.dataset?.[0]?.[0] === 1) return 1;
    await sleep(100);
  }
  return 0;
}

Deno.test({
  name: "ILP/TCP with acl: a JWK writer gets in through 1,500 never-authenticating sockets",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertFileLimit(SOCKETS);
    const server = await startServer({
      ilp: true,
      env: { ...ACL_ENV, QDB_LINE_TCP_NET_HANDSHAKE_TIMEOUT: "2000" },
    });
    const { ok, run } = runner(server.httpUrl);
    const exec = async (sql: string) => JSON.parse((await run(sql)).body);
    try {
      await ok("create user ivan with password 'pw'");
      const [, x, y, d] = (await ok("alter user ivan create token type jwk")).dataset[0];
      await ok("grant ilp, create table to ivan");
      const started = Date.now();
      const f = await flood(server.ilpPort, SOCKETS, new TextEncoder().encode("iv"));
      try {
        const sender = new Sender({
          protocol: "tcp",
          protocol_version: "1",
          host: "127.0.0.1",
          port: server.ilpPort,
          jwk: { kid: "ivan", x, y, d, kty: "EC", crv: "P-256" },
          log: () => {},
        });
        await within(10_000, "JWK handshake", sender.connect());
        await sender.table("flood_acl").floatColumn("v", 1).at(Date.now(), "ms");
        await within(5_000, "flush", sender.flush());
        await sender.close();
        assert.equal(await rowsOf(exec, "flood_acl"), 1, "the authenticated row landed");
        const seconds = (Date.now() - started) / 1000;
        assert.ok(seconds < 15, `the write took ${seconds} s from the start of the flood`);
        assert.equal(await f.closedByServer(5000), SOCKETS, "every unauthenticated socket was closed");
      } finally {
        f.close();
      }
    } finally {
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "ILP/TCP without acl: 1,500 silent sockets neither fill the connection limit nor stay open",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertFileLimit(SOCKETS);
    const server = await startServer({ ilp: true, env: { QDB_LINE_TCP_NET_HANDSHAKE_TIMEOUT: "2000" } });
    try {
      const f = await flood(server.ilpPort, SOCKETS, new Uint8Array());
      try {
        const writer = await Deno.connect({ hostname: "127.0.0.1", port: server.ilpPort });
        await writer.write(new TextEncoder().encode("flood_open v=1i\n"));
        writer.close();
        const exec = async (sql: string) => await (await server.exec(sql)).json();
        assert.equal(await rowsOf(exec, "flood_open"), 1, "the writer's row landed");
        assert.equal(await f.closedByServer(5000), SOCKETS, "every silent socket was closed");
      } finally {
        f.close();
      }
    } finally {
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});
