// Shared pieces of the kernels: NULL sentinels, the result block and the compaction table.
// Everything here is static data laid out by the compiler below 1 MiB (see build.ts).

/** LONG, TIMESTAMP and DATE NULL (spec/sql.md §2.1). */
export const LONG_NULL: i64 = i64.MIN_VALUE;
/** INT NULL. */
export const INT_NULL: i32 = i32.MIN_VALUE;

/**
 * The result block of the unkeyed aggregates, read by mod.ts after each call:
 *   +0  count  i64  rows with a non-NULL value
 *   +8  sum    f64 (float columns) or i64 (integer columns, two's complement wrap)
 *   +16 min    f64 or i64, the NULL sentinel (NaN / LONG_MIN) when count is 0
 *   +24 max    same as min
 */
export const RESULT: usize = memory.data(32, 16);

/**
 * For each 4-bit lane mask, the i8x16.swizzle pattern that moves the selected 32-bit lanes of
 * a vector to its front (128 = zero byte). One v128 store then appends the selected row
 * indexes of four rows to a selection vector.
 */
export const COMPACT: usize = memory.data<u8>([
  128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128,
  8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128,
  12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128,
  8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128,
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
], 16);

/** Address of row `row` of a column of T starting at `data`. */
// @ts-ignore: decorator
@inline export function at<T>(data: usize, row: i32): usize {
  return data + ((<usize>row) << alignof<T>());
}

/** Row index `j` of a selection vector. */
// @ts-ignore: decorator
@inline export function selAt(sel: usize, j: i32): i32 {
  return load<i32>(sel + ((<usize>j) << 2));
}

/** True unless `x` is the NULL of its type: non-finite floats, INT_MIN, LONG_MIN. */
// @ts-ignore: decorator
@inline export function notNull<T>(x: T): bool {
  if (isFloat<T>()) return x - x == 0;
  if (sizeof<T>() == 8) return <i64>x != LONG_NULL;
  if (sizeof<T>() == 4) return <i32>x != INT_NULL;
  return true; // BYTE and SHORT have no NULL
}

/** The NULL of T (BYTE and SHORT have none: 0, never read as NULL). */
// @ts-ignore: decorator
@inline export function nullOf<T>(): T {
  if (isFloat<T>()) return <T>NaN;
  if (sizeof<T>() == 8) return <T>LONG_NULL;
  if (sizeof<T>() == 4) return <T>INT_NULL;
  return <T>0;
}
