/**
 * Exact fixed-point arithmetic for DECIMAL(p, s) (spec/sql.md §23). A value is its unscaled
 * bigint; the scale travels in the type. Rounding is half away from zero (CAST, §23.4),
 * division truncates toward zero (§23.3).
 */
import { DECIMAL_PRECISION_MAX } from "../base/types.ts";

const POW10: bigint[] = [1n];

/** 10^n as a bigint (cached). */
export function pow10(n: number): bigint {
  while (POW10.length <= n) POW10.push(POW10[POW10.length - 1] * 10n);
  return POW10[n];
}

/** A decimal read from text: its unscaled digits and the number of fraction digits written. */
export interface ParsedDecimal {
  unscaled: bigint;
  scale: number;
  /** Significant digits written (leading zeros of the integer part excluded), at least `scale`, at least 1. */
  precision: number;
}

/** `123.45`, `-5`, `.5`, `1.5e3` (an optional trailing `m`); undefined when not a decimal number. */
export function parseDecimalText(text: string): ParsedDecimal | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?[mM]?$/.exec(text.trim());
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  let intPart = m[2], frac = m[3] ?? "";
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  if (Math.abs(exp) > 1000) return undefined;
  if (exp > 0) {
    const moved = frac.slice(0, exp).padEnd(exp, "0");
    intPart += moved;
    frac = frac.slice(exp);
  } else if (exp < 0) {
    const k = -exp;
    const padded = intPart.padStart(k, "0");
    frac = padded.slice(padded.length - k) + frac;
    intPart = padded.slice(0, padded.length - k);
  }
  const digits = (intPart + frac).replace(/^0+/, "");
  const unscaled = BigInt((intPart + frac) || "0") * (m[1] === "-" ? -1n : 1n);
  const intDigits = intPart.replace(/^0+/, "").length;
  return {
    unscaled,
    scale: frac.length,
    precision: Math.max(1, frac.length, intDigits + frac.length, digits.length),
  };
}

/** `v / 10^drop` rounded half away from zero. */
function roundDiv(v: bigint, divisor: bigint): bigint {
  const q = v / divisor, r = v % divisor;
  if (2n * (r < 0n ? -r : r) >= divisor) return q + (v < 0n ? -1n : 1n);
  return q;
}

/** The unscaled value at another scale: more digits are exact, fewer round half away from zero (or truncate). */
export function rescale(v: bigint, from: number, to: number, truncate = false): bigint {
  if (to === from) return v;
  if (to > from) return v * pow10(to - from);
  const d = pow10(from - to);
  return truncate ? v / d : roundDiv(v, d);
}

/** Whether `v` (unscaled) has at most `precision` digits. */
export function fitsPrecision(v: bigint, precision: number): boolean {
  const limit = pow10(precision);
  return v < limit && v > -limit;
}

/** The text with exactly `scale` fraction digits, no exponent (`123.450`, `-0.5`, `7`). */
export function formatDecimal(v: bigint, scale: number): string {
  const neg = v < 0n;
  let s = (neg ? -v : v).toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, "0");
    s = s.slice(0, s.length - scale) + "." + s.slice(s.length - scale);
  }
  return neg ? "-" + s : s;
}

/** A double rounded to `scale` digits from its shortest decimal text; undefined for NaN/±Inf. */
export function decimalFromNumber(x: number, scale: number, truncate = false): bigint | undefined {
  if (!Number.isFinite(x)) return undefined;
  const p = parseDecimalText(String(x));
  return p === undefined ? undefined : rescale(p.unscaled, p.scale, scale, truncate);
}

/** The nearest double of a decimal value. */
export function decimalToNumber(v: bigint, scale: number): number {
  return Number(formatDecimal(v, scale));
}

/** Precision capped at the largest the type allows. */
export function capPrecision(p: number): number {
  return Math.min(DECIMAL_PRECISION_MAX, Math.max(1, p));
}
