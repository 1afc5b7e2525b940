/**
 * The WASM path of SAMPLE BY (ARCHITECTURE.md "SAMPLE BY bucketing"): unkeyed count, sum,
 * avg, min, max, first and last of numeric columns straight over a table scan. Bucket
 * boundaries are computed in TypeScript (calendar units and time zones included) and turned
 * into row positions by binary search (`lowerBounds` kernel); the `segments` kernel then
 * reduces each bucket's rows in place in the column cache. Partial results of buckets that
 * span partitions merge in TypeScript. Other shapes answer undefined and take the row path.
 */
import { type Interval, LONG_NULL, type Value } from "../base/values.ts";
import type { ColumnType } from "../base/types.ts";
import { kernels, type MeasureKind, wasmMemory } from "../../engine-wasm/mod.ts";
import type { PlanNode, SampleBySpec } from "../plan/plan_node.ts";
import type { TableSnapshot } from "../storage/api.ts";
import { charge, type ExecContext, pace, PACE_MASK, paceDue, rowBytes, snapshotOf } from "./exec_context.ts";
import type { SampleByNode, Sampled } from "./sample_by.ts";
import { boundTicks, type Bucketer, bucketerOf, fixedStrideTicks } from "./sample_by_buckets.ts";
import { lowerBound, partitionRanges } from "./scan.ts";
import { filterIndexOf, loadedColumns, trySampleByKeyedFast } from "./sample_by_keyed_fast.ts";
import type { Pred } from "./kernel_predicates.ts";
import { filteredRows } from "./sample_by_filter.ts";
import { FastPathUnavailable, Scratch } from "./wasm_scratch.ts";
import { exactLongSum, sumLongRows } from "./exact_long_sum.ts";
import { accumulateByBlocks } from "./sample_by_blocks.ts";

type ScanNode = Extract<PlanNode, { kind: "scan" }>;
type Fn = "count" | "sum" | "avg" | "min" | "max" | "first" | "last";

export const KIND: Partial<Record<string, MeasureKind>> = {
  DOUBLE: "f64",
  FLOAT: "f32",
  LONG: "i64",
  TIMESTAMP: "i64",
  DATE: "i64",
  INT: "i32",
};
export const WIDTH: Record<MeasureKind, number> = { f64: 8, f32: 4, i64: 8, i32: 4 };
const FNS = new Set(["count", "sum", "avg", "min", "max", "first", "last"]);

export interface FastAgg {
  fn: Fn;
  /** Scan column, -1 for count(*). */
  col: number;
  kind?: MeasureKind;
  returns: ColumnType;
  /**
   * avg() of a 64-bit integer column: its Acc sums exactly (an unbounded bigint recovered from
   * the kernels' wrapped sums, exact_long_sum.ts), as the hash and row paths divide the true sum.
   */
  exact?: boolean;
  /** FILTER (WHERE ...): index into UnkeyedEnv.filters; the aggregate sees only rows passing it. */
  filter?: number;
}

/** Per-bucket partial state of one aggregate. */
export interface Acc {
  rows: number;
  count: number;
  sum: number | bigint;
  min: number | bigint | null;
  max: number | bigint | null;
  first: number | bigint | null;
  last: number | bigint | null;
  seen: boolean;
}

export function unkeyedShapeOf(
  n: SampleByNode,
): { scan: ScanNode; aggs: FastAgg[]; filters: Pred[] } | undefined {
  const spec = n.spec;
  const scan = n.input;
  if (scan.kind !== "scan" || scan.reverse || scan.timestampIndex !== spec.tsIndex || spec.keys.length > 0) {
    return undefined;
  }
  if (scan.columns[spec.tsIndex].type.tag !== "TIMESTAMP") return undefined;
  const aggs: FastAgg[] = [];
  const filters: Pred[] = [], seen = new Map<string, number>();
  for (const a of spec.aggs) {
    if (!FNS.has(a.name) || (a.binding as { distinct?: boolean }).distinct) return undefined;
    let filter: number | undefined;
    if (a.filter) {
      // first/last of a filtered aggregate would need the first passing row per bucket.
      if (a.name === "first" || a.name === "last") return undefined;
      filter = filterIndexOf(a.filter, scan, filters, seen);
      if (filter === undefined) return undefined;
    }
    if (a.args.length === 0) {
      if (a.name !== "count") return undefined;
      aggs.push({ fn: "count", col: -1, returns: a.binding.returns, filter });
      continue;
    }
    const arg = a.args[0];
    if (a.args.length !== 1 || arg.kind !== "column") return undefined;
    const kind = KIND[scan.columns[arg.index].type.tag];
    if (!kind) return undefined;
    // 64-bit integer sums wrap in the kernels: avg() recovers the exact sums (FastAgg.exact).
    const exact = a.name === "avg" && kind === "i64" ? true : undefined;
    aggs.push({ fn: a.name as Fn, col: arg.index, kind, returns: a.binding.returns, exact, filter });
  }
  return { scan, aggs, filters };
}

export async function trySampleByFast(n: SampleByNode, ctx: ExecContext): Promise<Sampled | undefined> {
  if (n.spec.keys.length > 0) return await trySampleByKeyedFast(n, ctx);
  const shape = unkeyedShapeOf(n);
  if (!shape) return undefined;
  const scratch = new Scratch();
  try {
    return await runFast(n, shape.scan, shape.aggs, shape.filters, ctx, scratch);
  } catch (err) {
    if (err instanceof FastPathUnavailable) return undefined;
    throw err;
  } finally {
    scratch.release();
  }
}

/** Ranges reduced on this path since start-up (on this heap): lets tests tell it from the row path. */
export const unkeyedFastStats = { ranges: 0 };

export const newAcc = (): Acc => ({
  rows: 0,
  count: 0,
  sum: 0,
  min: null,
  max: null,
  first: null,
  last: null,
  seen: false,
});

/** Segment end rows of [from, to): by enumerating boundaries when buckets are dense, else by galloping. */
export function segmentEnds(
  b: Bucketer,
  ts: BigInt64Array,
  tsPtr: number,
  from: number,
  to: number,
  stride: bigint,
  scratch: Scratch,
) {
  const starts: bigint[] = [];
  const firstTs = ts[from], lastTs = ts[to - 1];
  const estimate = Number((lastTs - firstTs) / stride) + 2;
  if (estimate <= (to - from) * 2) {
    const bounds: bigint[] = [];
    const s = b.floor(firstTs);
    starts.push(s);
    for (let nx = b.next(s); nx <= lastTs; nx = b.next(nx)) {
      bounds.push(nx);
      starts.push(nx);
    }
    const count = bounds.length;
    const ends = new Int32Array(count + 1);
    if (count > 0) {
      const values = scratch.alloc(count * 8);
      const out = scratch.alloc(count * 4);
      wasmMemory().i64(values, count).set(bounds);
      kernels().lowerBounds({ data: tsPtr, rowCount: ts.length, from, to, values, count, out });
      ends.set(wasmMemory().i32(out, count));
    }
    ends[count] = to;
    return { starts, ends };
  }
  const ends: number[] = [];
  for (let pos = from; pos < to;) {
    const s = b.floor(ts[pos]);
    const e = lowerBound(ts, b.next(s), pos, to);
    starts.push(s);
    ends.push(e);
    pos = e;
  }
  return { starts, ends: Int32Array.from(ends) };
}

async function runFast(
  n: SampleByNode,
  scan: ScanNode,
  aggs: FastAgg[],
  filters: Pred[],
  ctx: ExecContext,
  scratch: Scratch,
): Promise<Sampled> {
  const spec = n.spec;
  const snap = snapshotOf(ctx, scan.table);
  const env = unkeyedEnv(spec, scan, aggs, filters);
  const partial = new Map<bigint, Acc[]>();
  const at: { bucketer?: Bucketer } = {};
  await accumulateByBlocks(env, snap, partial, at, scratch, ctx);
  return await sampledOf(spec, aggs, partial, at.bucketer, ctx);
}

/** The unkeyed fast path's result from its merged partial states (bucket starts in any order). */
export async function sampledOf(
  spec: SampleBySpec,
  aggs: FastAgg[],
  partial: Map<bigint, Acc[]>,
  bucketer: Bucketer | undefined,
  ctx: ExecContext,
): Promise<Sampled> {
  // Every bucket with rows becomes a group held until emission (a fine stride over a long
  // table is many): charged before the map is built.
  charge(ctx, rowBytes(partial.size, aggs.length + 2));
  const buckets: Sampled["buckets"] = new Map();
  const keys = new Map<unknown, Value[]>();
  let i = 0;
  for (const [start, accs] of partial) {
    // A fine stride over a long range is many buckets: tens of thousands took ~100 ms.
    if ((++i & PACE_MASK) === 0 && paceDue(ctx)) await pace(ctx);
    buckets.set(start, new Map([["", { keys: [], values: aggs.map((a, i) => finish(a, accs[i])) }]]));
    keys.set("", []);
  }
  return {
    bucketer: bucketer ??
      (spec.from !== undefined ? bucketerOf(spec, boundTicks(spec, spec.from)) : undefined),
    buckets,
    keys,
  };
}

/**
 * What the unkeyed fast path reads, as plain data: the main heap and the worker heaps
 * (sample_by_parallel.ts) run the same accumulation over it. `spec` carries no expressions.
 */
export interface UnkeyedEnv {
  spec: SampleBySpec;
  tsCol: number;
  /** Table column of each scan column. */
  columnIndexes: number[];
  intervals?: Interval[];
  aggs: FastAgg[];
  /** The aggregates' FILTER conditions (FastAgg.filter indexes them). */
  filters?: Pred[];
}

export function unkeyedEnv(
  spec: SampleBySpec,
  scan: ScanNode,
  aggs: FastAgg[],
  filters?: Pred[],
): UnkeyedEnv {
  return {
    spec: { ...spec, keys: [], aggs: [], fill: [] },
    tsCol: scan.columnIndexes[spec.tsIndex],
    columnIndexes: [...scan.columnIndexes],
    intervals: scan.intervals,
    aggs,
    filters,
  };
}

/**
 * Accumulates rows [lo, hi) of each piece's partition (narrowed by the intervals, FROM and TO)
 * into `partial`, per bucket start. `at.bucketer` is made from the first row seen unless the
 * caller set it (a worker gets the statement's first timestamp). With `ctx` (the main heap)
 * the event loop gets turns between ranges; a worker heap runs without.
 */
export async function accumulatePieces(
  env: UnkeyedEnv,
  snap: TableSnapshot,
  pieces: { p: number; lo: number; hi: number }[],
  partial: Map<bigint, Acc[]>,
  at: { bucketer?: Bucketer },
  scratch: Scratch,
  ctx?: ExecContext,
): Promise<void> {
  const { spec, aggs } = env;
  const mem = wasmMemory();
  const k = kernels();
  const stride = fixedStrideTicks(spec) ?? 28n * 86_400_000_000n;
  // Columns read (measured and filtered), and those with unfiltered aggregates (segment stats).
  const columns = loadedColumns(aggs, env.filters);
  const plain = [...new Set(aggs.filter((a) => a.col >= 0 && a.filter === undefined).map((a) => a.col))];
  const anyFiltered = aggs.some((a) => a.filter !== undefined);
  for (const { p, lo, hi } of pieces) {
    if (ctx && paceDue(ctx)) await pace(ctx);
    const ranges = (await partitionRanges(snap, p, env.intervals))
      .map(([a, b]): [number, number] => [Math.max(a, lo), Math.min(b, hi)])
      .filter(([a, b]) => b > a);
    if (!ranges.length) continue;
    const tsRegion = await snap.region(p, env.tsCol);
    if (!tsRegion) throw new FastPathUnavailable();
    const regions = new Map<number, number>();
    for (const c of columns) {
      const r = await snap.region(p, env.columnIndexes[c]);
      if (!r) throw new FastPathUnavailable();
      regions.set(c, r.ptr);
    }
    const rowCount = tsRegion.rowCount;
    // On the main heap a large partition is reduced in slices with turns between them (a
    // bucket cut by a slice edge merges by its start, as across partitions): a 1M-row
    // partition held the event loop for ~100 ms in one piece.
    for (let [from, to] of ctx ? ranges.flatMap(([a, b]) => slices(a, b, UNKEYED_SLICE_ROWS)) : ranges) {
      // Turns only here, before this range's views are made: another statement's allocations
      // during a turn may grow (and detach) the memory.
      if (ctx && paceDue(ctx)) await pace(ctx);
      // A fresh view per range: scratch allocations may grow (and detach) the memory.
      const ts = mem.i64(tsRegion.ptr, rowCount);
      const bucketer = at.bucketer ??= bucketerOf(spec, ts[from]);
      if (bucketer.first !== undefined) from = lowerBound(ts, bucketer.rowsFrom ?? bucketer.first, from, to);
      if (spec.to !== undefined) to = lowerBound(ts, boundTicks(spec, spec.to), from, to);
      if (to <= from) continue;
      const { starts, ends } = segmentEnds(bucketer, ts, tsRegion.ptr, from, to, stride, scratch);
      const segCount = ends.length;
      const endsPtr = scratch.alloc(segCount * 4);
      mem.i32(endsPtr, segCount).set(ends);
      const stats = new Map<number, ReturnType<typeof readSegments> & { exacts?: bigint[] }>();
      for (const c of plain) {
        const kind = aggs.find((a) => a.col === c)!.kind!;
        const st = readSegments(kind, regions.get(c)!, rowCount, from, endsPtr, segCount, scratch, k);
        stats.set(c, st);
        if (aggs.some((a) => a.col === c && a.exact && a.filter === undefined)) {
          // Each segment's true sum; rarely (values near +-2^62) its rows summed again.
          const sums = st.sums as BigInt64Array,
            mins = st.mins as BigInt64Array,
            maxs = st.maxs as BigInt64Array;
          (st as { exacts?: bigint[] }).exacts = Array.from(
            { length: segCount },
            (_, s) =>
              exactLongSum(st.counts[s], sums[s], mins[s], maxs[s]) ??
                sumLongRows(
                  mem.i64(regions.get(c)!, rowCount).subarray(s === 0 ? from : ends[s - 1], ends[s]),
                ),
          );
        }
      }
      unkeyedFastStats.ranges++;
      const filtered = anyFiltered
        ? filteredStats(env.filters!, aggs, regions, from, to, ends, scratch)
        : undefined;
      let prev = from;
      for (let s = 0; s < segCount; s++) {
        const rows = ends[s] - prev;
        prev = ends[s];
        if (rows <= 0) continue;
        let accs = partial.get(starts[s]);
        if (!accs) partial.set(starts[s], accs = aggs.map(newAcc));
        aggs.forEach((a, i) => {
          const st = a.filter !== undefined
            ? filtered!.get(`${a.col}/${a.filter}`)
            : a.col >= 0
            ? stats.get(a.col)!
            : undefined;
          merge(accs![i], rows, st, s, !!a.exact);
        });
      }
    }
    // Merged into the partials: the partition may leave the cache, so a table larger than
    // the cache budget streams through this path instead of failing it.
    snap.releasePartition?.(p);
  }
}

/** Rows of one slice of the unkeyed path on the main heap (a few milliseconds of reducing). */
const UNKEYED_SLICE_ROWS = 65_536;

/** [from, to) cut into ranges of at most `rows`. */
function slices(from: number, to: number, rows: number): [number, number][] {
  const out: [number, number][] = [];
  for (let a = from; a < to; a += rows) out.push([a, Math.min(to, a + rows)]);
  return out;
}

/** Folds `b` (the state of later rows of the same bucket) into `a`; `exact`: FastAgg.exact. */
export function mergeAcc(a: Acc, b: Acc, exact = false): void {
  a.rows += b.rows;
  if (!b.seen) return;
  if (!a.seen) a.first = b.first;
  a.seen = true;
  a.last = b.last;
  if (b.count === 0) return;
  a.count += b.count;
  a.sum = exact
    ? BigInt(a.sum) + BigInt(b.sum)
    : typeof b.sum === "bigint"
    ? BigInt.asIntN(64, BigInt(a.sum) + b.sum)
    : Number(a.sum) + Number(b.sum);
  if (b.min !== null && (a.min === null || b.min < a.min)) a.min = b.min;
  if (b.max !== null && (a.max === null || b.max > a.max)) a.max = b.max;
}

export type View = Float64Array | Float32Array | BigInt64Array | Int32Array;

/** A view of `count` values of a measured column's kind at `ptr` in WASM memory. */
export function view(kind: MeasureKind, ptr: number, count: number): View {
  const mem = wasmMemory();
  return kind === "f64"
    ? mem.f64(ptr, count)
    : kind === "f32"
    ? mem.f32(ptr, count)
    : kind === "i64"
    ? mem.i64(ptr, count)
    : mem.i32(ptr, count);
}

function readSegments(
  kind: MeasureKind,
  data: number,
  rowCount: number,
  from: number,
  ends: number,
  segCount: number,
  scratch: Scratch,
  k: ReturnType<typeof kernels>,
) {
  const w = WIDTH[kind];
  const counts = scratch.alloc(segCount * 8), sums = scratch.alloc(segCount * 8);
  const mins = scratch.alloc(segCount * w), maxs = scratch.alloc(segCount * w);
  const firsts = scratch.alloc(segCount * w), lasts = scratch.alloc(segCount * w);
  k.segments(kind, { data, rowCount, from, ends, segCount, counts, sums, mins, maxs, firsts, lasts });
  const mem = wasmMemory();
  const float = kind === "f64" || kind === "f32";
  // Copies: later allocations may grow memory and detach these views.
  return {
    kind,
    counts: mem.i64(counts, segCount).slice(),
    sums: (float ? mem.f64(sums, segCount) : mem.i64(sums, segCount)).slice(),
    mins: view(kind, mins, segCount).slice(),
    maxs: view(kind, maxs, segCount).slice(),
    firsts: view(kind, firsts, segCount).slice(),
    lasts: view(kind, lasts, segCount).slice(),
  };
}

export function isNull(v: number | bigint, kind: MeasureKind): boolean {
  if (typeof v === "bigint") return v === LONG_NULL;
  return kind === "i32" ? v === -2147483648 : !Number.isFinite(v);
}

function merge(
  acc: Acc,
  rows: number,
  st: (ReturnType<typeof readSegments> & { exacts?: bigint[] }) | undefined,
  s: number,
  exact: boolean,
): void {
  acc.rows += rows;
  if (!st) return;
  const kind = st.kind;
  const count = Number(st.counts[s]);
  const first = st.firsts[s], last = st.lasts[s];
  if (!acc.seen) acc.first = isNull(first, kind) ? null : first;
  acc.seen = true;
  acc.last = isNull(last, kind) ? null : last;
  if (count === 0) return;
  acc.count += count;
  const sum = st.sums[s];
  acc.sum = exact
    ? BigInt(acc.sum) + st.exacts![s]
    : typeof sum === "bigint"
    ? BigInt.asIntN(64, BigInt(acc.sum) + sum)
    : Number(acc.sum) + sum;
  const mn = st.mins[s], mx = st.maxs[s];
  if (!isNull(mn, kind) && (acc.min === null || mn < acc.min)) acc.min = mn;
  if (!isNull(mx, kind) && (acc.max === null || mx > acc.max)) acc.max = mx;
}

export function typed(t: ColumnType, v: number | bigint | null): Value {
  if (v === null) return null;
  switch (t.tag) {
    case "DOUBLE":
      return Number(v);
    case "FLOAT":
      return Math.fround(Number(v));
    case "INT":
    case "SHORT":
    case "BYTE":
      return Number(v);
    default:
      return BigInt(v);
  }
}

function finish(a: FastAgg, acc: Acc): Value {
  switch (a.fn) {
    case "count":
      return BigInt(a.col < 0 && a.filter === undefined ? acc.rows : acc.count);
    case "sum":
      return acc.count === 0 ? null : typed(a.returns, acc.sum);
    case "avg":
      return acc.count === 0 ? null : Number(acc.sum) / acc.count;
    case "min":
      return typed(a.returns, acc.min);
    case "max":
      return typed(a.returns, acc.max);
    case "first":
      return typed(a.returns, acc.first);
    case "last":
      return typed(a.returns, acc.last);
  }
}

type SegStats = ReturnType<typeof readSegments> & { exacts?: bigint[] };

/**
 * Per (column, filter) of the filtered aggregates: their statistics per segment of rows
 * [from, to) over the rows passing the filter (sample_by_filter.ts selection vectors; the
 * keyedStats kernel by segment number). No first/last: filtered ones stay off this path.
 * count(*) FILTER is column -1: its counts are the passing rows per segment.
 */
function filteredStats(
  filters: Pred[],
  aggs: FastAgg[],
  regions: Map<number, number>,
  from: number,
  to: number,
  ends: Int32Array,
  scratch: Scratch,
): Map<string, SegStats> {
  const mem = wasmMemory();
  const rangeRows = to - from, segCount = ends.length;
  const sels = filters.map((p) => filteredRows(p, regions, from, rangeRows, scratch));
  const gidPtr = scratch.alloc(rangeRows * 4);
  {
    const gid = mem.i32(gidPtr, rangeRows);
    let prev = from;
    for (let s = 0; s < segCount; s++) {
      if (ends[s] > prev) gid.fill(s, prev - from, ends[s] - from);
      prev = Math.max(prev, ends[s]);
    }
  }
  const out = new Map<string, SegStats>();
  for (const a of aggs) {
    if (a.filter === undefined) continue;
    const key = `${a.col}/${a.filter}`;
    if (out.has(key)) continue;
    const sel = sels[a.filter];
    if (a.col < 0) {
      const counts = new BigInt64Array(segCount);
      const rows = mem.i32(sel.ptr, sel.count), gid = mem.i32(gidPtr, rangeRows);
      for (let i = 0; i < rows.length; i++) counts[gid[rows[i]]]++;
      const none = new Float64Array(segCount).fill(NaN);
      out.set(key, {
        kind: "f64",
        counts,
        sums: new Float64Array(segCount),
        mins: none,
        maxs: none,
        firsts: none,
        lasts: none,
      });
      continue;
    }
    const kind = a.kind!;
    const slots = segCount + 1, w = WIDTH[kind];
    const float = kind === "f64" || kind === "f32";
    const nul = kind === "i64" ? LONG_NULL : kind === "i32" ? -2147483648 : NaN;
    const rowsPtr = scratch.alloc(slots * 8),
      counts = scratch.alloc(slots * 8),
      sums = scratch.alloc(slots * 8);
    const mins = scratch.alloc(slots * w), maxs = scratch.alloc(slots * w);
    mem.i64(rowsPtr, slots).fill(0n);
    mem.i64(counts, slots).fill(0n);
    if (float) mem.f64(sums, slots).fill(0);
    else mem.i64(sums, slots).fill(0n);
    (view(kind, mins, slots) as { fill(x: unknown): void }).fill(nul);
    (view(kind, maxs, slots) as { fill(x: unknown): void }).fill(nul);
    const data = regions.get(a.col)! + from * w;
    kernels().keyedStats(kind, {
      keys: gidPtr,
      data,
      rowCount: rangeRows,
      keyCount: segCount,
      rows: rowsPtr,
      counts,
      sums,
      mins,
      maxs,
      sel: sel.ptr,
      selCount: sel.count,
    });
    const none = view(kind, mins, segCount).slice();
    (none as { fill(x: unknown): void }).fill(nul);
    const st: SegStats = {
      kind,
      counts: mem.i64(counts, segCount).slice(),
      sums: (float ? mem.f64(sums, segCount) : mem.i64(sums, segCount)).slice(),
      mins: view(kind, mins, segCount).slice(),
      maxs: view(kind, maxs, segCount).slice(),
      firsts: none,
      lasts: none,
    };
    if (aggs.some((b) => b.exact && b.col === a.col && b.filter === a.filter)) {
      const sm = st.sums as BigInt64Array, mn = st.mins as BigInt64Array, mx = st.maxs as BigInt64Array;
      st.exacts = Array.from({ length: segCount }, (_, s) => {
        const known = exactLongSum(st.counts[s], sm[s], mn[s], mx[s]);
        if (known !== undefined) return known;
        // Rare (values near +-2^62): the segment's passing rows summed again.
        const rows = mem.i32(sel.ptr, sel.count), gid = mem.i32(gidPtr, rangeRows);
        return sumLongRows(mem.i64(data, rangeRows), rows, (row) => gid[row] === s);
      });
    }
    out.set(key, st);
  }
  return out;
}
