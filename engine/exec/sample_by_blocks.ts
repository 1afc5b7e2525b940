/**
 * Block partials of the unkeyed SAMPLE BY on this heap (issue #17), as block_partials.ts does
 * for aggregates: each partition is reduced in blocks of BLOCK_ROWS rows aligned to its first
 * row, and the bucket states of every complete block are memoized for the partition version
 * (TableSnapshot.blockMemo). A dashboard's `SAMPLE BY 1m` over a table still receiving rows then
 * reduces only the rows added since its last run; in the soak run it rescanned the whole table
 * per query.
 *
 * A block's bucket states depend on the bucket grid, which ALIGN TO FIRST OBSERVATION takes from
 * the first row in range: the grid is settled before any block, from that row, and named in the
 * memo tag with the statement's spec, columns, intervals and aggregates. Every run merges the
 * same pieces in row order (blocks, then the partition's incomplete last block), memoized or not,
 * so answers do not depend on what the memo holds.
 */
import { keyText } from "../base/key_text.ts";
import { wasmMemory } from "../../engine-wasm/mod.ts";
import type { TableSnapshot } from "../storage/api.ts";
import { BLOCK_ROWS, BLOCK_SLOTS_MAX, blockMemoSetting } from "./block_partials.ts";
import type { ExecContext } from "./exec_context.ts";
import { type Acc, accumulatePieces, mergeAcc, type UnkeyedEnv } from "./sample_by_fast.ts";
import { type Bucketer, bucketerOf } from "./sample_by_buckets.ts";
import { loadedColumns } from "./sample_by_keyed_fast.ts";
import { partitionRanges } from "./scan.ts";
import { FastPathUnavailable, type Scratch } from "./wasm_scratch.ts";

/** Work done by the block path (tests: a rerun after an append reduces only the new rows). */
export const sampleBlockCounters = { hits: 0, reducedBlocks: 0 };

type Buckets = Map<bigint, Acc[]>;

/**
 * Accumulates every partition of `snap` into `partial` as accumulatePieces does, complete
 * blocks from the memo (reduced and memoized when missing).
 */
export async function accumulateByBlocks(
  env: UnkeyedEnv,
  snap: TableSnapshot,
  partial: Buckets,
  at: { bucketer?: Bucketer },
  scratch: Scratch,
  ctx: ExecContext,
): Promise<void> {
  const grid = await settleBucketer(env, snap, at);
  if (grid === undefined) return;
  const fingerprint = keyText([env, grid]);
  const columns = [env.tsCol, ...loadedColumns(env.aggs, env.filters).map((c) => env.columnIndexes[c])];
  const exact = env.aggs.map((a) => !!a.exact);
  const mergeInto = (from: Buckets) => {
    for (const [start, accs] of from) {
      const to = partial.get(start);
      // Copies: the memoized states are only read.
      if (!to) partial.set(start, accs.map((a) => ({ ...a })));
      else accs.forEach((a, i) => mergeAcc(to[i], a, exact[i]));
    }
  };
  for (let p = 0; p < snap.partitions.length; p++) {
    const rowCount = snap.partitions[p].rowCount;
    const ranges = await partitionRanges(snap, p, env.intervals);
    if (ranges.length === 0) continue;
    const memo = blockMemoSetting.enabled ? snap.blockMemo?.(p, columns) : undefined;
    const first = Math.floor(ranges[0][0] / BLOCK_ROWS), complete = Math.floor(rowCount / BLOCK_ROWS);
    const last = Math.min(complete, Math.ceil(ranges[ranges.length - 1][1] / BLOCK_ROWS));
    // Rows [lo, hi) of the partition from the memo under `tag`, else reduced (and memoized);
    // `whole`: a complete block (counted in reducedBlocks when reduced).
    const piece = async (tag: string, lo: number, hi: number, whole: boolean): Promise<Buckets> => {
      const held = memo?.get(tag) as Buckets | undefined;
      if (held) {
        sampleBlockCounters.hits++;
        return held;
      }
      if (whole) sampleBlockCounters.reducedBlocks++;
      const buckets: Buckets = new Map();
      await accumulatePieces(env, snap, [{ p, lo, hi }], buckets, at, scratch, ctx);
      if (buckets.size * Math.max(1, env.aggs.length) <= BLOCK_SLOTS_MAX) memo?.set(tag, buckets);
      return buckets;
    };
    // The same pieces whether or not the partition keeps a memo (Parquet does not).
    for (let b = first; b < last; b++) {
      const lo = b * BLOCK_ROWS, hi = lo + BLOCK_ROWS;
      if (!ranges.some(([a, z]) => a < hi && z > lo)) continue;
      mergeInto(await piece(`sample:${fingerprint}@${b}`, lo, hi, true));
    }
    const rest = Math.max(first, last) * BLOCK_ROWS;
    // The incomplete last block, memoized by its row count: reruns between two commits (most
    // of a dashboard's) reduce nothing; entries of older counts age out of the memo.
    if (rest < rowCount) {
      mergeInto(await piece(`sample:${fingerprint}@${rest}-${rowCount}`, rest, rowCount, false));
    }
  }
}

/**
 * Sets `at.bucketer` from the first row in range, as accumulatePieces would, and answers the
 * start of its bucket (which names the grid of a first-observation alignment); undefined when
 * no row is in range.
 */
async function settleBucketer(
  env: UnkeyedEnv,
  snap: TableSnapshot,
  at: { bucketer?: Bucketer },
): Promise<bigint | undefined> {
  for (let p = 0; p < snap.partitions.length; p++) {
    const ranges = await partitionRanges(snap, p, env.intervals);
    if (ranges.length === 0) continue;
    const region = await snap.region(p, env.tsCol);
    if (!region) throw new FastPathUnavailable();
    const firstTs = wasmMemory().i64(region.ptr, region.rowCount)[ranges[0][0]];
    const bucketer = at.bucketer ??= bucketerOf(env.spec, firstTs);
    return bucketer.floor(firstTs);
  }
  return undefined;
}
