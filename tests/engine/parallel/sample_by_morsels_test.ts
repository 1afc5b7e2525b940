import assert from "node:assert/strict";
import { bucketEdges, cutMorsels } from "../../../engine/exec/sample_by_parallel.ts";

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

Deno.test("bucketEdges: a morsel's edge bucket is written out only when no neighbouring row shares it", () => {
  // Buckets of 10 ticks; partition 1 holds ts 20..39 (rows 0..9, two a tick), partition 0 ends at
  // 19, partition 2 (empty) and partition 3 starts at 40.
  const floor = (t: bigint) => t - (t % 10n);
  const ts = BigInt64Array.from({ length: 10 }, (_, i) => 20n + 2n * BigInt(i));
  const snap = {
    partitions: [
      { rowCount: 5, minTs: 0n, maxTs: 19n },
      { rowCount: 10, minTs: 20n, maxTs: 38n },
      { rowCount: 0, minTs: 0n, maxTs: 0n },
      { rowCount: 3, minTs: 40n, maxTs: 45n },
    ],
  };
  const edges = (lo: number, hi: number) => bucketEdges(snap, 1, ts, lo, hi, { floor });
  // Whole partition: 19 before it and 40 after it are other buckets.
  assert.deepStrictEqual(edges(0, 10), { startsBucket: true, endsBucket: true });
  // Rows 3..6 are ts 26..32: row 2 (24) shares bucket 20, row 7 (34) shares bucket 30.
  assert.deepStrictEqual(edges(3, 7), { startsBucket: false, endsBucket: false });
  // Rows 5..9 are ts 30..38: row 4 (28) is bucket 20; the end meets partition 3 (40).
  assert.deepStrictEqual(edges(5, 10), { startsBucket: true, endsBucket: true });
  // Rows 0..4 are ts 20..28: row 5 (30) is the next bucket.
  assert.deepStrictEqual(edges(0, 5), { startsBucket: true, endsBucket: true });
  assert.deepStrictEqual(edges(0, 4), { startsBucket: true, endsBucket: false });
  // Partition 0 ending in bucket 20 would make partition 1's first bucket a continuation.
  const joinedSnap = { partitions: [{ rowCount: 5, minTs: 0n, maxTs: 21n }, ...snap.partitions.slice(1)] };
  assert.deepStrictEqual(bucketEdges(joinedSnap, 1, ts, 0, 10, { floor }).startsBucket, false);
  // First and last partitions: nothing before or after.
  const only = { partitions: [snap.partitions[1]] };
  assert.deepStrictEqual(bucketEdges(only, 0, ts, 0, 10, { floor }), {
    startsBucket: true,
    endsBucket: true,
  });
});
