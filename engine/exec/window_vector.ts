/**
 * The vectorized form of the common window aggregates (issue #16): `sum`/`avg`/`count`/`min`/
 * `max` of a DOUBLE over ROWS frames (`n PRECEDING`, `UNBOUNDED PRECEDING`, `CURRENT ROW`,
 * `n FOLLOWING`), partitioned by at most one key and ordered by at most one integer or time
 * column, computed over typed arrays: the key becomes dense ids (KeyIds), partitions become
 * one stable counting sort of row numbers, and the frames slide over Float64Array values. The
 * row path (window.ts, window_functions.ts) evaluates every value as a boxed scalar, groups
 * rows through a string key per row and compares ORDER BY values through compareValues; at
 * 55K rows of 100 partitions most of its time went there and to the garbage collector.
 *
 * Same answers as the row path, bit for bit: sums add and subtract the same values in the same
 * order (window_functions.ts slidingSum), min/max keep the same earliest extreme (its
 * slidingExtreme deque), a non-finite DOUBLE is NULL as when read as a scalar. Only input whose
 * partitions already come in ORDER BY order is taken (a forward scan ordered by its
 * timestamp); anything else answers undefined and the row path runs.
 */
import { type Batch, LONG_NULL, type VectorData } from "../base/values.ts";
import type { WindowCall } from "../plan/plan_node.ts";
import { type ExecContext, pace, paceDue } from "./exec_context.ts";
import { vectorOf } from "./vector/hash_aggregate.ts";
import { KeyIds } from "./vector/key_ids.ts";
import { referenceExecution } from "./vector/physical.ts";
import { PARTITION_TAGS } from "./window_layout.ts";

/** Windows computed here (tests: shows that a query took this path). */
export const vectorWindowStats = { runs: 0 };

const FNS = new Set(["sum", "avg", "count", "min", "max"]);
/**
 * Partition key types taken here: window_layout.ts's, but for TIMESTAMP_NS, which this path has
 * never taken (its differential tests do not cover it).
 */
const KEY_TAGS = new Set([...PARTITION_TAGS].filter((t) => t !== "TIMESTAMP_NS"));
/** ORDER BY types read as 64-bit (or 32-bit) integers, whose order is their values' order. */
const ORDER_TAGS = new Set(["INT", "LONG", "DATE", "TIMESTAMP"]);
const BOUNDS = new Set(["unboundedPreceding", "preceding", "currentRow", "following"]);

/** Whether the vectorized form takes `w` (its shape only; the data may still decline). */
export function vectorWindowFits(w: WindowCall): boolean {
  if (referenceExecution() || !FNS.has(w.name)) return false;
  const { unit, start, end, excludeCurrent } = w.frame;
  if (excludeCurrent) return false;
  // RANGE without offsets has the ROWS bounds in the row path (rows with equal ORDER BY values
  // are distinct rows).
  if (unit !== "rows" && (start.offset !== undefined || end.offset !== undefined)) return false;
  if (!BOUNDS.has(start.kind) || !(BOUNDS.has(end.kind) || end.kind === "unboundedFollowing")) return false;
  if (w.args.length > 1 || (w.args.length === 0 && w.name !== "count")) return false;
  // A plain column: its non-finite values are NULL as the row path reads them (an expression's
  // overflow to Infinity would be a value there).
  if (w.args.length === 1 && (w.args[0].type.tag !== "DOUBLE" || w.args[0].kind !== "column")) return false;
  // min/max over frames from the partition start take the accumulator path there.
  if ((w.name === "min" || w.name === "max") && start.kind === "unboundedPreceding") return false;
  if (w.partitionBy.length > 1 || w.orderBy.length > 1) return false;
  if (w.partitionBy.length === 1 && !KEY_TAGS.has(w.partitionBy[0].type.tag)) return false;
  if (w.orderBy.length === 1 && !ORDER_TAGS.has(w.orderBy[0].expr.type.tag)) return false;
  return ["DOUBLE", "LONG"].includes(w.type.tag);
}

/**
 * The results of `w` for every input row in input order (Float64Array for DOUBLE, BigInt64Array
 * for count), or undefined when some partition is not in ORDER BY order or holds a NULL ORDER BY
 * value: the row path then runs (it sorts).
 */
export async function vectorWindow(
  w: WindowCall,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Promise<VectorData | undefined> {
  if (!vectorWindowFits(w)) return undefined;
  // Partition ids, ORDER BY values and argument values over the whole input.
  const gid = new Int32Array(total);
  const ids = new KeyIds();
  const key = w.partitionBy.length ? vectorOf(w.partitionBy[0], ctx) : undefined;
  const order = w.orderBy.length ? vectorOf(w.orderBy[0].expr, ctx) : undefined;
  const arg = w.args.length ? vectorOf(w.args[0], ctx) : undefined;
  const xs = arg ? new Float64Array(total) : undefined;
  const ord = order ? new Float64Array(total) : undefined;
  let at = 0;
  for (const b of batches) {
    if (paceDue(ctx)) await pace(ctx);
    const n = b.rowCount;
    if (key) ids.map(key(b), n, gid.subarray(at, at + n));
    if (xs) xs.set(arg!(b).data as Float64Array, at);
    if (ord) {
      const d = order!(b).data;
      if (d instanceof BigInt64Array) {
        for (let i = 0; i < n; i++) {
          const v = d[i];
          // NULL sorts first in the row path; a value past 2^53 would lose its order as a double.
          if (v === LONG_NULL || v > 9007199254740991n || v < -9007199254740991n) return undefined;
          ord[at + i] = Number(v);
        }
      } else if (d instanceof Int32Array) {
        for (let i = 0; i < n; i++) {
          if (d[i] === -2147483648) return undefined;
          ord[at + i] = d[i];
        }
      } else return undefined;
    }
    at += n;
  }
  const groups = key ? ids.size : 1;
  // Row numbers by partition, in input order within each (a stable counting sort).
  const starts = new Int32Array(groups + 1);
  for (let i = 0; i < total; i++) starts[gid[i] + 1]++;
  for (let g = 0; g < groups; g++) starts[g + 1] += starts[g];
  const rows = new Int32Array(total);
  const fill = starts.slice(0, groups);
  for (let i = 0; i < total; i++) rows[fill[gid[i]]++] = i;
  // Each partition must already be in ORDER BY order (ties in input order, as the stable sort).
  if (ord) {
    const desc = w.orderBy[0].desc;
    for (let g = 0; g < groups; g++) {
      for (let k = starts[g] + 1; k < starts[g + 1]; k++) {
        const a = ord[rows[k - 1]], b = ord[rows[k]];
        if (desc ? a < b : a > b) return undefined;
      }
    }
  }
  vectorWindowStats.runs++;
  const out = w.name === "count" ? new BigInt64Array(total) : new Float64Array(total);
  for (let g = 0; g < groups; g++) {
    if (paceDue(ctx)) await pace(ctx);
    const from = starts[g], m = starts[g + 1] - from;
    if (w.name === "min" || w.name === "max") extreme(w, rows, from, m, xs!, out as Float64Array);
    else sliding(w, rows, from, m, xs, out);
  }
  return out;
}

/** Frame bounds of position k of a partition of m rows (inclusive; lo > hi: empty). */
function boundsOf(w: WindowCall, m: number): (k: number) => [number, number] {
  const bound = (b: { kind: string; offset?: number | bigint }, k: number): number => {
    switch (b.kind) {
      case "unboundedPreceding":
        return 0;
      case "unboundedFollowing":
        return m - 1;
      case "currentRow":
        return k;
      case "preceding":
        return k - Number(b.offset ?? 0);
      default:
        return k + Number(b.offset ?? 0);
    }
  };
  const { start, end } = w.frame;
  return (k) => [Math.max(0, bound(start, k)), Math.min(m - 1, bound(end, k))];
}

/** sum/avg/count: window_functions.ts slidingSum's additions and subtractions, in its order. */
function sliding(
  w: WindowCall,
  rows: Int32Array,
  from: number,
  m: number,
  xs: Float64Array | undefined,
  out: Float64Array | BigInt64Array,
): void {
  const frame = boundsOf(w, m);
  let sum = 0, count = 0, curLo = 0, curHi = -1;
  const isCount = w.name === "count", isSum = w.name === "sum";
  for (let k = 0; k < m; k++) {
    const [lo, hi] = frame(k);
    if (lo > curHi) {
      sum = 0;
      count = 0;
      curLo = lo;
      curHi = lo - 1;
    }
    while (curHi < hi) {
      curHi++;
      if (!xs) count++;
      else {
        const v = xs[rows[from + curHi]];
        if (v - v === 0) {
          sum += v;
          count++;
        }
      }
    }
    while (curLo < lo) {
      if (!xs) count--;
      else {
        const v = xs[rows[from + curLo]];
        if (v - v === 0) {
          sum -= v;
          count--;
        }
      }
      curLo++;
    }
    const r = rows[from + k];
    if (isCount) (out as BigInt64Array)[r] = BigInt(hi < lo ? 0 : count);
    else if (hi < lo || count === 0) out[r] = NaN;
    else out[r] = isSum ? sum : sum / count;
  }
}

/** min/max: window_functions.ts slidingExtreme's deque (the earliest of equal extremes). */
function extreme(
  w: WindowCall,
  rows: Int32Array,
  from: number,
  m: number,
  xs: Float64Array,
  out: Float64Array,
) {
  const frame = boundsOf(w, m);
  const max = w.name === "max";
  const deque = new Int32Array(m);
  let head = 0, tail = 0, entered = -1;
  for (let k = 0; k < m; k++) {
    const [lo, hi] = frame(k);
    while (entered < hi) {
      const j = ++entered;
      const v = xs[rows[from + j]];
      if (v - v !== 0) continue;
      while (tail > head) {
        const back = xs[rows[from + deque[tail - 1]]];
        if (max ? back < v : back > v) tail--;
        else break;
      }
      deque[tail++] = j;
    }
    while (tail > head && deque[head] < lo) head++;
    out[rows[from + k]] = hi < lo || tail === head ? NaN : xs[rows[from + deque[head]]];
  }
}
