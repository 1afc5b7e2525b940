import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import type { Value } from "../../../engine/base/values.ts";
import { AGGREGATE_FUNCTIONS } from "../../../engine/functions/aggregates.ts";
import { aggregateOver, col, find } from "./_helpers.ts";

const agg = (name: string) => find(AGGREGATE_FUNCTIONS, name);
const one = (name: string, type = T.DOUBLE, values: Value[] = [], distinct = false) =>
  aggregateOver(agg(name), [col(type)], values.map((v) => [v]), { distinct, star: false });

// The §13.1 nv table: v DOUBLE = NULL, 1.0, 2.0, NULL; s VARCHAR = 'a', NULL, 'b', NULL.
const V = [null, 1.0, 2.0, null];
const S = ["a", null, "b", null];

Deno.test("aggregates reproduce the §13.1 nv example row", () => {
  assert.equal(aggregateOver(agg("count"), [], V.map(() => []), { distinct: false, star: true }).result, 4n);
  assert.equal(aggregateOver(agg("count"), [], V.map(() => [])).result, 4n);
  assert.equal(one("count", T.DOUBLE, V).result, 2n);
  assert.equal(one("count", T.VARCHAR, S).result, 2n);
  assert.equal(one("sum", T.DOUBLE, V).result, 3);
  assert.equal(one("avg", T.DOUBLE, V).result, 1.5);
  assert.equal(one("first", T.DOUBLE, V).result, null);
  assert.equal(one("last", T.DOUBLE, V).result, null);
  assert.equal(one("first_not_null", T.DOUBLE, V).result, 1);
  assert.equal(one("last_not_null", T.DOUBLE, V).result, 2);
});

Deno.test("empty and all-NULL input give count 0 and NULL otherwise (§4.6)", () => {
  for (const name of ["sum", "avg", "min", "max", "first", "last", "first_not_null", "last_not_null"]) {
    assert.equal(one(name, T.LONG, []).result, null, `${name} empty`);
    assert.equal(one(name, T.LONG, [null, null]).result, null, `${name} all NULL`);
  }
  assert.equal(one("count", T.LONG, []).result, 0n);
  assert.equal(one("count", T.LONG, [null]).result, 0n);
  assert.equal(one("count_distinct", T.SYMBOL, []).result, 0n);
});

Deno.test("sum widens integers to LONG and wraps silently", () => {
  const s = one("sum", T.INT, [2147483647, 2147483647, 1]);
  assert.equal(s.binding.returns.tag, "LONG");
  assert.equal(s.result, 4294967295n);
  assert.equal(one("sum", T.LONG, [9223372036854775807n, 2n]).result, -9223372036854775807n);
  assert.equal(one("sum", T.BYTE, [100, 100]).result, 200n);
  assert.equal(one("sum", T.FLOAT, [0.5, 0.25]).binding.returns.tag, "FLOAT");
  assert.equal(one("sum", T.INT, Array(200).fill(null)).result, null);
  // 2^52-sized int sums spill into a bigint without losing digits.
  assert.equal(one("sum", T.INT, Array(3_000_000).fill(2147483647)).result, 3_000_000n * 2147483647n);
});

Deno.test("count_distinct and count(DISTINCT x) count distinct non-NULL values", () => {
  const syms = ["A", "B", "A", null, "B"];
  assert.equal(one("count_distinct", T.SYMBOL, syms).result, 2n);
  assert.equal(one("count", T.SYMBOL, syms, true).result, 2n);
  assert.equal(one("sum", T.INT, [1, 1, 2], true).result, 3n);
});

Deno.test("min and max keep the input type, SYMBOL included", () => {
  const m = one("max", T.SYMBOL, ["b", "a", null, "c"]);
  assert.equal(m.result, "c");
  assert.equal(m.binding.returns.tag, "SYMBOL");
  assert.equal(one("min", T.STRING, ["b", "B", "a"]).result, "B");
  assert.equal(one("min", T.TIMESTAMP, [5n, null, 3n]).result, 3n);
  assert.equal(one("max", T.DOUBLE, [10, 21, 13]).result, 21);
  assert.equal(one("min", T.IPV4, [0x0a000001, 0x01000001]).result, 0x01000001);
  assert.equal(one("max", T.CHAR, ["a", "z"]).result, "z");
  assert.equal(one("min", T.BYTE, []).result, 0); // BYTE has no NULL (§2.1)
});

Deno.test("first and last follow scan order; SYMBOL stays SYMBOL", () => {
  const f = one("last_not_null", T.SYMBOL, [null, "MSFT", "GOOGL"]);
  assert.equal(f.result, "GOOGL");
  assert.equal(f.binding.returns.tag, "SYMBOL");
  assert.equal(one("first", T.SYMBOL, [null, "MSFT"]).result, null);
  assert.equal(one("last", T.LONG, [1n, 2n]).result, 2n);
  assert.equal(one("first_not_null", T.UUID, [null, "u"]).result, "u");
});
