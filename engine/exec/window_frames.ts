/**
 * Window frames the one-pass kernels (window_stream.ts) cannot follow, over typed arrays
 * (issue #16): RANGE frames with time offsets (`RANGE BETWEEN '1' MINUTE PRECEDING AND CURRENT
 * ROW`) and frames ending after the current row. Rows are grouped by partition (each in ORDER
 * BY order: window_layout.ts), every position's frame bounds are computed with
 * window_functions.ts frameBounds' arithmetic (the same binary searches over the same numbers),
 * and sum/avg/count slide over them as its slidingSum does, min/max of a DOUBLE as its
 * slidingExtreme or cumulative accumulator, first_value/last_value pick as its frameValues.
 * Same values bit for bit.
 */
import { type Batch, INT_NULL } from "../base/values.ts";
import type { WindowCall } from "../plan/plan_node.ts";
import { type ExecContext, pace, paceDue } from "./exec_context.ts";
import { referenceExecution } from "./vector/physical.ts";
import { groupedRows, type LayoutCache, layoutFits } from "./window_layout.ts";
import { copierOf, COPYABLE, numbers, NUMERIC, type WindowResult } from "./window_stream.ts";

/** Windows computed here (tests: shows that a query took this path). */
export const frameWindowStats = { runs: 0 };

/** Positions computed between checks of the time slice. */
const SLICE = 1 << 16;
const FNS = new Set(["sum", "avg", "count", "min", "max", "first_value", "last_value"]);
const BOUNDS = new Set(["unboundedPreceding", "preceding", "currentRow", "following", "unboundedFollowing"]);
/**
 * Integer columns whose min/max slide here over their values as doubles, exact while every
 * value is within 2^53 (else the row path answers): max(LONG) over `ROWS BETWEEN 300 PRECEDING
 * AND CURRENT ROW` of 1M rows took 13.6 s on the row path's fresh accumulators, 0.18 s for a
 * DOUBLE here.
 */
const INTEGRAL_EXTREMES = new Set(["LONG", "INT"]);

/** Whether this path takes `w` (its shape only). */
export function frameWindowFits(w: WindowCall): boolean {
  if (referenceExecution() || !layoutFits(w) || !FNS.has(w.name)) return false;
  const { start, end, excludeCurrent } = w.frame;
  if (excludeCurrent || !BOUNDS.has(start.kind) || !BOUNDS.has(end.kind)) return false;
  for (const b of [start, end]) {
    if (b.offset !== undefined && !(Number(b.offset) >= 0 && Number.isFinite(Number(b.offset)))) return false;
  }
  const x = w.args[0];
  if (w.name === "first_value" || w.name === "last_value") {
    return w.args.length === 1 && x.kind === "column" && COPYABLE.has(x.type.tag) &&
      x.type.tag === w.type.tag;
  }
  if (w.args.length === 0) return w.name === "count";
  if (w.args.length !== 1 || x.kind !== "column" || !NUMERIC.has(x.type.tag)) return false;
  if (w.name === "min" || w.name === "max") {
    return (x.type.tag === "DOUBLE" || INTEGRAL_EXTREMES.has(x.type.tag)) && w.type.tag === x.type.tag;
  }
  return w.type.tag === (w.name === "count" ? "LONG" : "DOUBLE");
}

/** Results of `w` by input row, or undefined when this path does not take it. */
export async function frameWindow(
  w: WindowCall,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
  layouts: LayoutCache,
): Promise<WindowResult | undefined> {
  if (!frameWindowFits(w)) return undefined;
  const layout = await layouts.of(w, batches, total, ctx);
  if (!layout) return undefined;
  const { start, end, unit } = w.frame;
  const ranged = unit === "range" && layout.ordered &&
    (start.offset !== undefined || end.offset !== undefined);
  const key = ranged ? await layout.key() : undefined;
  if (ranged && !key) return undefined;
  const value = w.name === "first_value" || w.name === "last_value";
  const copier = value ? copierOf(w, batches, total, ctx) : undefined;
  if (value && !copier) return undefined;
  const xs = !value && w.args.length ? numbers(w.args[0], batches, total, ctx) : undefined;
  const integral = (w.name === "min" || w.name === "max") && INTEGRAL_EXTREMES.has(w.type.tag);
  if (integral && !exactDoubles(xs!)) return undefined;
  const { seq, starts } = groupedRows(layout);
  let widest = 0;
  for (let g = 0; g < layout.groups; g++) widest = Math.max(widest, starts[g + 1] - starts[g]);
  // Frame bounds of every position, by sequence position.
  const lo = new Int32Array(total), hi = new Int32Array(total), vals = new Float64Array(ranged ? widest : 0);
  const out = copier?.out ?? (w.name === "count" ? new BigInt64Array(total) : new Float64Array(total));
  const kernel = value
    ? frameValues(w.name === "first_value", w.ignoreNulls, copier!.from, copier!.isNull)
    : w.name === "min" || w.name === "max"
    ? extremes(w.name === "max", start.kind === "unboundedPreceding", xs!, out as Float64Array)
    : sums(w.name, xs, out as Float64Array | BigInt64Array);
  const bound = (
    b: { kind: string; offset?: number | bigint },
    k: number,
    m: number,
    isEnd: boolean,
  ): number => {
    const off = Number(b.offset ?? 0);
    switch (b.kind) {
      case "unboundedPreceding":
        return 0;
      case "unboundedFollowing":
        return m - 1;
      case "currentRow":
        return k;
      case "preceding":
        if (!ranged) return k - off;
        // An end bound takes the rows equal to it too (RANGE … AND 1 SECOND PRECEDING reads
        // the row exactly one second back, WindowExcludeCurrentRowTest).
        return isEnd ? firstAbove(vals, m, vals[k] - off) - 1 : firstAtLeast(vals, m, vals[k] - off);
      default:
        if (!ranged) return k + off;
        return isEnd ? firstAbove(vals, m, vals[k] + off) - 1 : firstAtLeast(vals, m, vals[k] + off);
    }
  };
  let work = 0;
  for (let g = 0; g < layout.groups; g++) {
    const from = starts[g], m = starts[g + 1] - from;
    if (ranged) { for (let k = 0; k < m; k++) vals[k] = key![seq[from + k]]; }
    for (let k = 0; k < m; k++) {
      lo[from + k] = Math.max(0, bound(start, k, m, false));
      hi[from + k] = Math.min(m - 1, bound(end, k, m, true));
      if (++work > SLICE) {
        work = 0;
        if (paceDue(ctx)) await pace(ctx);
      }
    }
  }
  // Sliding min/max over bounds that move back would take the row path's fresh accumulators.
  if ((w.name === "min" || w.name === "max") && start.kind !== "unboundedPreceding") {
    for (let g = 0; g < layout.groups; g++) {
      for (let i = starts[g] + 1; i < starts[g + 1]; i++) {
        if (lo[i] < lo[i - 1] || hi[i] < hi[i - 1]) return undefined;
      }
    }
  }
  frameWindowStats.runs++;
  for (let g = 0; g < layout.groups; g++) {
    const from = starts[g], to = starts[g + 1];
    const rows = seq.subarray(from, to), los = lo.subarray(from, to), his = hi.subarray(from, to);
    // A large partition in slices, each continuing the state the previous one left.
    for (let k = 0; k < to - from; k += SLICE) {
      const end = Math.min(to - from, k + SLICE);
      kernel(rows, los, his, k, end);
      work += end - k;
      if (work > SLICE) {
        work = 0;
        if (paceDue(ctx)) await pace(ctx);
      }
    }
  }
  copier?.gather();
  if (integral) return { data: integralOf(w.type.tag, out as Float64Array) };
  return { data: out, dict: copier?.dict };
}

/** Whether every value of xs is NULL (NaN) or an integer of magnitude below 2^53. */
function exactDoubles(xs: Float64Array): boolean {
  for (let i = 0; i < xs.length; i++) if (Math.abs(xs[i]) >= 9007199254740992) return false;
  return true;
}

/** Extremes computed as doubles back in their LONG or INT column, NaN as the type's NULL. */
function integralOf(tag: string, xs: Float64Array): BigInt64Array | Int32Array {
  if (tag === "INT") {
    const out = new Int32Array(xs.length);
    for (let i = 0; i < xs.length; i++) out[i] = xs[i] === xs[i] ? xs[i] : INT_NULL;
    return out;
  }
  const out = new BigInt64Array(xs.length);
  // As little-endian 32-bit words: exact below 2^53, without a BigInt per row.
  const words = new Int32Array(out.buffer);
  for (let i = 0; i < xs.length; i++) {
    const v = xs[i];
    if (v !== v) {
      words[2 * i] = 0;
      words[2 * i + 1] = -2147483648;
    } else {
      const hi = Math.floor(v / 4294967296);
      words[2 * i] = (v - hi * 4294967296) | 0;
      words[2 * i + 1] = hi;
    }
  }
  return out;
}

/** The first of the m ascending values above v (m when none is): a RANGE end bound's limit. */
export function firstAbove(vals: ArrayLike<number>, m: number, v: number): number {
  let a = 0, b = m;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (vals[mid] <= v) a = mid + 1;
    else b = mid;
  }
  return a;
}

/** The first position of vals[0, m) (ascending) whose value is >= v: a RANGE start bound. */
export function firstAtLeast(vals: ArrayLike<number>, m: number, v: number): number {
  let a = 0, b = m;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (vals[mid] < v) a = mid + 1;
    else b = mid;
  }
  return a;
}

/**
 * Computes positions [k0, k1) of one partition (rows in ORDER BY order, frame bounds by
 * position); k0 = 0 starts a partition, later slices continue its state.
 */
type PartitionKernel = (rows: Int32Array, lo: Int32Array, hi: Int32Array, k0: number, k1: number) => void;

/** window_functions.ts slidingSum: add rows entering the frame, subtract rows leaving it. */
function sums(
  name: string,
  xs: Float64Array | undefined,
  out: Float64Array | BigInt64Array,
): PartitionKernel {
  const isCount = name === "count", isSum = name === "sum";
  const words = isCount ? new Int32Array((out as BigInt64Array).buffer) : undefined;
  const doubles = out as Float64Array;
  let sum = 0, count = 0, curLo = 0, curHi = -1;
  return (rows, lo, hi, k0, k1) => {
    if (k0 === 0) {
      sum = 0;
      count = 0;
      curLo = 0;
      curHi = -1;
    }
    for (let k = k0; k < k1; k++) {
      const l = lo[k], h = hi[k];
      if (l > curHi) {
        sum = 0;
        count = 0;
        curLo = l;
        curHi = l - 1;
      }
      while (curHi < h) {
        const v = xs ? xs[rows[++curHi]] : (++curHi, 1);
        if (v - v === 0) {
          sum += v;
          count++;
        }
      }
      while (curLo < l) {
        const v = xs ? xs[rows[curLo]] : 1;
        curLo++;
        if (v - v === 0) {
          sum -= v;
          count--;
        }
      }
      const r = rows[k];
      if (isCount) words![2 * r] = h < l ? 0 : count;
      else doubles[r] = h < l || count === 0 ? NaN : isSum ? sum : sum / count;
    }
  };
}

/**
 * min/max: from the partition start the accumulator adding rows up to each frame's end (the
 * earliest of equal extremes stays); otherwise slidingExtreme's monotonic deque.
 */
function extremes(max: boolean, fromStart: boolean, xs: Float64Array, out: Float64Array): PartitionKernel {
  let deque = new Int32Array(0);
  let best = NaN, added = -1, head = 0, tail = 0, entered = -1;
  return (rows, lo, hi, k0, k1) => {
    if (k0 === 0) {
      best = NaN;
      added = -1;
      head = 0;
      tail = 0;
      entered = -1;
    }
    if (fromStart) {
      for (let k = k0; k < k1; k++) {
        while (added < hi[k]) {
          const v = xs[rows[++added]];
          if (v - v === 0 && (best !== best || (max ? v > best : v < best))) best = v;
        }
        out[rows[k]] = hi[k] < lo[k] ? NaN : best;
      }
      return;
    }
    if (deque.length < rows.length) deque = new Int32Array(rows.length);
    for (let k = k0; k < k1; k++) {
      const l = lo[k], h = hi[k];
      while (entered < h) {
        const j = ++entered;
        const v = xs[rows[j]];
        if (v - v !== 0) continue;
        while (tail > head) {
          const back = xs[rows[deque[tail - 1]]];
          if (max ? back < v : back > v) tail--;
          else break;
        }
        deque[tail++] = j;
      }
      while (tail > head && deque[head] < l) head++;
      out[rows[k]] = h < l || tail === head ? NaN : xs[rows[deque[head]]];
    }
  };
}

/** frameValues: the first (last) row of the frame, skipping NULLs under IGNORE NULLS. */
function frameValues(
  first: boolean,
  ignore: boolean,
  from: Int32Array,
  isNull: (row: number) => boolean,
): PartitionKernel {
  return (rows, lo, hi, k0, k1) => {
    for (let k = k0; k < k1; k++) {
      const l = lo[k], h = hi[k];
      if (first) {
        for (let j = l; j <= h; j++) {
          if (ignore && isNull(rows[j])) continue;
          from[rows[k]] = rows[j];
          break;
        }
      } else {
        for (let j = h; j >= l; j--) {
          if (ignore && isNull(rows[j])) continue;
          from[rows[k]] = rows[j];
          break;
        }
      }
    }
  };
}
