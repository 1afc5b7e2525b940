// Keyed aggregates of up to four value columns in one pass over a dense key column (issue #16:
// GROUP BY symbol with several aggregates). One pass per column read the keys and counted rows
// once per column, and kept min/max/count it did not need; here a row's key is read once, rows
// are counted once, and each column does only what its aggregates ask:
//
//   code 0 none | 1 f64 sum | 2 f64 sum+extremes | 3 i64 sum | 4 i64 sum+extremes
//   5 f32 sum | 6 f32 sum+extremes | 7 i32 sum | 8 i32 sum+extremes
//
// Slots as in keyed.ts: K + 1 per key column, slot K for the NULL key and any key outside 0..K-1.
// `rows` is Int64 per slot (rows visited). Each column's accumulator is 32 bytes per slot:
//   +0  nulls  i64  NULL values seen (non-NULL count = rows - nulls)
//   +8  sum    f64 for float columns, i64 (wrapping) for integer ones
//   +16 min    f64 / i64 (FLOAT and INT widened); start at +Inf / i64 MAX
//   +24 max    f64 / i64; start at -Inf / i64 MIN
// A slot whose values are all NULL keeps its starting extremes: callers read them only when
// the non-NULL count is positive. The NULL test is a branch (NULLs are rare; it skips the
// work), the extremes are branch-free selects. Kernels add into the arrays, so a caller runs
// them batch after batch.

import { at, notNull, selAt } from "./common";

// @ts-ignore: decorator
@inline function slot(key: i32, keyCount: u32): usize {
  return <usize>select<u32>(<u32>key, keyCount, <u32>key < keyCount);
}

// @ts-ignore: decorator
@inline function foldFloat<T>(x: T, p: usize, extremes: bool): void {
  if (notNull<T>(x)) {
    const v = <f64>x;
    store<f64>(p, load<f64>(p, 8) + v, 8);
    if (extremes) {
      const lo = load<f64>(p, 16);
      const hi = load<f64>(p, 24);
      store<f64>(p, select<f64>(v, lo, v < lo), 16);
      store<f64>(p, select<f64>(v, hi, v > hi), 24);
    }
  } else store<i64>(p, load<i64>(p) + 1);
}

// @ts-ignore: decorator
@inline function foldInt<T>(x: T, p: usize, extremes: bool): void {
  if (notNull<T>(x)) {
    const v = <i64>x;
    store<i64>(p, load<i64>(p, 8) + v, 8);
    if (extremes) {
      const lo = load<i64>(p, 16);
      const hi = load<i64>(p, 24);
      store<i64>(p, select<i64>(v, lo, v < lo), 16);
      store<i64>(p, select<i64>(v, hi, v > hi), 24);
    }
  } else store<i64>(p, load<i64>(p) + 1);
}

// @ts-ignore: decorator
@inline function step(code: u32, data: usize, p: usize, row: i32): void {
  switch (code) {
    case 1: foldFloat<f64>(load<f64>(at<f64>(data, row)), p, false); break;
    case 2: foldFloat<f64>(load<f64>(at<f64>(data, row)), p, true); break;
    case 3: foldInt<i64>(load<i64>(at<i64>(data, row)), p, false); break;
    case 4: foldInt<i64>(load<i64>(at<i64>(data, row)), p, true); break;
    case 5: foldFloat<f32>(load<f32>(at<f32>(data, row)), p, false); break;
    case 6: foldFloat<f32>(load<f32>(at<f32>(data, row)), p, true); break;
    case 7: foldInt<i32>(load<i32>(at<i32>(data, row)), p, false); break;
    case 8: foldInt<i32>(load<i32>(at<i32>(data, row)), p, true); break;
  }
}

// `cols` is a constant at each call site: the exports below are specialised by column count, so
// a row pays no dispatch for columns it does not have (one column: about 2 ns a row, not 3.5).
// @ts-ignore: decorator
@inline function fold(
  keys: usize, sel: usize, n: i32, keyCount: u32, rows: usize, bySel: bool, cols: i32,
  d0: usize, a0: usize, c0: u32, d1: usize, a1: usize, c1: u32,
  d2: usize, a2: usize, c2: u32, d3: usize, a3: usize, c3: u32,
): void {
  for (let j = 0; j < n; j++) {
    const row = bySel ? selAt(sel, j) : j;
    const sl = slot(load<i32>(at<i32>(keys, row)), keyCount);
    const r = rows + (sl << 3);
    store<i64>(r, load<i64>(r) + 1);
    const s32 = sl << 5;
    step(c0, d0, a0 + s32, row);
    if (cols > 1) step(c1, d1, a1 + s32, row);
    if (cols > 2) step(c2, d2, a2 + s32, row);
    if (cols > 3) step(c3, d3, a3 + s32, row);
  }
}

export function keyed_fold1(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, c0: u32): void {
  fold(keys, 0, count, keyCount, rows, false, 1, d0, a0, c0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
export function keyed_fold1_sel(
  keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, c0: u32,
): void {
  fold(keys, sel, selCount, keyCount, rows, true, 1, d0, a0, c0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
export function keyed_fold2(
  keys: usize, count: i32, keyCount: u32, rows: usize,
  d0: usize, a0: usize, c0: u32, d1: usize, a1: usize, c1: u32,
): void {
  fold(keys, 0, count, keyCount, rows, false, 2, d0, a0, c0, d1, a1, c1, 0, 0, 0, 0, 0, 0);
}
export function keyed_fold2_sel(
  keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize,
  d0: usize, a0: usize, c0: u32, d1: usize, a1: usize, c1: u32,
): void {
  fold(keys, sel, selCount, keyCount, rows, true, 2, d0, a0, c0, d1, a1, c1, 0, 0, 0, 0, 0, 0);
}
export function keyed_fold3(
  keys: usize, count: i32, keyCount: u32, rows: usize,
  d0: usize, a0: usize, c0: u32, d1: usize, a1: usize, c1: u32, d2: usize, a2: usize, c2: u32,
): void {
  fold(keys, 0, count, keyCount, rows, false, 3, d0, a0, c0, d1, a1, c1, d2, a2, c2, 0, 0, 0);
}
export function keyed_fold3_sel(
  keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize,
  d0: usize, a0: usize, c0: u32, d1: usize, a1: usize, c1: u32, d2: usize, a2: usize, c2: u32,
): void {
  fold(keys, sel, selCount, keyCount, rows, true, 3, d0, a0, c0, d1, a1, c1, d2, a2, c2, 0, 0, 0);
}
export function keyed_fold4(
  keys: usize, count: i32, keyCount: u32, rows: usize,
  d0: usize, a0: usize, c0: u32, d1: usize, a1: usize, c1: u32,
  d2: usize, a2: usize, c2: u32, d3: usize, a3: usize, c3: u32,
): void {
  fold(keys, 0, count, keyCount, rows, false, 4, d0, a0, c0, d1, a1, c1, d2, a2, c2, d3, a3, c3);
}
export function keyed_fold4_sel(
  keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize,
  d0: usize, a0: usize, c0: u32, d1: usize, a1: usize, c1: u32,
  d2: usize, a2: usize, c2: u32, d3: usize, a3: usize, c3: u32,
): void {
  fold(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, c0, d1, a1, c1, d2, a2, c2, d3, a3, c3);
}

// The same fold with each column's kind fixed at compile time, for DOUBLE and LONG columns (the
// common ones) and up to four columns: no per-row switch, only the loop-invariant `e*` branch
// (extremes). About 12% faster than the switch (GROUP BY symbol, two DOUBLEs and a LONG).
// @ts-ignore: decorator
@inline function stepT<T>(data: usize, p: usize, row: i32, extremes: bool): void {
  if (isFloat<T>()) foldFloat<T>(load<T>(at<T>(data, row)), p, extremes);
  else foldInt<T>(load<T>(at<T>(data, row)), p, extremes);
}

// @ts-ignore: decorator
@inline function foldK<A, B, C, D>(
  keys: usize, sel: usize, n: i32, keyCount: u32, rows: usize, bySel: bool, cols: i32,
  d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool,
  d3: usize, a3: usize, e3: bool,
): void {
  for (let j = 0; j < n; j++) {
    const row = bySel ? selAt(sel, j) : j;
    const sl = slot(load<i32>(at<i32>(keys, row)), keyCount);
    const r = rows + (sl << 3);
    store<i64>(r, load<i64>(r) + 1);
    const s32 = sl << 5;
    stepT<A>(d0, a0 + s32, row, e0);
    if (cols > 1) stepT<B>(d1, a1 + s32, row, e1);
    if (cols > 2) stepT<C>(d2, a2 + s32, row, e2);
    if (cols > 3) stepT<D>(d3, a3 + s32, row, e3);
  }
}

export function keyed_fold_f(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool): void {
  foldK<f64, f64, f64, f64>(keys, 0, count, keyCount, rows, false, 1, d0, a0, e0, 0, 0, false, 0, 0, false, 0, 0, false);
}
export function keyed_fold_f_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool): void {
  foldK<f64, f64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 1, d0, a0, e0, 0, 0, false, 0, 0, false, 0, 0, false);
}
export function keyed_fold_l(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool): void {
  foldK<i64, f64, f64, f64>(keys, 0, count, keyCount, rows, false, 1, d0, a0, e0, 0, 0, false, 0, 0, false, 0, 0, false);
}
export function keyed_fold_l_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool): void {
  foldK<i64, f64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 1, d0, a0, e0, 0, 0, false, 0, 0, false, 0, 0, false);
}
export function keyed_fold_ff(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool): void {
  foldK<f64, f64, f64, f64>(keys, 0, count, keyCount, rows, false, 2, d0, a0, e0, d1, a1, e1, 0, 0, false, 0, 0, false);
}
export function keyed_fold_ff_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool): void {
  foldK<f64, f64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 2, d0, a0, e0, d1, a1, e1, 0, 0, false, 0, 0, false);
}
export function keyed_fold_fl(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool): void {
  foldK<f64, i64, f64, f64>(keys, 0, count, keyCount, rows, false, 2, d0, a0, e0, d1, a1, e1, 0, 0, false, 0, 0, false);
}
export function keyed_fold_fl_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool): void {
  foldK<f64, i64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 2, d0, a0, e0, d1, a1, e1, 0, 0, false, 0, 0, false);
}
export function keyed_fold_lf(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool): void {
  foldK<i64, f64, f64, f64>(keys, 0, count, keyCount, rows, false, 2, d0, a0, e0, d1, a1, e1, 0, 0, false, 0, 0, false);
}
export function keyed_fold_lf_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool): void {
  foldK<i64, f64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 2, d0, a0, e0, d1, a1, e1, 0, 0, false, 0, 0, false);
}
export function keyed_fold_ll(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool): void {
  foldK<i64, i64, f64, f64>(keys, 0, count, keyCount, rows, false, 2, d0, a0, e0, d1, a1, e1, 0, 0, false, 0, 0, false);
}
export function keyed_fold_ll_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool): void {
  foldK<i64, i64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 2, d0, a0, e0, d1, a1, e1, 0, 0, false, 0, 0, false);
}
export function keyed_fold_fff(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<f64, f64, f64, f64>(keys, 0, count, keyCount, rows, false, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_fff_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<f64, f64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_ffl(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<f64, f64, i64, f64>(keys, 0, count, keyCount, rows, false, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_ffl_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<f64, f64, i64, f64>(keys, sel, selCount, keyCount, rows, true, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_flf(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<f64, i64, f64, f64>(keys, 0, count, keyCount, rows, false, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_flf_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<f64, i64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_fll(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<f64, i64, i64, f64>(keys, 0, count, keyCount, rows, false, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_fll_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<f64, i64, i64, f64>(keys, sel, selCount, keyCount, rows, true, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_lff(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<i64, f64, f64, f64>(keys, 0, count, keyCount, rows, false, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_lff_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<i64, f64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_lfl(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<i64, f64, i64, f64>(keys, 0, count, keyCount, rows, false, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_lfl_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<i64, f64, i64, f64>(keys, sel, selCount, keyCount, rows, true, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_llf(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<i64, i64, f64, f64>(keys, 0, count, keyCount, rows, false, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_llf_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<i64, i64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_lll(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<i64, i64, i64, f64>(keys, 0, count, keyCount, rows, false, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_lll_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool): void {
  foldK<i64, i64, i64, f64>(keys, sel, selCount, keyCount, rows, true, 3, d0, a0, e0, d1, a1, e1, d2, a2, e2, 0, 0, false);
}
export function keyed_fold_ffff(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, f64, f64, f64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_ffff_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, f64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_fffl(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, f64, f64, i64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_fffl_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, f64, f64, i64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_fflf(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, f64, i64, f64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_fflf_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, f64, i64, f64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_ffll(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, f64, i64, i64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_ffll_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, f64, i64, i64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_flff(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, i64, f64, f64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_flff_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, i64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_flfl(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, i64, f64, i64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_flfl_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, i64, f64, i64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_fllf(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, i64, i64, f64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_fllf_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, i64, i64, f64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_flll(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, i64, i64, i64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_flll_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<f64, i64, i64, i64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lfff(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, f64, f64, f64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lfff_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, f64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lffl(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, f64, f64, i64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lffl_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, f64, f64, i64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lflf(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, f64, i64, f64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lflf_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, f64, i64, f64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lfll(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, f64, i64, i64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lfll_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, f64, i64, i64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_llff(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, i64, f64, f64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_llff_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, i64, f64, f64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_llfl(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, i64, f64, i64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_llfl_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, i64, f64, i64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lllf(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, i64, i64, f64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_lllf_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, i64, i64, f64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_llll(keys: usize, count: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, i64, i64, i64>(keys, 0, count, keyCount, rows, false, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
export function keyed_fold_llll_sel(keys: usize, sel: usize, selCount: i32, keyCount: u32, rows: usize, d0: usize, a0: usize, e0: bool, d1: usize, a1: usize, e1: bool, d2: usize, a2: usize, e2: bool, d3: usize, a3: usize, e3: bool): void {
  foldK<i64, i64, i64, i64>(keys, sel, selCount, keyCount, rows, true, 4, d0, a0, e0, d1, a1, e1, d2, a2, e2, d3, a3, e3);
}
