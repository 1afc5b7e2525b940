/**
 * Set operations on lists of inclusive timestamp intervals (spec/sql.md §8.4): AND of two
 * `ts IN '…'` predicates intersects, OR unions, NOT IN complements. Every list these functions
 * return is sorted by `lo`, with overlapping and adjacent intervals merged.
 */
import type { Interval } from "../base/values.ts";

/** The smallest and largest 64-bit values: the domain complements are taken over. */
export const TICK_MIN = -(2n ** 63n);
export const TICK_MAX = 2n ** 63n - 1n;

/** Sorts by `lo` and merges overlapping or adjacent (`hi + 1 == lo`) intervals. */
export function normalizeIntervals(list: readonly Interval[]): Interval[] {
  const sorted = list.filter((i) => i.lo <= i.hi).sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : 0));
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.lo <= last.hi + 1n) {
      if (i.hi > last.hi) last.hi = i.hi;
    } else {
      out.push({ lo: i.lo, hi: i.hi });
    }
  }
  return out;
}

/** Instants in both lists. */
export function intersectIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const x = normalizeIntervals(a);
  const y = normalizeIntervals(b);
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const lo = x[i].lo > y[j].lo ? x[i].lo : y[j].lo;
    const hi = x[i].hi < y[j].hi ? x[i].hi : y[j].hi;
    if (lo <= hi) out.push({ lo, hi });
    if (x[i].hi < y[j].hi) i++;
    else j++;
  }
  return out;
}

/** Instants in either list. */
export function unionIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  return normalizeIntervals([...a, ...b]);
}

/** Instants of [min, max] (by default the whole 64-bit range) in none of the intervals. */
export function complementIntervals(list: readonly Interval[], min = TICK_MIN, max = TICK_MAX): Interval[] {
  const out: Interval[] = [];
  let next = min;
  for (const i of normalizeIntervals(list)) {
    if (i.hi < min || i.lo > max) continue;
    if (i.lo > next) out.push({ lo: next, hi: i.lo - 1n });
    if (i.hi >= max) return out;
    if (i.hi + 1n > next) next = i.hi + 1n;
  }
  out.push({ lo: next, hi: max });
  return out;
}

/** True when `t` lies in one of the (normalized) intervals; binary search. */
export function intervalsContain(list: readonly Interval[], t: bigint): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].lo > t) hi = mid - 1;
    else if (list[mid].hi < t) lo = mid + 1;
    else return true;
  }
  return false;
}
