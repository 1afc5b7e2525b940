import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import type { Value } from "../../../engine/base/values.ts";
import { AGGREGATE_FUNCTIONS } from "../../../engine/functions/aggregates.ts";
import { aggregateOver, col, find } from "./_helpers.ts";

const agg = (name: string) => find(AGGREGATE_FUNCTIONS, name);
const longSequence = (n: number) => Array.from({ length: n }, (_, i) => [BigInt(i + 1)] as Value[]);
const over = (name: string, types: (typeof T)[keyof typeof T][], rows: Value[][]) =>
  aggregateOver(agg(name), types.map(col), rows).result;

Deno.test("variance and stddev reproduce the §13.1 long_sequence(4) row", () => {
  const rows = longSequence(4);
  assert.equal(over("stddev_samp", [T.LONG], rows), 1.2909944487358056);
  assert.equal(over("stddev_pop", [T.LONG], rows), 1.118033988749895);
  assert.equal(over("var_samp", [T.LONG], rows), 1.6666666666666667);
  assert.equal(over("var_pop", [T.LONG], rows), 1.25);
  assert.equal(over("stddev", [T.LONG], rows), 1.2909944487358056);
  assert.equal(over("variance", [T.LONG], rows), 1.6666666666666667);
});

Deno.test("var_pop over long_sequence(100) is 833.25", () => {
  assert.equal(over("var_pop", [T.LONG], longSequence(100)), 833.25);
});

Deno.test("sample statistics need two values; empty input is NULL", () => {
  assert.equal(over("var_samp", [T.DOUBLE], [[5]]), null);
  assert.equal(over("var_pop", [T.DOUBLE], [[5]]), 0);
  assert.equal(over("stddev_pop", [T.DOUBLE], []), null);
  assert.equal(over("var_pop", [T.DOUBLE], [[null], [null]]), null);
});

Deno.test("haversine_dist_deg reproduces the §13.1 example", () => {
  const rows = [[0.0, 0.0, 1n], [0.0, 1.0, 2n]];
  assert.equal(over("haversine_dist_deg", [T.DOUBLE, T.DOUBLE, T.TIMESTAMP], rows), 111.19646253430048);
  assert.equal(over("haversine_dist_deg", [T.DOUBLE, T.DOUBLE, T.TIMESTAMP], [[0, 0, 1n]]), 0);
});

Deno.test("ksum and nsum compensate rounding error", () => {
  const rows = [[1e100], [1.0], [-1e100], [1.0]];
  assert.equal(over("nsum", [T.DOUBLE], rows), 2);
  assert.equal(over("ksum", [T.DOUBLE], Array(10).fill([0.1])), 1);
  assert.equal(over("ksum", [T.DOUBLE], []), null);
});

Deno.test("covariance and correlation over pairs", () => {
  const rows = [[2, 1], [4, 2], [6, 3], [null, 4]];
  assert.equal(over("covar_pop", [T.DOUBLE, T.DOUBLE], rows), 4 / 3);
  assert.equal(over("covar_samp", [T.DOUBLE, T.DOUBLE], rows), 2);
  assert.equal(over("corr", [T.DOUBLE, T.DOUBLE], rows), 1);
  assert.equal(over("corr", [T.DOUBLE, T.DOUBLE], [[1, 1], [1, 2]]), null);
  assert.equal(over("covar_samp", [T.DOUBLE, T.DOUBLE], [[1, 1]]), null);
});

Deno.test("geomean, weighted_avg, vwap and twap", () => {
  assert.ok(Math.abs((over("geomean", [T.DOUBLE], [[2], [8]]) as number) - 4) < 1e-12);
  assert.equal(over("geomean", [T.DOUBLE], [[2], [0]]), null);
  assert.equal(over("weighted_avg", [T.DOUBLE, T.DOUBLE], [[10, 1], [20, 3], [99, 0], [null, 5]]), 17.5);
  assert.equal(over("weighted_avg", [T.DOUBLE, T.DOUBLE], [[10, 0]]), null);
  assert.equal(over("vwap", [T.DOUBLE, T.DOUBLE], [[10, 1], [20, 3]]), 17.5);
  // Price 10 holds for 1s, 20 for 3s; the last price has no duration.
  assert.equal(over("twap", [T.DOUBLE, T.TIMESTAMP], [[10, 0n], [20, 1_000_000n], [40, 4_000_000n]]), 17.5);
  assert.equal(over("twap", [T.DOUBLE, T.TIMESTAMP], [[10, 5n], [20, 5n]]), 15);
});
