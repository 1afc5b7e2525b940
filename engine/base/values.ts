/**
 * Scalar values and column vectors: the data contract between storage, functions, the
 * executor and the listeners.
 *
 * Scalar form (what a function receives and returns, what a listener renders) uses `null`
 * for SQL NULL in every type, so functions test `v === null` only:
 *
 * | type                                   | JS value                                    |
 * |----------------------------------------|---------------------------------------------|
 * | BOOLEAN                                | boolean (never null)                        |
 * | BYTE, SHORT                            | number (never null)                         |
 * | INT                                    | number, null                                |
 * | FLOAT, DOUBLE                          | finite number, null (NaN/±Inf become null)  |
 * | LONG                                   | bigint, null                                |
 * | DATE (ms), TIMESTAMP (µs), TIMESTAMP_NS| bigint, null                                |
 * | CHAR                                   | one-character string, null (code unit 0)    |
 * | SYMBOL, STRING, VARCHAR                | string, null                                |
 * | UUID                                   | lowercase canonical string, null            |
 * | IPV4                                   | number 1..2^32-1 (unsigned), null (0.0.0.0) |
 * | LONG256                                | bigint 0..2^256-1, null                     |
 * | GEOHASH                                | bigint of geoBits bits, null                |
 * | BINARY                                 | Uint8Array, null                            |
 * | INTERVAL                               | Interval, null                              |
 * | ARRAY (DOUBLE[]…)                      | DoubleArray, null                           |
 * | DECIMAL(p,s)                           | bigint unscaled value (× 10^-s), null       |
 *
 * Vector form (inside a batch) is storage-shaped: typed arrays holding the QuestDB sentinels
 * (INT_MIN, LONG_MIN, NaN, symbol key -1), so kernels and files share one layout.
 */
import type { ColumnType } from "./types.ts";
import { DoubleArray } from "./double_array.ts";

export { DoubleArray };

export interface Interval {
  lo: bigint;
  hi: bigint;
}

export type Value = null | boolean | number | bigint | string | Uint8Array | Interval | DoubleArray;

export const INT_NULL = -2147483648;
export const LONG_NULL = -9223372036854775808n;
export const SYMBOL_NULL_KEY = -1;
/** A GEOHASH null is all ones in its storage width; as a bigint, -1n in that width. */
export const GEOHASH_NULL = -1n;

/** Normalizes a computed double: NaN and infinities are NULL (§2.1). */
export function dbl(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** Wraps to 32-bit two's complement; INT_MIN reads back as NULL (§4.3). */
export function int32(x: number): number | null {
  const v = x | 0;
  return v === INT_NULL ? null : v;
}

/** Wraps to 64-bit two's complement; LONG_MIN reads back as NULL (§4.3). */
export function int64(x: bigint): bigint | null {
  const v = BigInt.asIntN(64, x);
  return v === LONG_NULL ? null : v;
}

/**
 * A typed array or a JS array holding one column of a batch.
 *
 * Layout per type:
 * - BOOLEAN, BYTE: Int8Array (BOOLEAN 0/1)
 * - SHORT: Int16Array; CHAR: Uint16Array (0 = null)
 * - INT: Int32Array (INT_MIN = null); IPV4: Int32Array (bit pattern, 0 = null)
 * - FLOAT: Float32Array; DOUBLE: Float64Array (NaN = null)
 * - LONG, DATE, TIMESTAMP, TIMESTAMP_NS: BigInt64Array (LONG_MIN = null)
 * - SYMBOL: Int32Array of dictionary keys (-1 = null) plus `dict`; a SYMBOL computed by an
 *   expression (no dictionary) is Value[] of strings instead
 * - STRING, VARCHAR, UUID, LONG256, GEOHASH, BINARY, INTERVAL, ARRAY, DECIMAL, NULL: Value[] in
 *   scalar form
 */
export type VectorData =
  | Int8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | Value[];

/** A read-only view of a symbol column's dictionary: key → string. */
export interface SymbolDict {
  valueOf(key: number): string | null;
  /** Key of `value`, or undefined when the dictionary does not hold it. */
  keyOf(value: string): number | undefined;
  readonly size: number;
}

export interface Vector {
  readonly type: ColumnType;
  readonly data: VectorData;
  /** Present for SYMBOL vectors. */
  readonly dict?: SymbolDict;
  /**
   * The values never decrease: a partition's designated timestamp as the snapshot reads it.
   * Only operators that keep row order pass it on (a forward scan, a filter's gather); every
   * other vector leaves it unset (vector/time_field_runs.ts reads it).
   */
  readonly ascending?: boolean;
  /**
   * A NOT NULL table column as the result shows it (plan/not_null_columns.ts, INT and LONG):
   * its NULL sentinel is a value, read as the number stored (spec/sql.md §5.1).
   */
  readonly notNull?: boolean;
}

/** Rows flowing between operators: column vectors of equal length (≤ BATCH_ROWS_MAX). */
export interface Batch {
  readonly rowCount: number;
  readonly columns: Vector[];
}

/** Reads row `i` of a vector in scalar form. */
export function readValue(v: Vector, i: number): Value {
  const d = v.data;
  switch (v.type.tag) {
    case "BOOLEAN":
      return (d as Int8Array)[i] !== 0;
    case "BYTE":
    case "SHORT":
      return (d as Int8Array)[i];
    case "CHAR": {
      const c = (d as Uint16Array)[i];
      return c === 0 ? null : String.fromCharCode(c);
    }
    case "INT": {
      const x = (d as Int32Array)[i];
      return x === INT_NULL && !v.notNull ? null : x;
    }
    case "IPV4": {
      const x = (d as Int32Array)[i] >>> 0;
      return x === 0 ? null : x;
    }
    case "FLOAT":
    case "DOUBLE": {
      const x = (d as Float64Array)[i];
      return Number.isFinite(x) ? x : null;
    }
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS": {
      const x = (d as BigInt64Array)[i];
      return x === LONG_NULL && !v.notNull ? null : x;
    }
    case "SYMBOL": {
      // A symbol computed by an expression has no dictionary and carries its strings.
      if (!v.dict) return (d as Value[])[i] ?? null;
      const k = (d as Int32Array)[i];
      return k < 0 ? null : v.dict.valueOf(k);
    }
    default:
      return (d as Value[])[i] ?? null;
  }
}

/**
 * Types whose vectors are typed arrays: the ones `allocVectorData` gives a typed array, and
 * SYMBOL, whose scanned vectors hold dictionary codes in an Int32Array (a computed symbol
 * carries strings instead, so readers still check `dict`).
 */
export const TYPED_VECTOR_TAGS: ReadonlySet<string> = new Set([
  "BOOLEAN",
  "BYTE",
  "SHORT",
  "CHAR",
  "INT",
  "IPV4",
  "FLOAT",
  "DOUBLE",
  "LONG",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
  "SYMBOL",
]);

/** Allocates an empty vector data array of `n` rows for type `t` (all NULL / false / 0). */
export function allocVectorData(t: ColumnType, n: number): VectorData {
  const d = zeroedVectorData(t, n);
  switch (t.tag) {
    case "BOOLEAN":
    case "BYTE":
    case "SHORT":
    case "CHAR":
    case "IPV4":
      return d;
    case "INT":
      return (d as Int32Array).fill(INT_NULL);
    case "FLOAT":
      return (d as Float32Array).fill(NaN);
    case "DOUBLE":
      return (d as Float64Array).fill(NaN);
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return (d as BigInt64Array).fill(LONG_NULL);
    default:
      return (d as Value[]).fill(null);
  }
}

/**
 * The array `allocVectorData` gives, not yet NULL-filled (zeros; holes for a `Value[]`), for
 * callers that write every row anyway.
 */
export function zeroedVectorData(t: ColumnType, n: number): VectorData {
  switch (t.tag) {
    case "BOOLEAN":
    case "BYTE":
      return new Int8Array(n);
    case "SHORT":
      return new Int16Array(n);
    case "CHAR":
      return new Uint16Array(n);
    case "INT":
    case "IPV4":
      return new Int32Array(n);
    case "FLOAT":
      return new Float32Array(n);
    case "DOUBLE":
      return new Float64Array(n);
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return new BigInt64Array(n);
    default:
      return new Array<Value>(n);
  }
}

/**
 * Writes a scalar value into row `i`. The value must already be of the vector's type
 * (conversion happens before, in the function or cast layer). SYMBOL vectors built this way
 * hold strings (no dictionary).
 */
export function writeValue(t: ColumnType, d: VectorData, i: number, x: Value): void {
  switch (t.tag) {
    case "BOOLEAN":
      (d as Int8Array)[i] = x === true ? 1 : 0;
      return;
    case "BYTE":
    case "SHORT":
      (d as Int8Array)[i] = x === null ? 0 : (x as number);
      return;
    case "CHAR":
      (d as Uint16Array)[i] = x === null ? 0 : (x as string).charCodeAt(0);
      return;
    case "INT":
      (d as Int32Array)[i] = x === null ? INT_NULL : (x as number);
      return;
    case "IPV4":
      (d as Int32Array)[i] = x === null ? 0 : (x as number) | 0;
      return;
    case "FLOAT":
    case "DOUBLE":
      (d as Float64Array)[i] = x === null ? NaN : (x as number);
      return;
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      (d as BigInt64Array)[i] = x === null ? LONG_NULL : (x as bigint);
      return;
    default:
      (d as Value[])[i] = x;
  }
}

/** The value a non-nullable type stores for NULL (§2.1), or null for nullable types. */
export function nullValueOf(t: ColumnType): Value {
  switch (t.tag) {
    case "BOOLEAN":
      return false;
    case "BYTE":
    case "SHORT":
      return 0;
    default:
      return null;
  }
}
