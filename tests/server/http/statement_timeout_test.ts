/** Statement timeouts over REST (issue 9 limits; spec/protocols.md §2 `Statement-Timeout`, `query.timeout`). */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { Config } from "../../../server/config.ts";
import { createApp } from "../../../server/http/app.ts";
import { durationMs } from "../../../server/http/statement_timeout.ts";

const LONG = "SELECT count() FROM long_sequence(5000000000)";

async function withApp(
  conf: Record<string, string>,
  fn: (app: ReturnType<typeof createApp>) => Promise<void>,
) {
  const root = await Deno.makeTempDir({ prefix: "qdb_timeout_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await fn(createApp(engine, new Config(conf, {})));
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("durations read as QuestDB writes them", () => {
  assert.equal(durationMs("60s"), 60_000);
  assert.equal(durationMs("250ms"), 250);
  assert.equal(durationMs("2m"), 120_000);
  assert.equal(durationMs("5"), 5_000);
  assert.equal(durationMs("soon"), undefined);
});

Deno.test("the Statement-Timeout header stops a long /exec with a clear 400", async () => {
  await withApp({}, async (app) => {
    const started = performance.now();
    const r = await app.request(`/exec?query=${encodeURIComponent(LONG)}`, {
      headers: { "Statement-Timeout": "200" },
    });
    const elapsed = performance.now() - started;
    assert.equal(r.status, 400);
    const body = await r.json();
    assert.equal(body.error, "timeout, query aborted [timeout=200ms]");
    assert.ok(elapsed < 10_000, `stopped soon after the timeout (${Math.round(elapsed)} ms)`);
    // A short statement under the same header is unaffected.
    const ok = await app.request(`/exec?query=${encodeURIComponent("SELECT 1 x")}`, {
      headers: { "Statement-Timeout": "200" },
    });
    assert.deepEqual((await ok.json()).dataset, [[1]]);
  });
});

Deno.test("query.timeout applies to /exec without the header, and the header overrides it", async () => {
  await withApp({ "query.timeout": "150ms" }, async (app) => {
    const r = await app.request(`/exec?query=${encodeURIComponent(LONG)}`);
    assert.equal(r.status, 400);
    assert.equal((await r.json()).error, "timeout, query aborted [timeout=150ms]");
    const longer = await app.request(
      `/exec?query=${encodeURIComponent("SELECT count() FROM long_sequence(100000)")}`,
      {
        headers: { "Statement-Timeout": "60000" },
      },
    );
    assert.deepEqual((await longer.json()).dataset, [[100000]]);
  });
});
