/**
 * QuestDB's scalar finance functions (engine/functions/finance.ts), against values from
 * QuestDB's MidPrice/SpreadBps/WeightedMidPrice/LevelTwoPriceFunctionFactoryTest.
 */
import assert from "node:assert/strict";
import { FINANCE_FUNCTIONS, l2price } from "../../../engine/functions/finance.ts";
import { c, call, find, lit, run } from "./_helpers.ts";
import { DoubleArray } from "../../../engine/base/values.ts";
import { arrayType, T } from "../../../engine/base/types.ts";

const fn = (name: string) => find(FINANCE_FUNCTIONS, name);

Deno.test("mid, spread, spread_bps and wmid as QuestDB computes them", () => {
  assert.equal(run(fn("mid"), 1.5, 1.61), 1.5550000000000002);
  assert.equal(run(fn("spread"), 1.0, 3.5), 2.5);
  assert.equal(run(fn("spread_bps"), 1.5, 1.61), 707.3954983922836);
  assert.equal(run(fn("spread_bps"), -1.0, 1.0), null); // division by a zero mid
  assert.equal(run(fn("wmid"), 300.0, 1.0, 3.0, 200.0), 2.1999999999999997);
  assert.equal(run(fn("wmid"), 200.0, -1.0, 1.0, 100.0), 0.33333333333333326);
  assert.equal(run(fn("mid"), null, 1.0), null);
});

Deno.test("l2price fills the target from the levels in order; NULL when they run out", () => {
  assert.equal(l2price(35, [8, 5.2, 23, 9.3, 42, 22.1]), 9.825714285714286);
  assert.equal(l2price(100, [5, 1, 5, 1]), null);
  assert.equal(l2price(10, [5, 1, 5, 1]), 1);
  assert.equal(l2price(45, [5, 3.2, 12, null]), null);
  // finance.md: the array form reads the same levels pairwise.
  const sizes = c(arrayType(1), DoubleArray.of1([14, 16, 23, 12]));
  const prices = c(arrayType(1), DoubleArray.of1([14.5, 14.6, 14.8, 15.1]));
  assert.ok(Math.abs((call(fn("l2price"), [lit(50), sizes, prices]) as number) - 14.652) < 1e-12);
  assert.equal(run(fn("l2price"), null, 8, 17.2), null);
  assert.throws(() => fn("l2price").bind([lit(35), lit(8), lit(7), { ...lit(6), pos: 25 }]), /odd number/);
  assert.throws(
    () => fn("l2price").bind([lit(1.3), { ...c(T.STRING, "31"), pos: 20 }, lit(5)]),
    /not `STRING`/,
  );
});
