/**
 * Var-size columns (STRING, VARCHAR, BINARY, ARRAY): a data file of records and an offsets file
 * (docs/storage.md "Column files").
 *
 * A record is an int32 LE payload length (-1 for NULL, so NULL and '' differ, spec/sql.md
 * §2.1) followed by the payload: UTF-16LE code units for STRING (exact for any JS string),
 * UTF-8 for VARCHAR, raw bytes for BINARY, for ARRAY an int32 LE length per dimension then the
 * float64 LE elements row-major (engine/base/double_array.ts). The offsets file holds n+1 int64 LE entries for n
 * rows: entry i is where record i starts, entry n is the committed size of the data file.
 */
import type { ColumnType } from "../base/types.ts";
import type { Value, VectorData } from "../base/values.ts";
import { assert } from "../base/assert.ts";
import { decodeArrayBytes, DoubleArray, encodeArrayBytes } from "../base/double_array.ts";

/** Records of n rows in memory: `offsets` has n+1 entries, `offsets[0]` is 0. */
export interface VarColumn {
  readonly offsets: Float64Array;
  readonly data: Uint8Array;
}

const encoder = new TextEncoder();
const utf8 = new TextDecoder();

/** Rows of a var-size column, all NULL. */
export function nullVarColumn(rowCount: number): VarColumn {
  const data = new Uint8Array(rowCount * 4).fill(0xff);
  const offsets = new Float64Array(rowCount + 1);
  for (let i = 0; i <= rowCount; i++) offsets[i] = i * 4;
  return { offsets, data };
}

/** Encodes append input (`Value[]` in scalar form, or null for all-NULL) as records. */
export function encodeVar(t: ColumnType, data: VectorData | null, rowCount: number): VarColumn {
  if (data === null) return nullVarColumn(rowCount);
  assert(data.length >= rowCount, "append: column shorter than rowCount");
  const values = data as ArrayLike<unknown>;
  const offsets = new Float64Array(rowCount + 1);
  let buf = new Uint8Array(Math.max(64, rowCount * 16));
  let at = 0;
  for (let i = 0; i < rowCount; i++) {
    const v = values[i];
    const bound = v === null || v === undefined ? 4 : 4 + payloadBound(t, v);
    if (at + bound > buf.length) {
      const grown = new Uint8Array(Math.max(buf.length * 2, at + bound));
      grown.set(buf.subarray(0, at));
      buf = grown;
    }
    offsets[i] = at;
    at = writeRecord(t, buf, at, v);
  }
  offsets[rowCount] = at;
  return { offsets, data: buf.subarray(0, at) };
}

function payloadBound(t: ColumnType, v: unknown): number {
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof DoubleArray) return 4 * v.shape.length + 8 * v.data.length;
  const s = typeof v === "string" ? v : String(v);
  return t.tag === "STRING" ? 2 * s.length : 3 * s.length;
}

function writeInt32(buf: Uint8Array, at: number, x: number): void {
  buf[at] = x & 0xff;
  buf[at + 1] = (x >>> 8) & 0xff;
  buf[at + 2] = (x >>> 16) & 0xff;
  buf[at + 3] = (x >>> 24) & 0xff;
}

function writeRecord(t: ColumnType, buf: Uint8Array, at: number, v: unknown): number {
  if (v === null || v === undefined) {
    writeInt32(buf, at, -1);
    return at + 4;
  }
  let length: number;
  if (v instanceof DoubleArray) v = encodeArrayBytes(v);
  if (v instanceof Uint8Array) {
    buf.set(v, at + 4);
    length = v.length;
  } else if (t.tag === "STRING") {
    const s = typeof v === "string" ? v : String(v);
    for (let i = 0, p = at + 4; i < s.length; i++, p += 2) {
      const c = s.charCodeAt(i);
      buf[p] = c & 0xff;
      buf[p + 1] = c >>> 8;
    }
    length = 2 * s.length;
  } else {
    const s = typeof v === "string" ? v : String(v);
    length = encoder.encodeInto(s, buf.subarray(at + 4)).written;
  }
  writeInt32(buf, at, length);
  return at + 4 + length;
}

/** Decodes the record starting at `start` of `data`. BINARY payloads are copied out. */
export function decodeRecord(t: ColumnType, data: Uint8Array, start: number): Value {
  const b = start;
  const length = data[b] | (data[b + 1] << 8) | (data[b + 2] << 16) | (data[b + 3] << 24);
  if (length < 0) return null;
  const from = b + 4;
  if (t.tag === "BINARY") return data.slice(from, from + length);
  if (t.tag === "ARRAY") return decodeArrayBytes(data, from, length, t.dims ?? 1);
  if (t.tag === "STRING") return decodeUtf16(data, from, length >>> 1);
  if (length <= 32) {
    // Short ASCII values are the common case; this avoids a TextDecoder call per row.
    let s = "";
    for (let i = from; i < from + length; i++) {
      const c = data[i];
      if (c >= 0x80) return utf8.decode(data.subarray(from, from + length));
      s += String.fromCharCode(c);
    }
    return s;
  }
  return utf8.decode(data.subarray(from, from + length));
}

/**
 * Short values (the common case) a code unit at a time: spreading a typed array into
 * String.fromCharCode costs ~300 ns a value through the iterator, the loop ~50 ns; a scan of a
 * million STRING values spent most of its time here (issue #17, parquet_turns_test.ts).
 */
const UTF16_LOOP_UNITS_MAX = 32;
/** Code units a String.fromCharCode.apply call takes at once (arguments land on the stack). */
const UTF16_APPLY_UNITS = 8192;

function decodeUtf16(data: Uint8Array, from: number, units: number): string {
  if (units > UTF16_LOOP_UNITS_MAX && ((data.byteOffset + from) & 1) === 0) {
    const codes = new Uint16Array(data.buffer, data.byteOffset + from, units);
    let s = "";
    for (let i = 0; i < units; i += UTF16_APPLY_UNITS) {
      const piece = codes.subarray(i, Math.min(units, i + UTF16_APPLY_UNITS));
      s += String.fromCharCode.apply(null, piece as unknown as number[]);
    }
    return s;
  }
  let s = "";
  for (let i = 0; i < units; i++) {
    s += String.fromCharCode(data[from + 2 * i] | (data[from + 2 * i + 1] << 8));
  }
  return s;
}

/** The value of row `row` of an in-memory var column. */
export function varValueAt(t: ColumnType, col: VarColumn, row: number): Value {
  return decodeRecord(t, col.data, col.offsets[row]);
}

/**
 * Rows picked from two var columns: `order[k] >= 0` takes row `order[k]` of `a`, a negative
 * entry takes row `~order[k]` of `b`.
 */
export function gatherVar(a: VarColumn, b: VarColumn | null, order: Int32Array): VarColumn {
  let bytes = 0;
  for (let k = 0; k < order.length; k++) {
    const r = order[k];
    const src = r >= 0 ? a : b!;
    const i = r >= 0 ? r : ~r;
    bytes += src.offsets[i + 1] - src.offsets[i];
  }
  const data = new Uint8Array(bytes);
  const offsets = new Float64Array(order.length + 1);
  let at = 0;
  for (let k = 0; k < order.length; k++) {
    const r = order[k];
    const src = r >= 0 ? a : b!;
    const i = r >= 0 ? r : ~r;
    const lo = src.offsets[i], hi = src.offsets[i + 1];
    offsets[k] = at;
    // Records are mostly a few bytes: a subarray and set() per row cost more than the copy.
    if (hi - lo <= 64) {
      const from = src.data;
      for (let j = lo; j < hi; j++) data[at++] = from[j];
    } else {
      data.set(src.data.subarray(lo, hi), at);
      at += hi - lo;
    }
  }
  offsets[order.length] = at;
  return { offsets, data };
}

/** Rows [from, to) of a var column, sharing its data. */
export function sliceVar(col: VarColumn, from: number, to: number): VarColumn {
  const base = col.offsets[from];
  const offsets = new Float64Array(to - from + 1);
  for (let i = from; i <= to; i++) offsets[i - from] = col.offsets[i] - base;
  return { offsets, data: col.data.subarray(base, col.offsets[to]) };
}

/** Encodes offsets entries as int64 LE bytes, each plus `base` (numbers stay exact below 2^53). */
export function encodeOffsets(offsets: Float64Array, from: number, to: number, base: number): Uint8Array {
  const out = new Uint32Array(2 * (to - from));
  for (let i = from; i < to; i++) {
    const x = offsets[i] + base;
    out[2 * (i - from)] = x % 4294967296;
    out[2 * (i - from) + 1] = Math.floor(x / 4294967296);
  }
  return new Uint8Array(out.buffer);
}

/** Entry `i` of offsets file bytes (int64 LE). */
export function offsetAt(bytes: Uint8Array, i: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(8 * i, true) + view.getUint32(8 * i + 4, true) * 4294967296;
}

/**
 * A var column from a file's records: `nullRows` NULL rows (inside a column top), then the
 * records of `offsetBytes` (k+1 int64 LE entries for k rows, absolute offsets into the file)
 * over `data` (the file's bytes from the first entry's offset on).
 */
export function varColumnFromFile(nullRows: number, offsetBytes: Uint8Array, data: Uint8Array): VarColumn {
  const steps = varColumnFromFileSteps(nullRows, offsetBytes, data, Infinity);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `varColumnFromFile` in steps of `rowsPerStep` rows, yielding between them, so that a rewrite
 * of millions of rows can give the event loop turns while it converts (issue #17); the column
 * is the generator's return value.
 */
export function* varColumnFromFileSteps(
  nullRows: number,
  offsetBytes: Uint8Array,
  data: Uint8Array,
  rowsPerStep: number,
): Generator<void, VarColumn> {
  const fileRows = offsetBytes.length > 0 ? offsetBytes.length / 8 - 1 : 0;
  const base = fileRows > 0 ? offsetAt(offsetBytes, 0) : 0;
  const head = nullRows * 4;
  const out = new Uint8Array(head + data.length);
  out.fill(0xff, 0, head);
  out.set(data, head);
  const offsets = new Float64Array(nullRows + fileRows + 1);
  for (let i = 0; i < nullRows; i++) offsets[i] = i * 4;
  offsets[nullRows] = head;
  // One view for the loop (offsetAt makes a DataView per call: ~100 ns a row of 3M).
  const view = new DataView(offsetBytes.buffer, offsetBytes.byteOffset, offsetBytes.byteLength);
  for (let from = 1; from <= fileRows; from += rowsPerStep) {
    if (from > 1) yield;
    const to = Math.min(fileRows, from + rowsPerStep - 1);
    for (let k = from; k <= to; k++) {
      const at = view.getUint32(8 * k, true) + view.getUint32(8 * k + 4, true) * 4294967296;
      offsets[nullRows + k] = head + at - base;
    }
  }
  return { offsets, data: out };
}
