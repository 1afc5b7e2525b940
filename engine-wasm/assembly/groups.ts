// Group numbering for keyed SAMPLE BY and exact 128-bit sums of LONG columns by group.
//
// group_ids numbers the (bucket, key) groups of rows [from, to) of a dense INT key column
// (SYMBOL keys 0..K-1, -1 for NULL, which takes slot K) in first-appearance order. The rows
// are cut into buckets by `ends` (segment s ends before row ends[s]); segment s is bucket
// `idBase + s`. Per key slot, stamp[slot] holds the bucket it was last seen in and
// slotGroup[slot] its group there, so a bucket that goes on from the previous call (same id)
// keeps its groups: the caller numbers a whole stream slice after slice with the same arrays.
// Per row it writes gid[row - from]; per new group its slot, bucket id and first row; per
// group it counts rows (f64) and keeps the last row.

// @ts-ignore: decorator
@inline function i32At(p: usize, i: i32): usize {
  return p + ((<usize>i) << 2);
}

/** The new group count, or -1 - row for the first row whose key is outside -1..K-1. */
export function group_ids(
  keys: usize, from: i32, to: i32, ends: usize, segCount: i32, idBase: i32, keyCount: i32,
  stamp: usize, slotGroup: usize, groups: i32,
  gid: usize, gSlot: usize, gBucket: usize, gRows: usize, firstRow: usize, lastRow: usize,
): i32 {
  let row = from;
  for (let s = 0; s < segCount; s++) {
    const end = min<i32>(load<i32>(i32At(ends, s)), to);
    const id = idBase + s;
    for (; row < end; row++) {
      const key = load<i32>(i32At(keys, row));
      let sl = key;
      if (<u32>key >= <u32>keyCount) {
        if (key != -1) return -1 - row;
        sl = keyCount;
      }
      let g: i32;
      if (load<i32>(i32At(stamp, sl)) == id) {
        g = load<i32>(i32At(slotGroup, sl));
      } else {
        g = groups++;
        store<i32>(i32At(stamp, sl), id);
        store<i32>(i32At(slotGroup, sl), g);
        store<i32>(i32At(gSlot, g), sl);
        store<i32>(i32At(gBucket, g), id);
        store<i32>(i32At(firstRow, g), row);
        store<f64>(gRows + ((<usize>g) << 3), 0);
      }
      const pr = gRows + ((<usize>g) << 3);
      store<f64>(pr, load<f64>(pr) + 1);
      store<i32>(i32At(gid, row - from), g);
      store<i32>(i32At(lastRow, g), row);
    }
  }
  return groups;
}

// @ts-ignore: decorator
@inline function sum128(
  gid: usize, data: usize, sel: usize, n: i32, keyCount: u32, lo: usize, hi: usize, bySel: bool,
): void {
  for (let j = 0; j < n; j++) {
    const row = bySel ? load<i32>(i32At(sel, j)) : j;
    const x = load<i64>(data + ((<usize>row) << 3));
    if (x == i64.MIN_VALUE) continue;
    // A group outside 0..keyCount-1 lands in slot keyCount, as in keyed.ts: never outside the arrays.
    const k = load<i32>(i32At(gid, row));
    const g = (<usize>select<u32>(<u32>k, keyCount, <u32>k < keyCount)) << 3;
    const old = load<u64>(lo + g);
    const sum = old + <u64>x;
    store<u64>(lo + g, sum);
    // The sign extension of x, plus the carry out of the low word.
    store<i64>(hi + g, load<i64>(hi + g) + (x >> 63) + <i64>(sum < old));
  }
}

/** Adds each non-NULL LONG row into its group's 128-bit sum (lo u64, hi i64 per slot, keyCount + 1 slots). */
export function sum128_i64(gid: usize, data: usize, count: i32, keyCount: u32, lo: usize, hi: usize): void {
  sum128(gid, data, 0, count, keyCount, lo, hi, false);
}
export function sum128_sel_i64(
  gid: usize, data: usize, sel: usize, selCount: i32, keyCount: u32, lo: usize, hi: usize,
): void {
  sum128(gid, data, sel, selCount, keyCount, lo, hi, true);
}
