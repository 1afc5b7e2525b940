/**
 * Which worker runs which morsel (issue #16). A worker reads a partition's whole column into
 * its cache for any of its rows, so a partition should be read by one worker only: otherwise
 * both workers read and cache every partition, twice the reads and half the cache (100M rows,
 * GROUP BY over 4 columns: 6 GB read per run with morsels alternating inside partitions).
 *
 * When partitions are many (at least two per worker) and large (at least a morsel each on
 * average), morsels are cut at partition boundaries and each goes to the worker of its
 * partition, `p % workers`, as the table-scan aggregates give whole partitions (worker_pool.ts
 * `#split`). Otherwise (few partitions, or small ones that morsels span by the dozen) morsels
 * alternate, `i % workers`: a partition is then shared only at a morsel boundary.
 */
import type { Morsel } from "../exec/vector/hash_parallel.ts";

function byPartition(morsels: Morsel[], workers: number): boolean {
  const partitions = new Set<number>();
  let rows = 0;
  for (const m of morsels) {
    for (const piece of m.pieces) {
      partitions.add(piece.p);
      rows += piece.hi - piece.lo;
    }
  }
  return partitions.size >= 2 * workers && rows / partitions.size >= rows / morsels.length;
}

/** `morsels`, cut at partition boundaries when they go to workers by partition. */
export function morselsForWorkers(morsels: Morsel[], workers: number): Morsel[] {
  if (!byPartition(morsels, workers)) return morsels;
  return morsels.flatMap((m) => m.pieces.length === 1 ? [m] : m.pieces.map((piece) => ({ pieces: [piece] })));
}

/** The worker of each of `morsels` (as cut by `morselsForWorkers`). */
export function morselWorkers(morsels: Morsel[], workers: number): number[] {
  const own = morsels.every((m) => m.pieces.length === 1) && byPartition(morsels, workers);
  return morsels.map((m, i) => (own ? m.pieces[0].p : i) % workers);
}
