/**
 * Issue #17: statements that write many rows give other statements turns while they convert,
 * encode and evaluate: CREATE TABLE AS SELECT and INSERT ... SELECT (rows converted column by
 * column, SYMBOL values interned a slice at a time, engine/storage/append.ts), and UPDATE
 * (its predicate and new values evaluated per partition with pace(): reads from the cache
 * resolve at once, so nothing else gave a turn). While each runs, `SELECT 1` is due on another
 * session every 10 ms, timed from when it is due; none may wait 300 ms. Before, CREATE TABLE AS
 * over 3M rows held the loop ~0.9 s and an UPDATE over 30 partitions ~1.7 s. The writes' results
 * are checked too, and that CREATE TABLE AS and UPDATE stop at a timeout inside their work
 * without writing. Bounds are generous: the test machine is shared.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";
import { assertResponsive, probed } from "../_select1_probe.ts";

Deno.test({
  name: "CREATE TABLE AS, INSERT ... SELECT and UPDATE of millions of rows give SELECT 1 turns",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_write_turns_" });
    const engine = await Engine.open({ root, cacheBytes: 512 * 1024 * 1024, parallelWorkers: 0 });
    try {
      // 2M rows over 24 DAY partitions; a SYMBOL column of 50 values.
      await rows(
        engine,
        "CREATE TABLE src AS (SELECT timestamp_sequence('2024-01-01', 1_000_000L) ts, " +
          "rnd_symbol(50, 4, 6, 0) s, rnd_double() d, x FROM long_sequence(2_000_000)) " +
          "TIMESTAMP(ts) PARTITION BY DAY",
      );
      await rows(
        engine,
        "CREATE TABLE ins (ts TIMESTAMP, s SYMBOL, d DOUBLE, x LONG) TIMESTAMP(ts) PARTITION BY DAY",
      );
      const cases: [string, string, () => Promise<void>][] = [
        [
          "CREATE TABLE AS",
          "CREATE TABLE dst AS (SELECT * FROM src) TIMESTAMP(ts) PARTITION BY DAY",
          async () => {
            assert.deepEqual(await rows(engine, "SELECT count(*), count(DISTINCT s), sum(x) FROM dst"), [[
              2_000_000n,
              50n,
              2_000_001_000_000n,
            ]]);
          },
        ],
        ["INSERT ... SELECT", "INSERT INTO ins SELECT * FROM src WHERE x > 500_000", async () => {
          assert.deepEqual(await rows(engine, "SELECT count(*), count(DISTINCT s) FROM ins"), [[
            1_500_000n,
            50n,
          ]]);
        }],
        ["UPDATE", "UPDATE dst SET d = -1 WHERE x % 2 = 0", async () => {
          assert.deepEqual(await rows(engine, "SELECT count(*) FROM dst WHERE d = -1"), [[1_000_000n]]);
        }],
      ];
      for (const [name, sql, check] of cases) {
        const p = await probed(engine, sql);
        const took = p.took;
        await check();
        assertResponsive(name, p);
        // The same statements stop at a timeout inside their work, writing nothing.
        if (name === "INSERT ... SELECT") continue;
        const limit = Math.max(20, Math.min(200, Math.floor(took / 3)));
        const again = sql.replace("CREATE TABLE dst", "CREATE TABLE dst2").replace("d = -1", "d = -2");
        const t1 = performance.now();
        await assert.rejects(
          engine.execute(again, { ...adminSession(), timeoutMs: limit }),
          new RegExp(`timeout, query aborted \\[timeout=${limit}ms\\]`),
        );
        const stopped = performance.now() - t1;
        assert.ok(
          stopped < limit + 800,
          `${name}: the ${limit} ms timeout fired after ${Math.round(stopped)} ms`,
        );
        assert.deepEqual(await rows(engine, "SELECT count(*) FROM dst WHERE d = -2"), [[0n]]);
        assert.deepEqual(await rows(engine, "SELECT count(*) FROM tables() WHERE table_name = 'dst2'"), [[
          0n,
        ]]);
      }
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
