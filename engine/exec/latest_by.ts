/**
 * LATEST ON / LATEST BY execution (spec/sql.md §9): the newest row per key. Over a table
 * scan on its designated timestamp it reads backwards from the newest partition and stops
 * as soon as every possible key (the product of the SYMBOL dictionaries) has been found
 * (SYMBOL keys under a filter, or several: latest_by_filtered.ts, the filter run a batch at a
 * time); with other keys it reads the scan backwards through dense key ids (latest_by_hash.ts);
 * over any other input it reads everything and keeps the greatest timestamp per key (the last
 * stored row on ties). Output is ordered by the timestamp, equal timestamps in storage order.
 */
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import { type Batch, LONG_NULL, type Value } from "../base/values.ts";
import type { TableSnapshot } from "../storage/api.ts";
import type { BoundExpr } from "../plan/bound.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { valueKey } from "../plan/bound.ts";
import { gather, rowOf, rowsToBatches } from "./batch_util.ts";
import { compileExpr, compilePredicate } from "./compile_expr.ts";
import { correlatedOf } from "./correlated_prefetch.ts";
import {
  charge,
  checkCancelled,
  type ExecContext,
  pace,
  PACE_MASK,
  paceDue,
  rowBytes,
  snapshotOf,
} from "./exec_context.ts";
import { sortPaced } from "./paced_sort.ts";
import { referenceExecution } from "./vector/physical.ts";
import { partitionRanges } from "./scan.ts";
import { findNullKeyRow, latestBySymbolKeys, readRow } from "./latest_by_keys.ts";
import { latestBySymbolKeysFiltered, scanSelector } from "./latest_by_filtered.ts";
import { latestByHash } from "./latest_by_hash.ts";
import { latestForward } from "./latest_by_forward.ts";

type LatestNode = Extract<PlanNode, { kind: "latestBy" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;
type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;

/** The scan under an optional filter, when LATEST ON uses its designated timestamp. */
function backwardSource(n: LatestNode): { scan: ScanNode; filter?: BoundExpr } | undefined {
  const inner = n.input.kind === "filter" ? n.input.input : n.input;
  if (n.tsIndex < 0) return undefined; // no timestamp: the last row per key in input order
  if (n.keyOrder !== undefined) return undefined; // keys in input order: the forward read
  if (inner.kind !== "scan" || inner.reverse || inner.timestampIndex !== n.tsIndex) return undefined;
  // Correlated subqueries in the filter run ahead of each batch, which only runPlan does.
  if (n.input.kind === "filter" && correlatedOf(n.input).length) return undefined;
  return { scan: inner, filter: n.input.kind === "filter" ? n.input.predicate : undefined };
}

/** How many distinct non-NULL keys there can be, when every key is a SYMBOL column of the scan. */
function possibleKeys(n: LatestNode, scan: ScanNode, snap: TableSnapshot): number {
  let total = 1;
  for (const k of n.keys) {
    if (k.kind !== "column" || scan.columns[k.index].type.tag !== "SYMBOL") return Infinity;
    total *= snap.symbols(scan.columnIndexes[k.index]).size;
  }
  return total;
}

/**
 * Reads the scan newest row first, keeping the first row met per key, and stops once every
 * key is known. With a single SYMBOL key and no filter, once every dictionary value has been
 * found only a NULL key can still be missing: the older rows' key column alone is searched
 * for it (by the WASM key kernel over the cached column, see latest_by_keys.ts).
 */
async function latestBackward(
  n: LatestNode,
  source: { scan: ScanNode; filter?: BoundExpr },
  ctx: ExecContext,
  latest: Map<unknown, { ts: bigint; row: Value[] }>,
  hashOf: (b: Batch, i: number) => unknown,
): Promise<void> {
  const { scan } = source;
  const snap = snapshotOf(ctx, scan.table);
  if (
    !source.filter && n.keys.length === 1 && await latestBySymbolKeys(n, scan, snap, ctx, latest, hashOf)
  ) {
    // At most a row per dictionary value (already in memory as the dictionary): charged after.
    charge(ctx, rowBytes(latest.size, n.columns.length + 1));
    return;
  }
  // SYMBOL keys under a filter, or several: batches filtered at once (latest_by_filtered.ts).
  if (await latestBySymbolKeysFiltered(n, scan, source.filter, snap, ctx, latest, hashOf)) return;
  const select = source.filter ? scanSelector(source.filter, scan, ctx) : undefined;
  const sel = new Int32Array(BATCH_ROWS_MAX);
  const nonNull = n.keys.length === 0 ? 1 : possibleKeys(n, scan, snap);
  const nullKey = n.keys.length === 1 && !select && nonNull !== Infinity
    ? (n.keys[0] as { index: number }).index
    : -1;
  const all = n.keys.length === 0
    ? 1
    : nonNull === Infinity
    ? Infinity
    : n.keys.length === 1
    ? nonNull + 1
    : Infinity;
  for (let p = snap.partitions.length - 1; p >= 0; p--) {
    const ranges = await partitionRanges(snap, p, scan.intervals);
    for (let r = ranges.length - 1; r >= 0; r--) {
      const [from, to] = ranges[r];
      for (let hi = to; hi > from;) {
        if (paceDue(ctx)) await pace(ctx);
        const lo = Math.max(from, hi - BATCH_ROWS_MAX);
        const columns = await Promise.all(scan.columnIndexes.map((c) => snap.read(p, c, lo, hi)));
        const b: Batch = { rowCount: hi - lo, columns };
        const ts = columns[n.tsIndex].data as BigInt64Array;
        const before = latest.size;
        const count = select ? select(b, sel) : b.rowCount;
        for (let k = count - 1; k >= 0; k--) {
          if ((k & PACE_MASK) === 0 && paceDue(ctx)) await pace(ctx);
          const i = select ? sel[k] : k;
          const h = hashOf(b, i);
          if (!latest.has(h)) latest.set(h, { ts: ts[i], row: rowOf(b, i) });
        }
        // A row per key is held until the end: distinct keys are what LATEST ON holds.
        charge(ctx, rowBytes(latest.size - before, n.columns.length + 1));
        if (latest.size >= all) return;
        if (nullKey >= 0 && latest.size === nonNull && !latest.has(valueKey(null))) {
          const found = await findNullKeyRow(snap, scan, scan.columnIndexes[nullKey], p, r, lo, ctx);
          if (found) {
            const b1 = await readRow(snap, scan, found.p, found.row);
            latest.set(hashOf(b1, 0), {
              ts: (b1.columns[n.tsIndex].data as BigInt64Array)[0],
              row: rowOf(b1, 0),
            });
          }
          return;
        }
        hi = lo;
      }
    }
    // The partition's columns the cache could not take were copied: drop them (runScan does too).
    snap.releaseCopies?.(p);
  }
}

/**
 * How a LATEST ON runs, chosen from the plan alone (EXPLAIN shows it): a backward read of a
 * scan on its designated timestamp keyed by SYMBOL columns (latest_by_keys.ts without a filter
 * and one key, latest_by_filtered.ts otherwise), a backward read with other keys through dense
 * key ids (latest_by_hash.ts), or a forward read of any other input through dense key ids
 * keeping the greatest timestamp per key (latest_by_forward.ts); "row at a time" is that
 * forward read row by row, the reference the differential tests compare against (forced by
 * setReferenceExecution).
 */
export type LatestOp = "backward symbol keys" | "backward hashed" | "forward hashed" | "row at a time";

export function latestOp(n: LatestNode): LatestOp {
  if (referenceExecution()) return "row at a time";
  const source = backwardSource(n);
  if (!source) return "forward hashed";
  const symbols = n.keys.length > 0 &&
    n.keys.every((k) => k.kind === "column" && source.scan.columns[k.index].type.tag === "SYMBOL");
  return symbols ? "backward symbol keys" : "backward hashed";
}

export async function* runLatestBy(n: LatestNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const op = latestOp(n);
  if (op === "backward hashed") {
    const { scan, filter } = backwardSource(n)!;
    yield* latestByHash(n, scan, filter, ctx);
    return;
  }
  if (op === "forward hashed") {
    yield* latestForward(n, run(n.input, ctx), ctx);
    return;
  }
  const keyEvals = n.keys.map((k) => compileExpr(k, ctx));
  const hashOf = (b: Batch, i: number) => {
    if (keyEvals.length === 1) return valueKey(keyEvals[0](b, i));
    return keyEvals.map((e) => String(valueKey(e(b, i)))).join("\u0001");
  };
  const latest = new Map<unknown, { ts: bigint; row: Value[]; seq?: number }>();
  const backward = op === "row at a time" ? undefined : backwardSource(n);
  if (backward) {
    await latestBackward(n, backward, ctx, latest, hashOf);
  } else {
    // Input position of the row kept per key: equal timestamps come out in input order.
    let seq = 0;
    for await (const b of run(n.input, ctx)) {
      checkCancelled(ctx);
      // Without a timestamp the input position orders the rows.
      const ts = n.tsIndex >= 0 ? b.columns[n.tsIndex].data as BigInt64Array : undefined;
      const before = latest.size;
      for (let i = 0; i < b.rowCount; i++) {
        if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
        const t = ts ? ts[i] : BigInt(seq + i);
        if (t === LONG_NULL) continue;
        const h = hashOf(b, i);
        const cur = latest.get(h);
        if (!cur || t >= cur.ts) latest.set(h, { ts: t, row: rowOf(b, i), seq: seq + i });
      }
      seq += b.rowCount;
      charge(ctx, rowBytes(latest.size - before, n.columns.length + 1));
    }
  }
  const entries = [...latest.values()];
  // The backward read met rows newest first; put equal timestamps back in storage order.
  if (backward) entries.reverse();
  // keyOrder: the map holds the keys in the order they first appeared.
  const rows = n.keyOrder !== undefined ? entries.map((r) => r.row) : (await sortPaced(
    entries,
    (a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : (a.seq ?? 0) - (b.seq ?? 0)),
    ctx,
  )).map((r) => r.row);
  const post = n.post ? compilePredicate(n.post, ctx) : undefined;
  for (const batch of rowsToBatches(n.columns.map((c) => c.type), rows)) {
    if (!post) {
      yield batch;
      continue;
    }
    const sel: number[] = [];
    for (let i = 0; i < batch.rowCount; i++) if (post(batch, i)) sel.push(i);
    if (sel.length) yield gather(batch, sel);
  }
}
