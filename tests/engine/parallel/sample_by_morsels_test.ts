import assert from "node:assert/strict";
import { cutMorsels } from "../../../engine/exec/sample_by_parallel.ts";

type Span = { p: number; lo: number; hi: number };

/** The morsels' pieces, flattened and joined where they touch: must give back the spans. */
function joined(morsels: { pieces: Span[] }[]): Span[] {
  const out: Span[] = [];
  for (const { pieces } of morsels) {
    for (const s of pieces) {
      const last = out.at(-1);
      if (last && last.p === s.p && last.hi === s.lo) last.hi = s.hi;
      else out.push({ ...s });
    }
  }
  return out;
}

const rowsOf = (m: { pieces: Span[] }) => m.pieces.reduce((t, s) => t + s.hi - s.lo, 0);

Deno.test("cutMorsels: rows in range shared out equally, as a multiple of the workers", () => {
  // 12 hours of a 1.4M-row day: one span in the middle of partition 3.
  const spans = [{ p: 3, lo: 480_000, hi: 1_200_000 }];
  const morsels = cutMorsels(spans, 512_000, 2);
  assert.deepStrictEqual(morsels.map(rowsOf), [360_000, 360_000]);
  assert.deepStrictEqual(joined(morsels), spans);
});

Deno.test("cutMorsels: spans across partitions keep table order; small inputs are one morsel", () => {
  const spans = [{ p: 0, lo: 10, hi: 700 }, { p: 2, lo: 0, hi: 1000 }, { p: 5, lo: 0, hi: 333 }];
  for (const [size, workers] of [[100, 2], [256, 3], [500, 2], [2023, 2], [5000, 4]]) {
    const morsels = cutMorsels(spans, size, workers);
    assert.deepStrictEqual(joined(morsels), spans, `size ${size}, workers ${workers}`);
    const rows = morsels.map(rowsOf);
    if (morsels.length > 1) assert.deepStrictEqual(morsels.length % workers, 0, `count, size ${size}`);
    // Every morsel but the last holds the same rows, at most `size`.
    for (const r of rows.slice(0, -1)) assert.deepStrictEqual(r, rows[0]);
    for (const r of rows) assert.deepStrictEqual(r <= Math.max(size, rows[0]), true);
    if (size >= 2023) assert.deepStrictEqual(morsels.length, 1);
  }
  assert.deepStrictEqual(cutMorsels([], 512, 2), []);
});
