/**
 * Numbers straight from ILP bytes: doubles (exact fast path for up to 15 significant digits and
 * small exponents, the JS parser otherwise), 64-bit integers (numbers within ±2^53, bigints
 * beyond) and timestamps converted to microseconds. No strings on the fast paths.
 */

const POW10 = [
  1,
  1e1,
  1e2,
  1e3,
  1e4,
  1e5,
  1e6,
  1e7,
  1e8,
  1e9,
  1e10,
  1e11,
  1e12,
  1e13,
  1e14,
  1e15,
  1e16,
  1e17,
  1e18,
  1e19,
  1e20,
  1e21,
  1e22,
];
const DOUBLE_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const SPECIAL_TEXT = /^[-+]?(NaN|Infinity)$/;
const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;

function ascii(buf: Uint8Array, from: number, to: number): string {
  let s = "";
  for (let i = from; i < to && i - from < 400; i++) s += String.fromCharCode(buf[i]);
  return s;
}

/** A double in decimal or exponent notation, NaN or Infinity; undefined when not a number. */
export function parseDoubleBytes(buf: Uint8Array, from: number, to: number): number | undefined {
  let i = from;
  let neg = false;
  if (buf[i] === 0x2d) {
    neg = true;
    i++;
  } else if (buf[i] === 0x2b) i++;
  let mant = 0, digits = 0, exp = 0, seen = false, exact = true;
  let c = buf[i];
  while (i < to && c >= 0x30 && c <= 0x39) {
    seen = true;
    if (digits < 15) {
      mant = mant * 10 + (c - 0x30);
      if (mant !== 0) digits++;
    } else {
      exp++;
      if (c !== 0x30) exact = false;
    }
    c = buf[++i];
  }
  if (i < to && c === 0x2e) {
    c = buf[++i];
    while (i < to && c >= 0x30 && c <= 0x39) {
      seen = true;
      if (digits < 15) {
        mant = mant * 10 + (c - 0x30);
        if (mant !== 0) digits++;
        exp--;
      } else if (c !== 0x30) exact = false;
      c = buf[++i];
    }
  }
  if (!seen) return slowDouble(buf, from, to);
  if (i < to && (c | 0x20) === 0x65) {
    i++;
    let eneg = false;
    if (buf[i] === 0x2d) {
      eneg = true;
      i++;
    } else if (buf[i] === 0x2b) i++;
    let e = 0, edigits = 0;
    c = buf[i];
    while (i < to && c >= 0x30 && c <= 0x39) {
      if (e < 100000) e = e * 10 + (c - 0x30);
      edigits++;
      c = buf[++i];
    }
    if (edigits === 0) return undefined;
    exp += eneg ? -e : e;
  }
  if (i !== to) return undefined;
  if (!exact || exp < -22 || exp > 22) return slowDouble(buf, from, to);
  const v = exp < 0 ? mant / POW10[-exp] : mant * POW10[exp];
  return neg ? -v : v;
}

/**
 * The common field values in one pass over their bytes: `[-]digits[.digits]` (a double) or
 * `[-]digits` then `i` (an integer), followed by a value separator (`,`, space, line end), with
 * at most 15 digits so the mantissa is exact. Returns the offset of that separator, with the
 * value in `out[0]` (an integer when `buf[end - 1]` is `i`), or -1 for anything else, which
 * the caller then scans and types the general way (with the same result for these values:
 * this is parseDoubleBytes's exact path, fused with finding the value's end).
 */
export function scanPlainNumber(buf: Uint8Array, from: number, end: number, out: Float64Array): number {
  let j = from, neg = false;
  if (j < end && buf[j] === 0x2d) {
    neg = true;
    j++;
  }
  const d0 = j;
  let m = 0, c = 0;
  while (j < end && (c = buf[j] - 0x30) >>> 0 <= 9) {
    m = m * 10 + c;
    j++;
  }
  let digits = j - d0;
  if (digits === 0) return -1;
  let scale = 0, dot = false;
  if (j < end && buf[j] === 0x2e) {
    dot = true;
    const f0 = ++j;
    while (j < end && (c = buf[j] - 0x30) >>> 0 <= 9) {
      m = m * 10 + c;
      j++;
    }
    scale = j - f0;
    digits += scale;
  }
  if (digits > 15 || j >= end) return -1;
  let b = buf[j];
  if (b === 0x69 && !dot) { // i
    if (++j >= end) return -1;
    b = buf[j];
  } else if (scale > 0) m /= POW10[scale];
  if (b !== 0x2c && b !== 0x20 && b !== 0x0a && b !== 0x0d) return -1;
  out[0] = neg ? -m : m;
  return j;
}

function slowDouble(buf: Uint8Array, from: number, to: number): number | undefined {
  const s = ascii(buf, from, to);
  if (DOUBLE_TEXT.test(s)) return Number(s);
  if (SPECIAL_TEXT.test(s)) return Number(s);
  return undefined;
}

/** `[-]digits` as a number when within ±2^53, a bigint within int64, else undefined. */
export function parseIntBytes(buf: Uint8Array, from: number, to: number): number | bigint | undefined {
  let i = from;
  let neg = false;
  if (buf[i] === 0x2d) {
    neg = true;
    i++;
  } else if (buf[i] === 0x2b) i++;
  if (i >= to) return undefined;
  let v = 0;
  for (let j = i; j < to; j++) {
    const c = buf[j];
    if (c < 0x30 || c > 0x39) return undefined;
    v = v * 10 + (c - 0x30);
  }
  if (v <= Number.MAX_SAFE_INTEGER) return neg ? -v : v;
  const big = BigInt(ascii(buf, from, to).replace(/^\+/, ""));
  return big > LONG_MAX || big < LONG_MIN ? undefined : big;
}

/**
 * `buf[from, to)` (at most 8 bytes) as an int32 when all are digits, else -1. Eight digits
 * stay below 1e8 < 2^31, so the loop is int32 arithmetic that V8 keeps in registers; callers
 * combine chunks as `hi * 1e8 + lo`, much cheaper than a double multiply-add per digit.
 */
function digits8(buf: Uint8Array, from: number, to: number): number {
  let v = 0;
  for (let j = from; j < to; j++) {
    const c = (buf[j] - 0x30) | 0;
    if (c >>> 0 > 9) return -1;
    v = (v * 10 + c) | 0;
  }
  return v;
}

/**
 * `buf[from, to)` (at most 19 digits) as a number, NaN when a byte is not a digit. Beyond
 * 2^53 the result is rounded but stays above Number.MAX_SAFE_INTEGER (rounding is monotonic),
 * which is all the callers' range checks need.
 */
function digits19(buf: Uint8Array, from: number, to: number): number {
  // Chunks of 8 digits from the right: [from, a) [a, b) [b, to), the first ones possibly empty.
  const b = Math.max(from, to - 8), a = Math.max(from, b - 8);
  const lo = digits8(buf, b, to), mid = digits8(buf, a, b), hi = digits8(buf, from, a);
  if ((lo | mid | hi) < 0) return NaN;
  return (hi * 1e8 + mid) * 1e8 + lo;
}

/**
 * An integer timestamp converted to microseconds: `microsPer` is the multiplier from its unit
 * (negative: a divisor, -1000 for nanoseconds, floored). NaN when not an integer or when the
 * result is beyond ±2^53 µs (year 2255).
 */
export function parseMicrosBytes(buf: Uint8Array, from: number, to: number, microsPer: number): number {
  let i = from;
  let neg = false;
  if (buf[i] === 0x2d) {
    neg = true;
    i++;
  }
  if (i >= to || to - i > 19) return NaN;
  if (microsPer < 0) {
    // Drop the digits below a microsecond (flooring) so that the rest stays exact.
    const cut = Math.max(i, to - 3);
    const sub = digits8(buf, cut, to);
    if (sub < 0) return NaN;
    const hi = cut > i ? digits19(buf, i, cut) : 0;
    if (!(hi <= Number.MAX_SAFE_INTEGER)) return NaN; // also NaN for a non-digit
    return neg ? -hi - (sub > 0 ? 1 : 0) : hi;
  }
  let v = digits19(buf, i, to);
  v *= microsPer;
  if (!(v <= Number.MAX_SAFE_INTEGER)) return NaN;
  return neg ? -v : v;
}
