/**
 * LATEST ON over a table scan on its designated timestamp, keyed by any columns or expressions
 * (issue #16): LONG, INT, DOUBLE, STRING, TIMESTAMP keys, or SYMBOLs mixed with them, where the
 * key space is not known up front so the read cannot stop early (latest_by_keys.ts).
 *
 * Reads backwards from the newest partition a batch at a time, only the columns the keys and
 * the filter use. Per batch: the filter selects rows (the same selector as
 * latest_by_filtered.ts), each key becomes a vector of dense value ids (key_ids.ts), several
 * keys fold into one group id per row (IntPairHash), and a loop from the batch's newest row
 * marks the first row met per group id in a byte table. The chosen rows are kept as row
 * numbers per partition; at the end they are gathered column by column in storage order, which
 * is timestamp order (equal timestamps in storage order, as the reference gives them), and
 * stream out a batch at a time; columns nothing above reads stay unread (zeros). No row is held as values: a row costs its row number and its
 * group's slots in the id tables.
 */
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import { type Batch, type Vector, zeroedVectorData } from "../base/values.ts";
import { type BoundExpr, walkBound } from "../plan/bound.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { gather } from "./batch_util.ts";
import { compilePredicate } from "./compile_expr.ts";
import { charge, checkCancelled, type ExecContext, pace, paceDue, snapshotOf } from "./exec_context.ts";
import { scanSelector } from "./latest_by_filtered.ts";
import { partitionRanges } from "./scan.ts";
import { vectorOf } from "./vector/hash_aggregate.ts";
import { IntPairHash } from "./vector/int_hash.ts";
import { Ints } from "./key_words.ts";
import { KeyIds } from "./vector/key_ids.ts";

type LatestNode = Extract<PlanNode, { kind: "latestBy" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;

/** Bytes a key combination costs in the id tables (values, hash slots, seen byte), per key. */
const GROUP_BYTES = 48;

/** Grows `seen` to hold group ids below `size`. */
function widen(seen: Uint8Array, size: number): Uint8Array {
  if (size <= seen.length) return seen;
  const grown = new Uint8Array(Math.max(size, seen.length * 2));
  grown.set(seen);
  return grown;
}

/**
 * Runs the hashed backward read of `scan` (under `filter`) and yields the newest row per key
 * combination as batches of the scan's columns, in timestamp order, `n.post` applied.
 */
export async function* latestByHash(
  n: LatestNode,
  scan: ScanNode,
  filter: BoundExpr | undefined,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const snap = snapshotOf(ctx, scan.table);
  const keyVectors = n.keys.map((k) => vectorOf(k, ctx));
  const keyIds = n.keys.map(() => new KeyIds());
  const folds = n.keys.slice(1).map(() => new IntPairHash());
  const select = filter ? scanSelector(filter, scan, ctx) : undefined;
  // The scan columns the keys and the filter read: the others stay unread until the gather.
  const used = new Set<number>();
  for (const e of [...n.keys, ...(filter ? [filter] : [])]) {
    walkBound(e, (x) => {
      if (x.kind === "column") used.add(x.index);
    });
  }
  const usedCols = [...used];
  const sel = new Int32Array(BATCH_ROWS_MAX);
  const perKey = n.keys.map(() => new Int32Array(BATCH_ROWS_MAX));
  const tmp = new Int32Array(BATCH_ROWS_MAX), gids = new Int32Array(BATCH_ROWS_MAX);
  let seen: Uint8Array = new Uint8Array(1024);
  let groups = 0;
  // Chosen rows per partition, newest first.
  const chosen: (Ints | undefined)[] = new Array(snap.partitions.length);
  for (let p = snap.partitions.length - 1; p >= 0; p--) {
    const ranges = await partitionRanges(snap, p, scan.intervals);
    for (let r = ranges.length - 1; r >= 0; r--) {
      const [from, to] = ranges[r];
      for (let hi = to, lo = hi; hi > from; hi = lo) {
        lo = Math.max(from, hi - BATCH_ROWS_MAX);
        if (paceDue(ctx)) await pace(ctx);
        checkCancelled(ctx);
        const columns = new Array<Vector>(scan.columns.length);
        await Promise.all(usedCols.map(async (c) => {
          columns[c] = await snap.read(p, scan.columnIndexes[c], lo, hi);
        }));
        const b: Batch = { rowCount: hi - lo, columns };
        const count = select ? select(b, sel) : b.rowCount;
        if (count === 0) continue;
        let keys = n.keys.length ? keyVectors.map((f) => f(b)) : [];
        if (select && count < b.rowCount && keys.length) {
          keys = gather({ rowCount: b.rowCount, columns: keys }, sel, count).columns;
        }
        // One group id per selected row: ids first appear in increasing order.
        let cur: Int32Array, size: number;
        if (keys.length === 0) {
          cur = gids.fill(0, 0, count);
          size = 1;
        } else {
          keyIds[0].map(keys[0], count, perKey[0]);
          cur = perKey[0];
          for (let k = 1; k < keys.length; k++) {
            keyIds[k].map(keys[k], count, perKey[k]);
            const out = k === keys.length - 1 ? gids : (k % 2 ? tmp : perKey[0]);
            folds[k - 1].mapBatch(cur, perKey[k], count, out);
            cur = out;
          }
          size = keys.length === 1 ? keyIds[0].size : folds[keys.length - 2].size;
        }
        if (size > groups) {
          charge(ctx, (size - groups) * GROUP_BYTES * Math.max(1, keys.length));
          groups = size;
          seen = widen(seen, size);
        }
        const rows = chosen[p] ??= new Ints();
        const before = rows.length;
        // Newest row first: the first row met per group is its latest (the last stored of equal
        // timestamps).
        for (let k = count - 1; k >= 0; k--) {
          const g = cur[k];
          if (seen[g]) continue;
          seen[g] = 1;
          rows.push(lo + (select ? sel[k] : k));
        }
        charge(ctx, (rows.length - before) * 4);
      }
    }
    // The partition's columns the cache could not take were copied: drop them (runScan does too).
    snap.releaseCopies?.(p);
  }
  const post = n.post ? compilePredicate(n.post, ctx) : undefined;
  // Columns nothing above reads are not gathered (plan_node.ts `unused`).
  const unused = new Set(n.unused ?? []);
  const rowSel = new Int32Array(BATCH_ROWS_MAX);
  for (let p = 0; p < chosen.length; p++) {
    const list = chosen[p];
    if (!list || list.length === 0) continue;
    // Newest first within the partition: ranges and batches were read backwards, rows within a
    // batch too, so the list is descending.
    const rows = list.data.subarray(0, list.length).reverse();
    for (let start = 0; start < rows.length; start += BATCH_ROWS_MAX) {
      if (paceDue(ctx)) await pace(ctx);
      checkCancelled(ctx);
      const end = Math.min(rows.length, start + BATCH_ROWS_MAX);
      const lo = rows[start], hi = rows[end - 1] + 1;
      for (let i = start; i < end; i++) rowSel[i - start] = rows[i] - lo;
      const m = end - start;
      const out: Batch = {
        rowCount: m,
        columns: await Promise.all(
          scan.columnIndexes.map(async (c, k) =>
            unused.has(k)
              ? { type: scan.columns[k].type, data: zeroedVectorData(scan.columns[k].type, m) }
              : gather({ rowCount: hi - lo, columns: [await snap.read(p, c, lo, hi)] }, rowSel, m).columns[0]
          ),
        ),
      };
      if (!post) {
        yield out;
        continue;
      }
      const keep: number[] = [];
      for (let i = 0; i < out.rowCount; i++) if (post(out, i)) keep.push(i);
      if (keep.length) yield gather(out, keep);
    }
    snap.releaseCopies?.(p);
  }
}
