/**
 * Aggregates of a column through + - * with constants (`min(qty * 2 + 1)`, `sum(price - 5)`,
 * issue #16) folded as aggregates of the column itself, as ClickHouse's
 * optimize_arithmetic_operations_in_aggregate_functions does: the WASM kernels fold the
 * column's count, sum and extremes (or partition statistics and block partials already hold
 * them) and `finish` maps them, instead of the `binop` kernel writing every row's value first.
 *
 * Exact, not approximately equal, to evaluating the expression per row:
 * - Each step `x op c` (c a non-NULL finite constant, `*` by a non-zero one) is monotone, also
 *   under IEEE rounding (rounding never reverses an order), so the extremes of the values are
 *   the steps applied to the column's extremes, swapped when an odd number of steps reverses
 *   the order (`* -3`, `10 - x`). min/max/count take DOUBLE and LONG. An infinite DOUBLE reads
 *   as NULL: when a step gives one for an extreme the fast path gives up, as below.
 * - LONG arithmetic wraps at 64 bits and a result equal to LONG's NULL reads as NULL, which
 *   breaks both order and count. The steps are applied in exact integers to the column's
 *   extremes: when every intermediate value of both stays inside LONG (NULL excluded), every
 *   value between does too (each step is monotone), so no row wraps; otherwise the fast path
 *   gives up (FastPathUnavailable) and the hash aggregate evaluates the expression per row.
 * - The LONG sum is then m * sum + a * count for the composed map m * x + a, exact in integers
 *   (avg keeps the exact sum; sum wraps at the end as QuestDB's does, and wrapping commutes
 *   with + and *). DOUBLE sums are not taken: rounding per row differs from the mapped sum.
 */
import type { ColumnType } from "../base/types.ts";
import { LONG_NULL } from "../base/values.ts";
import type { BoundExpr } from "../plan/bound.ts";
import type { Acc } from "./fast_aggregate.ts";
import { FastPathUnavailable } from "./wasm_scratch.ts";

/** One step `x op c` (or `c op x` when `constFirst`) applied to the running value. */
export interface AffineStep {
  op: "+" | "-" | "*";
  c: number | bigint;
  constFirst: boolean;
}

const LONG_MAX = (1n << 63n) - 1n;

/** Mapped states, and give-ups at an overflowing extreme (tests: which path answered). */
export const affineCounters = { mapped: 0, gaveUp: 0 };

/**
 * `e` as a column of the expression's own type (DOUBLE or LONG) through steps with non-NULL
 * finite constants (`*` by a non-zero one), innermost first; undefined for anything else.
 */
export function affineArgOf(
  e: BoundExpr,
  columns: readonly { type: ColumnType }[],
): { col: number; kind: "f64" | "i64"; steps: AffineStep[] } | undefined {
  const tag = e.type.tag;
  if (tag !== "DOUBLE" && tag !== "LONG") return undefined;
  const kind = tag === "DOUBLE" ? "f64" : "i64";
  const steps: AffineStep[] = [];
  let x = e;
  while (x.kind === "call") {
    if (x.args.length !== 2 || x.type.tag !== tag) return undefined;
    if (x.name !== "+" && x.name !== "-" && x.name !== "*") return undefined;
    const [l, r] = x.args;
    const constFirst = l.kind === "const";
    const c = constantOf(constFirst ? l : r, kind);
    if (c === undefined || (x.name === "*" && (c === 0 || c === 0n))) return undefined;
    steps.push({ op: x.name, c, constFirst });
    x = constFirst ? r : l;
  }
  if (x.kind !== "column" || columns[x.index].type.tag !== tag || steps.length === 0) return undefined;
  return { col: x.index, kind, steps: steps.reverse() };
}

/** A non-NULL finite constant as the kind's operand, else undefined. */
function constantOf(x: BoundExpr, kind: "f64" | "i64"): number | bigint | undefined {
  if (x.kind !== "const") return undefined;
  const v = x.value;
  if (kind === "i64") {
    if (typeof v === "bigint") return v === LONG_NULL ? undefined : BigInt.asIntN(64, v);
    return typeof v === "number" && Number.isSafeInteger(v) ? BigInt(v) : undefined;
  }
  const n = typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : undefined;
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

/**
 * The steps applied to `x` as the row evaluator does (DOUBLE) or in exact integers (LONG).
 * Throws FastPathUnavailable where a value would not be the row path's (see above).
 */
function apply(steps: readonly AffineStep[], x: number | bigint): number | bigint {
  let v = x;
  for (const s of steps) {
    const [a, b] = s.constFirst ? [s.c, v] : [v, s.c];
    if (typeof v === "bigint") {
      const p = a as bigint, q = b as bigint;
      v = s.op === "+" ? p + q : s.op === "-" ? p - q : p * q;
      // Outside LONG, or LONG's NULL: some row would wrap or read as NULL.
      if (v <= LONG_NULL || v > LONG_MAX) throw new FastPathUnavailable();
    } else {
      const p = a as number, q = b as number;
      v = s.op === "+" ? p + q : s.op === "-" ? p - q : p * q;
      // An infinite DOUBLE reads as NULL: a row near the extremes would drop out.
      if (!Number.isFinite(v)) throw new FastPathUnavailable();
    }
  }
  return v;
}

/** Whether the steps reverse the order of values (an odd number of negating steps). */
function decreasing(steps: readonly AffineStep[]): boolean {
  let down = false;
  for (const s of steps) {
    if ((s.op === "*" && s.c < 0) || (s.op === "-" && s.constFirst)) down = !down;
  }
  return down;
}

/**
 * The states of the expression's values from the column's (`acc`): count as is, extremes
 * mapped (swapped when decreasing), the LONG sum as m * sum + a * count. Throws
 * FastPathUnavailable when a LONG step leaves the range for the column's extremes.
 */
export function affineAcc(steps: readonly AffineStep[], kind: string, acc: Acc): Acc {
  if (acc.count === 0 || acc.min === null || acc.max === null) return acc;
  let lo: number | bigint, hi: number | bigint;
  try {
    lo = apply(steps, acc.min);
    hi = apply(steps, acc.max);
  } catch (err) {
    affineCounters.gaveUp++;
    throw err;
  }
  affineCounters.mapped++;
  const [min, max] = decreasing(steps) ? [hi, lo] : [lo, hi];
  let sum = acc.sum;
  if (kind === "i64") {
    // The composed map m * x + a (exact integers) of the steps.
    let m = 1n, a = 0n;
    for (const s of steps) {
      const c = s.c as bigint;
      if (s.op === "*") [m, a] = [m * c, a * c];
      else if (s.op === "+") a += c;
      else if (s.constFirst) [m, a] = [-m, c - a];
      else a -= c;
    }
    sum = m * BigInt(acc.sum) + a * BigInt(acc.count);
  }
  return { count: acc.count, sum, min, max };
}
