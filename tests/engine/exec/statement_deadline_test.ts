/**
 * A statement's timeout holds inside a batch (issue #24): a batch has up to 65,536 rows, and
 * with a costly function per row (a regex over a long value) checking only between batches
 * let a statement run minutes past its timeout. Also: the catastrophic `(a+)+$` over long
 * values is fast and correct, since patterns run on RE2.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, readValue, SqlError } from "../../../engine/mod.ts";

async function withEngine(fn: (e: Engine) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "qdb_deadline_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function run(engine: Engine, sql: string, timeoutMs?: number): Promise<unknown[][]> {
  const out = await engine.execute(sql, { ...adminSession(), timeoutMs });
  const result: unknown[][] = [];
  if (out.kind === "rows") {
    for await (const b of out.batches) {
      for (let i = 0; i < b.rowCount; i++) result.push(b.columns.map((c) => readValue(c, i)));
    }
  }
  return result;
}

/** One batch of 65,536 rows, each matching a regex over a fresh 40,000-character value: minutes of work. */
const COSTLY_BATCH =
  "SELECT count() FROM long_sequence(65536) WHERE rpad('a', 40000 + (x % 7)::int, 'b') ~ '(a+)+$'";

Deno.test("a statement past its timeout stops inside a batch of costly rows", async () => {
  await withEngine(async (engine) => {
    for (const where of ["WHERE", "SELECT"]) {
      const sql = where === "WHERE" ? COSTLY_BATCH : COSTLY_BATCH.replace(
        /^SELECT count\(\) FROM long_sequence\(65536\) WHERE (.*)$/,
        "SELECT $1 m FROM long_sequence(65536)",
      );
      const started = performance.now();
      await assert.rejects(run(engine, sql, 300), (e: unknown) => {
        assert.ok(e instanceof SqlError);
        assert.match(e.message, /^timeout, query aborted \[timeout=300ms\]$/);
        return true;
      });
      const took = performance.now() - started;
      assert.ok(took < 2300, `${where}: stopped ${Math.round(took)} ms after the start (timeout 300 ms)`);
    }
    // Without a timeout the same kind of statement runs to the end (on fewer rows).
    assert.deepEqual(await run(engine, COSTLY_BATCH.replace("65536", "20")), [[0n]]);
  });
});

Deno.test("(a+)+$ over long values is fast and correct in SQL", async () => {
  await withEngine(async (engine) => {
    const started = performance.now();
    const sql = "SELECT count() FROM long_sequence(200) " +
      "WHERE rpad('a', 5000 + x::int, 'a') || CASE WHEN x % 2 = 0 THEN '!' ELSE '' END ~ '(a+)+$'";
    assert.deepEqual(await run(engine, sql), [[100n]]);
    assert.deepEqual(await run(engine, "SELECT 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' ~ '(a+)+$'"), [[false]]);
    assert.ok(performance.now() - started < 2000, `took ${Math.round(performance.now() - started)} ms`);
  });
});
