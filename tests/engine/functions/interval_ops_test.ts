import assert from "node:assert/strict";
import type { Interval } from "../../../engine/base/values.ts";
import {
  complementIntervals,
  intersectIntervals,
  intervalsContain,
  normalizeIntervals,
  TICK_MAX,
  TICK_MIN,
  unionIntervals,
} from "../../../engine/functions/interval_ops.ts";

const I = (lo: number, hi: number): Interval => ({ lo: BigInt(lo), hi: BigInt(hi) });
const show = (list: Interval[]) => list.map((i) => `${i.lo}..${i.hi}`).join(" ");

Deno.test("normalizeIntervals sorts and merges overlapping and adjacent intervals", () => {
  assert.equal(
    show(normalizeIntervals([I(10, 20), I(0, 5), I(6, 8), I(15, 30), I(40, 41)])),
    "0..8 10..30 40..41",
  );
  assert.equal(show(normalizeIntervals([I(5, 1)])), "");
});

Deno.test("intersectIntervals keeps instants in both lists (AND)", () => {
  assert.equal(show(intersectIntervals([I(0, 10), I(20, 30)], [I(5, 25)])), "5..10 20..25");
  assert.equal(show(intersectIntervals([I(0, 10)], [I(11, 20)])), "");
  assert.equal(show(intersectIntervals([I(0, 100)], [I(1, 1), I(3, 4), I(99, 200)])), "1..1 3..4 99..100");
});

Deno.test("unionIntervals keeps instants in either list (OR)", () => {
  assert.equal(show(unionIntervals([I(0, 10)], [I(11, 20), I(30, 40)])), "0..20 30..40");
});

Deno.test("complementIntervals covers the rest of the 64-bit range (NOT IN)", () => {
  assert.equal(show(complementIntervals([I(0, 10), I(20, 30)], 0n, 100n)), "11..19 31..100");
  assert.equal(show(complementIntervals([], 0n, 5n)), "0..5");
  assert.equal(show(complementIntervals([I(0, 10)])), `${TICK_MIN}..-1 11..${TICK_MAX}`);
  assert.equal(show(complementIntervals([{ lo: TICK_MIN, hi: TICK_MAX }])), "");
});

Deno.test("intervalsContain finds points by binary search", () => {
  const list = normalizeIntervals([I(0, 10), I(20, 30), I(50, 50)]);
  for (
    const [t, want] of [[0, true], [10, true], [11, false], [25, true], [50, true], [51, false], [
      -1,
      false,
    ]] as const
  ) {
    assert.equal(intervalsContain(list, BigInt(t)), want, String(t));
  }
});
