/**
 * A DOUBLE generate_series adds its step with Kahan summation, as QuestDB's
 * GenerateSeriesDoubleRecordCursorFactory does (generate_series.ts runDoubleSeries).
 */
import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { runSeries } from "../../../engine/exec/generate_series.ts";

function values(start: number, end: number, step: number, max = 100): number[] {
  const out: number[] = [];
  for (const b of runSeries({ type: T.DOUBLE, start, end, step })) {
    out.push(...(b.columns[0].data as Float64Array));
    if (out.length >= max) break;
  }
  return out.slice(0, max);
}

Deno.test("a fractional step reaches the end bound without drift", () => {
  assert.deepEqual(values(1, 2, 0.1), [1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9000000000000001, 2]);
  assert.deepEqual(values(2, 1, -0.1).length, 11);
});

Deno.test("the bounds swap for the step's direction", () => {
  // GenerateSeriesFunctionFactoryTest#testDoublePositiveGenerationUneven, #testDoubleNegativeGenerationReverse.
  assert.deepEqual(values(-5, 5, 2.4), [-5, -2.6, -0.20000000000000018, 2.1999999999999997, 4.6]);
  assert.deepEqual(values(-5, 5, -2.4), [5, 2.6, 0.20000000000000018, -2.1999999999999997, -4.6]);
});

Deno.test("past 2^53 a step lost to rounding still moves the series on", () => {
  const start = 2 ** 54;
  const got = values(start, start + 20, 1);
  assert.equal(got.length, 22);
  assert.equal(got[0], start);
  assert.equal(got.at(-1), start + 20);
  assert.ok(got.every((v, i) => i === 0 || v >= got[i - 1]));
});
