// Segmented reduce for SAMPLE BY: the caller (TypeScript) finds the bucket boundaries on the
// sorted designated timestamp and passes the end of each bucket; the kernel reduces each
// segment of another column and writes one entry per segment into each requested array.
//
// Segment s covers positions [ends[s-1], ends[s]) with ends[-1] = `from`; ends are clamped
// to [previous end, limit], so a decreasing or oversized end yields an empty segment. A
// position is a row of the column, or with a selection an index into the selection.
// Outputs (an address of 0 skips that output):
//   counts i64 (non-NULL values); sums f64 (DOUBLE, FLOAT) or i64 (LONG, INT);
//   mins, maxs, firsts, lasts in the column's type. min/max of a segment without values
//   and first/last of an empty segment are the type's NULL; first/last are the values of
//   the segment's first and last rows, NULL or not (spec/sql.md §4.6).

import { at, nullOf, selAt } from "./common";
import {
  accCount, accMaxF, accMaxI, accMinF, accMinI, accSumF, accSumI,
  foldF32, foldF64, foldI32, foldI64, foldScalar, resetAcc,
} from "./aggregate";

/** Segments shorter than this skip the SIMD setup (fine SAMPLE BY buckets hold a few rows). */
const SMALL_ROWS: i32 = 16;

// @ts-ignore: decorator
@inline function fold<T>(data: usize, count: i32): void {
  if (isFloat<T>()) {
    if (sizeof<T>() == 8) foldF64(data, count);
    else foldF32(data, count);
  } else {
    if (sizeof<T>() == 8) foldI64(data, count);
    else foldI32(data, count);
  }
}

// @ts-ignore: decorator
@inline function segments<T>(
  data: usize, sel: usize, limit: i32, from: i32, ends: usize, segCount: i32,
  counts: usize, sums: usize, mins: usize, maxs: usize, firsts: usize, lasts: usize,
): void {
  const NUL = nullOf<T>();
  let start = from;
  for (let s = 0; s < segCount; s++) {
    const end = min(max(load<i32>(ends + ((<usize>s) << 2)), start), limit);
    resetAcc();
    if (sel != 0) foldScalar<T>(data, sel, start, end, true);
    else if (end - start < SMALL_ROWS) foldScalar<T>(data, 0, start, end, false);
    else fold<T>(at<T>(data, start), end - start);
    const some = accCount > 0;
    const s8 = (<usize>s) << 3;
    if (counts != 0) store<i64>(counts + s8, accCount);
    if (isFloat<T>()) {
      if (sums != 0) store<f64>(sums + s8, accSumF);
      if (mins != 0) store<T>(at<T>(mins, s), some ? <T>accMinF : NUL);
      if (maxs != 0) store<T>(at<T>(maxs, s), some ? <T>accMaxF : NUL);
    } else {
      if (sums != 0) store<i64>(sums + s8, accSumI);
      if (mins != 0) store<T>(at<T>(mins, s), some ? <T>accMinI : NUL);
      if (maxs != 0) store<T>(at<T>(maxs, s), some ? <T>accMaxI : NUL);
    }
    const empty = end <= start;
    if (firsts != 0) {
      store<T>(at<T>(firsts, s), empty ? NUL : load<T>(at<T>(data, sel != 0 ? selAt(sel, start) : start)));
    }
    if (lasts != 0) {
      store<T>(at<T>(lasts, s), empty ? NUL : load<T>(at<T>(data, sel != 0 ? selAt(sel, end - 1) : end - 1)));
    }
    start = end;
  }
}

export function segments_f64(
  data: usize, sel: usize, limit: i32, from: i32, ends: usize, segCount: i32,
  counts: usize, sums: usize, mins: usize, maxs: usize, firsts: usize, lasts: usize,
): void {
  segments<f64>(data, sel, limit, from, ends, segCount, counts, sums, mins, maxs, firsts, lasts);
}
export function segments_f32(
  data: usize, sel: usize, limit: i32, from: i32, ends: usize, segCount: i32,
  counts: usize, sums: usize, mins: usize, maxs: usize, firsts: usize, lasts: usize,
): void {
  segments<f32>(data, sel, limit, from, ends, segCount, counts, sums, mins, maxs, firsts, lasts);
}
export function segments_i64(
  data: usize, sel: usize, limit: i32, from: i32, ends: usize, segCount: i32,
  counts: usize, sums: usize, mins: usize, maxs: usize, firsts: usize, lasts: usize,
): void {
  segments<i64>(data, sel, limit, from, ends, segCount, counts, sums, mins, maxs, firsts, lasts);
}
export function segments_i32(
  data: usize, sel: usize, limit: i32, from: i32, ends: usize, segCount: i32,
  counts: usize, sums: usize, mins: usize, maxs: usize, firsts: usize, lasts: usize,
): void {
  segments<i32>(data, sel, limit, from, ends, segCount, counts, sums, mins, maxs, firsts, lasts);
}
