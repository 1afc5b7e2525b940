// Row movement: gather rows through a selection vector, copy rows in reverse order
// (ORDER BY ts DESC LIMIT n reads the last rows backwards), and write row sequences.
// Element widths: 1, 2, 4, 8, 16 (UUID) and 32 (LONG256) bytes. Sources and targets must
// not overlap.

import { selAt } from "./common";

// @ts-ignore: decorator
@inline function copyRow(width: i32, to: usize, from: usize): void {
  if (width == 1) store<u8>(to, load<u8>(from));
  else if (width == 2) store<u16>(to, load<u16>(from));
  else if (width == 4) store<u32>(to, load<u32>(from));
  else if (width == 8) store<u64>(to, load<u64>(from));
  else if (width == 16) v128.store(to, v128.load(from));
  else {
    v128.store(to, v128.load(from));
    v128.store(to, v128.load(from, 16), 16);
  }
}

// @ts-ignore: decorator
@inline function gatherW(width: i32, data: usize, sel: usize, selCount: i32, out: usize): void {
  for (let j = 0; j < selCount; j++) {
    copyRow(width, out + <usize>j * width, data + <usize>selAt(sel, j) * width);
  }
}

// @ts-ignore: decorator
@inline function reverseW(width: i32, data: usize, count: i32, out: usize): void {
  for (let j = 0; j < count; j++) {
    copyRow(width, out + <usize>j * width, data + <usize>(count - 1 - j) * width);
  }
}

/** out[j] = row sel[j] of the column, for each of selCount entries. */
export function gather(width: i32, data: usize, sel: usize, selCount: i32, out: usize): void {
  if (width == 1) gatherW(1, data, sel, selCount, out);
  else if (width == 2) gatherW(2, data, sel, selCount, out);
  else if (width == 4) gatherW(4, data, sel, selCount, out);
  else if (width == 8) gatherW(8, data, sel, selCount, out);
  else if (width == 16) gatherW(16, data, sel, selCount, out);
  else if (width == 32) gatherW(32, data, sel, selCount, out);
  else unreachable();
}

/** out[j] = row count - 1 - j of the column. */
export function reverse(width: i32, data: usize, count: i32, out: usize): void {
  if (width == 1) reverseW(1, data, count, out);
  else if (width == 2) reverseW(2, data, count, out);
  else if (width == 4) reverseW(4, data, count, out);
  else if (width == 8) reverseW(8, data, count, out);
  else if (width == 16) reverseW(16, data, count, out);
  else if (width == 32) reverseW(32, data, count, out);
  else unreachable();
}

/**
 * The union of two ascending Int32 selections a[0..na) and b[0..nb) into out, ascending and
 * without repeats (an OR of two conditions' rows); returns its length. out overlaps neither.
 */
export function sel_union(a: usize, na: i32, b: usize, nb: i32, out: usize): i32 {
  let i = 0, j = 0, k = 0;
  while (i < na && j < nb) {
    const x = load<i32>(a + ((<usize>i) << 2)), y = load<i32>(b + ((<usize>j) << 2));
    store<i32>(out + ((<usize>k) << 2), select<i32>(x, y, x <= y));
    i += <i32>(x <= y);
    j += <i32>(y <= x);
    k++;
  }
  for (; i < na; i++, k++) store<i32>(out + ((<usize>k) << 2), load<i32>(a + ((<usize>i) << 2)));
  for (; j < nb; j++, k++) store<i32>(out + ((<usize>k) << 2), load<i32>(b + ((<usize>j) << 2)));
  return k;
}

/** out[j] = first + j * step (Int32): a selection of a row range, ascending or descending. */
export function sequence(out: usize, first: i32, count: i32, step: i32): void {
  let v = i32x4.add(i32x4.splat(first), i32x4.mul(i32x4(0, 1, 2, 3), i32x4.splat(step)));
  const inc = i32x4.splat(step << 2);
  let j = 0;
  for (; j + 4 <= count; j += 4) {
    v128.store(out + ((<usize>j) << 2), v);
    v = i32x4.add(v, inc);
  }
  for (; j < count; j++) store<i32>(out + ((<usize>j) << 2), first + j * step);
}

// @ts-ignore: decorator
@inline function gatherOrNullW<T>(data: usize, rowCount: i32, match: usize, count: i32, out: usize, nul: T): void {
  for (let j = 0; j < count; j++) {
    const m = selAt(match, j);
    if (m >= rowCount) unreachable();
    store<T>(out + (<usize>j << alignof<T>()), m >= 0 ? load<T>(data + (<usize>m << alignof<T>())) : nul);
  }
}

/**
 * out[j] = row match[j] of the column, or `nul` (the type's NULL, as raw bits) where
 * match[j] is negative: the right-hand columns of an ASOF JOIN, unmatched rows NULL.
 * A match at or past rowCount traps.
 */
export function gather_or_null(width: i32, data: usize, rowCount: i32, match: usize, count: i32, out: usize, nul: i64): void {
  if (width == 1) gatherOrNullW<i8>(data, rowCount, match, count, out, <i8>nul);
  else if (width == 2) gatherOrNullW<i16>(data, rowCount, match, count, out, <i16>nul);
  else if (width == 4) gatherOrNullW<i32>(data, rowCount, match, count, out, <i32>nul);
  else if (width == 8) gatherOrNullW<i64>(data, rowCount, match, count, out, nul);
  else unreachable();
}
