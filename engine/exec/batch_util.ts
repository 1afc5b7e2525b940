/** Building and reshaping batches: from rows, to rows, gathering selected rows. */
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import type { ColumnType } from "../base/types.ts";
import {
  allocVectorData,
  type Batch,
  readValue,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
} from "../base/values.ts";

/** A batch of `rows` (scalar form) with the given column types; SYMBOL columns hold strings. */
export function rowsToBatch(types: ColumnType[], rows: Value[][], from = 0, to = rows.length): Batch {
  const n = to - from;
  const columns: Vector[] = types.map((t, c) => {
    const data = allocVectorData(t, n);
    for (let i = 0; i < n; i++) writeValue(t, data, i, rows[from + i][c]);
    return { type: t, data };
  });
  return { rowCount: n, columns };
}

export function* rowsToBatches(types: ColumnType[], rows: Value[][]): Generator<Batch> {
  for (let at = 0; at < rows.length; at += BATCH_ROWS_MAX) {
    yield rowsToBatch(types, rows, at, Math.min(rows.length, at + BATCH_ROWS_MAX));
  }
}

export function rowOf(b: Batch, i: number): Value[] {
  const r = new Array<Value>(b.columns.length);
  for (let c = 0; c < r.length; c++) r[c] = readValue(b.columns[c], i);
  return r;
}

export function batchToRows(b: Batch): Value[][] {
  const rows = new Array<Value[]>(b.rowCount);
  for (let i = 0; i < b.rowCount; i++) rows[i] = rowOf(b, i);
  return rows;
}

/** Copies the rows listed in `sel` (ascending or not) into a new batch; keeps dictionaries. */
export function gather(b: Batch, sel: ArrayLike<number>, count = sel.length): Batch {
  const columns = b.columns.map((v) => ({
    type: v.type,
    data: gatherData(v.data, sel, count),
    dict: v.dict,
  }));
  return { rowCount: count, columns };
}

/** The values of `src` at the rows listed in `sel`, as a new array of the same kind. */
export function gatherData(src: VectorData, sel: ArrayLike<number>, count = sel.length): VectorData {
  if (!Array.isArray(src)) return gatherTyped(src, sel, count);
  const out = new Array<Value>(count);
  for (let i = 0; i < count; i++) out[i] = src[sel[i]];
  return out;
}

/**
 * One loop per array type, so that each stays monomorphic; 64-bit integers move as two int32
 * words (reading a BigInt64Array element allocates a bigint).
 */
function gatherTyped(src: Exclude<VectorData, Value[]>, sel: ArrayLike<number>, count: number): VectorData {
  if (src instanceof Float64Array) return gatherF64(src, sel, count);
  if (src instanceof Int32Array) return gatherI32(src, sel, count);
  if (src instanceof BigInt64Array) {
    const out = new BigInt64Array(count);
    gatherWords(
      new Int32Array(src.buffer, src.byteOffset, src.length * 2),
      new Int32Array(out.buffer),
      sel,
      count,
    );
    return out;
  }
  // deno-lint-ignore no-explicit-any
  const out = new (src.constructor as any)(count);
  for (let i = 0; i < count; i++) out[i] = src[sel[i]];
  return out;
}

function gatherF64(src: Float64Array, sel: ArrayLike<number>, count: number): Float64Array {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = src[sel[i]];
  return out;
}

function gatherI32(src: Int32Array, sel: ArrayLike<number>, count: number): Int32Array {
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = src[sel[i]];
  return out;
}

function gatherWords(src: Int32Array, out: Int32Array, sel: ArrayLike<number>, count: number): void {
  for (let i = 0; i < count; i++) {
    const r = 2 * sel[i];
    out[2 * i] = src[r];
    out[2 * i + 1] = src[r + 1];
  }
}

/** A contiguous slice of a batch (views, no copy). */
export function sliceBatch(b: Batch, from: number, to: number): Batch {
  if (from === 0 && to === b.rowCount) return b;
  return {
    rowCount: to - from,
    columns: b.columns.map((v) => ({
      type: v.type,
      data: (Array.isArray(v.data) ? v.data.slice(from, to) : v.data.subarray(from, to)) as VectorData,
      dict: v.dict,
    })),
  };
}

/** Collects rows and emits batches of at most BATCH_ROWS_MAX. */
export class RowBuffer {
  rows: Value[][] = [];
  constructor(readonly types: ColumnType[]) {}
  push(r: Value[]): void {
    this.rows.push(r);
  }
  get full(): boolean {
    return this.rows.length >= BATCH_ROWS_MAX;
  }
  take(): Batch {
    const b = rowsToBatch(this.types, this.rows);
    this.rows = [];
    return b;
  }
}
