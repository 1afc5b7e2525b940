/**
 * Table scan: reads the partitions of a snapshot batch by batch, only the columns the plan
 * needs. With designated-timestamp intervals it skips partitions outside them and finds the
 * row range inside a partition by binary search (ARCHITECTURE.md "Partition pruning").
 */
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import type { Batch, Interval } from "../base/values.ts";
import type { TableSnapshot } from "../storage/api.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { type ExecContext, pace, snapshotOf } from "./exec_context.ts";

type ScanNode = Extract<PlanNode, { kind: "scan" }>;

/** First index in [from, to) whose value is >= v (ts ascending). */
export function lowerBound(ts: BigInt64Array, v: bigint, from = 0, to = ts.length): number {
  let lo = from, hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [from, to) whose value is > v. */
export function upperBound(ts: BigInt64Array, v: bigint, from = 0, to = ts.length): number {
  let lo = from, hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Partitions whose rows a scan of this heap read, and those rows (every scan path asks
 * `partitionRanges`): tests and diagnostics see partition pruning happen. Never reset here.
 */
export const scanCounters = { partitionsRead: 0, rowsRead: 0 };

function counted(ranges: [number, number][]): [number, number][] {
  if (ranges.length === 0) return ranges;
  scanCounters.partitionsRead++;
  for (const [from, to] of ranges) scanCounters.rowsRead += to - from;
  return ranges;
}

/** Row ranges [from, to) of partition `p` that fall inside the intervals. */
export async function partitionRanges(
  snap: TableSnapshot,
  p: number,
  intervals: Interval[] | undefined,
): Promise<[number, number][]> {
  const info = snap.partitions[p];
  if (info.rowCount === 0) return [];
  if (!intervals) return counted([[0, info.rowCount]]);
  const overlapping = intervals.filter((iv) => iv.hi >= info.minTs && iv.lo <= info.maxTs);
  if (overlapping.length === 0) return [];
  if (overlapping.length === 1 && overlapping[0].lo <= info.minTs && overlapping[0].hi >= info.maxTs) {
    return counted([[0, info.rowCount]]);
  }
  const tsv = await snap.read(p, snap.meta.timestampIndex, 0, info.rowCount);
  const ts = tsv.data as BigInt64Array;
  const ranges: [number, number][] = [];
  for (const iv of overlapping) {
    const from = lowerBound(ts, iv.lo);
    const to = upperBound(ts, iv.hi, from);
    if (to > from) ranges.push([from, to]);
  }
  return counted(ranges);
}

export async function* runScan(n: ScanNode, ctx: ExecContext): AsyncGenerator<Batch> {
  const snap = snapshotOf(ctx, n.table);
  const order = snap.partitions.map((_, i) => i);
  if (n.reverse) order.reverse();
  for (const p of order) {
    const ranges = await partitionRanges(snap, p, n.intervals);
    if (n.reverse) ranges.reverse();
    for (const [from, to] of ranges) {
      const steps: [number, number][] = [];
      if (n.reverse) {
        // Backwards, batches start small and grow: `ORDER BY ts DESC LIMIT 10` reads a few rows
        // (each batch is copied reversed, column by column).
        let size = 64;
        for (let end = to; end > from; end -= size, size = Math.min(size * 4, BATCH_ROWS_MAX)) {
          steps.push([Math.max(from, end - size), end]);
        }
      } else {
        for (let at = from; at < to; at += BATCH_ROWS_MAX) {
          steps.push([at, Math.min(to, at + BATCH_ROWS_MAX)]);
        }
      }
      for (const [a, b] of steps) {
        await pace(ctx);
        const columns = await Promise.all(n.columnIndexes.map((c) => snap.read(p, c, a, b)));
        const batch: Batch = { rowCount: b - a, columns };
        yield n.reverse ? reverseBatch(batch) : batch;
      }
    }
    // Done with the partition: its columns that did not fit the cache were copied into the
    // heap for this snapshot; dropping them lets a table larger than the cache stream.
    snap.releaseCopies?.(p);
  }
}

function reverseBatch(b: Batch): Batch {
  return {
    rowCount: b.rowCount,
    columns: b.columns.map((v) => {
      const d = v.data;
      // deno-lint-ignore no-explicit-any
      const out = Array.isArray(d) ? d.slice().reverse() : (d as any).slice().reverse();
      return { type: v.type, data: out, dict: v.dict };
    }),
  };
}
