/**
 * LATEST ON over a table scan keyed only by SYMBOL columns, with a WHERE filter, or with
 * several keys (issue #16). Reads backwards from the newest partition a batch at a time: the
 * filter selects the batch's rows at once (the WASM filter kernels over the cached columns, a
 * generated batch loop, or row by row when the predicate has neither), then the selected rows
 * are met newest first and the first row per key combination is kept. It stops once every
 * combination has been met. Once every combination without a NULL has been met, only rows with
 * a NULL key can add one: batches whose key columns hold no NULL are skipped unread, so the
 * filter is not evaluated over the older rows at all when the keys have no NULLs.
 *
 * Fills `latest` exactly as the generic backward read (latest_by.ts) does: newest first, one
 * entry per key, rows as the scan's columns.
 */
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import type { Batch, SymbolDict, Value } from "../base/values.ts";
import type { BoundExpr } from "../plan/bound.ts";
import { conjuncts } from "../plan/intervals_from_where.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import type { TableSnapshot } from "../storage/api.ts";
import { rowOf } from "./batch_util.ts";
import { compilePredicate } from "./compile_expr.ts";
import { charge, type ExecContext, pace, paceDue, rowBytes } from "./exec_context.ts";
import { kernelSelect } from "./filter.ts";
import { type Pred, predicateOf } from "./kernel_predicates.ts";
import { markSeen, symbolKeySpace } from "./latest_by_keys.ts";
import { partitionRanges } from "./scan.ts";
import { batchSelect } from "./vector/batch_eval.ts";

type LatestNode = Extract<PlanNode, { kind: "latestBy" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;

/** Writes the batch rows the filter keeps into `sel` and answers their count. */
export type Selector = (b: Batch, sel: Int32Array) => number;

/**
 * The filter over a scan's batches as a selection: the WASM kernels when every conjunct is a
 * simple comparison and the batch is in WASM memory, else the generated batch loop, else rows.
 */
export function scanSelector(filter: BoundExpr, scan: ScanNode, ctx: ExecContext): Selector {
  const simple = conjuncts(filter).map((c) => predicateOf(c, scan.columns));
  const kernelPreds = simple.every((p) => p !== undefined) ? (simple as Pred[]) : undefined;
  const keySets = new Map<SymbolDict, Map<Pred, Uint8Array>>();
  const batchPred = batchSelect(filter, ctx);
  let rows: ReturnType<typeof compilePredicate> | undefined;
  return (b, sel) => {
    const viaKernels = kernelPreds && kernelSelect(b, kernelPreds, keySets);
    if (viaKernels) {
      sel.set(viaKernels.sel.subarray(0, viaKernels.count));
      return viaKernels.count;
    }
    if (batchPred) return batchPred(b, sel);
    rows ??= compilePredicate(filter, ctx);
    let count = 0;
    for (let i = 0; i < b.rowCount; i++) if (rows(b, i)) sel[count++] = i;
    return count;
  };
}

/** Whether any of the key columns holds a NULL (key -1) in rows [from, to). */
function anyNull(views: Int32Array[], from: number, to: number): boolean {
  for (const v of views) for (let i = from; i < to; i++) if (v[i] < 0) return true;
  return false;
}

/**
 * Runs the batched backward read when every key is a SYMBOL column of the scan; returns false
 * (nothing done) otherwise.
 */
export async function latestBySymbolKeysFiltered(
  n: LatestNode,
  scan: ScanNode,
  filter: BoundExpr | undefined,
  snap: TableSnapshot,
  ctx: ExecContext,
  latest: Map<unknown, { ts: bigint; row: Value[] }>,
  hashOf: (b: Batch, i: number) => unknown,
): Promise<boolean> {
  const space = symbolKeySpace(n, scan, snap);
  if (!space) return false;
  const { cols, radix, combos, nonNull, seen: marks } = space;
  const select = filter ? scanSelector(filter, scan, ctx) : undefined;
  const sel = new Int32Array(BATCH_ROWS_MAX);
  const tsIndex = n.tsIndex;
  let seen = 0, seenNonNull = 0;
  let onlyNulls = nonNull === 0;
  scan: for (let p = snap.partitions.length - 1; p >= 0; p--) {
    const ranges = await partitionRanges(snap, p, scan.intervals);
    for (let r = ranges.length - 1; r >= 0; r--) {
      const [from, to] = ranges[r];
      if (to <= from) continue;
      const views = await Promise.all(
        cols.map(async (c) => (await snap.read(p, c, from, to)).data as Int32Array),
      );
      for (let hi = to, lo = hi; hi > from; hi = lo) {
        lo = Math.max(from, hi - BATCH_ROWS_MAX);
        if (paceDue(ctx)) await pace(ctx);
        const off = lo - from;
        if (onlyNulls && !anyNull(views, off, hi - from)) continue;
        let b: Batch | undefined;
        const load = async () => ({
          rowCount: hi - lo,
          columns: await Promise.all(scan.columnIndexes.map((c) => snap.read(p, c, lo, hi))),
        });
        let count = hi - lo;
        if (select) {
          b = await load();
          count = select(b, sel);
        }
        const before = latest.size;
        for (let k = count - 1; k >= 0; k--) {
          const i = select ? sel[k] : k;
          let code = 0, full = true;
          for (let j = 0; j < views.length; j++) {
            const key = views[j][off + i];
            if (key >= 0) code += (key + 1) * radix[j];
            else full = false;
          }
          if (!markSeen(marks, code)) continue;
          seen++;
          b ??= await load();
          const h = hashOf(b, i);
          if (!latest.has(h)) {
            latest.set(h, { ts: (b.columns[tsIndex].data as BigInt64Array)[i], row: rowOf(b, i) });
          }
          if (full && ++seenNonNull === nonNull) onlyNulls = true;
          if (seen === combos) break;
        }
        // A row per key is held until the end: distinct keys are what LATEST ON holds.
        charge(ctx, rowBytes(latest.size - before, n.columns.length + 1));
        if (seen === combos) break scan;
      }
    }
    // The partition's columns the cache could not take were copied: drop them (runScan does too).
    snap.releaseCopies?.(p);
  }
  return true;
}
