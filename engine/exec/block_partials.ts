/**
 * Block partials (issue #17): a `wasm` aggregate on this heap folds each partition in blocks of
 * BLOCK_ROWS rows aligned to the partition's first row, and memoizes the partial states of every
 * complete block (TableSnapshot.blockMemo). A dashboard that re-runs the same aggregate over a
 * table still receiving rows then folds only the rows added since its last run: the committed
 * rows of a partition version never change (UPDATE, DELETE, out-of-order merges and conversions
 * write a new version folder; appends add rows after the old ones), so a block's partials stay
 * true for every later snapshot of that version. In the soak run, `GROUP BY sym` over a table
 * growing to 1.3M rows was a fifth of the main thread's time, rescanning every row per query.
 *
 * Answers do not depend on what is memoized: every run merges the same pieces (the head and
 * tail of each range cut by interval filters, complete blocks between) in row order, whether a
 * piece comes from the memo or from the kernels. Floating-point sums therefore add block by
 * block, which can differ in the last bits from one pass over the partition.
 *
 * Only jobs with few group slots use blocks: merging a block's partials costs a few tens of
 * nanoseconds per slot and aggregate, against about a nanosecond per row to fold it again.
 * Whether a job fits is known from its plan for unkeyed aggregates, and from the key column's
 * dictionary size at run time for keyed ones: EXPLAIN's `block memo` means "complete blocks
 * memoized when the groups are few".
 */
import { keyText } from "../base/key_text.ts";
import type { PartitionInfo, TableSnapshot } from "../storage/api.ts";
import {
  accumulatePartitions,
  emptyPartials,
  type HeapScan,
  mergePartials,
  type Partials,
  scanColumnsRead,
} from "./fast_aggregate.ts";
import { partitionRanges } from "./scan.ts";

/** Rows of one memoized block: folding it takes tens of microseconds. */
export const BLOCK_ROWS = 65_536;
/**
 * Group slots × aggregates (SAMPLE BY: buckets × aggregates of a block) beyond which nothing is
 * memoized (see the module note): at most ~5 KiB of states a block, so the memo's bound
 * (storage/snapshot.ts MAX_BLOCK_FACTS) holds it under ~20 MiB.
 */
export const BLOCK_SLOTS_MAX = 64;

/**
 * `cairo.sql.block.memo.enabled` (engine option `blockMemo`): off, blocks are folded the same
 * way (answers do not change) but nothing is memoized or reused; the benchmark runs with it off
 * so that warm runs measure execution, not reuse.
 */
export const blockMemoSetting = { enabled: true };

/** Work done by the block path (tests: a second run folds only rows added since the first). */
export const blockCounters = { hits: 0, foldedBlocks: 0, foldedRows: 0 };

/** Whether a job's aggregates fit the block memo (plan-time part of the decision). */
export function blockMemoShapeFits(job: Pick<HeapScan, "aggs">): boolean {
  // count(DISTINCT) partials are a bitmap of the whole dictionary per block.
  return job.aggs.every((a) => a.fn !== "countDistinct");
}

/** Whether a job folds by blocks over this snapshot (the run-time part: its group slots). */
export function blockMemoFits(job: HeapScan): boolean {
  if (!blockMemoShapeFits(job) || job.rowSpans) return false;
  const slots = job.key !== undefined ? job.keyCount + 1 : 1;
  return slots * Math.max(1, job.aggs.length) <= BLOCK_SLOTS_MAX;
}

/**
 * The partials of `job` over every partition of `snap`, complete blocks from the memo (folded
 * and memoized when missing). Throws FastPathUnavailable like accumulatePartitions.
 */
export async function accumulateByBlocks(
  job: HeapScan,
  snap: TableSnapshot,
  yieldTurn: () => Promise<void>,
): Promise<Partials> {
  // The job's identity without the row selection: a block's partials hold for any query with
  // the same aggregates, predicates and keys, whatever its interval filter.
  const { intervals, ...rest } = job;
  const fingerprint = keyText(rest);
  // The same job over the same committed state (most runs between two commits of a table
  // receiving rows): the merged partials of the last run, without folding its tail again.
  const stateKey = `${fingerprint}|${keyText(intervals ?? null)}`;
  const reuse = blockMemoSetting.enabled;
  let state = reuse ? totals.get(snap.partitions) : undefined;
  const hit = state?.get(stateKey);
  if (hit) {
    blockCounters.hits++;
    return hit;
  }
  const total = emptyPartials(job);
  const columns = [...scanColumnsRead(job)].sort((a, b) => a - b).map((c) => job.columnIndexes[c]);
  const fold = async (p: number, lo: number, hi: number): Promise<Partials> => {
    blockCounters.foldedRows += hi - lo;
    const piece: HeapScan = { ...job, intervals: undefined, rowSpans: [{ p, lo, hi }] };
    return await accumulatePartitions(piece, { snap, partitions: [p], yieldTurn });
  };
  for (let p = 0; p < snap.partitions.length; p++) {
    const ranges = await partitionRanges(snap, p, job.intervals);
    if (ranges.length === 0) continue;
    const memo = reuse ? snap.blockMemo?.(p, columns) : undefined;
    for (const [from, to] of ranges) {
      const first = Math.ceil(from / BLOCK_ROWS), last = Math.floor(to / BLOCK_ROWS);
      // The same pieces whether or not the partition keeps a memo (Parquet does not), so a
      // table's answers do not change with its partitions' format.
      if (first >= last) {
        mergePartials(job, total, await fold(p, from, to));
        continue;
      }
      if (from < first * BLOCK_ROWS) mergePartials(job, total, await fold(p, from, first * BLOCK_ROWS));
      for (let b = first; b < last; b++) {
        const tag = `${fingerprint}@${b}`;
        let block = memo?.get(tag) as Partials | undefined;
        if (block) blockCounters.hits++;
        else {
          await yieldTurn();
          blockCounters.foldedBlocks++;
          block = await fold(p, b * BLOCK_ROWS, (b + 1) * BLOCK_ROWS);
          memo?.set(tag, block);
        }
        // `block` is only read: mergePartials changes its first argument alone.
        mergePartials(job, total, block);
      }
      if (last * BLOCK_ROWS < to) mergePartials(job, total, await fold(p, last * BLOCK_ROWS, to));
    }
  }
  if (!reuse) return total;
  if (!state) totals.set(snap.partitions, state = new Map());
  if (state.size >= TOTALS_MAX) state.clear();
  state.set(stateKey, total);
  return total;
}

/**
 * Merged partials per committed table state and job: every commit builds a new frozen
 * partition list (storage/table_state.ts makeState), whose identity names the committed bytes
 * of every partition at once; entries go with the state.
 */
const totals = new WeakMap<readonly PartitionInfo[], Map<string, Partials>>();
const TOTALS_MAX = 64;
