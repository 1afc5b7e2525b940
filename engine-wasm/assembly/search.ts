// Binary search over a sorted LONG/TIMESTAMP column: a time range becomes two searches
// (ARCHITECTURE.md "Time-series shortcuts").

import { at } from "./common";

/** First row in [from, to) whose value is >= value (or > value when `upper`), else `to`. */
// @ts-ignore: decorator
@inline function bound(data: usize, from: i32, to: i32, value: i64, upper: bool): i32 {
  let lo = from;
  let n = to - from;
  // Branch-free halving: the probe position moves, the loop count depends only on n.
  while (n > 1) {
    const half = n >>> 1;
    const x = load<i64>(at<i64>(data, lo + half - 1));
    lo = select<i32>(lo + half, lo, upper ? x <= value : x < value);
    n -= half;
  }
  if (n == 1) {
    const x = load<i64>(at<i64>(data, lo));
    lo += <i32>(upper ? x <= value : x < value);
  }
  return lo;
}

export function lower_bound_i64(data: usize, from: i32, to: i32, value: i64): i32 {
  return bound(data, from, to, value, false);
}
export function upper_bound_i64(data: usize, from: i32, to: i32, value: i64): i32 {
  return bound(data, from, to, value, true);
}

/**
 * Lower bounds of many ascending values at once (bucket boundaries of SAMPLE BY): out[i] is
 * the first row in [from, to) whose value is >= values[i]. Each search gallops from the
 * previous answer, so n boundaries over m rows cost O(n log(m / n)).
 */
export function lower_bounds_i64(data: usize, from: i32, to: i32, values: usize, count: i32, out: usize): void {
  let lo = from;
  for (let i = 0; i < count; i++) {
    const value = load<i64>(at<i64>(values, i));
    // Gallop: widen [lo, lo + step) until its last row is >= value or the range ends.
    let step = 1;
    let hi = lo;
    while (hi < to && load<i64>(at<i64>(data, hi)) < value) {
      lo = hi + 1;
      hi = lo + step - 1;
      step <<= 1;
      if (hi >= to) hi = to;
    }
    lo = bound(data, lo, min(hi, to), value, false);
    store<i32>(at<i32>(out, i), lo);
  }
}
