/**
 * Window operator (spec/sql.md §12): reads its input once, computes every window call per
 * partition in ORDER BY order (input already in that order is not sorted again), and emits
 * the input batches unchanged with one column appended per call, in input order.
 */
import {
  allocVectorData,
  type Batch,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import { compareValues, hashKey } from "../functions/value_compare.ts";
import type { PlanNode, WindowCall } from "../plan/plan_node.ts";
import { compileExpr } from "./compile_expr.ts";
import { charge, checkCancelled, type ExecContext, pace, PACE_MASK, paceDue } from "./exec_context.ts";
import { sortPaced } from "./paced_sort.ts";
import { computePartition } from "./window_functions.ts";
import { vectorWindow, vectorWindowFits } from "./window_vector.ts";
import { streamWindow, streamWindowFits, type WindowResult } from "./window_stream.ts";
import { LayoutCache } from "./window_layout.ts";
import { frameWindow, frameWindowFits } from "./window_frames.ts";

type WindowNode = Extract<PlanNode, { kind: "window" }>;
type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;

export async function* runWindow(n: WindowNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const batches: Batch[] = [];
  for await (const b of run(n.input, ctx)) {
    checkCancelled(ctx);
    // Columnar input (8 bytes a cell) plus one result value per window call and row.
    charge(ctx, b.rowCount * (8 * b.columns.length + 24 * n.windows.length));
    batches.push(b);
  }
  const total = batches.reduce((s, b) => s + b.rowCount, 0);
  // Typed results of the columnar pass (window_stream.ts), of frames over grouped partitions
  // (window_frames.ts) or of the older vectorized frames (window_vector.ts), else values by row.
  const results: (Value[] | WindowResult)[] = [];
  const layouts = new LayoutCache();
  for (const w of n.windows) {
    results.push(
      await streamWindow(w, batches, total, ctx, layouts) ??
        await frameWindow(w, batches, total, ctx, layouts) ??
        await vectorData(vectorWindow(w, batches, total, ctx)) ??
        await computeWindow(w, batches, total, ctx),
    );
  }
  let at = 0;
  for (const b of batches) {
    if (paceDue(ctx)) await pace(ctx);
    const columns: Vector[] = [...b.columns];
    n.windows.forEach((w, k) => {
      const r = results[k];
      if (!Array.isArray(r)) {
        const data = Array.isArray(r.data)
          ? r.data.slice(at, at + b.rowCount)
          : (r.data as Float64Array).subarray(at, at + b.rowCount);
        columns.push(r.dict ? { type: w.type, data, dict: r.dict } : { type: w.type, data });
        return;
      }
      const data = allocVectorData(w.type, b.rowCount);
      for (let i = 0; i < b.rowCount; i++) writeValue(w.type, data, i, r[at + i]);
      columns.push({ type: w.type, data });
    });
    at += b.rowCount;
    yield { rowCount: b.rowCount, columns };
  }
}

/**
 * EXPLAIN's name for the operator chosen at plan time: `vectorized` when every call runs on
 * typed arrays (window_stream.ts, window_frames.ts, window_vector.ts), `rows` when none does, else how many do.
 */
export function windowOpLabel(n: WindowNode): string {
  const vectorized =
    n.windows.filter((w) => streamWindowFits(w) || frameWindowFits(w) || vectorWindowFits(w)).length;
  if (vectorized === n.windows.length) return "vectorized";
  return vectorized === 0 ? "rows" : `vectorized ${vectorized} of ${n.windows.length}`;
}

async function vectorData(r: Promise<VectorData | undefined>): Promise<WindowResult | undefined> {
  const data = await r;
  return data && { data };
}

/** Evaluates `e` for every input row, in input order. */
async function evalAll(
  e: Parameters<typeof compileExpr>[0],
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Promise<Value[]> {
  const f = compileExpr(e, ctx);
  const out = new Array<Value>(total);
  let at = 0;
  for (const b of batches) {
    for (let i = 0; i < b.rowCount; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      out[at++] = f(b, i);
    }
  }
  return out;
}

async function evalEach(
  es: Parameters<typeof compileExpr>[0][],
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Promise<Value[][]> {
  const out: Value[][] = [];
  for (const e of es) out.push(await evalAll(e, batches, total, ctx));
  return out;
}

async function computeWindow(
  w: WindowCall,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Promise<Value[]> {
  const out = new Array<Value>(total).fill(null);
  const keys = await evalEach(w.partitionBy, batches, total, ctx);
  const order = await evalEach(w.orderBy.map((o) => o.expr), batches, total, ctx);
  const args = await evalEach(w.args, batches, total, ctx);
  const partitions: number[][] = [];
  if (keys.length === 0) partitions.push(Array.from({ length: total }, (_, i) => i));
  else {
    const byKey = new Map<string, number[]>();
    for (let i = 0; i < total; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      const h = hashKey(keys.map((k) => k[i]));
      let rows = byKey.get(h);
      if (!rows) byKey.set(h, rows = []), partitions.push(rows);
      rows.push(i);
    }
  }
  const cmp = (a: number, b: number) => {
    for (let k = 0; k < order.length; k++) {
      const c = compareValues(order[k][a], order[k][b], w.orderBy[k].expr.type);
      if (c !== 0) return w.orderBy[k].desc ? -c : c;
    }
    return 0;
  };
  for (let rows of partitions) {
    if (paceDue(ctx)) await pace(ctx);
    if (order.length > 0 && !(await isSorted(rows, cmp, ctx))) {
      rows = await sortPaced(rows, (a, b) => cmp(a, b) || a - b, ctx);
    }
    await computePartition(w, rows, { order: order[0], peer: (a, b) => cmp(a, b) === 0, args, out, ctx });
  }
  return out;
}

async function isSorted(
  rows: number[],
  cmp: (a: number, b: number) => number,
  ctx: ExecContext,
): Promise<boolean> {
  for (let i = 1; i < rows.length; i++) {
    if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
    if (cmp(rows[i - 1], rows[i]) > 0) return false;
  }
  return true;
}
