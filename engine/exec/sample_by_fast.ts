/**
 * The WASM path of SAMPLE BY (ARCHITECTURE.md "SAMPLE BY bucketing"): unkeyed count, sum,
 * avg, min, max, first and last of numeric columns straight over a table scan. Bucket
 * boundaries are computed in TypeScript (calendar units and time zones included) and turned
 * into row positions by binary search (`lowerBounds` kernel); the `segments` kernel then
 * reduces each bucket's rows in place in the column cache. Partial results of buckets that
 * span partitions merge in TypeScript. Other shapes answer undefined and take the row path.
 */
import { LONG_NULL, type Value } from "../base/values.ts";
import type { ColumnType } from "../base/types.ts";
import { kernels, type MeasureKind, wasmMemory } from "../../engine-wasm/mod.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { type ExecContext, pace, paceDue, snapshotOf } from "./exec_context.ts";
import type { SampleByNode, Sampled } from "./sample_by.ts";
import { boundTicks, type Bucketer, bucketerOf, fixedStrideTicks } from "./sample_by_buckets.ts";
import { lowerBound, partitionRanges } from "./scan.ts";
import { trySampleByKeyedFast } from "./sample_by_keyed_fast.ts";
import { FastPathUnavailable, Scratch } from "./wasm_scratch.ts";

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

interface FastAgg {
  fn: Fn;
  /** Scan column, -1 for count(*). */
  col: number;
  kind?: MeasureKind;
  returns: ColumnType;
}

/** Per-bucket partial state of one aggregate. */
interface Acc {
  rows: number;
  count: number;
  sum: number | bigint;
  min: number | bigint | null;
  max: number | bigint | null;
  first: number | bigint | null;
  last: number | bigint | null;
  seen: boolean;
}

function shapeOf(n: SampleByNode): { scan: ScanNode; aggs: FastAgg[] } | undefined {
  const spec = n.spec;
  const scan = n.input;
  if (scan.kind !== "scan" || scan.reverse || scan.timestampIndex !== spec.tsIndex || spec.keys.length > 0) {
    return undefined;
  }
  if (scan.columns[spec.tsIndex].type.tag !== "TIMESTAMP") return undefined;
  const aggs: FastAgg[] = [];
  for (const a of spec.aggs) {
    if (a.filter || !FNS.has(a.name) || (a.binding as { distinct?: boolean }).distinct) return undefined;
    if (a.args.length === 0) {
      if (a.name !== "count") return undefined;
      aggs.push({ fn: "count", col: -1, returns: a.binding.returns });
      continue;
    }
    const arg = a.args[0];
    if (a.args.length !== 1 || arg.kind !== "column") return undefined;
    const kind = KIND[scan.columns[arg.index].type.tag];
    if (!kind) return undefined;
    aggs.push({ fn: a.name as Fn, col: arg.index, kind, returns: a.binding.returns });
  }
  return { scan, aggs };
}

export async function trySampleByFast(n: SampleByNode, ctx: ExecContext): Promise<Sampled | undefined> {
  if (n.spec.keys.length > 0) return await trySampleByKeyedFast(n, ctx);
  const shape = shapeOf(n);
  if (!shape) return undefined;
  const scratch = new Scratch();
  try {
    return await runFast(n, shape.scan, shape.aggs, ctx, scratch);
  } catch (err) {
    if (err instanceof FastPathUnavailable) return undefined;
    throw err;
  } finally {
    scratch.release();
  }
}

const newAcc = (): Acc => ({
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
  ctx: ExecContext,
  scratch: Scratch,
): Promise<Sampled> {
  const spec = n.spec;
  const snap = snapshotOf(ctx, scan.table);
  const mem = wasmMemory();
  const k = kernels();
  const tsCol = scan.columnIndexes[spec.tsIndex];
  const stride = fixedStrideTicks(spec) ?? 28n * 86_400_000_000n;
  const partial = new Map<bigint, Acc[]>();
  let bucketer: Bucketer | undefined;
  const columns = [...new Set(aggs.filter((a) => a.col >= 0).map((a) => a.col))];
  for (let p = 0; p < snap.partitions.length; p++) {
    if (paceDue(ctx)) await pace(ctx);
    const ranges = await partitionRanges(snap, p, scan.intervals);
    if (!ranges.length) continue;
    const tsRegion = await snap.region(p, tsCol);
    if (!tsRegion) throw new FastPathUnavailable();
    const regions = new Map<number, number>();
    for (const c of columns) {
      const r = await snap.region(p, scan.columnIndexes[c]);
      if (!r) throw new FastPathUnavailable();
      regions.set(c, r.ptr);
    }
    const rowCount = tsRegion.rowCount;
    for (let [from, to] of ranges) {
      // Turns only here, before this range's views are made: another statement's allocations
      // during a turn may grow (and detach) the memory.
      if (paceDue(ctx)) await pace(ctx);
      // A fresh view per range: scratch allocations may grow (and detach) the memory.
      const ts = mem.i64(tsRegion.ptr, rowCount);
      if (!bucketer) bucketer = bucketerOf(spec, ts[from]);
      if (bucketer.first !== undefined) from = lowerBound(ts, bucketer.first, from, to);
      if (spec.to !== undefined) to = lowerBound(ts, boundTicks(spec, spec.to), from, to);
      if (to <= from) continue;
      const { starts, ends } = segmentEnds(bucketer, ts, tsRegion.ptr, from, to, stride, scratch);
      const segCount = ends.length;
      const endsPtr = scratch.alloc(segCount * 4);
      mem.i32(endsPtr, segCount).set(ends);
      const stats = new Map<number, ReturnType<typeof readSegments>>();
      for (const c of columns) {
        const kind = aggs.find((a) => a.col === c)!.kind!;
        stats.set(c, readSegments(kind, regions.get(c)!, rowCount, from, endsPtr, segCount, scratch, k));
      }
      let prev = from;
      for (let s = 0; s < segCount; s++) {
        const rows = ends[s] - prev;
        prev = ends[s];
        if (rows <= 0) continue;
        let accs = partial.get(starts[s]);
        if (!accs) partial.set(starts[s], accs = aggs.map(newAcc));
        aggs.forEach((a, i) => merge(accs![i], rows, a.col >= 0 ? stats.get(a.col)! : undefined, s));
      }
    }
    // Merged into the partials: the partition may leave the cache, so a table larger than
    // the cache budget streams through this path instead of failing it.
    snap.releasePartition?.(p);
  }
  const buckets: Sampled["buckets"] = new Map();
  const keys = new Map<unknown, Value[]>();
  for (const [start, accs] of partial) {
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

function merge(acc: Acc, rows: number, st: ReturnType<typeof readSegments> | undefined, s: number): void {
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
  acc.sum = typeof sum === "bigint" ? BigInt.asIntN(64, BigInt(acc.sum) + sum) : Number(acc.sum) + sum;
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
      return BigInt(a.col < 0 ? acc.rows : acc.count);
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
