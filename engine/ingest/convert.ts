/**
 * Converts one block column to the vector layout of a table column type (engine/base/values.ts),
 * checking every cell: which protocol types a column type accepts follows spec/protocols.md
 * §10.2 (integers widen to every numeric and time type, doubles go to DOUBLE and FLOAT,
 * strings to the text-like types and the types parsed from text). A cell that does not fit
 * becomes NULL and is reported, so the caller decides: reject the line (ILP) or count the
 * error (CSV import, per its atomicity).
 */
import { type ColumnType, typeName } from "../base/types.ts";
import {
  allocVectorData,
  INT_NULL,
  LONG_NULL,
  type Value,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import { parseText } from "../functions/cast.ts";
import { fitsPrecision, parseDecimalText, rescale } from "../functions/decimal_math.ts";
import type { DoubleArray } from "../base/double_array.ts";
import { type BlockColumn, K, KIND_NAMES } from "./block.ts";

export interface Converted {
  data: VectorData;
  /** Cells that did not fit (written as NULL). */
  errors: number;
  /** First row that did not fit, or -1. */
  firstBad: number;
  /** Why the first bad row did not fit. */
  message: string;
  /** 1 for each row that did not fit; only when `errors > 0`. */
  bad?: Uint8Array;
}

/** Parses CSV text for one column (a timestamp pattern, say); undefined when it does not parse. */
export type TextParser = (text: string) => Value | undefined;

const TWO_32 = 4294967296;

/** Writes a safe integer into an int64 slot through its two 32-bit halves (no BigInt). */
function putInt64(words: Int32Array, i: number, x: number): void {
  words[2 * i] = x >>> 0;
  words[2 * i + 1] = Math.floor(x / TWO_32);
}

/** Microseconds (a safe integer) as an int64 array for a designated timestamp column. */
export function timestampsToInt64(ts: Float64Array, n: number, unitScale: number): BigInt64Array {
  const out = new BigInt64Array(n);
  const words = new Int32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const x = unitScale === 1 ? ts[i] : unitScale > 1 ? ts[i] * unitScale : Math.floor(ts[i] * unitScale);
    if (Number.isSafeInteger(x)) putInt64(words, i, x);
    else out[i] = BigInt(x);
  }
  return out;
}

export function convertColumn(
  col: BlockColumn,
  n: number,
  type: ColumnType,
  textParser?: TextParser,
): Converted {
  const out: Converted = { data: allocVectorData(type, n), errors: 0, firstBad: -1, message: "" };
  const fail = (row: number, message: () => string) => {
    if (out.errors === 0) {
      out.firstBad = row;
      out.message = message();
      out.bad = new Uint8Array(n);
    }
    out.errors++;
    out.bad![row] = 1;
  };
  const castError = (row: number) =>
    fail(
      row,
      () => `cast error from protocol type: ${KIND_NAMES[col.kinds[row]]} to column type: ${typeName(type)}`,
    );
  switch (type.tag) {
    case "DOUBLE":
    case "FLOAT":
      convertFloating(col, n, out.data as Float64Array, castError);
      break;
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      convertInt64(col, n, type, out.data as BigInt64Array, castError, textParser, fail);
      break;
    case "SYMBOL":
    case "STRING":
    case "VARCHAR":
      convertText(col, n, out.data as Value[], castError);
      break;
    default:
      convertOther(col, n, type, out.data, castError, textParser, fail);
  }
  return out;
}

function convertFloating(
  col: BlockColumn,
  n: number,
  d: Float64Array | Float32Array,
  castError: (r: number) => void,
) {
  const { kinds, nums, refs } = col;
  for (let i = 0; i < n; i++) {
    const k = kinds[i];
    if (k === K.DOUBLE || k === K.LONG) d[i] = nums[i];
    else if (k === K.NONE || k === K.NULL) continue;
    else if (k === K.LONG_BIG) d[i] = Number(refs[i] as bigint);
    else if (k === K.TEXT) {
      const v = parseText(refs[i] as string, { tag: "DOUBLE", geoBits: 0 });
      if (v === undefined) castError(i);
      else d[i] = v === null ? NaN : v as number;
    } else castError(i);
  }
}

function convertInt64(
  col: BlockColumn,
  n: number,
  type: ColumnType,
  d: BigInt64Array,
  castError: (r: number) => void,
  textParser: TextParser | undefined,
  fail: (row: number, message: () => string) => void,
) {
  const { kinds, nums, refs } = col;
  const words = new Int32Array(d.buffer, d.byteOffset, n * 2);
  // A TIMESTAMP field is in microseconds; other time types scale it.
  const tsScale = type.tag === "TIMESTAMP_NS" ? 1000 : type.tag === "DATE" ? 0.001 : 1;
  for (let i = 0; i < n; i++) {
    const k = kinds[i];
    if (k === K.LONG) putInt64(words, i, nums[i]);
    else if (k === K.NONE || k === K.NULL) continue;
    else if (k === K.TIMESTAMP && type.tag !== "LONG") {
      const x = tsScale === 1 ? nums[i] : tsScale > 1 ? nums[i] * tsScale : Math.floor(nums[i] * tsScale);
      if (Number.isSafeInteger(x)) putInt64(words, i, x);
      else d[i] = BigInt(x);
    } else if (k === K.LONG_BIG) d[i] = refs[i] as bigint;
    else if (k === K.TEXT) {
      const text = refs[i] as string;
      const v = textParser ? textParser(text) : parseText(text, type);
      if (v === undefined) fail(i, () => `inconvertible value: \`${text}\` [STRING -> ${typeName(type)}]`);
      else d[i] = v === null ? LONG_NULL : v as bigint;
    } else castError(i);
  }
}

function convertText(col: BlockColumn, n: number, d: Value[], castError: (r: number) => void) {
  const { kinds, refs } = col;
  for (let i = 0; i < n; i++) {
    const k = kinds[i];
    if (k === K.SYMBOL || k === K.STRING) d[i] = refs[i] as string;
    else if (k === K.TEXT) d[i] = refs[i] === "" ? null : refs[i] as string; // an empty CSV field is NULL
    else if (k !== K.NONE && k !== K.NULL) castError(i);
  }
}

/** Narrow integers, BOOLEAN, CHAR and the types parsed from text: value by value. */
function convertOther(
  col: BlockColumn,
  n: number,
  type: ColumnType,
  d: VectorData,
  castError: (r: number) => void,
  textParser: TextParser | undefined,
  fail: (row: number, message: () => string) => void,
) {
  const { kinds, nums, refs } = col;
  const range = INTEGER_RANGES[type.tag];
  for (let i = 0; i < n; i++) {
    const k = kinds[i];
    if (k === K.NONE || k === K.NULL) continue;
    let v: Value | undefined = undefined;
    if (k === K.TEXT) {
      const text = refs[i] as string;
      v = textParser ? textParser(text) : parseText(text, type);
      if (v === undefined) {
        fail(i, () => `inconvertible value: \`${text}\` [STRING -> ${typeName(type)}]`);
        continue;
      }
    } else if (range && (k === K.LONG || k === K.LONG_BIG)) {
      const x = k === K.LONG ? nums[i] : Number(refs[i] as bigint);
      if (x < range[0] || x > range[1]) {
        fail(i, () => `integer value out of range [value=${x}, column type: ${typeName(type)}]`);
        continue;
      }
      v = type.tag === "INT" && x === INT_NULL ? null : x;
    } else if (type.tag === "ARRAY" && k === K.ARRAY) {
      // The dimensionality must match the column's exactly (spec/protocols.md §10.4).
      const a = refs[i] as DoubleArray;
      if (a.dims !== type.dims) {
        fail(
          i,
          () =>
            `cast error from protocol type: DOUBLE${"[]".repeat(a.dims)} to column type: ${typeName(type)}`,
        );
        continue;
      }
      v = a;
    } else if (type.tag === "DECIMAL" && (k === K.DECIMAL || k === K.DOUBLE || k === K.LONG)) {
      v = decimalCell(k === K.DECIMAL ? refs[i] as string : nums[i], type);
      if (v === undefined) {
        const shown = k === K.DECIMAL ? refs[i] as string : String(nums[i]);
        fail(i, () => `inconvertible value: ${shown} [${KIND_NAMES[k]} -> ${typeName(type)}]`);
        continue;
      }
    } else if (type.tag === "BOOLEAN" && k === K.BOOLEAN) v = nums[i] === 1;
    else if (type.tag === "LONG256" && (k === K.LONG256 || k === K.LONG || k === K.LONG_BIG)) {
      v = k === K.LONG ? BigInt(nums[i]) : refs[i] as bigint;
    } else if ((k === K.STRING || k === K.SYMBOL) && PARSED_FROM_STRING.has(type.tag)) {
      const text = refs[i] as string;
      v = parseText(text, type);
      if (v === undefined) {
        fail(i, () => `inconvertible value: \`${text}\` [STRING -> ${typeName(type)}]`);
        continue;
      }
    } else {
      castError(i);
      continue;
    }
    writeValue(type, d, i, v);
  }
}

/**
 * A decimal text or a number as the unscaled value of a DECIMAL(p,s) column; undefined when
 * digits would be lost to the scale or the value exceeds the precision (the line is rejected).
 */
function decimalCell(x: string | number, type: ColumnType): bigint | null | undefined {
  const scale = type.scale ?? 0, precision = type.precision ?? 18;
  // A double goes by its shortest text, so 0.1 is 0.1 and not its binary expansion.
  if (typeof x === "number") return Number.isFinite(x) ? decimalCell(String(x), type) : null;
  const d = parseDecimalText(x);
  if (d === undefined) return undefined;
  const v = rescale(d.unscaled, d.scale, scale, true);
  if (rescale(v, scale, d.scale) !== d.unscaled) return undefined; // digits lost to the scale
  return fitsPrecision(v, precision) ? v : undefined;
}

const INTEGER_RANGES: Partial<Record<string, [number, number]>> = {
  BYTE: [-128, 127],
  SHORT: [-32768, 32767],
  INT: [-2147483648, 2147483647],
};

/** Column types a quoted ILP string may be written to by parsing it (spec/protocols.md §10.2). */
const PARSED_FROM_STRING = new Set(["CHAR", "UUID", "IPV4", "GEOHASH", "LONG256"]);
