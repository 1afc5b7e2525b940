import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { bindBitNot, BITWISE_OPERATORS } from "../../../engine/functions/operators_bitwise.ts";
import { bindError, c, call, col, find, lit, returns, run } from "./_helpers.ts";

const op = (name: string) => find(BITWISE_OPERATORS, name);
const not = { name: "~", bind: bindBitNot };

Deno.test("^ is XOR, not power (§1.4)", () => {
  assert.equal(run(op("^"), 2, 3), 1);
  assert.equal(run(op("&"), 6, 3), 2);
  assert.equal(run(op("|"), 4, 1), 5);
  assert.equal(run(op("&"), 6n, 3), 2n);
  assert.equal(returns(op("&"), [col(T.BYTE), col(T.SHORT)]), "INT");
  assert.equal(run(op("|"), null, 1), null);
});

Deno.test("~ flips all bits of an integer", () => {
  assert.equal(call(not, [lit(0)]), -1);
  assert.equal(call(not, [lit(5n)]), -6n);
  assert.equal(call(not, [lit(2147483647)]), null); // ~MAX is INT_MIN, the NULL sentinel
});

Deno.test("ipv4 & text converts the text to IPv4", () => {
  // select ipv4 '2.1.1.1' & '2.2.2.2' → 2.0.0.0
  assert.equal(call(op("&"), [c(T.IPV4, 0x02010101), lit("2.2.2.2")]), 0x02000000);
  assert.equal(returns(op("&"), [c(T.IPV4, 1), lit("2.2.2.2")]), "IPV4");
  assert.equal(call(op("&"), [col(T.IPV4), col(T.IPV4)], [0x0f000000, 0xf0000000]), null);
  assert.match(bindError(op("&"), [col(T.IPV4), lit("x")]), /inconvertible value/);
});

Deno.test("bitwise operators refuse non-integers", () => {
  assert.match(bindError(op("&"), [col(T.DOUBLE), lit(1)]), /no matching operator/);
});
