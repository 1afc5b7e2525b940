// Unkeyed aggregates: count of non-NULL values, sum, min and max of one column, whole or
// through a selection vector. NULLs are skipped (spec/sql.md §4.6).
//
// Each kernel folds into the module-level accumulators below and then writes the RESULT
// block (common.ts). The segment kernels reuse the same folding per segment.
//
// DOUBLE and FLOAT: NaN and ±Infinity are NULL. The whole-column kernels add a block of
// rows without any NULL test (a plain SIMD sum, min and max) while the column is clean: the
// block's total is finite exactly when every value in it is. A block that holds a NULL is
// added again, from L1, with per-lane masks, and so are the blocks after it until one is
// clean again. A clean column therefore runs at the speed of an unmasked sum, a column with
// NULLs everywhere at the speed of the masked one. Sums use 8 lanes, so they differ from a
// sequential sum by rounding only.

import { INT_NULL, LONG_NULL, RESULT, at, notNull, selAt } from "./common";

/** Rows per block of the float fast path: 8 KiB of DOUBLEs, kept in L1 for a masked redo. */
const BLOCK_ROWS: i32 = 1024;

export let accCount: i64 = 0;
export let accSumF: f64 = 0;
export let accMinF: f64 = Infinity;
export let accMaxF: f64 = -Infinity;
export let accSumI: i64 = 0;
export let accMinI: i64 = i64.MAX_VALUE;
export let accMaxI: i64 = i64.MIN_VALUE;

export function resetAcc(): void {
  accCount = 0;
  accSumF = 0;
  accMinF = Infinity;
  accMaxF = -Infinity;
  accSumI = 0;
  accMinI = i64.MAX_VALUE;
  accMaxI = i64.MIN_VALUE;
}

/** Min of the accumulators, or the NULL sentinel when no value was seen. */
export function resultMinF(): f64 {
  return accCount > 0 ? accMinF : NaN;
}
export function resultMaxF(): f64 {
  return accCount > 0 ? accMaxF : NaN;
}
export function resultMinI(): i64 {
  return accCount > 0 ? accMinI : LONG_NULL;
}
export function resultMaxI(): i64 {
  return accCount > 0 ? accMaxI : LONG_NULL;
}

function writeFloatResult(): void {
  store<i64>(RESULT, accCount);
  store<f64>(RESULT, accSumF, 8);
  store<f64>(RESULT, resultMinF(), 16);
  store<f64>(RESULT, resultMaxF(), 24);
}

function writeIntResult(): void {
  store<i64>(RESULT, accCount);
  store<i64>(RESULT, accSumI, 8);
  store<i64>(RESULT, resultMinI(), 16);
  store<i64>(RESULT, resultMaxI(), 24);
}

/** Scalar fold of rows [from, to) of the column, or of selection entries [from, to). */
// @ts-ignore: decorator
@inline export function foldScalar<T>(data: usize, sel: usize, from: i32, to: i32, bySel: bool): void {
  if (isFloat<T>()) {
    let c: i64 = 0;
    let s: f64 = 0;
    let mn: f64 = Infinity;
    let mx: f64 = -Infinity;
    for (let j = from; j < to; j++) {
      const x = <f64>load<T>(at<T>(data, bySel ? selAt(sel, j) : j));
      if (x - x == 0) {
        c++;
        s += x;
        mn = min(mn, x);
        mx = max(mx, x);
      }
    }
    accCount += c;
    accSumF += s;
    accMinF = min(accMinF, mn);
    accMaxF = max(accMaxF, mx);
  } else {
    let c: i64 = 0;
    let s: i64 = 0;
    let mn: i64 = i64.MAX_VALUE;
    let mx: i64 = i64.MIN_VALUE;
    for (let j = from; j < to; j++) {
      const x = load<T>(at<T>(data, bySel ? selAt(sel, j) : j));
      if (notNull<T>(x)) {
        const v = <i64>x;
        c++;
        s += v;
        mn = min(mn, v);
        mx = max(mx, v);
      }
    }
    accCount += c;
    accSumI += s;
    accMinI = min(accMinI, mn);
    accMaxI = max(accMaxI, mx);
  }
}

// @ts-ignore: decorator
@inline function sumLanesF64(v: v128): f64 {
  return f64x2.extract_lane(v, 0) + f64x2.extract_lane(v, 1);
}
// @ts-ignore: decorator
@inline function sumLanesI64(v: v128): i64 {
  return i64x2.extract_lane(v, 0) + i64x2.extract_lane(v, 1);
}

/**
 * Min and max of the finite values in rows [from, to), for the rare column holding an
 * infinity: the SIMD paths let pmin/pmax skip NaN and +Infinity (for min) or -Infinity
 * (for max) for free, and redo the extremes here when the other infinity won.
 */
function exactExtremes<T>(data: usize, from: i32, to: i32): void {
  let mn: f64 = Infinity;
  let mx: f64 = -Infinity;
  for (let r = from; r < to; r++) {
    const x = <f64>load<T>(at<T>(data, r));
    if (x - x == 0) {
      mn = min(mn, x);
      mx = max(mx, x);
    }
  }
  accMinF = min(accMinF, mn);
  accMaxF = max(accMaxF, mx);
}

/**
 * Folds rows [0, count) of a DOUBLE column into the accumulators.
 *
 * Blocks go the fast way (plain sums, min and max) while the column is clean. A block whose
 * total is not finite held a NULL: it is added again with masks, and the following blocks
 * stay on the masked path until one of them turns out clean. Min and max never need masks:
 * pmin(acc, x) keeps acc when x is NaN or +Infinity, pmax when x is NaN or -Infinity.
 */
export function foldF64(data: usize, count: i32): void {
  const inf = f64x2.splat(Infinity);
  const zero = f64x2.splat(0);
  let s0 = zero, s1 = zero, s2 = zero, s3 = zero;
  let mn0 = inf, mn1 = inf;
  let mx0 = f64x2.splat(-Infinity), mx1 = mx0;
  let nonNull: i64 = 0;
  let fast = true;
  const vecEnd = count & ~7;
  let row = 0;
  while (row < vecEnd) {
    const end = min(row + BLOCK_ROWS, vecEnd);
    if (fast) {
      let a0 = zero, a1 = zero, a2 = zero, a3 = zero;
      let bmn = inf;
      let bmx = f64x2.splat(-Infinity);
      for (let r = row; r < end; r += 8) {
        const p = at<f64>(data, r);
        const x0 = v128.load(p), x1 = v128.load(p, 16), x2 = v128.load(p, 32), x3 = v128.load(p, 48);
        a0 = f64x2.add(a0, x0);
        a1 = f64x2.add(a1, x1);
        a2 = f64x2.add(a2, x2);
        a3 = f64x2.add(a3, x3);
        bmn = f64x2.pmin(bmn, f64x2.pmin(f64x2.pmin(x0, x1), f64x2.pmin(x2, x3)));
        bmx = f64x2.pmax(bmx, f64x2.pmax(f64x2.pmax(x0, x1), f64x2.pmax(x2, x3)));
      }
      const total = sumLanesF64(f64x2.add(f64x2.add(a0, a1), f64x2.add(a2, a3)));
      if (total - total == 0) {
        s0 = f64x2.add(s0, a0);
        s1 = f64x2.add(s1, a1);
        s2 = f64x2.add(s2, a2);
        s3 = f64x2.add(s3, a3);
        mn0 = f64x2.pmin(mn0, bmn);
        mx0 = f64x2.pmax(mx0, bmx);
        nonNull += end - row;
        row = end;
        continue;
      }
    }
    // The accumulator stays pmin's first operand: pmin(a, b) keeps a when b is NaN, not
    // the other way round.
    let c0 = i64x2.splat(0), c1 = c0;
    for (let r = row; r < end; r += 8) {
      const p = at<f64>(data, r);
      const x0 = v128.load(p), x1 = v128.load(p, 16), x2 = v128.load(p, 32), x3 = v128.load(p, 48);
      const f0 = f64x2.lt(f64x2.abs(x0), inf), f1 = f64x2.lt(f64x2.abs(x1), inf);
      const f2 = f64x2.lt(f64x2.abs(x2), inf), f3 = f64x2.lt(f64x2.abs(x3), inf);
      s0 = f64x2.add(s0, v128.and(x0, f0));
      s1 = f64x2.add(s1, v128.and(x1, f1));
      s2 = f64x2.add(s2, v128.and(x2, f2));
      s3 = f64x2.add(s3, v128.and(x3, f3));
      c0 = i64x2.sub(i64x2.sub(c0, f0), f1);
      c1 = i64x2.sub(i64x2.sub(c1, f2), f3);
      mn0 = f64x2.pmin(f64x2.pmin(mn0, x0), x1);
      mn1 = f64x2.pmin(f64x2.pmin(mn1, x2), x3);
      mx0 = f64x2.pmax(f64x2.pmax(mx0, x0), x1);
      mx1 = f64x2.pmax(f64x2.pmax(mx1, x2), x3);
    }
    const blockNonNull = sumLanesI64(i64x2.add(c0, c1));
    nonNull += blockNonNull;
    fast = blockNonNull == end - row;
    row = end;
  }
  accCount += nonNull;
  accSumF += sumLanesF64(f64x2.add(f64x2.add(s0, s1), f64x2.add(s2, s3)));
  const mn = f64x2.pmin(mn0, mn1), mx = f64x2.pmax(mx0, mx1);
  const lo = min(f64x2.extract_lane(mn, 0), f64x2.extract_lane(mn, 1));
  const hi = max(f64x2.extract_lane(mx, 0), f64x2.extract_lane(mx, 1));
  if (lo == -Infinity || hi == Infinity) exactExtremes<f64>(data, 0, vecEnd);
  else {
    accMinF = min(accMinF, lo);
    accMaxF = max(accMaxF, hi);
  }
  foldScalar<f64>(data, 0, vecEnd, count, false);
}

/** Folds rows [0, count) of a FLOAT column like foldF64; sums are kept in f64. */
export function foldF32(data: usize, count: i32): void {
  const inf = f32x4.splat(Infinity);
  const zero = f64x2.splat(0);
  let s0 = zero, s1 = zero, s2 = zero, s3 = zero;
  let mn = inf;
  let mx = f32x4.splat(-Infinity);
  let nonNull: i64 = 0;
  let fast = true;
  const vecEnd = count & ~7;
  let row = 0;
  while (row < vecEnd) {
    const end = min(row + BLOCK_ROWS, vecEnd);
    if (fast) {
      let a0 = zero, a1 = zero, a2 = zero, a3 = zero;
      let bmn = inf;
      let bmx = f32x4.splat(-Infinity);
      for (let r = row; r < end; r += 8) {
        const p = at<f32>(data, r);
        const x0 = v128.load(p), x1 = v128.load(p, 16);
        a0 = f64x2.add(a0, f64x2.promote_low_f32x4(x0));
        a1 = f64x2.add(a1, f64x2.promote_low_f32x4(i64x2.shuffle(x0, x0, 1, 0)));
        a2 = f64x2.add(a2, f64x2.promote_low_f32x4(x1));
        a3 = f64x2.add(a3, f64x2.promote_low_f32x4(i64x2.shuffle(x1, x1, 1, 0)));
        bmn = f32x4.pmin(bmn, f32x4.pmin(x0, x1));
        bmx = f32x4.pmax(bmx, f32x4.pmax(x0, x1));
      }
      const total = sumLanesF64(f64x2.add(f64x2.add(a0, a1), f64x2.add(a2, a3)));
      if (total - total == 0) {
        s0 = f64x2.add(s0, a0);
        s1 = f64x2.add(s1, a1);
        s2 = f64x2.add(s2, a2);
        s3 = f64x2.add(s3, a3);
        mn = f32x4.pmin(mn, bmn);
        mx = f32x4.pmax(mx, bmx);
        nonNull += end - row;
        row = end;
        continue;
      }
    }
    let c = i32x4.splat(0);
    for (let r = row; r < end; r += 8) {
      const p = at<f32>(data, r);
      const x0 = v128.load(p), x1 = v128.load(p, 16);
      const f0 = f32x4.lt(f32x4.abs(x0), inf), f1 = f32x4.lt(f32x4.abs(x1), inf);
      const v0 = v128.and(x0, f0), v1 = v128.and(x1, f1);
      s0 = f64x2.add(s0, f64x2.promote_low_f32x4(v0));
      s1 = f64x2.add(s1, f64x2.promote_low_f32x4(i64x2.shuffle(v0, v0, 1, 0)));
      s2 = f64x2.add(s2, f64x2.promote_low_f32x4(v1));
      s3 = f64x2.add(s3, f64x2.promote_low_f32x4(i64x2.shuffle(v1, v1, 1, 0)));
      c = i32x4.sub(i32x4.sub(c, f0), f1);
      mn = f32x4.pmin(f32x4.pmin(mn, x0), x1);
      mx = f32x4.pmax(f32x4.pmax(mx, x0), x1);
    }
    const blockNonNull = <i64>(i32x4.extract_lane(c, 0) + i32x4.extract_lane(c, 1) +
      i32x4.extract_lane(c, 2) + i32x4.extract_lane(c, 3));
    nonNull += blockNonNull;
    fast = blockNonNull == end - row;
    row = end;
  }
  accCount += nonNull;
  accSumF += sumLanesF64(f64x2.add(f64x2.add(s0, s1), f64x2.add(s2, s3)));
  const mn2 = f32x4.pmin(mn, i64x2.shuffle(mn, mn, 1, 0));
  const mx2 = f32x4.pmax(mx, i64x2.shuffle(mx, mx, 1, 0));
  const lo = <f64>min(f32x4.extract_lane(mn2, 0), f32x4.extract_lane(mn2, 1));
  const hi = <f64>max(f32x4.extract_lane(mx2, 0), f32x4.extract_lane(mx2, 1));
  if (lo == -Infinity || hi == Infinity) exactExtremes<f32>(data, 0, vecEnd);
  else {
    accMinF = min(accMinF, lo);
    accMaxF = max(accMaxF, hi);
  }
  foldScalar<f32>(data, 0, vecEnd, count, false);
}

/** Folds rows [0, count) of a LONG column; the sum wraps like QuestDB's. */
export function foldI64(data: usize, count: i32): void {
  const nul = i64x2.splat(LONG_NULL);
  let s0 = i64x2.splat(0), s1 = i64x2.splat(0);
  let nulls = i64x2.splat(0);
  let mn = i64x2.splat(i64.MAX_VALUE);
  let mx = nul;
  const vecEnd = count & ~3;
  for (let r = 0; r < vecEnd; r += 4) {
    const p = at<i64>(data, r);
    const x0 = v128.load(p), x1 = v128.load(p, 16);
    const n0 = i64x2.eq(x0, nul), n1 = i64x2.eq(x1, nul);
    s0 = i64x2.add(s0, v128.andnot(x0, n0));
    s1 = i64x2.add(s1, v128.andnot(x1, n1));
    nulls = i64x2.sub(i64x2.sub(nulls, n0), n1);
    // LONG_MIN + (-1) wraps to LONG_MAX: a NULL never wins the min.
    const m0 = i64x2.add(x0, n0), m1 = i64x2.add(x1, n1);
    const m = v128.bitselect(m0, m1, i64x2.lt_s(m0, m1));
    mn = v128.bitselect(m, mn, i64x2.lt_s(m, mn));
    const x = v128.bitselect(x0, x1, i64x2.gt_s(x0, x1));
    mx = v128.bitselect(x, mx, i64x2.gt_s(x, mx));
  }
  const nonNull = <i64>vecEnd - sumLanesI64(nulls);
  accCount += nonNull;
  accSumI += sumLanesI64(i64x2.add(s0, s1));
  if (nonNull > 0) {
    accMinI = min(accMinI, min(i64x2.extract_lane(mn, 0), i64x2.extract_lane(mn, 1)));
    accMaxI = max(accMaxI, max(i64x2.extract_lane(mx, 0), i64x2.extract_lane(mx, 1)));
  }
  foldScalar<i64>(data, 0, vecEnd, count, false);
}

/** Folds rows [0, count) of an INT column; the sum is kept in i64. */
export function foldI32(data: usize, count: i32): void {
  const nul = i32x4.splat(INT_NULL);
  let s0 = i64x2.splat(0), s1 = i64x2.splat(0);
  let nulls = i32x4.splat(0);
  let mn = i32x4.splat(i32.MAX_VALUE);
  let mx = nul;
  const vecEnd = count & ~7;
  for (let r = 0; r < vecEnd; r += 8) {
    const p = at<i32>(data, r);
    const x0 = v128.load(p), x1 = v128.load(p, 16);
    const n0 = i32x4.eq(x0, nul), n1 = i32x4.eq(x1, nul);
    const v0 = v128.andnot(x0, n0), v1 = v128.andnot(x1, n1);
    s0 = i64x2.add(s0, i64x2.add(i64x2.extend_low_i32x4_s(v0), i64x2.extend_low_i32x4_s(v1)));
    s1 = i64x2.add(s1, i64x2.add(i64x2.extend_high_i32x4_s(v0), i64x2.extend_high_i32x4_s(v1)));
    nulls = i32x4.sub(i32x4.sub(nulls, n0), n1);
    mn = i32x4.min_s(mn, i32x4.min_s(i32x4.add(x0, n0), i32x4.add(x1, n1)));
    mx = i32x4.max_s(mx, i32x4.max_s(x0, x1));
  }
  const nonNull = <i64>vecEnd - <i64>(i32x4.extract_lane(nulls, 0) + i32x4.extract_lane(nulls, 1) +
    i32x4.extract_lane(nulls, 2) + i32x4.extract_lane(nulls, 3));
  accCount += nonNull;
  accSumI += sumLanesI64(i64x2.add(s0, s1));
  if (nonNull > 0) {
    const mn2 = i32x4.min_s(mn, i64x2.shuffle(mn, mn, 1, 0));
    const mx2 = i32x4.max_s(mx, i64x2.shuffle(mx, mx, 1, 0));
    accMinI = min(accMinI, <i64>min(i32x4.extract_lane(mn2, 0), i32x4.extract_lane(mn2, 1)));
    accMaxI = max(accMaxI, <i64>max(i32x4.extract_lane(mx2, 0), i32x4.extract_lane(mx2, 1)));
  }
  foldScalar<i32>(data, 0, vecEnd, count, false);
}

/** Folds rows [0, count) of a SHORT column (no NULLs). */
export function foldI16(data: usize, count: i32): void {
  let s0 = i64x2.splat(0), s1 = i64x2.splat(0);
  let mn = i16x8.splat(i16.MAX_VALUE);
  let mx = i16x8.splat(i16.MIN_VALUE);
  const vecEnd = count & ~7;
  for (let r = 0; r < vecEnd; r += 8) {
    const x = v128.load(at<i16>(data, r));
    const w = i32x4.extadd_pairwise_i16x8_s(x);
    s0 = i64x2.add(s0, i64x2.extend_low_i32x4_s(w));
    s1 = i64x2.add(s1, i64x2.extend_high_i32x4_s(w));
    mn = i16x8.min_s(mn, x);
    mx = i16x8.max_s(mx, x);
  }
  accCount += vecEnd;
  accSumI += sumLanesI64(i64x2.add(s0, s1));
  if (vecEnd > 0) {
    let a = i16x8.min_s(mn, i64x2.shuffle(mn, mn, 1, 0));
    a = i16x8.min_s(a, i32x4.shuffle(a, a, 1, 0, 3, 2));
    a = i16x8.min_s(a, i16x8.shuffle(a, a, 1, 0, 3, 2, 5, 4, 7, 6));
    let b = i16x8.max_s(mx, i64x2.shuffle(mx, mx, 1, 0));
    b = i16x8.max_s(b, i32x4.shuffle(b, b, 1, 0, 3, 2));
    b = i16x8.max_s(b, i16x8.shuffle(b, b, 1, 0, 3, 2, 5, 4, 7, 6));
    accMinI = min(accMinI, <i64>i16x8.extract_lane_s(a, 0));
    accMaxI = max(accMaxI, <i64>i16x8.extract_lane_s(b, 0));
  }
  foldScalar<i16>(data, 0, vecEnd, count, false);
}

/** Folds rows [0, count) of a BYTE column (no NULLs). */
export function foldI8(data: usize, count: i32): void {
  let s0 = i64x2.splat(0), s1 = i64x2.splat(0);
  let mn = i8x16.splat(i8.MAX_VALUE);
  let mx = i8x16.splat(i8.MIN_VALUE);
  const vecEnd = count & ~15;
  for (let r = 0; r < vecEnd; r += 16) {
    const x = v128.load(at<i8>(data, r));
    const w = i32x4.extadd_pairwise_i16x8_s(i16x8.extadd_pairwise_i8x16_s(x));
    s0 = i64x2.add(s0, i64x2.extend_low_i32x4_s(w));
    s1 = i64x2.add(s1, i64x2.extend_high_i32x4_s(w));
    mn = i8x16.min_s(mn, x);
    mx = i8x16.max_s(mx, x);
  }
  accCount += vecEnd;
  accSumI += sumLanesI64(i64x2.add(s0, s1));
  if (vecEnd > 0) {
    let a = i8x16.min_s(mn, i64x2.shuffle(mn, mn, 1, 0));
    a = i8x16.min_s(a, i32x4.shuffle(a, a, 1, 0, 3, 2));
    a = i8x16.min_s(a, i16x8.shuffle(a, a, 1, 0, 3, 2, 5, 4, 7, 6));
    a = i8x16.min_s(a, i8x16.shuffle(a, a, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
    let b = i8x16.max_s(mx, i64x2.shuffle(mx, mx, 1, 0));
    b = i8x16.max_s(b, i32x4.shuffle(b, b, 1, 0, 3, 2));
    b = i8x16.max_s(b, i16x8.shuffle(b, b, 1, 0, 3, 2, 5, 4, 7, 6));
    b = i8x16.max_s(b, i8x16.shuffle(b, b, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
    accMinI = min(accMinI, <i64>i8x16.extract_lane_s(a, 0));
    accMaxI = max(accMaxI, <i64>i8x16.extract_lane_s(b, 0));
  }
  foldScalar<i8>(data, 0, vecEnd, count, false);
}

export function stats_f64(data: usize, count: i32): void {
  resetAcc();
  foldF64(data, count);
  writeFloatResult();
}
export function stats_sel_f64(data: usize, sel: usize, selCount: i32): void {
  resetAcc();
  foldScalar<f64>(data, sel, 0, selCount, true);
  writeFloatResult();
}
export function stats_f32(data: usize, count: i32): void {
  resetAcc();
  foldF32(data, count);
  writeFloatResult();
}
export function stats_sel_f32(data: usize, sel: usize, selCount: i32): void {
  resetAcc();
  foldScalar<f32>(data, sel, 0, selCount, true);
  writeFloatResult();
}
export function stats_i64(data: usize, count: i32): void {
  resetAcc();
  foldI64(data, count);
  writeIntResult();
}
export function stats_sel_i64(data: usize, sel: usize, selCount: i32): void {
  resetAcc();
  foldScalar<i64>(data, sel, 0, selCount, true);
  writeIntResult();
}
export function stats_i32(data: usize, count: i32): void {
  resetAcc();
  foldI32(data, count);
  writeIntResult();
}
export function stats_sel_i32(data: usize, sel: usize, selCount: i32): void {
  resetAcc();
  foldScalar<i32>(data, sel, 0, selCount, true);
  writeIntResult();
}
export function stats_i16(data: usize, count: i32): void {
  resetAcc();
  foldI16(data, count);
  writeIntResult();
}
export function stats_sel_i16(data: usize, sel: usize, selCount: i32): void {
  resetAcc();
  foldScalar<i16>(data, sel, 0, selCount, true);
  writeIntResult();
}
export function stats_i8(data: usize, count: i32): void {
  resetAcc();
  foldI8(data, count);
  writeIntResult();
}
export function stats_sel_i8(data: usize, sel: usize, selCount: i32): void {
  resetAcc();
  foldScalar<i8>(data, sel, 0, selCount, true);
  writeIntResult();
}
