// DOUBLE arithmetic into a scratch column, and the top-N threshold test (issue #16).
//
// `binop_f64` evaluates `a op b` (+, -, *) over DOUBLE operands, each a column or a
// constant, into `out`: the fast aggregate folds the result with the `stats_f64` kernel
// chunk by chunk, so an aggregate of `price - amount` is two tight WASM loops over an
// L2-resident chunk instead of a JavaScript loop per row. IEEE arithmetic keeps NULL (NaN,
// ±Infinity) NULL for these three operators: a NaN operand gives NaN, an infinite one an
// infinity or NaN; a finite result of finite operands that overflows is an infinity, which
// the stats kernel reads as NULL, as the scalar operators make a non-finite result NULL.
//
// `topn_f64` lists the rows of a DOUBLE column that could enter a top-N under its current
// threshold `t`: rows ranked at least `t` (descending) or at most `t` (ascending), where a
// NULL ranks as +Infinity (a NULL double sorts last ascending, first descending, as QuestDB
// sorts NaN). Two rows per v128, four
// vectors per step tested at once: most steps select nothing once the threshold is tight.
// (A first version computed each lane's rank with a bitselect and tested it with one
// direction-dependent compare per vector; it ran at a third of the stats kernel's speed.)

import { LONG_NULL, selAt } from "./common";

const OP_ADD: i32 = 0;
const OP_SUB: i32 = 1;
const OP_MUL: i32 = 2;

// @ts-ignore: decorator
@inline function apply(op: i32, x: v128, y: v128): v128 {
  if (op == OP_ADD) return f64x2.add(x, y);
  if (op == OP_SUB) return f64x2.sub(x, y);
  return f64x2.mul(x, y);
}

// @ts-ignore: decorator
@inline function apply1(op: i32, x: f64, y: f64): f64 {
  if (op == OP_ADD) return x + y;
  if (op == OP_SUB) return x - y;
  return x * y;
}

/**
 * out[j] = a op b for rows 0..count-1 (sel = 0) or the rows of the selection's `count`
 * entries (out compacted: entry j for the j-th selected row). Bit 0 of `consts` makes `a` the
 * constant `av`, bit 1 makes `b` the constant `bv`.
 */
export function binop_f64(
  op: i32,
  a: usize,
  av: f64,
  b: usize,
  bv: f64,
  consts: i32,
  sel: usize,
  count: i32,
  out: usize,
): void {
  const ac = (consts & 1) != 0, bc = (consts & 2) != 0;
  if (sel != 0) {
    for (let j = 0; j < count; j++) {
      const r = <usize>selAt(sel, j) << 3;
      const x = ac ? av : load<f64>(a + r);
      const y = bc ? bv : load<f64>(b + r);
      store<f64>(out + (<usize>j << 3), apply1(op, x, y));
    }
    return;
  }
  let i = 0;
  if (!ac && !bc) {
    // The common case (two columns): one loop per operator, nothing else in it.
    if (op == OP_ADD) {
      for (; i + 2 <= count; i += 2) {
        const o = <usize>i << 3;
        v128.store(out + o, f64x2.add(v128.load(a + o), v128.load(b + o)));
      }
    } else if (op == OP_SUB) {
      for (; i + 2 <= count; i += 2) {
        const o = <usize>i << 3;
        v128.store(out + o, f64x2.sub(v128.load(a + o), v128.load(b + o)));
      }
    } else {
      for (; i + 2 <= count; i += 2) {
        const o = <usize>i << 3;
        v128.store(out + o, f64x2.mul(v128.load(a + o), v128.load(b + o)));
      }
    }
  } else {
    const avv = f64x2.splat(av), bvv = f64x2.splat(bv);
    for (; i + 2 <= count; i += 2) {
      const o = <usize>i << 3;
      const x = ac ? avv : v128.load(a + o);
      const y = bc ? bvv : v128.load(b + o);
      v128.store(out + o, apply(op, x, y));
    }
  }
  for (; i < count; i++) {
    const o = <usize>i << 3;
    store<f64>(out + o, apply1(op, ac ? av : load<f64>(a + o), bc ? bv : load<f64>(b + o)));
  }
}

// @ts-ignore: decorator
@inline function applyI64(op: i32, x: i64, y: i64): i64 {
  if (x == LONG_NULL || y == LONG_NULL) return LONG_NULL;
  if (op == OP_ADD) return x + y;
  if (op == OP_SUB) return x - y;
  return x * y;
}

/**
 * `binop_f64` for LONG operands: out[j] = a op b with 64-bit wrapping, NULL (LONG_MIN) when an
 * operand is NULL; a result that wraps to LONG_MIN reads as NULL, as in QuestDB.
 */
export function binop_i64(
  op: i32,
  a: usize,
  av: i64,
  b: usize,
  bv: i64,
  consts: i32,
  sel: usize,
  count: i32,
  out: usize,
): void {
  const ac = (consts & 1) != 0, bc = (consts & 2) != 0;
  if (sel != 0) {
    for (let j = 0; j < count; j++) {
      const r = <usize>selAt(sel, j) << 3;
      const x = ac ? av : load<i64>(a + r);
      const y = bc ? bv : load<i64>(b + r);
      store<i64>(out + (<usize>j << 3), applyI64(op, x, y));
    }
    return;
  }
  // Two rows per v128, one loop per operator (the scalar loop with its per-row tests ran at
  // ~5 ns a row: sum(qty * 2 + 1) over 10M rows took 68 ms). A NULL operand lane gives NULL.
  let i = 0;
  if (op == OP_ADD) i = simdI64(OP_ADD, a, av, b, bv, ac, bc, count, out);
  else if (op == OP_SUB) i = simdI64(OP_SUB, a, av, b, bv, ac, bc, count, out);
  else i = simdI64(OP_MUL, a, av, b, bv, ac, bc, count, out);
  for (; i < count; i++) {
    const o = <usize>i << 3;
    store<i64>(out + o, applyI64(op, ac ? av : load<i64>(a + o), bc ? bv : load<i64>(b + o)));
  }
}

/** The v128 part of binop_i64 without a selection; returns the first row left to do. */
// @ts-ignore: decorator
@inline function simdI64(
  op: i32,
  a: usize,
  av: i64,
  b: usize,
  bv: i64,
  ac: bool,
  bc: bool,
  count: i32,
  out: usize,
): i32 {
  const nul = i64x2.splat(LONG_NULL), avv = i64x2.splat(av), bvv = i64x2.splat(bv);
  let i = 0;
  for (; i + 2 <= count; i += 2) {
    const o = <usize>i << 3;
    const x = ac ? avv : v128.load(a + o);
    const y = bc ? bvv : v128.load(b + o);
    const r = op == OP_ADD ? i64x2.add(x, y) : op == OP_SUB ? i64x2.sub(x, y) : i64x2.mul(x, y);
    const isNull = v128.or(i64x2.eq(x, nul), i64x2.eq(y, nul));
    v128.store(out + o, v128.bitselect(nul, r, isNull));
  }
  return i;
}

/** A row's rank: the value, or +Infinity for NULL (NaN, ±Infinity). */
// @ts-ignore: decorator
@inline function rank1(x: f64): f64 {
  return x - x == 0 ? x : Infinity;
}

/** Scalar test of rows [from, to), appending candidates to `out` from entry `c`. */
// @ts-ignore: decorator
@inline function tail(data: usize, from: i32, to: i32, t: f64, d: bool, out: usize, c: i32): i32 {
  for (let j = from; j < to; j++) {
    const r = rank1(load<f64>(data + (<usize>j << 3)));
    if (d ? r >= t : r <= t) {
      store<i32>(out + (<usize>c << 2), j);
      c++;
    }
  }
  return c;
}

/**
 * Writes to `out` (Int32, room for `count` entries) the rows of data[0..count) whose rank is
 * at least `t` (desc != 0) or at most `t`; returns how many. Each step tests eight rows with
 * the rejection mask of its direction (descending: finite and below t; ascending: finite and
 * above t) and rescans the eight in scalar code only when one is not rejected.
 */
export function topn_f64(data: usize, count: i32, t: f64, desc: i32, out: usize): i32 {
  const d = desc != 0;
  // Ascending under a NULL threshold: every row ranks at most +Infinity.
  if (!d && t == Infinity) return tail(data, 0, count, t, d, out, 0);
  const tv = f64x2.splat(t);
  const inf = f64x2.splat(Infinity);
  const ninf = f64x2.splat(-Infinity);
  let c = 0;
  let i = 0;
  if (d) {
    for (; i + 8 <= count; i += 8) {
      const p = data + (<usize>i << 3);
      const x0 = v128.load(p), x1 = v128.load(p, 16), x2 = v128.load(p, 32), x3 = v128.load(p, 48);
      // Candidates are x >= t and every NULL (NaN, ±Infinity rank +Infinity): any such lane
      // sends the eight rows to the exact scalar test. A NaN fails x >= t and x == x.
      const m0 = v128.or(f64x2.ge(x0, tv), v128.or(f64x2.ne(x0, x0), f64x2.eq(x0, ninf)));
      const m1 = v128.or(f64x2.ge(x1, tv), v128.or(f64x2.ne(x1, x1), f64x2.eq(x1, ninf)));
      const m2 = v128.or(f64x2.ge(x2, tv), v128.or(f64x2.ne(x2, x2), f64x2.eq(x2, ninf)));
      const m3 = v128.or(f64x2.ge(x3, tv), v128.or(f64x2.ne(x3, x3), f64x2.eq(x3, ninf)));
      if (v128.any_true(v128.or(v128.or(m0, m1), v128.or(m2, m3)))) c = tail(data, i, i + 8, t, d, out, c);
    }
  } else {
    for (; i + 8 <= count; i += 8) {
      const p = data + (<usize>i << 3);
      const x0 = v128.load(p), x1 = v128.load(p, 16), x2 = v128.load(p, 32), x3 = v128.load(p, 48);
      // Rejected: t < x < Infinity (x finite and above t); x <= t and NULLs go to the scalar
      // test, which keeps a NULL only under a NULL (+Infinity) threshold.
      const r0 = v128.and(f64x2.gt(x0, tv), f64x2.lt(x0, inf));
      const r1 = v128.and(f64x2.gt(x1, tv), f64x2.lt(x1, inf));
      const r2 = v128.and(f64x2.gt(x2, tv), f64x2.lt(x2, inf));
      const r3 = v128.and(f64x2.gt(x3, tv), f64x2.lt(x3, inf));
      if (!i64x2.all_true(v128.and(v128.and(r0, r1), v128.and(r2, r3)))) c = tail(data, i, i + 8, t, d, out, c);
    }
  }
  return tail(data, i, count, t, d, out, c);
}
