/**
 * Window functions in one columnar pass (issue #16): rows are visited in the layout's sequence
 * (window_layout.ts: input order when every partition already comes in ORDER BY order, as a
 * scan by designated timestamp does, else rows grouped by partition and sorted), and each
 * function keeps its state per partition in typed arrays indexed by partition id: a position
 * counter, the previous ORDER BY key (ranks), small rings of recent row ids or values (lag,
 * lead, ROWS frames), running sums and monotonic deques. Results are typed arrays by input row;
 * no value is boxed.
 *
 * It answers what the row path (window_functions.ts) answers, bit for bit: the same frames
 * (rows with equal ORDER BY values are distinct rows), the same additions and subtractions in
 * the same order for sliding sums, the earliest of equal extremes, non-finite DOUBLEs read as
 * NULL. Frames must end at or before the current row (or span the whole partition): later
 * ends and RANGE offsets go to window_frames.ts; EXCLUDE CURRENT ROW, nth_value, cume_dist,
 * expression arguments and lead IGNORE NULLS stay with the row path.
 */
import {
  allocVectorData,
  type Batch,
  type SymbolDict,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import type { BoundExpr } from "../plan/bound.ts";
import type { WindowCall } from "../plan/plan_node.ts";
import { type ExecContext, pace, paceDue } from "./exec_context.ts";
import { vectorOf } from "./vector/hash_aggregate.ts";
import { referenceExecution } from "./vector/physical.ts";
import {
  countsOf,
  type LayoutCache,
  layoutFits,
  visitKey,
  visitOrder,
  type WindowLayout,
} from "./window_layout.ts";

/** Windows computed here (tests: shows that a query took this path). */
export const streamWindowStats = { runs: 0 };

/** Rows per kernel call between checks of the time slice. */
const CHUNK = 1 << 16;
/** Largest ring (partitions x frame width) a sliding frame may use. */
const RING_MAX = 1 << 25;

/** Ring sizes are powers of two: a position's slot is `k & (size - 1)`. */
function ringSize(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

const RANKS = new Set(["row_number", "rank", "dense_rank", "percent_rank", "ntile"]);
const AGGS = new Set(["sum", "avg", "count", "min", "max"]);
/** Argument types the aggregates read as numbers (the row path's Number(v)). */
export const NUMERIC: ReadonlySet<string> = new Set(["DOUBLE", "FLOAT", "LONG", "INT", "SHORT", "BYTE"]);
/** Value types lag/lead/first_value/last_value copy (typed elements, codes or references). */
export const COPYABLE: ReadonlySet<string> = new Set([
  "SYMBOL",
  "STRING",
  "VARCHAR",
  "DOUBLE",
  "FLOAT",
  "LONG",
  "INT",
  "SHORT",
  "BYTE",
  "BOOLEAN",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
]);

/** Frame of ROWS (or RANGE without offsets, the same frames here): [k - a, k - b]. */
interface Frame {
  /** Start from the partition's first row. */
  unbounded: boolean;
  /** Rows before the current one where the frame starts (unless unbounded). */
  a: number;
  /** Rows before the current one where the frame ends. */
  b: number;
  /** The frame is the whole partition. */
  whole: boolean;
}

function frameOf(w: WindowCall): Frame | undefined {
  const { unit, start, end, excludeCurrent } = w.frame;
  if (excludeCurrent) return undefined;
  if (unit !== "rows" && (start.offset !== undefined || end.offset !== undefined)) return undefined;
  const off = (o: number | bigint | undefined) => Number(o ?? 0);
  if (start.kind === "unboundedPreceding" && end.kind === "unboundedFollowing") {
    return { unbounded: true, a: 0, b: 0, whole: true };
  }
  let a: number, b: number;
  if (start.kind === "unboundedPreceding") a = 0;
  else if (start.kind === "preceding") a = off(start.offset);
  else if (start.kind === "currentRow") a = 0;
  else return undefined;
  if (end.kind === "currentRow") b = 0;
  else if (end.kind === "preceding") b = off(end.offset);
  else return undefined;
  if (!(Number.isSafeInteger(a) && a >= 0 && Number.isSafeInteger(b) && b >= 0)) return undefined;
  return { unbounded: start.kind === "unboundedPreceding", a, b, whole: false };
}

function constArg(e: BoundExpr | undefined): e is { kind: "const"; type: BoundExpr["type"]; value: Value } {
  return e !== undefined && e.kind === "const";
}

/** Whether this pass takes `w` (its shape only; a layout may still decline on the data). */
export function streamWindowFits(w: WindowCall): boolean {
  if (referenceExecution() || !layoutFits(w)) return false;
  const [x, second, third] = w.args;
  if (RANKS.has(w.name)) return w.name !== "ntile" || constArg(x);
  if (w.name === "lag" || w.name === "lead") {
    if (!x || x.kind !== "column" || !COPYABLE.has(x.type.tag) || x.type.tag !== w.type.tag) return false;
    if (second && !(constArg(second) && offsetOf(second.value) !== undefined)) return false;
    if (third && !constArg(third)) return false;
    // A SYMBOL result keeps the column's codes: a default text has none.
    if (third && x.type.tag === "SYMBOL" && (third as { value: Value }).value !== null) return false;
    return !(w.name === "lead" && w.ignoreNulls);
  }
  const frame = frameOf(w);
  if (!frame) return false;
  if (w.name === "first_value" || w.name === "last_value") {
    if (
      w.args.length !== 1 || x.kind !== "column" || !COPYABLE.has(x.type.tag) || x.type.tag !== w.type.tag
    ) {
      return false;
    }
    if (!w.ignoreNulls || frame.whole) return true;
    return w.name === "first_value" ? frame.unbounded : frame.b === 0;
  }
  if (!AGGS.has(w.name)) return false;
  if (w.args.length === 0) return w.name === "count";
  // A column: non-finite values are NULL as the row path reads them.
  if (w.args.length !== 1 || x.kind !== "column" || !NUMERIC.has(x.type.tag)) return false;
  if (w.name === "min" || w.name === "max") return x.type.tag === "DOUBLE" && w.type.tag === "DOUBLE";
  return w.type.tag === (w.name === "count" ? "LONG" : "DOUBLE");
}

/** lag/lead's offset as the row path reads it (`?? 1`), if a usable row count. */
function offsetOf(v: Value): number | undefined {
  const n = v === null ? 1 : Number(v);
  return Number.isSafeInteger(n) && n >= 0 && n <= 1 << 20 ? n : undefined;
}

/** A window call's results by input row (SYMBOL codes with their dictionary). */
export interface WindowResult {
  data: VectorData;
  dict?: SymbolDict;
}

/** Results of `w` by input row, or undefined when this pass does not take it. */
export async function streamWindow(
  w: WindowCall,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
  layouts: LayoutCache,
): Promise<WindowResult | undefined> {
  if (!streamWindowFits(w)) return undefined;
  const layout = await layouts.of(w, batches, total, ctx);
  if (!layout) return undefined;
  const kernel = await kernelOf(w, layout, batches, total, ctx);
  if (!kernel) return undefined;
  streamWindowStats.runs++;
  const seq = layout.seq, gid = visitOrder(layout).gid;
  for (let pass = kernel.pre ? 0 : 1; pass < 2; pass++) {
    const f = pass === 0 ? kernel.pre! : kernel.step;
    for (let from = 0; from < total; from += CHUNK) {
      f(seq, gid, from, Math.min(total, from + CHUNK));
      if (paceDue(ctx)) await pace(ctx);
    }
  }
  kernel.post?.();
  return { data: kernel.out, dict: kernel.dict };
}

/**
 * Visits sequence positions [from, to): `seq[i]` (or i) is the row, `gid[i]` its partition
 * (gid in visiting order, so that a sorted sequence reads it in order).
 */
type Step = (seq: Int32Array | undefined, gid: Int32Array, from: number, to: number) => void;

interface Kernel {
  out: VectorData;
  dict?: SymbolDict;
  /** A first pass over every row (partition totals), when the results need one. */
  pre?: Step;
  step: Step;
  /** Runs once after the last step (lag/lead/first/last_value copy their picked rows). */
  post?: () => void;
}

async function kernelOf(
  w: WindowCall,
  l: WindowLayout,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Promise<Kernel | undefined> {
  switch (w.name) {
    case "row_number":
      return rankKernel(w.name, l, undefined, total);
    case "rank":
    case "dense_rank":
    case "percent_rank": {
      // Peers are rows with equal ORDER BY keys (all rows of a partition without ORDER BY).
      const key = l.ordered ? await visitKey(l) : undefined;
      return l.ordered && !key ? undefined : rankKernel(w.name, l, key, total);
    }
    case "ntile":
      return ntileKernel(Number((w.args[0] as { value: Value }).value), l, total);
    case "lag":
    case "lead":
      return offsetKernel(w, l, batches, total, ctx);
    case "first_value":
    case "last_value":
      return frameValueKernel(w, frameOf(w)!, l, batches, total, ctx);
    default: {
      const f = frameOf(w)!;
      // Whole partitions in input order read a DOUBLE column's batches without a copy.
      const parts = f.whole && !l.seq && w.args.length === 1
        ? doubleParts(w.args[0], batches, ctx)
        : undefined;
      if (parts) return wholeKernel(w.name, l, parts, total);
      const xs = w.args.length ? numbers(w.args[0], batches, total, ctx) : undefined;
      if (w.name === "min" || w.name === "max") return extremeKernel(w.name === "max", f, l, xs!, total);
      return sumKernel(w.name, f, l, xs, total);
    }
  }
}

/** A LONG result array and its 32-bit words (results < 2^31 write the low word only). */
function longOut(total: number): [BigInt64Array, Int32Array] {
  const out = new BigInt64Array(total);
  return [out, new Int32Array(out.buffer)];
}

function rankKernel(name: string, l: WindowLayout, key: Float64Array | undefined, total: number): Kernel {
  const groups = l.groups;
  const pos = new Int32Array(groups);
  const rank = new Int32Array(groups), dense = new Int32Array(groups);
  const prev = new Float64Array(groups);
  const [longs, words] = longOut(total);
  const doubles = name === "percent_rank" ? new Float64Array(total) : undefined;
  const counts = doubles ? countsOf(l) : undefined;
  const kind = name === "row_number" ? 0 : name === "rank" ? 1 : name === "dense_rank" ? 2 : 3;
  const step: Step = (seq, gid, from, to) => {
    for (let i = from; i < to; i++) {
      const r = seq ? seq[i] : i;
      const g = gid[i];
      const k = pos[g]++;
      if (kind === 0) {
        words[2 * r] = k + 1;
        continue;
      }
      // Without ORDER BY every row of a partition is a peer of the others.
      if (k === 0 || (key !== undefined && key[i] !== prev[g])) {
        rank[g] = k + 1;
        dense[g]++;
      }
      if (key) prev[g] = key[i];
      if (kind === 1) words[2 * r] = rank[g];
      else if (kind === 2) words[2 * r] = dense[g];
      else {
        const m = counts![g];
        doubles![r] = m === 1 ? 0 : (rank[g] - 1) / (m - 1);
      }
    }
  };
  return { out: doubles ?? longs, step };
}

function ntileKernel(n: number, l: WindowLayout, total: number): Kernel {
  const counts = countsOf(l);
  const pos = new Int32Array(l.groups);
  const [out, words] = longOut(total);
  const step: Step = (seq, gid, from, to) => {
    for (let i = from; i < to; i++) {
      const r = seq ? seq[i] : i;
      const g = gid[i];
      const k = pos[g]++, m = counts[g];
      // The first m % n buckets hold one row more (window_functions.ts ntile).
      const base = Math.floor(m / n), extra = m % n, big = extra * (base + 1);
      words[2 * r] = k < big ? Math.floor(k / (base + 1)) + 1 : extra + Math.floor((k - big) / base) + 1;
    }
  };
  return { out, step };
}

/** An argument as numbers by input row, NULL as NaN (non-finite DOUBLEs are NULL too). */
export function numbers(e: BoundExpr, batches: Batch[], total: number, ctx: ExecContext): Float64Array {
  const f = vectorOf(e, ctx);
  const xs = new Float64Array(total);
  let at = 0;
  for (const b of batches) {
    const n = b.rowCount;
    const d = f(b).data;
    if (d instanceof Float64Array) xs.set(d.subarray(0, n), at);
    else if (d instanceof BigInt64Array) {
      const w = new Int32Array(d.buffer, d.byteOffset, 2 * n);
      for (let i = 0; i < n; i++) {
        const hi = w[2 * i + 1], lo = w[2 * i];
        if (hi === -2147483648 && lo === 0) xs[at + i] = NaN;
        else if (hi >= -2097152 && hi < 2097152) xs[at + i] = hi * 4294967296 + (lo >>> 0);
        else xs[at + i] = Number(d[i]);
      }
    } else if (d instanceof Int32Array) {
      for (let i = 0; i < n; i++) xs[at + i] = d[i] === -2147483648 ? NaN : d[i];
    } else {
      const t = d as Float32Array | Int16Array | Int8Array;
      for (let i = 0; i < n; i++) xs[at + i] = t[i];
    }
    at += n;
  }
  return xs;
}

/** A DOUBLE column's data batch by batch, or undefined when a batch holds another layout. */
function doubleParts(e: BoundExpr, batches: Batch[], ctx: ExecContext): Float64Array[] | undefined {
  if (e.type.tag !== "DOUBLE") return undefined;
  const f = vectorOf(e, ctx);
  const parts: Float64Array[] = [];
  for (const b of batches) {
    const d = f(b).data;
    if (!(d instanceof Float64Array)) return undefined;
    parts.push(d.subarray(0, b.rowCount));
  }
  return parts;
}

/**
 * sum/avg/count/min/max over whole partitions visited in input order: a first pass adds each
 * batch's values into per-partition totals (slidingSum's additions, in partition order; the
 * accumulator's strict comparison for extremes), then each row gets its partition's result.
 */
function wholeKernel(name: string, l: WindowLayout, parts: Float64Array[], total: number): Kernel {
  const groups = l.groups;
  const sum = new Float64Array(groups), cnt = new Int32Array(groups);
  const best = new Float64Array(groups).fill(NaN);
  const extreme = name === "min" || name === "max", max = name === "max";
  // The batch holding sequence position `at` (positions only move forward).
  let part = 0, partStart = 0;
  const pre: Step = (_seq, gid, from, to) => {
    let i = from;
    while (i < to) {
      while (partStart + parts[part].length <= i) partStart += parts[part++].length;
      const d = parts[part], end = Math.min(to, partStart + d.length);
      for (; i < end; i++) {
        const v = d[i - partStart], g = gid[i];
        if (v - v !== 0) continue;
        if (extreme) {
          const b = best[g];
          if (b !== b || (max ? v > b : v < b)) best[g] = v;
        } else {
          sum[g] += v;
          cnt[g]++;
        }
      }
    }
  };
  if (name === "count") {
    const [out, words] = longOut(total);
    const step: Step = (_seq, gid, from, to) => {
      for (let i = from; i < to; i++) words[2 * i] = cnt[gid[i]];
    };
    return { out, pre, step };
  }
  const out = new Float64Array(total);
  let result: Float64Array | undefined;
  const step: Step = (_seq, gid, from, to) => {
    if (!result) {
      result = extreme ? best : new Float64Array(groups);
      if (!extreme) {
        for (let g = 0; g < groups; g++) {
          result[g] = cnt[g] === 0 ? NaN : name === "sum" ? sum[g] : sum[g] / cnt[g];
        }
      }
    }
    const res = result;
    for (let i = from; i < to; i++) out[i] = res[gid[i]];
  };
  return { out, pre, step };
}

/**
 * sum/avg/count: window_functions.ts slidingSum per partition, the frame's rows kept in a ring
 * of recent values (positions k - a - 1 .. k), added as they enter and subtracted as they
 * leave, in its order; the whole partition: its totals from a first pass.
 */
function sumKernel(
  name: string,
  f: Frame,
  l: WindowLayout,
  xs: Float64Array | undefined,
  total: number,
): Kernel | undefined {
  const groups = l.groups;
  const sum = new Float64Array(groups), cnt = new Int32Array(groups);
  const isCount = name === "count", isSum = name === "sum";
  const [longs, words] = isCount ? longOut(total) : [undefined, new Int32Array(0)];
  const doubles = isCount ? new Float64Array(0) : new Float64Array(total);
  const out = longs ?? doubles;
  if (f.whole) {
    const pre: Step = (seq, gid, from, to) => {
      for (let i = from; i < to; i++) {
        const r = seq ? seq[i] : i;
        const g = gid[i];
        if (!xs) cnt[g]++;
        else {
          const v = xs[r];
          if (v - v === 0) {
            sum[g] += v;
            cnt[g]++;
          }
        }
      }
    };
    const step: Step = (seq, gid, from, to) => {
      for (let i = from; i < to; i++) {
        const r = seq ? seq[i] : i;
        const g = gid[i];
        if (isCount) words[2 * r] = cnt[g];
        else doubles[r] = cnt[g] === 0 ? NaN : isSum ? sum[g] : sum[g] / cnt[g];
      }
    };
    return { out, pre, step };
  }
  const width = ringSize((f.unbounded ? f.b : f.a) + 2), mask = width - 1;
  if (groups * width > RING_MAX) return undefined;
  const ring = new Float64Array(groups * width);
  const pos = new Int32Array(groups), curLo = new Int32Array(groups);
  if (f.b === 0 && (f.unbounded || f.a > 0)) {
    // Frames ending at the current row, from the start or a > 0 rows back: slidingSum's steps
    // reduce to adding the current row, then subtracting the row leaving (a + 1 back), in
    // that order; the first row adds to the 0 its reset would give.
    const a = f.unbounded ? Infinity : f.a;
    const step: Step = (seq, gid, from, to) => {
      for (let i = from; i < to; i++) {
        const r = seq ? seq[i] : i;
        const g = gid[i];
        const k = pos[g]++;
        const base = g * width;
        const v = xs ? xs[r] : 1;
        let s = sum[g], c = cnt[g];
        if (v - v === 0) {
          s += v;
          c++;
        }
        if (k > a) {
          const o = ring[base + ((k - a - 1) & mask)];
          if (o - o === 0) {
            s -= o;
            c--;
          }
        }
        ring[base + (k & mask)] = v;
        sum[g] = s;
        cnt[g] = c;
        if (isCount) words[2 * r] = c;
        else doubles[r] = c === 0 ? NaN : isSum ? s : s / c;
      }
    };
    return { out, step };
  }
  const curHi = new Int32Array(groups).fill(-1);
  const { unbounded, a, b } = f;
  const step: Step = (seq, gid, from, to) => {
    for (let i = from; i < to; i++) {
      const r = seq ? seq[i] : i;
      const g = gid[i];
      const k = pos[g]++;
      const base = g * width;
      ring[base + (k & mask)] = xs ? xs[r] : 1;
      const lo = unbounded || k < a ? 0 : k - a, hi = k - b;
      let s = sum[g], c = cnt[g], cl = curLo[g], ch = curHi[g];
      if (lo > ch) {
        s = 0;
        c = 0;
        cl = lo;
        ch = lo - 1;
      }
      while (ch < hi) {
        const v = ring[base + (++ch & mask)];
        if (v - v === 0) {
          s += v;
          c++;
        }
      }
      while (cl < lo) {
        const v = ring[base + (cl++ & mask)];
        if (v - v === 0) {
          s -= v;
          c--;
        }
      }
      sum[g] = s;
      cnt[g] = c;
      curLo[g] = cl;
      curHi[g] = ch;
      if (isCount) words[2 * r] = hi < lo ? 0 : c;
      else doubles[r] = hi < lo || c === 0 ? NaN : isSum ? s : s / c;
    }
  };
  return { out, step };
}

/**
 * min/max of a DOUBLE: from the partition start a running extreme (the accumulator's strict
 * comparison keeps the earliest of equals), over sliding frames window_functions.ts
 * slidingExtreme's monotonic deque, one per partition in a ring; the whole partition: its
 * extreme from a first pass.
 */
function extremeKernel(
  max: boolean,
  f: Frame,
  l: WindowLayout,
  xs: Float64Array,
  total: number,
): Kernel | undefined {
  const groups = l.groups;
  const out = new Float64Array(total);
  const best = new Float64Array(groups).fill(NaN);
  const better = (v: number, than: number) => than !== than || (max ? v > than : v < than);
  if (f.whole) {
    const pre: Step = (seq, gid, from, to) => {
      for (let i = from; i < to; i++) {
        const r = seq ? seq[i] : i;
        const v = xs[r], g = gid[i];
        if (v - v === 0 && better(v, best[g])) best[g] = v;
      }
    };
    const step: Step = (seq, gid, from, to) => {
      for (let i = from; i < to; i++) {
        const r = seq ? seq[i] : i;
        out[r] = best[gid[i]];
      }
    };
    return { out, pre, step };
  }
  // Values of positions k - b .. k: the one entering the frame is b rows back.
  const vw = ringSize(f.b + 1), vm = vw - 1;
  const cap = f.unbounded ? 0 : ringSize(f.a + 2), cm = cap - 1;
  if (groups * (vw + 2 * cap) > RING_MAX) return undefined;
  const vals = new Float64Array(groups * vw);
  const pos = new Int32Array(groups);
  const { unbounded, a, b } = f;
  if (unbounded) {
    const step: Step = (seq, gid, from, to) => {
      for (let i = from; i < to; i++) {
        const r = seq ? seq[i] : i;
        const g = gid[i];
        const k = pos[g]++;
        vals[g * vw + (k & vm)] = xs[r];
        const hi = k - b;
        if (hi < 0) {
          out[r] = NaN;
          continue;
        }
        const v = vals[g * vw + (hi & vm)];
        if (v - v === 0 && better(v, best[g])) best[g] = v;
        out[r] = best[g];
      }
    };
    return { out, step };
  }
  const dqPos = new Int32Array(groups * cap), dqVal = new Float64Array(groups * cap);
  const head = new Int32Array(groups), tail = new Int32Array(groups);
  const entered = new Int32Array(groups).fill(-1);
  const step: Step = (seq, gid, from, to) => {
    for (let i = from; i < to; i++) {
      const r = seq ? seq[i] : i;
      const g = gid[i];
      const k = pos[g]++;
      vals[g * vw + (k & vm)] = xs[r];
      const lo = k < a ? 0 : k - a, hi = k - b;
      const base = g * cap;
      let h = head[g], t = tail[g];
      while (entered[g] < hi) {
        const j = ++entered[g];
        const v = vals[g * vw + (j & vm)];
        if (v - v !== 0) continue;
        // Later equal values stay behind earlier ones.
        while (t > h) {
          const back = dqVal[base + ((t - 1) & cm)];
          if (max ? back < v : back > v) t--;
          else break;
        }
        dqPos[base + (t & cm)] = j;
        dqVal[base + (t & cm)] = v;
        t++;
      }
      while (t > h && dqPos[base + (h & cm)] < lo) h++;
      head[g] = h;
      tail[g] = t;
      out[r] = hi < lo || t === h ? NaN : dqVal[base + (h & cm)];
    }
  };
  return { out, step };
}

/**
 * A column's values as one typed array of the window's result type. The kernels pick a source
 * row per result row (`from`, -1: none, the default stays); `gather` then copies them in one
 * typed loop, reading each DOUBLE/FLOAT as the row path does (non-finite = NULL, stored as NaN).
 */
export interface Copier {
  out: VectorData;
  /** The dictionary of SYMBOL codes copied from a column (every batch shares it). */
  dict?: SymbolDict;
  from: Int32Array;
  gather(): void;
  isNull(row: number): boolean;
}

export function copierOf(
  w: WindowCall,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Copier | undefined {
  const f = vectorOf(w.args[0], ctx);
  const out = allocVectorData(w.type, total);
  if (w.type.tag === "SYMBOL" || Array.isArray(out)) {
    return textCopier(batches.map((b) => f(b)), batches, total);
  }
  const src = new (out.constructor as new (n: number) => typeof out)(total);
  let at = 0;
  for (const b of batches) {
    const d = f(b).data;
    if (d.constructor !== src.constructor) return undefined;
    (src as Float64Array).set((d as Float64Array).subarray(0, b.rowCount), at);
    at += b.rowCount;
  }
  const from = new Int32Array(total).fill(-1);
  if (src instanceof Float64Array || src instanceof Float32Array) {
    return {
      out,
      from,
      gather: () => gatherFloats(out as Float64Array, src as Float64Array, from),
      isNull: (row) => src[row] - src[row] !== 0,
    };
  }
  if (src instanceof BigInt64Array) {
    const s = new Int32Array(src.buffer);
    return {
      out,
      from,
      gather: () => gatherPairs(new Int32Array((out as BigInt64Array).buffer), s, from),
      isNull: (row) => s[2 * row + 1] === -2147483648 && s[2 * row] === 0,
    };
  }
  const s = src as Int32Array;
  const nullable = src instanceof Int32Array;
  return {
    out,
    from,
    gather: () => gatherInts(out as Int32Array, s, from),
    isNull: (row) => nullable && s[row] === -2147483648,
  };
}

/**
 * SYMBOL codes sharing one dictionary (a table's column) are copied as codes; values held as
 * scalars (strings, symbols without a dictionary) as references.
 */
function textCopier(vs: Vector[], batches: Batch[], total: number): Copier | undefined {
  const from = new Int32Array(total).fill(-1);
  const dict = vs[0]?.dict;
  if (dict) {
    if (!vs.every((v) => v.dict === dict && v.data instanceof Int32Array)) return undefined;
    const src = new Int32Array(total), out = new Int32Array(total).fill(-1);
    let at = 0;
    vs.forEach((v, k) => {
      src.set((v.data as Int32Array).subarray(0, batches[k].rowCount), at);
      at += batches[k].rowCount;
    });
    return { out, dict, from, gather: () => gatherInts(out, src, from), isNull: (row) => src[row] < 0 };
  }
  if (!vs.every((v) => Array.isArray(v.data) && !v.dict)) return undefined;
  const src = new Array<Value>(total), out = new Array<Value>(total).fill(null);
  let at = 0;
  vs.forEach((v, k) => {
    const d = v.data as Value[];
    for (let i = 0; i < batches[k].rowCount; i++) src[at++] = d[i] ?? null;
  });
  return {
    out,
    from,
    gather: () => {
      for (let r = 0; r < total; r++) if (from[r] >= 0) out[r] = src[from[r]];
    },
    isNull: (row) => src[row] === null,
  };
}

function gatherFloats(out: Float64Array, src: Float64Array, from: Int32Array): void {
  for (let r = 0; r < from.length; r++) {
    const j = from[r];
    if (j < 0) continue;
    const v = src[j];
    out[r] = v - v === 0 ? v : NaN;
  }
}

/** 64-bit values as their two 32-bit words (no BigInt per row). */
function gatherPairs(out: Int32Array, src: Int32Array, from: Int32Array): void {
  for (let r = 0; r < from.length; r++) {
    const j = from[r];
    if (j < 0) continue;
    out[2 * r] = src[2 * j];
    out[2 * r + 1] = src[2 * j + 1];
  }
}

function gatherInts(out: Int32Array, src: Int32Array, from: Int32Array): void {
  for (let r = 0; r < from.length; r++) {
    const j = from[r];
    if (j >= 0) out[r] = src[j];
  }
}

/** Fills `out` with a constant default (the row path writes it where no row is found). */
function fillDefault(w: WindowCall, c: Copier, def: BoundExpr | undefined): boolean {
  if (!def || !constArg(def) || def.value === null) return true;
  // A default text has no code in the column's dictionary.
  if (c.dict) return false;
  const out = c.out;
  if (Array.isArray(out)) {
    out.fill(def.value);
    return true;
  }
  const one = allocVectorData(w.type, 1);
  writeValue(w.type, one, 0, def.value);
  (out as Float64Array).fill((one as Float64Array)[0] as number);
  return true;
}

/**
 * lag/lead(x, n, default) with a constant n: a ring per partition of the last n row ids (lag
 * reads the row n back; lead writes the current value into the row n back), or for lag IGNORE
 * NULLS of the last n rows holding a value.
 */
function offsetKernel(
  w: WindowCall,
  l: WindowLayout,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Kernel | undefined {
  const c = copierOf(w, batches, total, ctx);
  if (!c) return undefined;
  const off = w.args[1] ? offsetOf((w.args[1] as { value: Value }).value)! : 1;
  if (!fillDefault(w, c, w.args[2])) return undefined;
  const { isNull, from: src } = c;
  const groups = l.groups;
  if (off === 0) {
    for (let r = 0; r < total; r++) src[r] = r;
    return { out: c.out, dict: c.dict, step: () => {}, post: c.gather };
  }
  const width = ringSize(off), mask = width - 1;
  if (groups * width > RING_MAX) return undefined;
  const ring = new Int32Array(groups * width);
  const pos = new Int32Array(groups);
  const lag = w.name === "lag";
  const ignore = w.ignoreNulls;
  const step: Step = (seq, gid, from, to) => {
    for (let i = from; i < to; i++) {
      const r = seq ? seq[i] : i;
      const g = gid[i];
      const base = g * width;
      if (ignore) {
        // pos counts the partition's rows holding a value so far.
        const k = pos[g];
        if (k >= off) src[r] = ring[base + ((k - off) & mask)];
        if (!isNull(r)) {
          ring[base + (k & mask)] = r;
          pos[g]++;
        }
        continue;
      }
      const k = pos[g]++;
      if (k >= off) {
        // The row `off` positions back (lag reads it, lead writes into it).
        const back = ring[base + ((k - off) & mask)];
        if (lag) src[r] = back;
        else src[back] = r;
      }
      ring[base + (k & mask)] = r;
    }
  };
  return { out: c.out, dict: c.dict, step, post: c.gather };
}

/**
 * first_value/last_value over frames ending at or before the current row: the row at the
 * frame's first (last) position, from a ring of recent row ids; IGNORE NULLS from the
 * partition's first (last) row holding a value. The whole partition: from a first pass.
 */
function frameValueKernel(
  w: WindowCall,
  f: Frame,
  l: WindowLayout,
  batches: Batch[],
  total: number,
  ctx: ExecContext,
): Kernel | undefined {
  const c = copierOf(w, batches, total, ctx);
  if (!c) return undefined;
  const { isNull, out, from: src, gather: post, dict } = c;
  const groups = l.groups;
  const first = w.name === "first_value", ignore = w.ignoreNulls;
  // The picked row per partition (-1: none yet) and, for IGNORE NULLS, its position.
  const pick = new Int32Array(groups).fill(-1), pickPos = new Int32Array(groups);
  const pos = new Int32Array(groups);
  if (f.whole) {
    const pre: Step = (seq, gid, from, to) => {
      for (let i = from; i < to; i++) {
        const r = seq ? seq[i] : i;
        const g = gid[i];
        if (ignore && isNull(r)) continue;
        if (!first || pick[g] < 0) pick[g] = r;
      }
    };
    const step: Step = (seq, gid, from, to) => {
      for (let i = from; i < to; i++) {
        const r = seq ? seq[i] : i;
        const p = pick[gid[i]];
        if (p >= 0) src[r] = p;
      }
    };
    return { out, dict, pre, step, post };
  }
  const { unbounded, a, b } = f;
  if (ignore) {
    // first_value from the partition start, or last_value ending at the current row.
    const step: Step = (seq, gid, from, to) => {
      for (let i = from; i < to; i++) {
        const r = seq ? seq[i] : i;
        const g = gid[i];
        const k = pos[g]++;
        if (!isNull(r) && (!first || pick[g] < 0)) {
          pick[g] = r;
          pickPos[g] = k;
        }
        const p = pick[g];
        if (p < 0) continue;
        const lo = unbounded || k < a ? 0 : k - a, hi = k - b;
        if (pickPos[g] >= lo && pickPos[g] <= hi) src[r] = p;
      }
    };
    return { out, dict, step, post };
  }
  // Row ids of positions k - width + 1 .. k.
  const width = ringSize((first ? (unbounded ? 0 : a) : b) + 1), mask = width - 1;
  if (groups * width > RING_MAX) return undefined;
  const ring = new Int32Array(groups * width);
  const step: Step = (seq, gid, from, to) => {
    for (let i = from; i < to; i++) {
      const r = seq ? seq[i] : i;
      const g = gid[i];
      const k = pos[g]++;
      ring[g * width + (k & mask)] = r;
      if (k === 0) pick[g] = r;
      const lo = unbounded || k < a ? 0 : k - a, hi = k - b;
      if (hi < lo) continue;
      src[r] = first ? (unbounded ? pick[g] : ring[g * width + (lo & mask)]) : ring[g * width + (hi & mask)];
    }
  };
  return { out, dict, step, post };
}
