/**
 * Engine.execute counts statements in flight (pace() yields more often when there are
 * several): a query counts until its batches are drained or abandoned, others until they end,
 * failures not at all afterwards.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { statementsRunning } from "../../../engine/exec/exec_context.ts";

Deno.test("statements count as running until drained, abandoned or failed", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_running_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    const base = statementsRunning.count;
    const drained = await engine.execute("SELECT x FROM long_sequence(200000)", adminSession());
    assert.equal(statementsRunning.count, base + 1, "a query counts once executed");
    if (drained.kind === "rows") { for await (const _ of drained.batches) { /* drain */ } }
    assert.equal(statementsRunning.count, base, "drained");

    const abandoned = await engine.execute("SELECT x FROM long_sequence(200000)", adminSession());
    if (abandoned.kind === "rows") {
      const it = abandoned.batches[Symbol.asyncIterator]();
      await it.next();
      await it.return?.();
    }
    assert.equal(statementsRunning.count, base, "abandoned after one batch");

    await engine.execute("CREATE TABLE t (x INT)", adminSession());
    assert.equal(statementsRunning.count, base, "DDL");
    await assert.rejects(engine.execute("SELECT * FROM missing", adminSession()));
    assert.equal(statementsRunning.count, base, "a failed statement");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
