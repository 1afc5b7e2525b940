/**
 * PostgreSQL's wire forms of arrays and NUMERIC (spec/protocols.md §12.8): binary array
 * encode/decode (`_float8` and the other numeric element types on input) and binary NUMERIC
 * encode/decode (base-10000 digit groups) for DECIMAL.
 */
import { DoubleArray, formatDecimal, SqlError } from "../../engine/mod.ts";
import type { BufferWriter } from "./buffer_writer.ts";
import { OID } from "./pg_types.ts";

function bad(what: string, index: number): SqlError {
  return new SqlError(`bad ${what} parameter [variableIndex=${index}]`, -1, "semantic");
}

/** Writes a DataRow cell of a DOUBLE array in the PostgreSQL binary array layout. */
export function writeBinaryArray(w: BufferWriter, a: DoubleArray): void {
  const empty = a.data.length === 0;
  const dims = empty ? 0 : a.shape.length;
  let hasNull = 0;
  for (const x of a.data) if (!Number.isFinite(x)) hasNull = 1;
  const size = 12 + 8 * dims + a.data.length * 4 + (a.data.length - countNulls(a)) * 8;
  w.int32(size).int32(dims).int32(hasNull).int32(OID.FLOAT8);
  for (let d = 0; d < dims; d++) w.int32(a.shape[d]).int32(1);
  for (const x of a.data) {
    if (Number.isFinite(x)) w.int32(8).float64(x);
    else w.int32(-1);
  }
}

function countNulls(a: DoubleArray): number {
  let n = 0;
  for (const x of a.data) if (!Number.isFinite(x)) n++;
  return n;
}

/** Element OIDs a binary array parameter may carry, and how to read one element. */
const ELEMENT_READERS: Record<number, [number, (v: DataView, at: number) => number]> = {
  [OID.FLOAT8]: [8, (v, at) => v.getFloat64(at)],
  [OID.FLOAT4]: [4, (v, at) => v.getFloat32(at)],
  [OID.INT8]: [8, (v, at) => Number(v.getBigInt64(at))],
  [OID.INT4]: [4, (v, at) => v.getInt32(at)],
  [OID.INT2]: [2, (v, at) => v.getInt16(at)],
};

/** Reads a binary array parameter as a DOUBLE array (NULL elements become NULL/NaN elements). */
export function decodeBinaryArray(bytes: Uint8Array, index: number): DoubleArray {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12) throw bad("array", index);
  const dims = v.getInt32(0), elemOid = v.getInt32(8);
  if (dims < 0 || dims > 32 || bytes.length < 12 + 8 * dims) throw bad("array", index);
  if (dims === 0) return DoubleArray.empty(1);
  const reader = ELEMENT_READERS[elemOid];
  if (!reader) throw new SqlError(`unsupported array element type [oid=${elemOid}]`, -1, "semantic");
  const shape: number[] = [];
  for (let d = 0; d < dims; d++) shape.push(v.getInt32(12 + 8 * d));
  const n = shape.reduce((x, y) => x * y, 1);
  const out = new Float64Array(n);
  let at = 12 + 8 * dims;
  for (let i = 0; i < n; i++) {
    if (at + 4 > bytes.length) throw bad("array", index);
    const len = v.getInt32(at);
    at += 4;
    if (len < 0) {
      out[i] = NaN;
      continue;
    }
    if (len !== reader[0] || at + len > bytes.length) throw bad("array", index);
    out[i] = reader[1](v, at);
    at += len;
  }
  return new DoubleArray(shape, out);
}

/** Writes a DataRow cell of a DECIMAL in PostgreSQL's binary NUMERIC layout. */
export function writeBinaryNumeric(w: BufferWriter, unscaled: bigint, scale: number): void {
  const neg = unscaled < 0n;
  const text = formatDecimal(neg ? -unscaled : unscaled, scale);
  const [intPart, frac = ""] = text.split(".");
  // Group digits in fours around the decimal point.
  const intGroups: number[] = [];
  for (let end = intPart.length; end > 0; end -= 4) {
    intGroups.unshift(Number(intPart.slice(Math.max(0, end - 4), end)));
  }
  const fracGroups: number[] = [];
  for (let i = 0; i < frac.length; i += 4) fracGroups.push(Number(frac.slice(i, i + 4).padEnd(4, "0")));
  let digits = [...intGroups, ...fracGroups];
  let weight = intGroups.length - 1;
  while (digits.length > 0 && digits[0] === 0) {
    digits.shift();
    weight--;
  }
  while (digits.length > 0 && digits[digits.length - 1] === 0) digits.pop();
  if (digits.length === 0) {
    digits = [];
    weight = 0;
  }
  w.int32(8 + 2 * digits.length).int16(digits.length).int16(weight).int16(neg && digits.length ? 0x4000 : 0)
    .int16(scale);
  for (const d of digits) w.int16(d);
}

/** Reads a binary NUMERIC parameter as decimal text (`-12.50`), or null for NaN. */
export function decodeBinaryNumeric(bytes: Uint8Array, index: number): string | null {
  if (bytes.length < 8) throw bad("numeric", index);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ndigits = view.getInt16(0),
    weight = view.getInt16(2),
    sign = view.getUint16(4),
    dscale = view.getInt16(6);
  if (sign === 0xc000 || sign === 0xd000 || sign === 0xf000) return null; // NaN, ±Infinity
  if (bytes.length < 8 + 2 * ndigits) throw bad("numeric", index);
  let intText = "", fracText = "";
  for (let i = 0; i < ndigits; i++) {
    const group = String(view.getInt16(8 + 2 * i)).padStart(4, "0");
    if (weight - i >= 0) intText += group;
    else fracText += group;
  }
  // Groups missing between the last digit and the point (weight beyond ndigits) are zeros.
  for (let k = ndigits; k <= weight; k++) intText += "0000";
  // Groups missing between the point and the first digit (weight < -1) are zeros.
  if (weight < -1) fracText = "0000".repeat(-weight - 1) + fracText;
  intText = intText.replace(/^0+/, "") || "0";
  fracText = fracText.padEnd(dscale, "0").slice(0, Math.max(dscale, 0));
  const body = dscale > 0 ? `${intText}.${fracText}` : intText;
  return sign === 0x4000 ? "-" + body : body;
}
