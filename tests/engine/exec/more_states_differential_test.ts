/**
 * Aggregate states of the hash aggregation added in session 10 against the row-at-a-time
 * reference, to the last bit: count(DISTINCT) and DISTINCT forms over pair_set.ts (few and
 * many groups and values, so the bit rectangle widens and moves to the hash), approx_percentile
 * / approx_median over histogram_states.ts (values spanning many binary orders both ways, so
 * the ranges shift and rescale; LONGs past 2^31 and near 2^53), with NULLs, FILTER, one and two
 * keys, no key and an empty input. EXPLAIN names no row accumulators for them.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { bothWays, resultKey, rows } from "../_result_rows.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";

const AGGS = [
  "count(DISTINCT i)",
  "count_distinct(l)",
  "count(DISTINCT s)",
  "count(DISTINCT d)",
  "count_distinct(wide)",
  "sum(DISTINCT i)",
  "count(DISTINCT i) FILTER (WHERE b)",
  "approx_percentile(d, 0.5)",
  "approx_percentile(d, 0.99, 3)",
  "approx_percentile(tiny, 0.1, 2)",
  "approx_percentile(huge, 0.7)",
  "approx_median(spread, 4)",
  "approx_percentile(spread, 0)",
  "approx_percentile(spread, 1)",
  "approx_percentile(l, 0.5)",
  "approx_percentile(big, 0.3, 2)",
  "approx_median(i)",
  "approx_percentile(d, 0.25) FILTER (WHERE i > 50)",
];

Deno.test("DISTINCT pairs and approx_percentile histograms on typed states answer as the row path", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_more_states_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  try {
    // 150K rows (more than two batches); g has 3,000 groups, so the (group, value) pairs of
    // wide pass the pair bits' limits.
    await engine.execute(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 1_000_000L) ts, rnd_symbol(5, 2, 3, 3) k, " +
        "x % 3000 g, rnd_double(4) d, rnd_long(0, 1000, 4) l, rnd_int(0, 100, 4) i, rnd_boolean() b, " +
        "rnd_symbol(40, 2, 4, 5) s, rnd_long(0, 1_000_000_000, 3) wide, rnd_double(5) / 1e9 tiny, " +
        "rnd_double(5) * 1e12 huge, power(2.0, rnd_int(-40, 40, 0)) * rnd_double(5) spread, " +
        "rnd_long(0, 3, 4) * 3002399751580330L + rnd_long(2147483640, 2147483660, 0) big " +
        "FROM long_sequence(150_000)) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await engine.execute(
      "INSERT INTO t (ts, k, g, d, l, i, b, big, spread) VALUES " +
        "('2024-03-01', 'kx', 1, 'NaN'::double, 9007199254740991, 5, true, 9007199254740991, 0.0), " +
        "('2024-03-01', 'kx', 1, 0.0, 9007199254740992, 7, true, 9007199254740992, 1e-30), " +
        "('2024-03-02', 'ky', 2, NULL, NULL, NULL, false, NULL, NULL)",
      adminSession(),
    );
    const queries = [
      `SELECT k, ${AGGS.join(", ")} FROM t GROUP BY k`,
      `SELECT g, ${AGGS.join(", ")} FROM t GROUP BY g`,
      `SELECT k, b, ${AGGS.join(", ")} FROM t GROUP BY k, b`,
      `SELECT ${AGGS.join(", ")} FROM t`,
      `SELECT k, ${AGGS.join(", ")} FROM t WHERE i < 0 GROUP BY k`,
      `SELECT ${AGGS.join(", ")} FROM t WHERE i < 0`,
    ];
    for (const sql of queries) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.match(plan, /vectorized hash/, sql);
      assert.doesNotMatch(plan, /row accumulators/, sql);
      const sort = (rs: unknown[][]) => rs.map((r) => r.map(resultKey).join("|")).sort();
      assert.deepEqual(sort(got), sort(want), sql);
      if (!sql.includes("i < 0 GROUP")) assert.ok(got.length > 0, sql);
    }
    // Values too far apart for the histogram's range fail on both paths, never hang.
    await engine.execute(
      "CREATE TABLE u AS (SELECT x % 2 k, CASE WHEN x = 1 THEN 1e-300 ELSE 1e300 END v FROM long_sequence(3))",
      adminSession(),
    );
    for (const reference of [false, true]) {
      setReferenceExecution(reference);
      try {
        await assert.rejects(
          () => rows(engine, "SELECT k, approx_percentile(v, 0.5) FROM u GROUP BY k"),
          /too wide a range/,
        );
      } finally {
        setReferenceExecution(false);
      }
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
