// Result text: DOUBLE cells as Java's Double.toString prints them (engine/functions/
// double_format.ts), and the rows of /exec JSON assembled from cells already written as bytes.
//
// Digits are Ryu's (Ulf Adams, PLDI 2018; d2s.c with its full tables, ryu_tables.ts): the
// shortest that read back to the value, the closest of those when several, which is what
// JavaScript's Number.prototype.toString picks and so what formatDouble's text holds. Subnormal
// values stop the kernel (Java may add a second digit there): the caller formats that cell.

import { POW5_INV_SPLIT, POW5_SPLIT } from "./ryu_tables";

const POW5_INV_BITCOUNT: i32 = 125;
const POW5_BITCOUNT: i32 = 125;

/** High word of the last `umul128`. */
let mulHi: u64 = 0;

// @ts-ignore: decorator
@inline function pow5bits(e: i32): i32 {
  return <i32>((<u32>e * 1217359) >> 19) + 1;
}

// @ts-ignore: decorator
@inline function log10Pow2(e: i32): u32 {
  return (<u32>e * 78913) >> 18;
}

// @ts-ignore: decorator
@inline function log10Pow5(e: i32): u32 {
  return (<u32>e * 732923) >> 20;
}

function pow5Factor(v: u64): u32 {
  let count: u32 = 0;
  for (;;) {
    const q = v / 5;
    if (v - q * 5 != 0) break;
    v = q;
    count++;
  }
  return count;
}

// @ts-ignore: decorator
@inline function multipleOfPowerOf5(v: u64, p: u32): bool {
  return pow5Factor(v) >= p;
}

// @ts-ignore: decorator
@inline function multipleOfPowerOf2(v: u64, p: u32): bool {
  return (v & ((<u64>1 << p) - 1)) == 0;
}

// Divisions by constants stay divisions: V8 turns an i64.div_u by a constant into a multiply by
// its reciprocal with the CPU's 64x64->128 multiply, which beat a multiply emulated in 32-bit
// halves (38 against 45 ns a value).
// @ts-ignore: decorator
@inline function div10(x: u64): u64 {
  return x / 10;
}

// @ts-ignore: decorator
@inline function div100(x: u64): u64 {
  return x / 100;
}

// @ts-ignore: decorator
@inline function div1e8(x: u64): u64 {
  return x / 100000000;
}

/** Low word of a * b; the high word goes to `mulHi`. */
// @ts-ignore: decorator
@inline function umul128(a: u64, b: u64): u64 {
  const aLo = a & 0xffffffff, aHi = a >> 32, bLo = b & 0xffffffff, bHi = b >> 32;
  const b00 = aLo * bLo, b01 = aLo * bHi, b10 = aHi * bLo, b11 = aHi * bHi;
  const mid1 = b10 + (b00 >> 32);
  const mid2 = b01 + (mid1 & 0xffffffff);
  mulHi = b11 + (mid1 >> 32) + (mid2 >> 32);
  return (mid2 << 32) | (b00 & 0xffffffff);
}

/** vp and vm of the last `mulShiftAll64`. */
let vpOut: u64 = 0, vmOut: u64 = 0;

// @ts-ignore: decorator
@inline function shr128(lo: u64, hi: u64, dist: i32): u64 {
  return (hi << <u64>(64 - dist)) | (lo >> <u64>dist);
}

/**
 * Ryu's mulShiftAll64 (the variant for 64-bit multiplies): (4·m2·mul) >> j, and vp, vm for
 * 4·m2 + 2 and 4·m2 - 1 - mmShift, from one 192-bit product 2·m2·mul.
 */
function mulShiftAll64(m2: u64, mul: usize, j: i32, mmShift: u64): u64 {
  const m = m2 << 1;
  const mul0 = load<u64>(mul), mul1 = load<u64>(mul, 8);
  const lo = umul128(m, mul0);
  const tmp = mulHi;
  const midLo = umul128(m, mul1);
  let hi = mulHi;
  const mid = tmp + midLo;
  if (mid < tmp) hi++;
  const lo2 = lo + mul0;
  const mid2 = mid + mul1 + (lo2 < lo ? 1 : 0);
  const hi2 = hi + (mid2 < mid ? 1 : 0);
  vpOut = shr128(mid2, hi2, j - 65);
  if (mmShift == 1) {
    const lo3 = lo - mul0;
    const mid3 = mid - mul1 - (lo3 > lo ? 1 : 0);
    const hi3 = hi - (mid3 > mid ? 1 : 0);
    vmOut = shr128(mid3, hi3, j - 65);
  } else {
    const lo3 = lo + lo;
    const mid3 = mid + mid + (lo3 < lo ? 1 : 0);
    const hi3 = hi + hi + (mid3 < mid ? 1 : 0);
    const lo4 = lo3 - mul0;
    const mid4 = mid3 - mul1 - (lo4 > lo3 ? 1 : 0);
    const hi4 = hi3 - (mid4 > mid3 ? 1 : 0);
    vmOut = shr128(mid4, hi4, j - 64);
  }
  return shr128(mid, hi, j - 65);
}

/** Decimal digits of v (v < 10^17). */
// @ts-ignore: decorator
@inline function decimalLength17(v: u64): i32 {
  if (v >= 10000000000000000) return 17;
  if (v >= 1000000000000000) return 16;
  if (v >= 100000000000000) return 15;
  if (v >= 10000000000000) return 14;
  if (v >= 1000000000000) return 13;
  if (v >= 100000000000) return 12;
  if (v >= 10000000000) return 11;
  if (v >= 1000000000) return 10;
  if (v >= 100000000) return 9;
  if (v >= 10000000) return 8;
  if (v >= 1000000) return 7;
  if (v >= 100000) return 6;
  if (v >= 10000) return 5;
  if (v >= 1000) return 4;
  if (v >= 100) return 3;
  if (v >= 10) return 2;
  return 1;
}

/** The decimal exponent of the shortest digits of the last `shortest` call. */
let decExponent: i32 = 0;

/**
 * Ryu's d2d: the shortest decimal digits of a positive finite normal double's bits, as an
 * integer; its power of ten goes to `decExponent`.
 */
function shortest(ieeeMantissa: u64, ieeeExponent: u32): u64 {
  const e2 = <i32>ieeeExponent - 1023 - 52 - 2;
  const m2 = (<u64>1 << 52) | ieeeMantissa;
  const acceptBounds = (m2 & 1) == 0;
  const mv = m2 << 2;
  const mmShift: u64 = ieeeMantissa != 0 || ieeeExponent <= 1 ? 1 : 0;
  let vr: u64, vp: u64, vm: u64;
  let e10: i32;
  let vmIsTrailingZeros = false, vrIsTrailingZeros = false;
  if (e2 >= 0) {
    const q = log10Pow2(e2) - (e2 > 3 ? 1 : 0);
    e10 = <i32>q;
    const k = POW5_INV_BITCOUNT + pow5bits(<i32>q) - 1;
    const i = -e2 + <i32>q + k;
    const mul = POW5_INV_SPLIT + (<usize>q << 4);
    vr = mulShiftAll64(m2, mul, i, mmShift);
    vp = vpOut;
    vm = vmOut;
    if (q <= 21) {
      // Only one of mp, mv and mm can be a multiple of 5, if any.
      if (mv % 5 == 0) vrIsTrailingZeros = multipleOfPowerOf5(mv, q);
      else if (acceptBounds) vmIsTrailingZeros = multipleOfPowerOf5(mv - 1 - mmShift, q);
      else vp -= multipleOfPowerOf5(mv + 2, q) ? 1 : 0;
    }
  } else {
    const q = log10Pow5(-e2) - (-e2 > 1 ? 1 : 0);
    e10 = <i32>q + e2;
    const i = -e2 - <i32>q;
    const k = pow5bits(i) - POW5_BITCOUNT;
    const j = <i32>q - k;
    const mul = POW5_SPLIT + (<usize>i << 4);
    vr = mulShiftAll64(m2, mul, j, mmShift);
    vp = vpOut;
    vm = vmOut;
    if (q <= 1) {
      // mv = 4 * m2 has at least two trailing zero bits.
      vrIsTrailingZeros = true;
      if (acceptBounds) vmIsTrailingZeros = mmShift == 1;
      else vp--;
    } else if (q < 63) {
      vrIsTrailingZeros = multipleOfPowerOf2(mv, q);
    }
  }
  let removed: i32 = 0;
  let lastRemovedDigit: u64 = 0;
  let output: u64;
  if (vmIsTrailingZeros || vrIsTrailingZeros) {
    // The general case (rare).
    for (;;) {
      const vpDiv10 = div10(vp), vmDiv10 = div10(vm);
      if (vpDiv10 <= vmDiv10) break;
      const vmMod10 = vm - vmDiv10 * 10;
      const vrDiv10 = div10(vr);
      const vrMod10 = vr - vrDiv10 * 10;
      vmIsTrailingZeros = vmIsTrailingZeros && vmMod10 == 0;
      vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0;
      lastRemovedDigit = vrMod10;
      vr = vrDiv10;
      vp = vpDiv10;
      vm = vmDiv10;
      removed++;
    }
    if (vmIsTrailingZeros) {
      for (;;) {
        const vmDiv10 = div10(vm);
        const vmMod10 = vm - vmDiv10 * 10;
        if (vmMod10 != 0) break;
        const vpDiv10 = div10(vp), vrDiv10 = div10(vr);
        const vrMod10 = vr - vrDiv10 * 10;
        vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0;
        lastRemovedDigit = vrMod10;
        vr = vrDiv10;
        vp = vpDiv10;
        vm = vmDiv10;
        removed++;
      }
    }
    // Round half to even when the exact value is ...50...0.
    if (vrIsTrailingZeros && lastRemovedDigit == 5 && (vr & 1) == 0) lastRemovedDigit = 4;
    output = vr + ((vr == vm && (!acceptBounds || !vmIsTrailingZeros)) || lastRemovedDigit >= 5 ? 1 : 0);
  } else {
    // The common case: no trailing zeros to track.
    let roundUp = false;
    // Two digits at a time while both go (Ryu takes one such step; more are the same steps
    // paired: only the last removed digit decides the rounding here).
    for (;;) {
      const vpDiv100 = div100(vp), vmDiv100 = div100(vm);
      if (vpDiv100 <= vmDiv100) break;
      const vrDiv100 = div100(vr);
      roundUp = vr - vrDiv100 * 100 >= 50;
      vr = vrDiv100;
      vp = vpDiv100;
      vm = vmDiv100;
      removed += 2;
    }
    for (;;) {
      const vpDiv10 = div10(vp), vmDiv10 = div10(vm);
      if (vpDiv10 <= vmDiv10) break;
      const vrDiv10 = div10(vr);
      roundUp = vr - vrDiv10 * 10 >= 5;
      vr = vrDiv10;
      vp = vpDiv10;
      vm = vmDiv10;
      removed++;
    }
    output = vr + (vr == vm || roundUp ? 1 : 0);
  }
  decExponent = e10 + removed;
  return output;
}

/** The digits of the last `smallInt` that answered true (its power of ten in `decExponent`). */
let intDigits: u64 = 0;

/**
 * Ryu's d2d_small_int: an integer in [1, 2^53) is its own shortest digits, less trailing zeros
 * (the general path removes those one division at a time).
 */
function smallInt(ieeeMantissa: u64, ieeeExponent: u32): bool {
  const e2 = <i32>ieeeExponent - 1023 - 52;
  if (e2 > 0 || e2 < -52) return false;
  const m2 = (<u64>1 << 52) | ieeeMantissa;
  const shift = <u64>-e2;
  if ((m2 & ((<u64>1 << shift) - 1)) != 0) return false;
  let v = m2 >> shift, e: i32 = 0;
  for (;;) {
    const q = div10(v);
    if (v - q * 10 != 0) break;
    v = q;
    e++;
  }
  intDigits = v;
  decExponent = e;
  return true;
}

/** "00".."99": two digits a step. */
const PAIRS: usize = memory.data<u8>([
  48, 48, 48, 49, 48, 50, 48, 51, 48, 52, 48, 53, 48, 54, 48, 55, 48, 56, 48, 57,
  49, 48, 49, 49, 49, 50, 49, 51, 49, 52, 49, 53, 49, 54, 49, 55, 49, 56, 49, 57,
  50, 48, 50, 49, 50, 50, 50, 51, 50, 52, 50, 53, 50, 54, 50, 55, 50, 56, 50, 57,
  51, 48, 51, 49, 51, 50, 51, 51, 51, 52, 51, 53, 51, 54, 51, 55, 51, 56, 51, 57,
  52, 48, 52, 49, 52, 50, 52, 51, 52, 52, 52, 53, 52, 54, 52, 55, 52, 56, 52, 57,
  53, 48, 53, 49, 53, 50, 53, 51, 53, 52, 53, 53, 53, 54, 53, 55, 53, 56, 53, 57,
  54, 48, 54, 49, 54, 50, 54, 51, 54, 52, 54, 53, 54, 54, 54, 55, 54, 56, 54, 57,
  55, 48, 55, 49, 55, 50, 55, 51, 55, 52, 55, 53, 55, 54, 55, 55, 55, 56, 55, 57,
  56, 48, 56, 49, 56, 50, 56, 51, 56, 52, 56, 53, 56, 54, 56, 55, 56, 56, 56, 57,
  57, 48, 57, 49, 57, 50, 57, 51, 57, 52, 57, 53, 57, 54, 57, 55, 57, 56, 57, 57,
]);

/** Writes the `len` digits of v (u32) ending at `end` (exclusive), two at a time. */
// @ts-ignore: decorator
@inline function digits32(v: u32, end: usize, len: i32): void {
  let at = end;
  const stop = end - <usize>len;
  while (at - stop >= 2) {
    const q = v / 100;
    at -= 2;
    store<u16>(at, load<u16>(PAIRS + (<usize>(v - q * 100) << 1)));
    v = q;
  }
  if (at > stop) store<u8>(at - 1, <u8>(48 + v));
}

/**
 * Writes the 8 digits of v (v < 10^8) at [at, at + 8): halves of 4 digits, then pairs, so the
 * divisions form two short chains instead of one of four (17 digits: 12.2 -> 9.2 ns).
 */
// @ts-ignore: decorator
@inline function digits8(v: u32, at: usize): void {
  const hi = v / 10000, lo = v - hi * 10000;
  const h1 = hi / 100, l1 = lo / 100;
  store<u16>(at, load<u16>(PAIRS + (<usize>h1 << 1)));
  store<u16>(at, load<u16>(PAIRS + (<usize>(hi - h1 * 100) << 1)), 2);
  store<u16>(at, load<u16>(PAIRS + (<usize>l1 << 1)), 4);
  store<u16>(at, load<u16>(PAIRS + (<usize>(lo - l1 * 100) << 1)), 6);
}

/** Writes the `len` digits of v to [at, at + len). */
// @ts-ignore: decorator
@inline function writeDigits(v: u64, at: usize, len: i32): void {
  let end = at + <usize>len;
  while (len > 8) {
    const q = div1e8(v);
    end -= 8;
    digits8(<u32>(v - q * 100000000), end);
    len -= 8;
    v = q;
  }
  digits32(<u32>v, end, len);
}

// @ts-ignore: decorator
@inline function zeros(at: usize, n: i32): usize {
  for (let k = 0; k < n; k++) store<u8>(at + <usize>k, 48);
  return at + <usize>n;
}

/**
 * Writes the text of the double with bits `bits` at `at`: non-finite as `null` (NULL), others
 * as Java's Double.toString. Returns the end of the text, or 0 for a subnormal value (the
 * caller formats it).
 */
// @ts-ignore: decorator
@inline function writeF64(at: usize, bits: u64): usize {
  const ieeeExponent = <u32>(bits >> 52) & 0x7ff;
  const ieeeMantissa = bits & 0xfffffffffffff;
  if (ieeeExponent == 0x7ff) {
    store<u32>(at, 0x6c6c756e); // "null"
    return at + 4;
  }
  if (ieeeExponent == 0 && ieeeMantissa == 0) {
    if (bits >> 63) store<u8>(at++, 45);
    store<u8>(at, 48);
    store<u8>(at, 46, 1);
    store<u8>(at, 48, 2);
    return at + 3;
  }
  if (ieeeExponent == 0) return 0;
  if (bits >> 63) store<u8>(at++, 45);
  const digits = smallInt(ieeeMantissa, ieeeExponent) ? intDigits : shortest(ieeeMantissa, ieeeExponent);
  const len = decimalLength17(digits);
  // The exponent of the first digit: Java prints 10^-3 <= |x| < 10^7 plainly.
  const e = decExponent + len - 1;
  if (e >= 0 && e < 7) {
    const intLen = e + 1;
    if (len <= intLen) {
      writeDigits(digits, at, len);
      at = zeros(at + <usize>len, intLen - len);
      store<u16>(at, 0x302e); // ".0"
      return at + 2;
    }
    // The digits one byte on, then the integer part moved back over the dot's place.
    writeDigits(digits, at + 1, len);
    for (let k = 0; k < intLen; k++) store<u8>(at + <usize>k, load<u8>(at + <usize>k + 1));
    store<u8>(at + <usize>intLen, 46);
    return at + <usize>len + 1;
  }
  if (e < 0 && e >= -3) {
    store<u16>(at, 0x2e30); // "0."
    at = zeros(at + 2, -e - 1);
    writeDigits(digits, at, len);
    return at + <usize>len;
  }
  writeDigits(digits, at + 1, len);
  store<u8>(at, load<u8>(at + 1));
  store<u8>(at + 1, 46);
  at += <usize>len + 1;
  if (len == 1) store<u8>(at++, 48);
  store<u8>(at++, 69); // E
  let x = e;
  if (x < 0) {
    store<u8>(at++, 45);
    x = -x;
  }
  if (x >= 100) {
    store<u8>(at++, <u8>(48 + x / 100));
    x %= 100;
    store<u16>(at, load<u16>(PAIRS + (<usize>x << 1)));
    return at + 2;
  }
  if (x >= 10) {
    store<u16>(at, load<u16>(PAIRS + (<usize>x << 1)));
    return at + 2;
  }
  store<u8>(at, <u8>(48 + x));
  return at + 1;
}

/**
 * Writes the text of each of `count` doubles at `data` to `out` and the end offset of each
 * cell (bytes from `out`) to `ends` (i32): non-finite values as `null` (NULL), others as Java's
 * Double.toString. Starts at row `from` writing at byte `pos`; returns the row it stopped at:
 * `count`, or a subnormal row, which the caller writes (then resumes at the next row).
 */
export function format_f64(data: usize, count: i32, from: i32, pos: u32, out: usize, ends: usize): i32 {
  let at = out + <usize>pos;
  for (let r = from; r < count; r++) {
    at = writeF64(at, load<u64>(data + (<usize>r << 3)));
    if (at == 0) return r;
    store<i32>(ends + (<usize>r << 2), <i32>(at - out));
  }
  return count;
}

/** Writes the text of LONG `x` at `at` (NULL as `null`; in double quotes when `quote`); returns its end. */
// @ts-ignore: decorator
@inline function writeI64(at: usize, x: i64, quote: bool): usize {
  if (x == i64.MIN_VALUE) {
    store<u32>(at, 0x6c6c756e); // "null"
    return at + 4;
  }
  if (quote) store<u8>(at++, 34);
  let v = <u64>x;
  if (x < 0) {
    store<u8>(at++, 45);
    v = <u64>-x;
  }
  const len = v >= 100000000000000000 ? (v >= 1000000000000000000 ? 19 : 18) : decimalLength17(v);
  writeDigits(v, at, len);
  at += <usize>len;
  if (quote) store<u8>(at++, 34);
  return at;
}

/**
 * Writes the text of each of `count` LONG values at `data` to `out` and each cell's end offset
 * (bytes from `out`) to `ends` (i32): NULL (i64 MIN) as `null`, others in decimal, in double
 * quotes when `quote` (/exec's quoteLargeNum).
 */
export function format_i64(data: usize, count: i32, quote: i32, out: usize, ends: usize): void {
  let at = out;
  for (let r = 0; r < count; r++) {
    at = writeI64(at, load<i64>(data + (<usize>r << 3)), quote != 0);
    store<i32>(ends + (<usize>r << 2), <i32>(at - out));
  }
}

/** Copies n bytes, 8 at a time (memory.copy costs a call per cell). */
// @ts-ignore: decorator
@inline function copyBytes(to: usize, from: usize, n: i32): void {
  let k = 0;
  for (; k + 8 <= n; k += 8) store<u64>(to + <usize>k, load<u64>(from + <usize>k));
  for (; k < n; k++) store<u8>(to + <usize>k, load<u8>(from + <usize>k));
}

/**
 * Rows of /exec JSON (`[c0,c1,...]`, comma-separated; `first`: no comma before the first row)
 * from `ncols` columns: `cols` holds per column three i32s, its kind and two addresses. Kind 0:
 * cell text, the address of its bytes and of its i32 cell end offsets; kind 1: DOUBLE values
 * (f64), written here as format_f64 writes them; kind 2 / 3: LONG values (i64), as format_i64
 * writes them, unquoted / quoted. Writes to `out`; returns the bytes written, or -1 - row at a
 * row holding a subnormal double (the caller then formats the slice's doubles first).
 */
export function json_rows(cols: usize, ncols: i32, rows: i32, first: i32, out: usize): i32 {
  let at = out;
  for (let j = 0; j < rows; j++) {
    if (j > 0 || !first) store<u8>(at++, 44);
    store<u8>(at++, 91);
    for (let k = 0; k < ncols; k++) {
      if (k > 0) store<u8>(at++, 44);
      const col = cols + <usize>k * 12;
      const kind = load<i32>(col);
      const a = <usize>load<u32>(col, 4);
      if (kind == 1) {
        at = writeF64(at, load<u64>(a + (<usize>j << 3)));
        if (at == 0) return -1 - j;
      } else if (kind >= 2) {
        at = writeI64(at, load<i64>(a + (<usize>j << 3)), kind == 3);
      } else {
        const ends = <usize>load<u32>(col, 8);
        const from = j == 0 ? 0 : load<i32>(ends + (<usize>(j - 1) << 2));
        const n = load<i32>(ends + (<usize>j << 2)) - from;
        copyBytes(at, a + <usize>from, n);
        at += <usize>n;
      }
    }
    store<u8>(at++, 93);
  }
  return <i32>(at - out);
}
