/**
 * Aggregate states of the hash aggregation added in session 10 against the row-at-a-time
 * reference, to the last bit: count(DISTINCT) and DISTINCT forms over pair_set.ts (few and
 * many groups and values, so the bit rectangle widens and moves to the hash), approx_percentile
 * / approx_median over histogram_states.ts (values spanning many binary orders both ways, so
 * the ranges shift and rescale; LONGs past 2^31 and near 2^53), with NULLs, FILTER, one and two
 * keys, no key and an empty input; sum/avg/min/max of DECIMAL, sum/min/max of LONG256 and
 * min/max of UUID (big_sum_states.ts, collect_states.ts), arg_min/arg_max with text, symbol,
 * UUID, DECIMAL, LONG256 and BOOLEAN keys and values of any type, array_agg and
 * asum/amin/amax/aavg and array_elem_* (array_states.ts), avg(BOOLEAN) (agg_states.ts) and
 * first/last (and _not_null) of every type (pick_states.ts), DISTINCT forms too, of one and of
 * two arguments (distinct_rows.ts folds the arguments' ids). EXPLAIN names no
 * row accumulators for them.
 */
import assert from "node:assert/strict";
import { adminSession } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { BigSumAgg } from "../../../engine/exec/vector/big_sum_states.ts";
import { decimalAvgOf } from "../../../engine/functions/aggregate_basic.ts";
import { decimalType } from "../../../engine/base/types.ts";
import { statesAgree, withMainHeapEngine } from "./_states_agree.ts";

/** The GROUP BY lists each aggregate list runs under (besides unkeyed and an empty selection). */
const KEYS = ["k", "g", "k, b"];

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
  await withMainHeapEngine("qdb_more_states_", async (engine) => {
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
    await statesAgree(engine, { table: "t", aggs: AGGS, keys: KEYS });
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
  });
});

const TYPED_AGGS = [
  "sum(dec)",
  "avg(dec)",
  "min(dec)",
  "max(dec)",
  "sum(wdec)",
  "avg(wdec)",
  "max(wdec)",
  "sum(l256)",
  "min(l256)",
  "max(l256)",
  "min(u)",
  "max(u)",
  "avg(b)",
  "avg(i > 50)",
  "sum(DISTINCT dec)",
  "avg(dec) FILTER (WHERE i > 20)",
  "max(u) FILTER (WHERE b)",
  "first(gh)",
  "last(gh)",
  "first_not_null(l256)",
  "last_not_null(l256)",
  "first(bin)",
  "last_not_null(bin)",
  "first(dec)",
  "last(wdec)",
  "first_not_null(dec)",
  "first(interval(ts, ts + 1000))",
  "last(ARRAY[d, 1.0])",
  "last_not_null(u)",
  "arg_min(d, k)",
  "arg_max(d, k)",
  "arg_max(i, u)",
  "arg_max(gh, dec)",
  "arg_min(bin, l256)",
  "arg_max(u, b)",
  "arg_min(dec, u) FILTER (WHERE i > 30)",
  "array_agg(d)",
  "array_agg(i)",
  "array_agg(ARRAY[d, 2.0])",
  "array_agg(CASE WHEN i > 80 THEN NULL ELSE ARRAY[d] END)",
  "asum(ARRAY[d, i::double])",
  "amin(CASE WHEN i > 70 THEN NULL ELSE ARRAY[d, i::double] END)",
  "amax(ARRAY[d, d * 2])",
  "aavg(CASE WHEN i < 10 THEN ARRAY[d] ELSE ARRAY[d, i::double] END)",
  "array_elem_min(ARRAY[d, i::double])",
  "array_elem_max(CASE WHEN i > 50 THEN NULL ELSE ARRAY[d] END)",
  "array_elem_sum(ARRAY[d, 1.0])",
  "array_elem_avg(CASE WHEN i < 20 THEN ARRAY[d] ELSE ARRAY[d, d] END)",
  "mode(gh)",
  "mode(dec)",
  "mode(l256)",
  "mode(u)",
  "mode(ARRAY[(i % 3)::double])",
  "mode(interval(ts, ts + (i % 3) * 1000))",
  "weighted_avg(DISTINCT d, i)",
  "arg_max(DISTINCT d, k)",
  "vwap(DISTINCT d, i)",
  "covar_pop(DISTINCT d, i % 7)",
  "corr(DISTINCT d, i) FILTER (WHERE b)",
  "arg_min(DISTINCT u, dec)",
];

Deno.test("DECIMAL, LONG256, UUID, BOOLEAN aggregates and first/last of every type on typed states answer as the row path", async () => {
  await withMainHeapEngine("qdb_more_states_types_", async (engine) => {
    await engine.execute(
      "CREATE TABLE v AS (SELECT timestamp_sequence('2024-01-01', 1_000_000L) ts, rnd_symbol(5, 2, 3, 3) k, " +
        "x % 2000 g, rnd_double(4) d, rnd_int(0, 100, 4) i, rnd_boolean() b, " +
        "rnd_long(-100000, 100000, 4)::decimal(18,3) dec, cast(rnd_double(3) * 1e20 as decimal(40,5)) wdec, " +
        "CASE WHEN x % 6 = 0 THEN NULL ELSE rnd_long256() END l256, " +
        "CASE WHEN x % 5 = 0 THEN NULL ELSE rnd_uuid4() END u, rnd_geohash(30) gh, rnd_bin(2, 4, 3) bin " +
        "FROM long_sequence(150_000)) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await statesAgree(engine, { table: "v", aggs: TYPED_AGGS, keys: KEYS });
  });
});

Deno.test("DECIMAL sums stay exact across the flush of their 32-bit parts (2^21 rows)", () => {
  const t = decimalType(18, 2);
  const agg = new BigSumAgg("decimal_sum"), avg = new BigSumAgg("decimal_avg");
  const want = [0n, 0n, 0n], count = [0n, 0n, 0n];
  const rows = 65536, gids = new Int32Array(rows);
  // Group 0 takes most of 5.2M rows near 2^31: past 2^53 in all, so an unflushed double would round.
  for (let batch = 0; batch < 80; batch++) {
    const values: (bigint | null)[] = [];
    for (let i = 0; i < rows; i++) {
      const g = i % 17 === 0 ? 1 : i % 19 === 0 ? 2 : 0;
      gids[i] = g;
      // Values at the 32-bit edges (the double part's worst case), past them, and NULLs.
      const v = i % 97 === 0
        ? null
        : i % 89 === 0
        ? 9_000_000_000_000_000n - BigInt(i)
        : i % 2
        ? 2147483647n
        : 2147483647n - BigInt(batch);
      values.push(v);
      if (v !== null) {
        want[g] += v;
        count[g]++;
      }
    }
    for (const a of [agg, avg]) {
      a.reserve(3);
      a.add(gids, rows, { type: t, data: values }, undefined);
    }
  }
  for (let g = 0; g < 3; g++) {
    assert.equal(agg.result(g), want[g]);
    assert.equal(avg.result(g), decimalAvgOf(want[g], count[g]));
  }
  assert.equal(agg.result(3), null);
});
