/**
 * Operator-facing forms of the batch expression compiler (batch_expr.ts): a whole-batch value
 * vector, a selection vector, a 0/1 mask. Each answers undefined when the expression has no
 * batch form (the operator keeps its row loop) and otherwise evaluates a batch the compiled
 * loop declines (a LONG past 2^53, a column in an unexpected layout) through the row path
 * (compile_expr.ts), so results never depend on which form ran. The reference execution of the
 * differential tests (physical.ts) turns all of them off.
 */
import {
  allocVectorData,
  type Batch,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
  zeroedVectorData,
} from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import { compileExpr, compilePredicate } from "../compile_expr.ts";
import type { ExecContext } from "../exec_context.ts";
import { type BatchEnv, compileBatchExpr, soleSymbolColumn } from "./batch_expr.ts";
import { referenceExecution } from "./physical.ts";
import { symbolCaster } from "./symbol_cast.ts";
import { timeTextVector } from "./time_text.ts";
import { symbolTextVector } from "./symbol_text.ts";
import { symbolColumnsOf, symbolTupleTextVector } from "./symbol_tuple.ts";
import { textBatchArgs, textBatchVector } from "./text_batch.ts";
import { soleTextColumn, textMemo } from "./text_column.ts";
import { casePickVector, isPickCase } from "./case_pick.ts";
import { timeFieldRuns } from "./time_field_runs.ts";
import { caseAsCodes, caseTextVector, charCaseAsCodes, charCaseVector } from "./case_text.ts";

type Out = Int8Array | Int16Array | Int32Array | Float32Array | Float64Array;

/** The array the loop writes: LONG-like data through its 32-bit word view. */
function outOf(d: VectorData, n: number): Out {
  return d instanceof BigInt64Array ? new Int32Array(d.buffer, d.byteOffset, n * 2) : d as Out;
}

/**
 * `e` over a whole batch as a vector of e.type, or undefined without a batch form. With
 * `reuse`, the data array is reused for the next batch (for consumers that are done with a
 * batch's vectors before asking for the next: the hash aggregation).
 */
export function batchVector(
  e: BoundExpr,
  ctx: ExecContext,
  reuse = false,
): ((b: Batch) => Vector) | undefined {
  const each = batchVectorOf(e, ctx, reuse);
  const runs = each && timeFieldRuns(e);
  if (!each || !runs) return each;
  // A field of an ascending timestamp: filled run by run (time_field_runs.ts), else the loop.
  let buf: Int32Array | undefined;
  return (b) => {
    const n = b.rowCount;
    let data: Int32Array;
    if (reuse) {
      if (!buf || buf.length < n) buf = new Int32Array(n);
      data = buf.length === n ? buf : buf.subarray(0, n);
    } else data = new Int32Array(n);
    return runs(b, data) ? { type: e.type, data } : each(b);
  };
}

function batchVectorOf(
  e: BoundExpr,
  ctx: ExecContext,
  reuse: boolean,
): ((b: Batch) => Vector) | undefined {
  if (referenceExecution() || e.kind === "column") return undefined;
  if (
    e.kind === "cast" && e.arg.kind === "column" && e.arg.type.tag === "SYMBOL" && e.from.tag === "SYMBOL" &&
    !e.implicit
  ) {
    // Once per dictionary code (symbol_cast.ts); batches it declines are cast row by row.
    const cast = symbolCaster(e.arg.index, e.from, e.type, e.pos);
    let rows: ReturnType<typeof compileExpr> | undefined;
    return (b) => {
      const v = cast(b);
      if (v) return v;
      rows ??= compileExpr(e, ctx);
      const data = allocVectorData(e.type, b.rowCount);
      for (let i = 0; i < b.rowCount; i++) writeValue(e.type, data, i, rows(b, i));
      return { type: e.type, data };
    };
  }
  const text = e.kind === "call" && e.name === "to_str" ? timeText(e, ctx) : undefined;
  if (text) return text;
  const cased = caseAsCodes(e);
  if (cased) {
    const codes = batchVector(cased.codes, ctx);
    if (codes) return caseTextVector(e.type, cased.texts, codes);
  }
  const chars = charCaseAsCodes(e);
  const charCodes = chars && batchVector(chars, ctx);
  if (charCodes) return charCaseVector(e.type, charCodes);
  const symCol = symbolTextColumn(e);
  if (symCol !== undefined) return orRowPath(e, ctx, (rowValue) => symbolTextVector(e, symCol, rowValue));
  const tupleCols = symbolTupleColumns(e);
  if (tupleCols) return orRowPath(e, ctx, (rowValue) => symbolTupleTextVector(e, tupleCols, rowValue));
  const textArgs = textBatchArgs(e, (a) => batchForm(a, "value"));
  const readers = textArgs?.map((a) =>
    a.kind === "column" ? (b: Batch) => b.columns[a.index] : batchVector(a, ctx)
  );
  if (textArgs && readers?.every((r) => r !== undefined)) {
    return orRowPath(e, ctx, () => textBatchVector(e, textArgs, readers as ((b: Batch) => Vector)[]));
  }
  if (isPickCase(e)) {
    const pick = casePickVector(e, { mask: (c) => batchMask(c, ctx), vector: (x) => batchVector(x, ctx) });
    if (pick) return pick;
  }
  const run = compileBatchExpr(e, "value", ctx.params, envOf(ctx));
  const textCol = run ? undefined : soleTextColumn(e);
  if (textCol) {
    // Texts and other values of one STRING/VARCHAR column: once per distinct text (text_column.ts).
    let rows: ReturnType<typeof compileExpr> | undefined;
    const memo = textMemo(textCol, (b, i) => (rows ??= compileExpr(e, ctx))(b, i));
    return (b) => {
      const data = allocVectorData(e.type, b.rowCount);
      const vs = memo(b);
      rows ??= compileExpr(e, ctx);
      for (let i = 0; i < b.rowCount; i++) writeValue(e.type, data, i, (vs ? vs[i] : rows(b, i)) as Value);
      return { type: e.type, data };
    };
  }
  if (!run) return undefined;
  const t = e.type;
  let rows: ReturnType<typeof compileExpr> | undefined;
  let buf: VectorData | undefined;
  return (b) => {
    const n = b.rowCount;
    // Zeroed, not NULL-filled: the loop writes every row.
    let data: VectorData;
    if (reuse) {
      if (!buf || buf.length < n) buf = zeroedVectorData(t, n);
      data = buf.length === n ? buf : (buf as Out).subarray(0, n) as VectorData;
    } else data = zeroedVectorData(t, n);
    if (run(b, outOf(data, n)) < 0) {
      rows ??= compileExpr(e, ctx);
      for (let i = 0; i < n; i++) writeValue(t, data, i, rows(b, i));
    }
    return { type: t, data };
  };
}

/** The SYMBOL column a text-valued expression reads alone (symbol_text.ts), or undefined. */
function symbolTextColumn(e: BoundExpr): number | undefined {
  if ((e.type.tag !== "STRING" && e.type.tag !== "VARCHAR") || e.kind === "column" || e.kind === "const") {
    return undefined;
  }
  return soleSymbolColumn(e)?.index;
}

/** The 2-3 SYMBOL columns a text-valued expression reads alone (symbol_tuple.ts), or undefined. */
function symbolTupleColumns(e: BoundExpr) {
  if ((e.type.tag !== "STRING" && e.type.tag !== "VARCHAR") || e.kind === "column" || e.kind === "const") {
    return undefined;
  }
  return symbolColumnsOf(e);
}

/** to_str(ts, format) once per distinct unit of the format (time_text.ts); odd batches by row. */
function timeText(
  e: Extract<BoundExpr, { kind: "call" }>,
  ctx: ExecContext,
): ((b: Batch) => Vector) | undefined {
  const a = e.args[0];
  const argOf = a.kind === "column" ? (b: Batch) => b.columns[a.index] : batchVector(a, ctx);
  const text = argOf && timeTextVector(e, argOf);
  if (!text) return undefined;
  let rows: ReturnType<typeof compileExpr> | undefined;
  return (b) => {
    const v = text(b);
    if (v) return v;
    rows ??= compileExpr(e, ctx);
    const data = allocVectorData(e.type, b.rowCount);
    for (let i = 0; i < b.rowCount; i++) writeValue(e.type, data, i, rows(b, i));
    return { type: e.type, data };
  };
}

/** Prepared subquery values and row-path predicates of this execution (batch_expr.ts BatchEnv). */
function envOf(ctx: ExecContext): BatchEnv {
  return {
    subquery: (plan) => ctx.subqueries.has(plan) ? { value: ctx.subqueries.get(plan) } : undefined,
    rowPredicate: (e) => compilePredicate(e, ctx),
    rowValue: (e) => compileExpr(e, ctx),
  };
}

/** Writes into `sel` the rows where predicate `e` is true and answers their count. */
export type BatchSelect = (b: Batch, sel: Int32Array) => number;

export function batchSelect(e: BoundExpr, ctx: ExecContext): BatchSelect | undefined {
  if (referenceExecution()) return undefined;
  const run = compileBatchExpr(e, "select", ctx.params, envOf(ctx));
  if (!run) return undefined;
  let rows: ReturnType<typeof compilePredicate> | undefined;
  return (b, sel) => {
    const c = run(b, sel);
    if (c >= 0) return c;
    rows ??= compilePredicate(e, ctx);
    let count = 0;
    for (let i = 0; i < b.rowCount; i++) if (rows(b, i)) sel[count++] = i;
    return count;
  };
}

/** Writes 1 into `mask` for the rows where predicate `e` is true, 0 elsewhere. */
export type BatchMask = (b: Batch, mask: Uint8Array) => void;

export function batchMask(e: BoundExpr, ctx: ExecContext): BatchMask | undefined {
  if (referenceExecution()) return undefined;
  const run = compileBatchExpr(e, "mask", ctx.params, envOf(ctx));
  if (!run) return undefined;
  let rows: ReturnType<typeof compilePredicate> | undefined;
  return (b, mask) => {
    if (run(b, mask) >= 0) return;
    rows ??= compilePredicate(e, ctx);
    for (let i = 0; i < b.rowCount; i++) mask[i] = rows(b, i) ? 1 : 0;
  };
}

/** What EXPLAIN's questions compile against: no values yet, no row path needed. */
const PLAN_ENV: BatchEnv = {
  planning: true,
  subquery: () => ({ value: null }),
  rowPredicate: () => () => false,
  rowValue: () => () => null,
};

/**
 * Whether `e` has the batch form batchVector ("value") or batchSelect ("select") would build for
 * it, asked at plan time (EXPLAIN marks filters and projections evaluated row by row).
 */
export function batchForm(e: BoundExpr, sink: "value" | "select"): boolean {
  if (referenceExecution()) return false;
  if (sink === "value") {
    if (e.kind === "column") return false;
    if (
      e.kind === "cast" && e.arg.kind === "column" && e.arg.type.tag === "SYMBOL" && e.from.tag === "SYMBOL"
    ) return true;
    if (symbolTextColumn(e) !== undefined || symbolTupleColumns(e) !== undefined) return true;
    if (textBatchArgs(e, (a) => batchForm(a, "value"))) return true;
    if (isPickCase(e)) {
      const parts = [...e.whens.map((w) => w.then), e.otherwise].filter((x) =>
        x.kind !== "const" && x.kind !== "column"
      );
      if (e.whens.every((w) => batchForm(w.cond, "select")) && parts.every((x) => batchForm(x, "value"))) {
        return true;
      }
    }
    const cased = caseAsCodes(e);
    if (cased && batchForm(cased.codes, "value")) return true;
    const chars = charCaseAsCodes(e);
    if (chars && batchForm(chars, "value")) return true;
    if (e.kind === "call" && e.name === "to_str") {
      const a = e.args[0];
      const argForm = a?.kind === "column" || (a !== undefined && batchForm(a, "value"));
      if (argForm && timeTextVector(e, (b) => b.columns[0])) return true;
    }
  }
  return compileBatchExpr(e, sink, [], PLAN_ENV) !== undefined ||
    (sink === "value" && soleTextColumn(e) !== undefined);
}

/**
 * The vector `make` builds where it answers for a batch, else the row path's values for the
 * batch's rows (compiled on first need). `make` gets the row path's evaluator for its own probes.
 */
function orRowPath(
  e: BoundExpr,
  ctx: ExecContext,
  make: (rowValue: (b: Batch, i: number) => unknown) => (b: Batch) => Vector | undefined,
): (b: Batch) => Vector {
  let rows: ReturnType<typeof compileExpr> | undefined;
  const rowValue = (b: Batch, i: number) => (rows ??= compileExpr(e, ctx))(b, i);
  const vector = make(rowValue);
  return (b) => {
    const v = vector(b);
    if (v) return v;
    const data = allocVectorData(e.type, b.rowCount);
    for (let i = 0; i < b.rowCount; i++) writeValue(e.type, data, i, rowValue(b, i) as Value);
    return { type: e.type, data };
  };
}
