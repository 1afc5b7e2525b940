/**
 * Fixed-width column values between the vector layout of `engine/base/values.ts` and the
 * little-endian bytes of column files (docs/storage.md "Column files"). The file bytes of the
 * types with a typed-array vector layout are exactly that typed array's bytes, so reads hand
 * out views and in-order appends write the caller's array as is.
 *
 * UUID is stored as two LE int64 (low half first, as QuestDB does), LONG256 as four LE int64
 * (least significant first), GEOHASH in 1, 2, 4 or 8 bytes by precision; their vectors are
 * `Value[]` in scalar form. DECIMAL is its unscaled value as a two's-complement LE integer of
 * 1, 2, 4, 8, 16 or 32 bytes by precision, NULL being the width's minimum value (§23.1).
 */
import { type ColumnType, fixedSize } from "../base/types.ts";
import { INT_NULL, LONG_NULL, type Value, type VectorData } from "../base/values.ts";
import { SqlError } from "../base/errors.ts";
import { assert } from "../base/assert.ts";
import type { SymbolTable } from "./symbol_dict.ts";

type TypedCtor =
  | Int8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Float32ArrayConstructor
  | Float64ArrayConstructor
  | BigInt64ArrayConstructor;

/** The typed array class of a type's vector layout, or undefined for `Value[]` layouts. */
export function vectorClassOf(t: ColumnType): TypedCtor | undefined {
  switch (t.tag) {
    case "BOOLEAN":
    case "BYTE":
      return Int8Array;
    case "SHORT":
      return Int16Array;
    case "CHAR":
      return Uint16Array;
    case "INT":
    case "IPV4":
    case "SYMBOL":
      return Int32Array;
    case "FLOAT":
      return Float32Array;
    case "DOUBLE":
      return Float64Array;
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return BigInt64Array;
    default:
      return undefined;
  }
}

/** The bytes of one NULL value of a fixed-width type (false/0 for BOOLEAN, BYTE, SHORT). */
export function nullPattern(t: ColumnType): Uint8Array {
  const size = fixedSize(t);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  switch (t.tag) {
    case "INT":
      view.setInt32(0, INT_NULL, true);
      break;
    case "SYMBOL":
    case "GEOHASH":
      out.fill(0xff); // key -1; GEOHASH NULL is all ones in its width
      break;
    case "FLOAT":
      view.setFloat32(0, NaN, true);
      break;
    case "DOUBLE":
      view.setFloat64(0, NaN, true);
      break;
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
    case "UUID":
    case "LONG256":
      for (let at = 0; at < size; at += 8) view.setBigInt64(at, LONG_NULL, true);
      break;
    case "DECIMAL":
      out[size - 1] = 0x80; // the minimum two's-complement value of the width
      break;
  }
  return out;
}

/** Fills `target` (a whole number of values) with the NULL pattern of `t`. */
export function fillNull(t: ColumnType, target: Uint8Array): void {
  const pattern = nullPattern(t);
  if (pattern.every((b) => b === pattern[0])) {
    target.fill(pattern[0]);
    return;
  }
  if (target.length === 0) return;
  target.set(pattern, 0);
  // Doubling copies keep this O(n) with few calls whatever the alignment of `target`.
  for (let filled = pattern.length; filled < target.length; filled *= 2) {
    target.copyWithin(filled, 0, Math.min(filled, target.length - filled));
  }
}

/** The bytes of a typed array (a view, no copy). */
export function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * The file bytes of `rowCount` values of column type `t` from append input: the input's own
 * bytes when it already has the vector layout, else a converted copy. SYMBOL input is
 * `Value[]` of strings, interned into `dict`.
 */
export function encodeFixed(
  t: ColumnType,
  data: VectorData | null,
  rowCount: number,
  dict?: SymbolTable,
): Uint8Array {
  const size = fixedSize(t);
  if (data === null) {
    const out = new Uint8Array(rowCount * size);
    fillNull(t, out);
    return out;
  }
  assert(data.length >= rowCount, "append: column shorter than rowCount");
  if (t.tag === "SYMBOL") return bytesOf(internSymbols(data, rowCount, dict!));
  const ctor = vectorClassOf(t);
  if (ctor && data instanceof ctor) return bytesOf(data.subarray(0, rowCount));
  if (ctor) return bytesOf(coerceTyped(t, ctor, data, rowCount));
  const out = new Uint8Array(rowCount * size);
  const view = new DataView(out.buffer);
  for (let i = 0; i < rowCount; i++) encodeWide(t, view, i * size, (data as Value[])[i] ?? null);
  return out;
}

function internSymbols(data: VectorData, rowCount: number, dict: SymbolTable): Int32Array {
  assert(Array.isArray(data), "append: SYMBOL values must be strings");
  const out = new Int32Array(rowCount);
  for (let i = 0; i < rowCount; i++) {
    const v = (data as Value[])[i];
    out[i] = v === null || v === undefined ? -1 : dict.intern(typeof v === "string" ? v : String(v));
  }
  return out;
}

/** Converts input in another layout (a `Value[]`, or a typed array of another class) to the vector layout. */
function coerceTyped(t: ColumnType, ctor: TypedCtor, data: VectorData, rowCount: number): ArrayBufferView {
  const src = data as ArrayLike<unknown>;
  if (ctor === BigInt64Array) {
    const out = new BigInt64Array(rowCount);
    for (let i = 0; i < rowCount; i++) {
      const x = src[i];
      out[i] = x === null || x === undefined
        ? LONG_NULL
        : typeof x === "bigint"
        ? x
        : BigInt(Math.trunc(Number(x)));
    }
    return out;
  }
  const out = new ctor(rowCount) as Int32Array | Float64Array;
  for (let i = 0; i < rowCount; i++) out[i] = scalarToNumber(t, src[i]);
  return out;
}

function scalarToNumber(t: ColumnType, x: unknown): number {
  if (x === null || x === undefined) {
    switch (t.tag) {
      case "INT":
        return INT_NULL;
      case "FLOAT":
      case "DOUBLE":
        return NaN;
      default:
        return 0; // BOOLEAN, BYTE, SHORT store false/0 (§2.1); CHAR and IPV4 NULL is 0
    }
  }
  if (t.tag === "CHAR" && typeof x === "string") return x.charCodeAt(0);
  if (t.tag === "BOOLEAN") return x === true || (typeof x !== "boolean" && Number(x) !== 0) ? 1 : 0;
  return Number(x);
}

/** Encodes one UUID, LONG256 or GEOHASH scalar at `at`. */
function encodeWide(t: ColumnType, view: DataView, at: number, x: Value): void {
  if (x === null) {
    new Uint8Array(view.buffer, at, fixedSize(t)).set(nullPattern(t));
    return;
  }
  if (t.tag === "UUID") {
    const hex = typeof x === "string" ? x.replace(/-/g, "") : "";
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new SqlError(`invalid UUID value [value=${String(x)}]`);
    view.setUint32(at, parseInt(hex.slice(24, 32), 16), true);
    view.setUint32(at + 4, parseInt(hex.slice(16, 24), 16), true);
    view.setUint32(at + 8, parseInt(hex.slice(8, 16), 16), true);
    view.setUint32(at + 12, parseInt(hex.slice(0, 8), 16), true);
  } else if (t.tag === "DECIMAL") {
    let v = BigInt.asUintN(8 * fixedSize(t), x as bigint);
    for (let b = 0; b < fixedSize(t); b++, v >>= 8n) view.setUint8(at + b, Number(v & 255n));
  } else if (t.tag === "LONG256") {
    let v = BigInt.asUintN(256, typeof x === "bigint" ? x : BigInt(x as string | number));
    for (let w = 0; w < 4; w++, v >>= 64n) view.setBigUint64(at + 8 * w, BigInt.asUintN(64, v), true);
  } else {
    const v = BigInt.asIntN(64, typeof x === "bigint" ? x : BigInt(x as number));
    const size = fixedSize(t);
    if (size === 1) view.setInt8(at, Number(v));
    else if (size === 2) view.setInt16(at, Number(v), true);
    else if (size === 4) view.setInt32(at, Number(v), true);
    else view.setBigInt64(at, v, true);
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Decodes one UUID, LONG256 or GEOHASH value of a file's bytes in scalar form. */
export function decodeWide(t: ColumnType, view: DataView, at: number): Value {
  if (t.tag === "UUID") {
    const lo = view.getBigInt64(at, true), hi = view.getBigInt64(at + 8, true);
    if (lo === LONG_NULL && hi === LONG_NULL) return null;
    let s = "";
    for (let i = 15; i >= 0; i--) {
      s += HEX[view.getUint8(at + i)];
      if (i === 12 || i === 10 || i === 8 || i === 6) s += "-";
    }
    return s;
  }
  if (t.tag === "DECIMAL") {
    const size = fixedSize(t);
    let v = 0n;
    for (let b = size - 1; b >= 0; b--) v = (v << 8n) | BigInt(view.getUint8(at + b));
    v = BigInt.asIntN(8 * size, v);
    return v === -(1n << BigInt(8 * size - 1)) ? null : v;
  }
  if (t.tag === "LONG256") {
    let isNull = true;
    let v = 0n;
    for (let w = 3; w >= 0; w--) {
      const word = view.getBigUint64(at + 8 * w, true);
      if (word !== 0x8000000000000000n) isNull = false;
      v = (v << 64n) | word;
    }
    return isNull ? null : v;
  }
  const size = fixedSize(t);
  const v = size === 1
    ? view.getInt8(at)
    : size === 2
    ? view.getInt16(at, true)
    : size === 4
    ? view.getInt32(at, true)
    : view.getBigInt64(at, true);
  return v === -1 || v === -1n ? null : BigInt(v);
}

/**
 * Rows [from, to) of a fixed-width column held in `bytes` (row 0 at offset 0) as vector data:
 * a typed view sharing `bytes`' memory for typed layouts, decoded `Value[]` for the others.
 */
export function fixedVectorData(t: ColumnType, bytes: Uint8Array, from: number, to: number): VectorData {
  const size = fixedSize(t);
  const ctor = vectorClassOf(t);
  if (ctor) return new ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset + from * size, to - from);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<Value>(to - from);
  for (let r = from; r < to; r++) out[r - from] = decodeWide(t, view, r * size);
  return out;
}
