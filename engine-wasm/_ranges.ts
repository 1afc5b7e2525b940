/**
 * Turns a comparison with constants into the one test the filter kernels run:
 * `lo <= x <= hi`, optionally negated (see assembly/filter.ts). This is where the NULL rules
 * of spec/sql.md §4.1–4.2 become bounds:
 *
 * - A NULL float fails every range test (NaN compares false; ±Infinity lies outside
 *   [-MAX, MAX]), so `x IS NULL` is NOT [-MAX, MAX].
 * - An integer NULL is the type's minimum, so non-NULL ranges start one above it and
 *   `x IS NULL` is [MIN, MIN].
 * - Strict comparisons become inclusive by stepping to the neighbouring value (nextDown for
 *   floats, c - 1 for integers); fractional constants round inward for integer columns.
 *
 * `null` means no row can match.
 */
import type { CompareOp } from "./kernels.ts";

export interface Range<V> {
  lo: V;
  hi: V;
  negate: boolean;
}

const F64_MAX = Number.MAX_VALUE;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const INT_MIN = -2147483648;

const f64 = new Float64Array(1);
const f64Bits = new BigInt64Array(f64.buffer);
const f32 = new Float32Array(1);
const f32Bits = new Int32Array(f32.buffer);

/** The next double above x (x finite). */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  f64[0] = x;
  f64Bits[0] += x > 0 ? 1n : -1n;
  return f64[0];
}

function nextDown(x: number): number {
  return -nextUp(-x);
}

/** The next float above x, for x a float or ±Infinity. */
function nextUpF32(x: number): number {
  if (x === 0) return 1.401298464324817e-45;
  f32[0] = x;
  f32Bits[0] += x > 0 ? 1 : -1;
  return f32[0];
}

/** The smallest float >= x. */
function ceilF32(x: number): number {
  const f = Math.fround(x);
  return f < x ? nextUpF32(f) : f;
}

/** The largest float <= x. */
function floorF32(x: number): number {
  const f = Math.fround(x);
  return f > x ? -nextUpF32(-f) : f;
}

function range<V>(lo: V, hi: V, negate = false): Range<V> {
  return { lo, hi, negate };
}

function isNullFloat(v: number | null | undefined): boolean {
  return v === null || v === undefined || !Number.isFinite(v);
}

/** Range over DOUBLE (or, with `single`, FLOAT) values. */
export function floatRange(
  op: CompareOp,
  a: number | null,
  b: number | null | undefined,
  single: boolean,
): Range<number> | null {
  const r = floatRange64(op, a, b);
  if (!r || !single) return r;
  // A FLOAT x lies in [lo, hi] exactly when it lies in [ceilF32(lo), floorF32(hi)].
  return range(ceilF32(r.lo), floorF32(r.hi), r.negate);
}

function floatRange64(op: CompareOp, a: number | null, b: number | null | undefined): Range<number> | null {
  const aNull = isNullFloat(a);
  const c = a as number;
  const isNull = range(-F64_MAX, F64_MAX, true);
  switch (op) {
    case "eq":
      return aNull ? isNull : range(c, c);
    case "ne":
      return aNull ? range(-F64_MAX, F64_MAX) : range(c, c, true);
    case "lt":
      return aNull ? null : range(-F64_MAX, nextDown(c));
    case "le":
      return aNull ? isNull : range(-F64_MAX, c);
    case "gt":
      return aNull ? null : range(nextUp(c), F64_MAX);
    case "ge":
      return aNull ? isNull : range(c, F64_MAX);
    case "between":
      return aNull || isNullFloat(b) ? null : range(c, b as number);
  }
}

/** Limits of the 32-bit and narrower integer kinds. */
const INT_LIMITS = {
  i32: { min: INT_MIN, max: 2147483647, nullable: true },
  i16: { min: -32768, max: 32767, nullable: false },
  i8: { min: -128, max: 127, nullable: false },
} as const;

/** Range over INT, SHORT or BYTE values for number constants (exact, fractions allowed). */
export function intRange(
  kind: "i32" | "i16" | "i8",
  op: CompareOp,
  a: number | null,
  b: number | null | undefined,
): Range<number> | null {
  const { min, max, nullable } = INT_LIMITS[kind];
  const first = nullable ? min + 1 : min; // smallest non-NULL value
  const isNull = (v: number | null | undefined) =>
    v === null || v === undefined || !Number.isFinite(v) || (nullable && v === INT_MIN);
  const clamp = (lo: number, hi: number) => {
    const l = Math.max(lo, first), h = Math.min(hi, max);
    return l <= h ? range(l, h) : null;
  };
  const nullRange = nullable ? range(min, min) : null; // x IS NULL
  if (isNull(a)) {
    if (op === "eq" || op === "le" || op === "ge") return nullRange;
    if (op === "ne") return nullRange ? range(min, min, true) : range(min, max);
    return null;
  }
  const c = a as number;
  switch (op) {
    case "eq":
      return Number.isInteger(c) ? clamp(c, c) : null;
    case "ne": {
      const eq = Number.isInteger(c) ? clamp(c, c) : null;
      return eq ? range(eq.lo, eq.hi, true) : range(min, max);
    }
    case "lt":
      return clamp(first, Math.ceil(c) - 1);
    case "le":
      return clamp(first, Math.floor(c));
    case "gt":
      return clamp(Math.floor(c) + 1, max);
    case "ge":
      return clamp(Math.ceil(c), max);
    case "between":
      return isNull(b) ? null : clamp(Math.ceil(c), Math.floor(b as number));
  }
}

/** Range over LONG/TIMESTAMP values; LONG_MIN or null is NULL. */
export function longRange(
  op: CompareOp,
  a: bigint | null,
  b: bigint | null | undefined,
): Range<bigint> | null {
  const first = LONG_MIN + 1n;
  const aNull = a === null || a === LONG_MIN;
  const c = a as bigint;
  switch (op) {
    case "eq":
      return aNull ? range(LONG_MIN, LONG_MIN) : range(c, c);
    case "ne":
      return aNull ? range(LONG_MIN, LONG_MIN, true) : range(c, c, true);
    case "lt":
      return aNull || c <= first ? null : range(first, c - 1n);
    case "le":
      return aNull ? range(LONG_MIN, LONG_MIN) : range(first, c);
    case "gt":
      return aNull || c === LONG_MAX ? null : range(c + 1n, LONG_MAX);
    case "ge":
      return aNull ? range(LONG_MIN, LONG_MIN) : range(c, LONG_MAX);
    case "between": {
      if (aNull || b === null || b === undefined || b === LONG_MIN) return null;
      return c <= b ? range(c, b) : null;
    }
  }
}
