import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { NUMERIC_FUNCTIONS, sizePretty } from "../../../engine/functions/numeric.ts";
import { bind, bindError, c, call, col, find, lit, returns, run } from "./_helpers.ts";

const fn = (name: string) => find(NUMERIC_FUNCTIONS, name);
const dbl = (x: number) => c(T.DOUBLE, x);

Deno.test("numeric functions reproduce the §15.1 example row", () => {
  // round(2.5) a, round(-2.6) b, round(3.14159, 2) c, round(1234.5, -2) d, ceil(1.2) e,
  // floor(-1.2) f, abs(-7) g, power(2, 10) h, log(1000) i, sqrt(-1) j
  assert.equal(call(fn("round"), [dbl(2.5)]), 3);
  assert.equal(call(fn("round"), [dbl(-2.6)]), -3);
  assert.equal(call(fn("round"), [dbl(3.14159), lit(2)]), 3.14);
  assert.equal(call(fn("round"), [dbl(1234.5), lit(-2)]), 1200);
  assert.equal(call(fn("ceil"), [dbl(1.2)]), 2);
  assert.equal(call(fn("floor"), [dbl(-1.2)]), -2);
  assert.equal(run(fn("abs"), -7), 7);
  assert.equal(returns(fn("abs"), [lit(-7)]), "INT");
  assert.equal(run(fn("power"), 2, 10), 1024);
  assert.equal(run(fn("log"), 1000), 3);
  assert.equal(run(fn("sqrt"), -1), null);
  for (const f of ["round", "ceil", "floor", "power", "log", "sqrt"]) {
    assert.equal(returns(fn(f), f === "power" ? [lit(2), lit(1)] : [lit(1)]), "DOUBLE", f);
  }
});

const D = [
  -0.811905406,
  -5.002768547,
  -64.75487334,
  -926.531695,
  0.069361448,
  4.003627053,
  86.91359825,
  376.3807766,
];
const SCALES = [-2, -1, 0, 1, 2];

function table(name: string): number[][] {
  return D.map((d) => SCALES.map((s) => call(fn(name), [dbl(d), lit(s)]) as number));
}

/**
 * The table at the documentation's shown precision: round_up/round_down/round_half_even keep
 * QuestDB's binary artifacts (9 * 0.1), which the documentation prints rounded.
 */
function shown(rows: number[][]): number[][] {
  return rows.map((r) => r.map((v) => Number(v.toPrecision(12)) + 0));
}

Deno.test("round follows the QuestDB documentation table", () => {
  assert.deepEqual(table("round"), [
    [0, 0, -1, -0.8, -0.81],
    [0, -10, -5, -5, -5],
    [-100, -60, -65, -64.8, -64.75],
    [-900, -930, -927, -926.5, -926.53],
    [0, 0, 0, 0.1, 0.07],
    [0, 0, 4, 4, 4],
    [100, 90, 87, 86.9, 86.91],
    [400, 380, 376, 376.4, 376.38],
  ]);
});

Deno.test("round_up and round_down follow the QuestDB documentation tables", () => {
  assert.deepEqual(shown(table("round_up")), [
    [-100, -10, -1, -0.9, -0.82],
    [-100, -10, -6, -5.1, -5.01],
    [-100, -70, -65, -64.8, -64.76],
    [-1000, -930, -927, -926.6, -926.54],
    [100, 10, 1, 0.1, 0.07],
    [100, 10, 5, 4.1, 4.01],
    [100, 90, 87, 87, 86.92],
    [400, 380, 377, 376.4, 376.39],
  ]);
  assert.deepEqual(shown(table("round_down")), [
    [0, 0, 0, -0.8, -0.81],
    [0, 0, -5, -5, -5],
    [0, -60, -64, -64.7, -64.75],
    [-900, -920, -926, -926.5, -926.53],
    [0, 0, 0, 0, 0.06],
    [0, 0, 4, 4, 4],
    [0, 80, 86, 86.9, 86.91],
    [300, 370, 376, 376.3, 376.38],
  ]);
});

Deno.test("round_half_even uses banker's rounding (§15.1)", () => {
  assert.equal(call(fn("round_half_even"), [dbl(5.55), lit(1)]), 5.6);
  assert.equal(call(fn("round_half_even"), [dbl(5.65), lit(1)]), 5.6);
  assert.equal(call(fn("round_half_even"), [dbl(2.5), lit(0)]), 2);
  assert.equal(call(fn("round_half_even"), [dbl(-64.75487334), lit(2)]), -64.75);
  // round_up / round_down: QuestDB's arithmetic (RoundUp/RoundDownDoubleFunctionFactoryConstTest).
  assert.equal(call(fn("round_up"), [dbl(-14.778), lit(7)]), -14.7780001);
  assert.equal(call(fn("round_up"), [dbl(14.7778), lit(-17)]), 0);
  assert.equal(call(fn("round_up"), [dbl(100.01), lit(1)]), 100.10000000000001);
  assert.equal(call(fn("round_down"), [dbl(14.7778), lit(18)]), null);
  assert.equal(call(fn("round"), [dbl(2.675), lit(2)]), 2.68);
  assert.equal(call(fn("round"), [col(T.DOUBLE), lit(1)], [null, 1]), null);
});

Deno.test("sign keeps the argument type", () => {
  assert.deepEqual([-2, -1, 0, 1, 2].map((x) => call(fn("sign"), [col(T.LONG)], [BigInt(x)])), [
    -1n,
    -1n,
    0n,
    1n,
    1n,
  ]);
  assert.equal(returns(fn("sign"), [col(T.LONG)]), "LONG");
  assert.equal(call(fn("sign"), [dbl(-0.5)]), -1);
  assert.equal(call(fn("abs"), [col(T.LONG)], [-3n]), 3n);
  // Math.signum's signed zero survives for FLOAT only (SignFunctionFactoryTest#testSignFloat).
  assert.ok(Object.is(call(fn("sign"), [c(T.FLOAT, -0)]), -0));
  assert.ok(Object.is(call(fn("sign"), [dbl(-0)]), 0));
});

Deno.test("double functions take text arguments as DOUBLE (QuestDB's STRING/VARCHAR/CHAR overloads)", () => {
  for (const t of [T.STRING, T.VARCHAR, T.CHAR]) {
    assert.deepEqual(bind(fn("sqrt"), [col(t)]).argTypes, [T.DOUBLE]);
    assert.deepEqual(bind(fn("atan2"), [col(t), col(T.INT)]).argTypes, [T.DOUBLE, T.DOUBLE]);
  }
  assert.equal(bind(fn("sqrt"), [col(T.INT)]).argTypes, undefined);
  assert.match(bindError(fn("sqrt"), [col(T.BOOLEAN)]), /no matching function `sqrt`/);
});

Deno.test("transcendental functions match the QuestDB documentation", () => {
  assert.ok(Math.abs((run(fn("ln"), 4.123) as number) - 1.416581053724) < 1e-12);
  assert.ok(Math.abs((run(fn("sqrt"), 4000.32) as number) - 63.2480829749013) < 1e-12);
  assert.ok(Math.abs((run(fn("exp"), 2) as number) - 7.38905609893) < 1e-10);
  assert.equal(run(fn("power"), 2, 3), 8);
  assert.equal(run(fn("ln"), 0), null);
  assert.equal(call(fn("pi"), []), Math.PI);
  assert.equal(run(fn("degrees"), Math.PI), 180);
  assert.equal(run(fn("radians"), 180), Math.PI);
  assert.equal(run(fn("atan2"), 1, 1), Math.PI / 4);
});

Deno.test("greatest and least ignore NULLs and widen", () => {
  // QuestDB GreatestNumericFunctionFactoryTest: the widest argument type, INT stays INT.
  assert.equal(run(fn("greatest"), 11, 3, 8, 15), 15);
  assert.equal(run(fn("least"), 11, 3, 8, 15), 3);
  assert.equal(returns(fn("greatest"), [lit(1), lit(2)]), "INT");
  assert.equal(returns(fn("greatest"), [lit(1), lit(2n)]), "LONG");
  assert.equal(returns(fn("greatest"), [c(T.SHORT, 1), c(T.BYTE, 4)]), "SHORT");
  assert.equal(returns(fn("greatest"), [c(T.FLOAT, 1), lit(4)]), "FLOAT");
  assert.equal(returns(fn("greatest"), [c(T.DATE, 1n), c(T.TIMESTAMP, 2n), lit(3n)]), "TIMESTAMP");
  assert.throws(() => fn("greatest").bind([lit(5), { ...lit("abc"), pos: 24 }]), /unsupported type/);
  assert.equal(run(fn("greatest"), 1, 2.5, null), 2.5);
  assert.equal(run(fn("least"), null, null), null);
  assert.equal(run(fn("least"), "b", "a"), "a");
});

Deno.test("size_pretty uses base 1024 with one decimal (QuestDB SizePrettyFunctionFactoryTest)", () => {
  assert.equal(sizePretty(400032n), "390.7 KiB");
  assert.equal(sizePretty(0n), "0.0 B");
  assert.equal(sizePretty(1n), "1.0 B");
  assert.equal(sizePretty(1024n), "1.0 KiB");
  assert.equal(sizePretty(1024n ** 3n), "1.0 GiB");
  assert.equal(sizePretty(1024n ** 6n), "1.0 EiB");
  assert.equal(sizePretty(BigInt(Math.floor(8.657 * 1024 ** 2))), "8.7 MiB");
  assert.equal(sizePretty(9223372036854775807n), "8.0 EiB");
  assert.equal(run(fn("size_pretty"), null), null);
});

Deno.test("mod is the % operator", () => {
  assert.equal(run(fn("mod"), -7, 2), -1);
  assert.equal(run(fn("mod"), 7, 0), null);
});
