import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import type { Value } from "../../../engine/base/values.ts";
import { AGGREGATE_FUNCTIONS } from "../../../engine/functions/aggregates.ts";
import type { BoundArg } from "../../../engine/functions/registry_types.ts";
import { aggregateOver, c, col, find, lit } from "./_helpers.ts";

const agg = (name: string) => find(AGGREGATE_FUNCTIONS, name);
const over = (name: string, args: BoundArg[], rows: Value[][]) => aggregateOver(agg(name), args, rows);

Deno.test("string_agg joins non-NULL values in scan order as VARCHAR (§13.1)", () => {
  const r = over("string_agg", [col(T.VARCHAR), lit(",")], [["a"], [null], ["b"], [null]]);
  assert.equal(r.result, "a,b");
  assert.equal(r.binding.returns.tag, "VARCHAR");
  assert.equal(over("string_agg", [col(T.VARCHAR), c(T.CHAR, ",")], []).result, null);
  assert.equal(over("string_agg", [col(T.SYMBOL), lit("-")], [["x"], ["x"]]).result, "x-x");
  assert.equal(over("string_distinct_agg", [col(T.SYMBOL), lit("-")], [["x"], ["y"], ["x"]]).result, "x-y");
  assert.equal(
    typeof agg("string_agg").bind([col(T.STRING), col(T.STRING)], { distinct: false, star: false }),
    "string",
  );
});

Deno.test("approx_percentile and approx_median answer as QuestDB's HdrHistogram", () => {
  // Expected values from QuestDB's ApproxPercentileDouble/LongGroupByFunctionFactoryTest.
  const hundred = Array.from({ length: 100 }, (_, i) => [i + 1]);
  const thousand = Array.from({ length: 1000 }, (_, i) => [i + 1]);
  assert.equal(over("approx_percentile", [col(T.DOUBLE), lit(0.5)], hundred).result, 51.9375);
  assert.equal(over("approx_percentile", [col(T.DOUBLE), lit(1)], hundred).result, 103.9375);
  assert.equal(over("approx_percentile", [col(T.DOUBLE), lit(0)], hundred).result, 1);
  assert.equal(over("approx_percentile", [col(T.DOUBLE), lit(0.5), lit(3)], thousand).result, 500.2490234375);
  assert.equal(over("approx_percentile", [col(T.DOUBLE), lit(0.5)], hundred.map(() => [5])).result, 5);
  const longs = hundred.map(([v]) => [BigInt(v)]);
  assert.equal(over("approx_percentile", [col(T.LONG), lit(0.5)], longs).result, 51);
  assert.equal(over("approx_percentile", [col(T.LONG), lit(1)], longs).result, 103);
  assert.equal(over("approx_median", [col(T.LONG)], [[3n], [1n], [2n]]).result, 2);
  assert.equal(over("approx_median", [col(T.LONG)], []).result, null);
  assert.equal(
    typeof agg("approx_percentile").bind([col(T.DOUBLE), lit(1.5)], { distinct: false, star: false }),
    "string",
  );
  // A bad precision fails at its argument (ApproxPercentileDoubleGroupByFunctionFactoryTest#testInvalidPrecision1).
  assert.throws(
    () => agg("approx_percentile").bind([col(T.DOUBLE), lit(0.5), lit(6)], { distinct: false, star: false }),
    /precision must be between 0 and 5/,
  );
  assert.throws(() => over("approx_median", [col(T.DOUBLE)], [[-1]]), /negative/);
});

Deno.test("arg_min and arg_max pick the value at the extreme key, ties to the first", () => {
  const rows = [["a", 3], ["b", 1], ["c", 3], ["d", null], ["e", 1]];
  assert.equal(over("arg_max", [col(T.SYMBOL), col(T.INT)], rows).result, "a");
  assert.equal(over("arg_min", [col(T.SYMBOL), col(T.INT)], rows).result, "b");
  assert.equal(over("arg_min", [col(T.SYMBOL), col(T.INT)], [["x", null]]).result, null);
});

Deno.test("bool_and and bool_or (QuestDB BoolAndGroupByFunctionFactoryTest)", () => {
  assert.equal(over("bool_and", [col(T.BOOLEAN)], [[true], [true], [true]]).result, true);
  assert.equal(over("bool_and", [col(T.BOOLEAN)], [[false], [false], [true]]).result, false);
  assert.equal(over("bool_or", [col(T.BOOLEAN)], [[false], [true]]).result, true);
  assert.equal(over("bool_and", [col(T.BOOLEAN)], []).result, false);
  assert.equal(over("bool_or", [col(T.BOOLEAN)], []).result, false);
});

Deno.test("bit_and, bit_or and bit_xor fold in the input type", () => {
  const rows = [[12], [10], [null]];
  assert.equal(over("bit_and", [col(T.INT)], rows).result, 8);
  assert.equal(over("bit_or", [col(T.INT)], rows).result, 14);
  assert.equal(over("bit_xor", [col(T.INT)], rows).result, 6);
  assert.equal(over("bit_or", [col(T.LONG)], [[1n], [4n]]).result, 5n);
  assert.equal(over("bit_and", [col(T.INT)], []).result, null);
});

Deno.test("mode picks the most frequent value, ties to the first seen and to true", () => {
  assert.equal(
    over("mode", [col(T.STRING)], [["b"], ["a"], ["a"], ["b"], [null], [null], [null]]).result,
    "b",
  );
  assert.equal(over("mode", [col(T.LONG)], [[1n], [2n], [2n]]).result, 2n);
  assert.equal(over("mode", [col(T.BOOLEAN)], [[false], [true]]).result, true);
  assert.equal(over("mode", [col(T.DOUBLE)], []).result, null);
});

Deno.test("approx_count_distinct counts distinct non-NULL values", () => {
  assert.equal(over("approx_count_distinct", [col(T.INT)], [[1], [2], [2], [null]]).result, 2n);
});
