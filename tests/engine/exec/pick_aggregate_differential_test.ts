/**
 * first/last/first_not_null/last_not_null on vectors in the hash aggregation
 * (exec/vector/pick_states.ts) against the row-at-a-time reference: the same rows over
 * several batches (a group's last row in a later batch wins), NULL values counted or skipped,
 * every argument type the path takes (first/last refuse FILTER), one and two keys, and an empty
 * input.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { bothWays, resultKey } from "../_result_rows.ts";

const COLS = ["d", "l", "i", "s", "str", "vc", "ts", "b"];

Deno.test("first/last on vectors answer as the row path", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pick_agg_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  try {
    // 150K rows: more than two batches; NULLs in every nullable column.
    await engine.execute(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 1_000_000L) ts, rnd_symbol(5, 2, 3, 3) k, " +
        "x % 3 j, rnd_double(4) d, rnd_long(0, 1000, 4) l, rnd_int(0, 100, 4) i, rnd_symbol(7, 2, 3, 4) s, " +
        "rnd_str(3, 5, 4) str, rnd_varchar(2, 4, 4) vc, rnd_boolean() b FROM long_sequence(150_000)) " +
        "TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const aggs = COLS.flatMap((c) => [`first(${c})`, `last(${c})`])
      .concat(["first_not_null(d)", "last_not_null(l)", "first_not_null(s)", "last_not_null(str)"])
      .concat(["count(*) FILTER (WHERE i > 50)"]);
    const queries = [
      `SELECT k, ${aggs.join(", ")} FROM t GROUP BY k`,
      `SELECT k, j, ${aggs.join(", ")} FROM t GROUP BY k, j`,
      `SELECT ${aggs.join(", ")} FROM t`,
      `SELECT k, ${aggs.join(", ")} FROM t WHERE i < 0 GROUP BY k`,
    ];
    for (const sql of queries) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.match(plan, /vectorized hash/, sql);
      const sort = (rs: unknown[][]) => rs.map((r) => r.map(resultKey).join("|")).sort();
      assert.deepEqual(sort(got), sort(want), sql);
      if (!sql.includes("i < 0")) assert.ok(got.length > 0, sql);
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
