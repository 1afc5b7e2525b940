// Range filters producing selection vectors (Int32 row indexes) or counts.
//
// mod.ts turns every comparison of spec/sql.md §4 (=, !=, <, <=, >, >=, BETWEEN, with the
// NULL rules) into one test "lo <= x <= hi", optionally negated: `x < 5` on an INT is
// [INT_MIN + 1, 4], `x = NULL` on a DOUBLE is NOT [-MAX, MAX], and so on. Comparisons with
// NaN are false, so NULL doubles never fall inside a range. The kernels only know ranges.
//
// Whole-column kernels test 16 rows per step with SIMD, fold the lane masks into one 16-bit
// mask and append the matching row indexes with four swizzle-and-store steps. A store
// writes 16 bytes at the current output end, so it may scribble up to three entries past
// the final count, but never past row `count - 1`: an output of `count` entries suffices.

import { COMPACT, at, selAt } from "./common";

/** Mask lanes of `x` that lie in [lo, hi]. */
// @ts-ignore: decorator
@inline function inRange<T>(x: v128, lo: v128, hi: v128): v128 {
  return v128.and(v128.ge<T>(x, lo), v128.le<T>(x, hi));
}

/** Bit i set when row i of the 16 rows at `p` lies in [lo, hi]. */
// @ts-ignore: decorator
@inline function mask16<T>(p: usize, lo: v128, hi: v128): i32 {
  if (sizeof<T>() == 8) {
    const a = i32x4.shuffle(
      inRange<T>(v128.load(p), lo, hi), inRange<T>(v128.load(p, 16), lo, hi), 0, 2, 4, 6,
    );
    const b = i32x4.shuffle(
      inRange<T>(v128.load(p, 32), lo, hi), inRange<T>(v128.load(p, 48), lo, hi), 0, 2, 4, 6,
    );
    const c = i32x4.shuffle(
      inRange<T>(v128.load(p, 64), lo, hi), inRange<T>(v128.load(p, 80), lo, hi), 0, 2, 4, 6,
    );
    const d = i32x4.shuffle(
      inRange<T>(v128.load(p, 96), lo, hi), inRange<T>(v128.load(p, 112), lo, hi), 0, 2, 4, 6,
    );
    return i8x16.bitmask(
      i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(a, b), i16x8.narrow_i32x4_s(c, d)),
    );
  } else if (sizeof<T>() == 4) {
    const a = inRange<T>(v128.load(p), lo, hi);
    const b = inRange<T>(v128.load(p, 16), lo, hi);
    const c = inRange<T>(v128.load(p, 32), lo, hi);
    const d = inRange<T>(v128.load(p, 48), lo, hi);
    return i8x16.bitmask(
      i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(a, b), i16x8.narrow_i32x4_s(c, d)),
    );
  } else if (sizeof<T>() == 2) {
    return i8x16.bitmask(
      i8x16.narrow_i16x8_s(inRange<T>(v128.load(p), lo, hi), inRange<T>(v128.load(p, 16), lo, hi)),
    );
  } else {
    return i8x16.bitmask(inRange<T>(v128.load(p), lo, hi));
  }
}

/** Appends the rows row..row+3 selected by the low 4 bits of `mask`; returns the new count. */
// @ts-ignore: decorator
@inline function emit4(out: usize, n: i32, row: i32, mask: i32): i32 {
  const rows = i32x4.add(i32x4.splat(row), i32x4(0, 1, 2, 3));
  const pattern = v128.load(COMPACT + ((<usize>mask) << 4));
  v128.store(out + ((<usize>n) << 2), i8x16.swizzle(rows, pattern));
  return n + popcnt<i32>(mask);
}

// @ts-ignore: decorator
@inline function rangeScan<T>(
  data: usize, count: i32, lo: T, hi: T, negate: i32, out: usize, write: bool,
): i32 {
  const vlo = v128.splat<T>(lo);
  const vhi = v128.splat<T>(hi);
  const flip = negate != 0 ? 0xffff : 0;
  let n = 0;
  let row = 0;
  for (; row + 16 <= count; row += 16) {
    const m = mask16<T>(at<T>(data, row), vlo, vhi) ^ flip;
    if (write) {
      if (m != 0) {
        n = emit4(out, n, row, m & 15);
        n = emit4(out, n, row + 4, (m >> 4) & 15);
        n = emit4(out, n, row + 8, (m >> 8) & 15);
        n = emit4(out, n, row + 12, m >> 12);
      }
    } else {
      n += popcnt<i32>(m);
    }
  }
  const neg = negate != 0;
  for (; row < count; row++) {
    const x = load<T>(at<T>(data, row));
    const hit = ((x >= lo) & (x <= hi)) != neg;
    if (write) store<i32>(out + ((<usize>n) << 2), row);
    n += <i32>hit;
  }
  return n;
}

// @ts-ignore: decorator
@inline function rangeScanSel<T>(
  data: usize, sel: usize, selCount: i32, lo: T, hi: T, negate: i32, out: usize, write: bool,
): i32 {
  // `out` may equal `sel`: entry j is read before entry n <= j is written.
  const neg = negate != 0;
  let n = 0;
  for (let j = 0; j < selCount; j++) {
    const row = selAt(sel, j);
    const x = load<T>(at<T>(data, row));
    const hit = ((x >= lo) & (x <= hi)) != neg;
    if (write) store<i32>(out + ((<usize>n) << 2), row);
    n += <i32>hit;
  }
  return n;
}

export function filter_f64(data: usize, count: i32, lo: f64, hi: f64, negate: i32, out: usize): i32 {
  return rangeScan<f64>(data, count, lo, hi, negate, out, true);
}
export function count_f64(data: usize, count: i32, lo: f64, hi: f64, negate: i32): i32 {
  return rangeScan<f64>(data, count, lo, hi, negate, 0, false);
}
export function filter_sel_f64(
  data: usize, sel: usize, selCount: i32, lo: f64, hi: f64, negate: i32, out: usize,
): i32 {
  return rangeScanSel<f64>(data, sel, selCount, lo, hi, negate, out, true);
}
export function count_sel_f64(data: usize, sel: usize, selCount: i32, lo: f64, hi: f64, negate: i32): i32 {
  return rangeScanSel<f64>(data, sel, selCount, lo, hi, negate, 0, false);
}

export function filter_f32(data: usize, count: i32, lo: f32, hi: f32, negate: i32, out: usize): i32 {
  return rangeScan<f32>(data, count, lo, hi, negate, out, true);
}
export function count_f32(data: usize, count: i32, lo: f32, hi: f32, negate: i32): i32 {
  return rangeScan<f32>(data, count, lo, hi, negate, 0, false);
}
export function filter_sel_f32(
  data: usize, sel: usize, selCount: i32, lo: f32, hi: f32, negate: i32, out: usize,
): i32 {
  return rangeScanSel<f32>(data, sel, selCount, lo, hi, negate, out, true);
}
export function count_sel_f32(data: usize, sel: usize, selCount: i32, lo: f32, hi: f32, negate: i32): i32 {
  return rangeScanSel<f32>(data, sel, selCount, lo, hi, negate, 0, false);
}

export function filter_i64(data: usize, count: i32, lo: i64, hi: i64, negate: i32, out: usize): i32 {
  return rangeScan<i64>(data, count, lo, hi, negate, out, true);
}
export function count_i64(data: usize, count: i32, lo: i64, hi: i64, negate: i32): i32 {
  return rangeScan<i64>(data, count, lo, hi, negate, 0, false);
}
export function filter_sel_i64(
  data: usize, sel: usize, selCount: i32, lo: i64, hi: i64, negate: i32, out: usize,
): i32 {
  return rangeScanSel<i64>(data, sel, selCount, lo, hi, negate, out, true);
}
export function count_sel_i64(data: usize, sel: usize, selCount: i32, lo: i64, hi: i64, negate: i32): i32 {
  return rangeScanSel<i64>(data, sel, selCount, lo, hi, negate, 0, false);
}

export function filter_i32(data: usize, count: i32, lo: i32, hi: i32, negate: i32, out: usize): i32 {
  return rangeScan<i32>(data, count, lo, hi, negate, out, true);
}
export function count_i32(data: usize, count: i32, lo: i32, hi: i32, negate: i32): i32 {
  return rangeScan<i32>(data, count, lo, hi, negate, 0, false);
}
export function filter_sel_i32(
  data: usize, sel: usize, selCount: i32, lo: i32, hi: i32, negate: i32, out: usize,
): i32 {
  return rangeScanSel<i32>(data, sel, selCount, lo, hi, negate, out, true);
}
export function count_sel_i32(data: usize, sel: usize, selCount: i32, lo: i32, hi: i32, negate: i32): i32 {
  return rangeScanSel<i32>(data, sel, selCount, lo, hi, negate, 0, false);
}

// SHORT and BYTE bounds arrive as i32 already inside the type's range (mod.ts clamps them).
export function filter_i16(data: usize, count: i32, lo: i32, hi: i32, negate: i32, out: usize): i32 {
  return rangeScan<i16>(data, count, <i16>lo, <i16>hi, negate, out, true);
}
export function count_i16(data: usize, count: i32, lo: i32, hi: i32, negate: i32): i32 {
  return rangeScan<i16>(data, count, <i16>lo, <i16>hi, negate, 0, false);
}
export function filter_sel_i16(
  data: usize, sel: usize, selCount: i32, lo: i32, hi: i32, negate: i32, out: usize,
): i32 {
  return rangeScanSel<i16>(data, sel, selCount, <i16>lo, <i16>hi, negate, out, true);
}
export function count_sel_i16(data: usize, sel: usize, selCount: i32, lo: i32, hi: i32, negate: i32): i32 {
  return rangeScanSel<i16>(data, sel, selCount, <i16>lo, <i16>hi, negate, 0, false);
}

export function filter_i8(data: usize, count: i32, lo: i32, hi: i32, negate: i32, out: usize): i32 {
  return rangeScan<i8>(data, count, <i8>lo, <i8>hi, negate, out, true);
}
export function count_i8(data: usize, count: i32, lo: i32, hi: i32, negate: i32): i32 {
  return rangeScan<i8>(data, count, <i8>lo, <i8>hi, negate, 0, false);
}
export function filter_sel_i8(
  data: usize, sel: usize, selCount: i32, lo: i32, hi: i32, negate: i32, out: usize,
): i32 {
  return rangeScanSel<i8>(data, sel, selCount, <i8>lo, <i8>hi, negate, out, true);
}
export function count_sel_i8(data: usize, sel: usize, selCount: i32, lo: i32, hi: i32, negate: i32): i32 {
  return rangeScanSel<i8>(data, sel, selCount, <i8>lo, <i8>hi, negate, 0, false);
}

// Symbol keys in a set. The set is a byte table of size + 1 entries: byte k (0 <= k < size)
// is nonzero when key k is in the set, byte `size` when the NULL key (-1) is. Keys outside
// -1..size-1 (added to the dictionary after the table was made) are never in the set.

// @ts-ignore: decorator
@inline function inSet(set: usize, size: u32, key: i32): bool {
  const valid = <u32>key < size;
  const byte = load<u8>(set + <usize>select<u32>(<u32>key, size, valid));
  return (byte != 0) & (valid | (key == -1));
}

// @ts-ignore: decorator
@inline function setScan(
  keys: usize, sel: usize, n: i32, set: usize, size: u32, out: usize, write: bool, bySel: bool,
): i32 {
  let hits = 0;
  for (let j = 0; j < n; j++) {
    const row = bySel ? selAt(sel, j) : j;
    const hit = inSet(set, size, load<i32>(at<i32>(keys, row)));
    if (write) store<i32>(out + ((<usize>hits) << 2), row);
    hits += <i32>hit;
  }
  return hits;
}

export function filter_in_set(keys: usize, count: i32, set: usize, size: u32, out: usize): i32 {
  return setScan(keys, 0, count, set, size, out, true, false);
}
export function count_in_set(keys: usize, count: i32, set: usize, size: u32): i32 {
  return setScan(keys, 0, count, set, size, 0, false, false);
}
export function filter_sel_in_set(
  keys: usize, sel: usize, selCount: i32, set: usize, size: u32, out: usize,
): i32 {
  return setScan(keys, sel, selCount, set, size, out, true, true);
}
export function count_sel_in_set(keys: usize, sel: usize, selCount: i32, set: usize, size: u32): i32 {
  return setScan(keys, sel, selCount, set, size, 0, false, true);
}
