// Keyed aggregates by a dense INT key column (SYMBOL keys 0..K-1; -1 is the NULL key).
//
// Output arrays have K + 1 slots: slot k for key k and slot K for the NULL key. A key
// outside -1..K-1 is a caller bug; it lands in the NULL slot so that nothing outside the
// arrays is ever written. The kernels add into the arrays, so a caller runs them batch after
// batch over the same arrays:
//   counts  i64, start at 0
//   sums    f64 (DOUBLE, FLOAT) or i64 (LONG, INT; wraps), start at 0
//   mins    the column's type, start at its NULL (NaN, LONG_MIN, INT_MIN): NULL stays NULL
//   maxs    same as mins
// NULL values are skipped; keyed_count counts rows whatever their values.

import { at, notNull, nullOf, selAt } from "./common";

/** The slot of `key` among K + 1. */
// @ts-ignore: decorator
@inline function slot(key: i32, keyCount: u32): usize {
  return <usize>select<u32>(<u32>key, keyCount, <u32>key < keyCount);
}

// @ts-ignore: decorator
@inline function rowOf(sel: usize, j: i32, bySel: bool): i32 {
  return bySel ? selAt(sel, j) : j;
}

// @ts-ignore: decorator
@inline function countRows(keys: usize, sel: usize, n: i32, keyCount: u32, counts: usize, bySel: bool): void {
  for (let j = 0; j < n; j++) {
    const p = counts + (slot(load<i32>(at<i32>(keys, rowOf(sel, j, bySel))), keyCount) << 3);
    store<i64>(p, load<i64>(p) + 1);
  }
}

// @ts-ignore: decorator
@inline function keyedSum<T>(
  keys: usize, data: usize, sel: usize, n: i32, keyCount: u32, counts: usize, sums: usize, bySel: bool,
): void {
  for (let j = 0; j < n; j++) {
    const row = rowOf(sel, j, bySel);
    const s = slot(load<i32>(at<i32>(keys, row)), keyCount) << 3;
    const x = load<T>(at<T>(data, row));
    const ok = notNull<T>(x);
    store<i64>(counts + s, load<i64>(counts + s) + <i64>ok);
    if (isFloat<T>()) {
      store<f64>(sums + s, load<f64>(sums + s) + select<f64>(<f64>x, 0, ok));
    } else {
      store<i64>(sums + s, load<i64>(sums + s) + select<i64>(<i64>x, 0, ok));
    }
  }
}

// @ts-ignore: decorator
@inline function keyedMinMax<T>(
  keys: usize, data: usize, sel: usize, n: i32, keyCount: u32, out: usize, bySel: bool, isMax: bool,
): void {
  const NUL = nullOf<T>();
  for (let j = 0; j < n; j++) {
    const row = rowOf(sel, j, bySel);
    const p = out + (slot(load<i32>(at<i32>(keys, row)), keyCount) << alignof<T>());
    const x = load<T>(at<T>(data, row));
    const cur = load<T>(p);
    let take: bool;
    if (isFloat<T>()) {
      take = notNull<T>(x) & (!notNull<T>(cur) | (isMax ? x > cur : x < cur));
    } else {
      take = notNull<T>(x) & ((cur == NUL) | (isMax ? x > cur : x < cur));
    }
    store<T>(p, select<T>(x, cur, take));
  }
}

export function keyed_count(keys: usize, count: i32, keyCount: u32, counts: usize): void {
  countRows(keys, 0, count, keyCount, counts, false);
}
export function keyed_count_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, counts: usize): void {
  countRows(keys, sel, selCount, keyCount, counts, true);
}

export function keyed_sum_f64(keys: usize, data: usize, count: i32, keyCount: u32, counts: usize, sums: usize): void {
  keyedSum<f64>(keys, data, 0, count, keyCount, counts, sums, false);
}
export function keyed_sum_sel_f64(
  keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, counts: usize, sums: usize,
): void {
  keyedSum<f64>(keys, data, sel, selCount, keyCount, counts, sums, true);
}
export function keyed_sum_f32(keys: usize, data: usize, count: i32, keyCount: u32, counts: usize, sums: usize): void {
  keyedSum<f32>(keys, data, 0, count, keyCount, counts, sums, false);
}
export function keyed_sum_sel_f32(
  keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, counts: usize, sums: usize,
): void {
  keyedSum<f32>(keys, data, sel, selCount, keyCount, counts, sums, true);
}
export function keyed_sum_i64(keys: usize, data: usize, count: i32, keyCount: u32, counts: usize, sums: usize): void {
  keyedSum<i64>(keys, data, 0, count, keyCount, counts, sums, false);
}
export function keyed_sum_sel_i64(
  keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, counts: usize, sums: usize,
): void {
  keyedSum<i64>(keys, data, sel, selCount, keyCount, counts, sums, true);
}
export function keyed_sum_i32(keys: usize, data: usize, count: i32, keyCount: u32, counts: usize, sums: usize): void {
  keyedSum<i32>(keys, data, 0, count, keyCount, counts, sums, false);
}
export function keyed_sum_sel_i32(
  keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, counts: usize, sums: usize,
): void {
  keyedSum<i32>(keys, data, sel, selCount, keyCount, counts, sums, true);
}

export function keyed_min_f64(keys: usize, data: usize, count: i32, keyCount: u32, out: usize): void {
  keyedMinMax<f64>(keys, data, 0, count, keyCount, out, false, false);
}
export function keyed_min_sel_f64(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, out: usize): void {
  keyedMinMax<f64>(keys, data, sel, selCount, keyCount, out, true, false);
}
export function keyed_max_f64(keys: usize, data: usize, count: i32, keyCount: u32, out: usize): void {
  keyedMinMax<f64>(keys, data, 0, count, keyCount, out, false, true);
}
export function keyed_max_sel_f64(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, out: usize): void {
  keyedMinMax<f64>(keys, data, sel, selCount, keyCount, out, true, true);
}
export function keyed_min_f32(keys: usize, data: usize, count: i32, keyCount: u32, out: usize): void {
  keyedMinMax<f32>(keys, data, 0, count, keyCount, out, false, false);
}
export function keyed_min_sel_f32(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, out: usize): void {
  keyedMinMax<f32>(keys, data, sel, selCount, keyCount, out, true, false);
}
export function keyed_max_f32(keys: usize, data: usize, count: i32, keyCount: u32, out: usize): void {
  keyedMinMax<f32>(keys, data, 0, count, keyCount, out, false, true);
}
export function keyed_max_sel_f32(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, out: usize): void {
  keyedMinMax<f32>(keys, data, sel, selCount, keyCount, out, true, true);
}
export function keyed_min_i64(keys: usize, data: usize, count: i32, keyCount: u32, out: usize): void {
  keyedMinMax<i64>(keys, data, 0, count, keyCount, out, false, false);
}
export function keyed_min_sel_i64(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, out: usize): void {
  keyedMinMax<i64>(keys, data, sel, selCount, keyCount, out, true, false);
}
export function keyed_max_i64(keys: usize, data: usize, count: i32, keyCount: u32, out: usize): void {
  keyedMinMax<i64>(keys, data, 0, count, keyCount, out, false, true);
}
export function keyed_max_sel_i64(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, out: usize): void {
  keyedMinMax<i64>(keys, data, sel, selCount, keyCount, out, true, true);
}
export function keyed_min_i32(keys: usize, data: usize, count: i32, keyCount: u32, out: usize): void {
  keyedMinMax<i32>(keys, data, 0, count, keyCount, out, false, false);
}
export function keyed_min_sel_i32(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, out: usize): void {
  keyedMinMax<i32>(keys, data, sel, selCount, keyCount, out, true, false);
}
export function keyed_max_i32(keys: usize, data: usize, count: i32, keyCount: u32, out: usize): void {
  keyedMinMax<i32>(keys, data, 0, count, keyCount, out, false, true);
}
export function keyed_max_sel_i32(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, out: usize): void {
  keyedMinMax<i32>(keys, data, sel, selCount, keyCount, out, true, true);
}

// One pass over a column for everything a GROUP BY symbol usually asks of it: rows per
// slot (count(*)), non-NULL counts, sums, minimums and maximums. Replaces up to five
// separate passes (count, sum, min, max) over the same keys and values.
// @ts-ignore: decorator
@inline function keyedStats<T>(
  keys: usize, data: usize, sel: usize, n: i32, keyCount: u32,
  rows: usize, counts: usize, sums: usize, mins: usize, maxs: usize, bySel: bool,
): void {
  const NUL = nullOf<T>();
  for (let j = 0; j < n; j++) {
    const row = rowOf(sel, j, bySel);
    const sl = slot(load<i32>(at<i32>(keys, row)), keyCount);
    const s8 = sl << 3;
    store<i64>(rows + s8, load<i64>(rows + s8) + 1);
    const x = load<T>(at<T>(data, row));
    if (!notNull<T>(x)) continue;
    store<i64>(counts + s8, load<i64>(counts + s8) + 1);
    if (isFloat<T>()) store<f64>(sums + s8, load<f64>(sums + s8) + <f64>x);
    else store<i64>(sums + s8, load<i64>(sums + s8) + <i64>x);
    const pmin = mins + (sl << alignof<T>());
    const pmax = maxs + (sl << alignof<T>());
    const lo = load<T>(pmin);
    const hi = load<T>(pmax);
    if (isFloat<T>()) {
      if (!notNull<T>(lo) || x < lo) store<T>(pmin, x);
      if (!notNull<T>(hi) || x > hi) store<T>(pmax, x);
    } else {
      if (lo == NUL || x < lo) store<T>(pmin, x);
      if (hi == NUL || x > hi) store<T>(pmax, x);
    }
  }
}

export function keyed_stats_f64(keys: usize, data: usize, count: i32, keyCount: u32, rows: usize, counts: usize, sums: usize, mins: usize, maxs: usize): void {
  keyedStats<f64>(keys, data, 0, count, keyCount, rows, counts, sums, mins, maxs, false);
}
export function keyed_stats_sel_f64(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, counts: usize, sums: usize, mins: usize, maxs: usize): void {
  keyedStats<f64>(keys, data, sel, selCount, keyCount, rows, counts, sums, mins, maxs, true);
}
export function keyed_stats_f32(keys: usize, data: usize, count: i32, keyCount: u32, rows: usize, counts: usize, sums: usize, mins: usize, maxs: usize): void {
  keyedStats<f32>(keys, data, 0, count, keyCount, rows, counts, sums, mins, maxs, false);
}
export function keyed_stats_sel_f32(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, counts: usize, sums: usize, mins: usize, maxs: usize): void {
  keyedStats<f32>(keys, data, sel, selCount, keyCount, rows, counts, sums, mins, maxs, true);
}
export function keyed_stats_i64(keys: usize, data: usize, count: i32, keyCount: u32, rows: usize, counts: usize, sums: usize, mins: usize, maxs: usize): void {
  keyedStats<i64>(keys, data, 0, count, keyCount, rows, counts, sums, mins, maxs, false);
}
export function keyed_stats_sel_i64(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, counts: usize, sums: usize, mins: usize, maxs: usize): void {
  keyedStats<i64>(keys, data, sel, selCount, keyCount, rows, counts, sums, mins, maxs, true);
}
export function keyed_stats_i32(keys: usize, data: usize, count: i32, keyCount: u32, rows: usize, counts: usize, sums: usize, mins: usize, maxs: usize): void {
  keyedStats<i32>(keys, data, 0, count, keyCount, rows, counts, sums, mins, maxs, false);
}
export function keyed_stats_sel_i32(keys: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, counts: usize, sums: usize, mins: usize, maxs: usize): void {
  keyedStats<i32>(keys, data, sel, selCount, keyCount, rows, counts, sums, mins, maxs, true);
}
