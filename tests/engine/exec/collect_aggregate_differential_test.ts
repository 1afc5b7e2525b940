/**
 * The aggregates the hash aggregation moved off row-at-a-time accumulators onto typed-array
 * states (exec/vector/double_states.ts: geomean, weighted_avg, vwap, twap, haversine_dist_deg,
 * skewness/kurtosis, regr_*, weighted_stddev_*; exec/vector/collect_states.ts: bool_and/bool_or, arg_min/arg_max, mode,
 * approx_percentile/approx_median, min/max of text, symbols, IPv4 and booleans, string_agg,
 * string_distinct_agg, bit_and/bit_or/bit_xor, isOrdered; approx_count_distinct as count_distinct) and
 * percentile_cont/disc, quantile_cont/disc, and DISTINCT forms of one-argument aggregates (exec/vector/distinct_rows.ts) against the row-at-a-time reference: the same rows to the
 * last bit over more than two batches, with NULLs, non-finite doubles (read as NULL), LONGs past
 * 2^53, zero and negative values, FILTER where allowed, one and two keys, an unkeyed query and an
 * empty input. EXPLAIN names no row accumulators for them, and names string_agg over arrays, which
 * stays on one.
 */
import assert from "node:assert/strict";
import { adminSession } from "../../../engine/mod.ts";
import { bothWays, resultKey, rows } from "../_result_rows.ts";
import { statesAgree, withMainHeapEngine } from "./_states_agree.ts";

const AGGS = [
  "geomean(d)",
  "geomean(i)",
  "geomean(d - 0.01)",
  "weighted_avg(d, w)",
  "vwap(d, l)",
  "vwap(i, d)",
  "twap(d, ts)",
  "haversine_dist_deg(lat, lon, ts)",
  "skewness(d)",
  "skewness_pop(i)",
  "kurtosis(l)",
  "kurtosis_pop(d)",
  "bool_and(b)",
  "bool_or(b)",
  "bool_or(d > 0.99)",
  "bool_and(i > 3)",
  "arg_min(s, d)",
  "arg_max(ts, d)",
  "arg_max(str, l)",
  "arg_min(d, ts)",
  "arg_max(vc, i)",
  "arg_min(b, big)",
  "mode(s)",
  "mode(i)",
  "mode(b)",
  "mode(str)",
  "mode(l)",
  "mode(d)",
  "approx_percentile(d, 0.5)",
  "approx_percentile(l, 0.9, 2)",
  "approx_median(i)",
  "approx_median(d, 3)",
  "min(s)",
  "max(s)",
  "min(str)",
  "max(vc)",
  "max(b)",
  "min(b)",
  "string_agg(s, ',')",
  "string_agg(vc, '; ')",
  "string_distinct_agg(str, ',')",
  "string_agg(i, ',')",
  "string_agg(d, ',')",
  "string_agg(ts, ',')",
  "string_agg(b, '')",
  "first(nts)",
  "last(nts)",
  "first_not_null(nts)",
  "approx_count_distinct(l)",
  "approx_count_distinct(s)",
  "approx_count_distinct(d, 4)",
  "max(str) FILTER (WHERE i > 40)",
  "string_agg(s, '|') FILTER (WHERE i < 20)",
  "approx_count_distinct(i) FILTER (WHERE b)",
  "regr_slope(d, l)",
  "regr_intercept(d, i)",
  "regr_count(d, l)",
  "regr_r2(l, d)",
  "regr_avgx(d, l)",
  "regr_avgy(d, l)",
  "regr_sxx(d, i)",
  "regr_syy(d, i)",
  "regr_sxy(i, d)",
  "regr_r2(w, w)",
  "weighted_stddev(d, w)",
  "weighted_stddev_rel(d, i)",
  "weighted_stddev_freq(d, w)",
  "approx_var_samp(d)",
  "regr_slope(d, l) FILTER (WHERE i > 50)",
  "percentile_cont(d, 0.5)",
  "percentile_disc(d, 0.9)",
  "quantile_cont(i, 0.25)",
  "quantile_disc(sh, 0.75)",
  "percentile_disc(d - 0.5, 0)",
  "percentile_cont(i, 1) FILTER (WHERE b)",
  "percentile_disc(l, 0.5)",
  "percentile_cont(l, 0.3)",
  "percentile_disc(big, 0.6)",
  "percentile_cont(big, 0.7)",
  "sum(DISTINCT l)",
  "avg(DISTINCT d)",
  "sum(DISTINCT d)",
  "min(DISTINCT i)",
  "stddev(DISTINCT d)",
  "string_agg(DISTINCT s, ',')",
  "approx_percentile(DISTINCT d, 0.5)",
  "mode(DISTINCT s)",
  "first(DISTINCT str)",
  "last(DISTINCT vc)",
  "geomean(DISTINCT i)",
  "bit_xor(DISTINCT i)",
  "max(DISTINCT str)",
  "sum(DISTINCT i) FILTER (WHERE b)",
  "avg(DISTINCT d) FILTER (WHERE i > 10)",
  "isOrdered(i)",
  "isOrdered(ts)",
  "isOrdered(l)",
  "isOrdered(d)",
  "isOrdered(nts)",
  "isOrdered(j)",
  "isOrdered(i + 0)",
  "bit_and(i)",
  "bit_or(l)",
  "bit_xor(big)",
  "bit_xor(i)",
  "bit_and(big)",
  "bit_or(sh)",
  "bit_xor(sh::int) FILTER (WHERE b)",
  "weighted_avg(d, w) FILTER (WHERE i > 50)",
  "twap(d + 1, ts)",
  "arg_max(s, d) FILTER (WHERE i < 30)",
  "approx_percentile(d, 0.25) FILTER (WHERE i > 10)",
  "kurtosis(d) FILTER (WHERE b)",
];

Deno.test("geomean, vwap, twap, arg_max, mode, bool_or, approx_percentile ... answer as the row path", async () => {
  await withMainHeapEngine("qdb_collect_agg_", async (engine) => {
    // 150K rows: more than two batches; NULLs in every nullable column, weights with zeros.
    await engine.execute(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 1_000_000L) ts, rnd_symbol(5, 2, 3, 3) k, " +
        "x % 3 j, rnd_double(4) d, rnd_long(0, 1000, 4) l, rnd_int(0, 100, 4) i, rnd_int(0, 3, 5) w, " +
        "rnd_symbol(7, 2, 3, 4) s, rnd_str(3, 5, 4) str, rnd_varchar(2, 4, 4) vc, rnd_boolean() b, rnd_short() sh, " +
        "rnd_double(6) * 180 - 90 lat, rnd_double(6) * 360 - 180 lon, rnd_long(0, 5, 3) * 4611686018427387L big, " +
        "CASE WHEN x % 7 = 0 THEN NULL ELSE timestamp_sequence('2024-01-01', 1_000_000L)::timestamp_ns END nts " +
        "FROM long_sequence(150_000)) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    // Non-finite doubles (read as NULL), -0.0 and 0, LONGs past 2^53, equal timestamps.
    await engine.execute(
      "INSERT INTO t (ts, k, j, d, l, i, w, b, big) VALUES " +
        "('2024-03-01', 'kx', 1, 'NaN'::double, 9007199254740993, 5, 2, true, 9007199254740993), " +
        "('2024-03-01', 'kx', 1, 1e308 * 10, 9007199254740995, 6, 1, false, 9007199254740992), " +
        "('2024-03-01', 'kx', 1, -0.0, NULL, 7, 1, true, 1), " +
        "('2024-03-01', 'kx', 1, 0.0, 3, 7, 0, true, 1), " +
        "('2024-03-02', 'ky', 2, NULL, NULL, NULL, NULL, false, NULL)",
      adminSession(),
    );
    await statesAgree(engine, { table: "t", aggs: AGGS, keys: ["k", "k, j"] });
    // Negative values still fail approx_percentile, as on the row path.
    await assert.rejects(
      () => rows(engine, "SELECT k, approx_percentile(d - 0.5, 0.5) FROM t GROUP BY k"),
      /negative values are not supported/,
    );
    // An aggregate without a batch form is named in EXPLAIN.
    const { got, want, plan } = await bothWays(
      engine,
      "SELECT k, array_elem_max(ARRAY[d, 1.0]), string_agg(ARRAY[d, 1.0], ','), weighted_avg(DISTINCT d, w) FROM t GROUP BY k",
    );
    assert.match(plan, /vectorized hash, row accumulators: string_agg\]/);
    assert.deepEqual(got.map((r) => r.map(resultKey)), want.map((r) => r.map(resultKey)));
    // SAMPLE BY's hash path is the same aggregation: its EXPLAIN names the row accumulators too.
    const sampled = await bothWays(
      engine,
      "SELECT ts, k, array_elem_min(ARRAY[d, 1.0]), vwap(d, l), string_agg(ARRAY[d], ';') FROM t SAMPLE BY 1d",
    );
    assert.match(sampled.plan, /SampleBy \[hash, row accumulators: string_agg\]/);
    assert.deepEqual(sampled.got.map((r) => r.map(resultKey)), sampled.want.map((r) => r.map(resultKey)));
    assert.ok(sampled.got.length > 2);
  });
});
