/**
 * The WASM path of keyed SAMPLE BY (ARCHITECTURE.md "SAMPLE BY bucketing"): one SYMBOL key
 * column of a table scan, no FILL, count/sum/avg/min/max/first/last of numeric columns.
 * Per scanned range, bucket ends come from `lowerBounds` (as in `sample_by_fast.ts`); one
 * TypeScript pass over the key column numbers the (bucket, key) groups densely in
 * first-appearance order — the order the row path emits — and the `keyedStats` kernel then
 * reduces every column by group number in one pass. Group state lives in typed arrays;
 * rows are materialised lazily while emitting. Other shapes answer undefined.
 */
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import { allocVectorData, type Batch, SYMBOL_NULL_KEY, type SymbolDict, type Value, type Vector, writeValue } from "../base/values.ts";
import type { ColumnType } from "../base/types.ts";
import { kernels, type MeasureKind, wasmMemory } from "../../engine-wasm/mod.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { checkCancelled, type ExecContext, snapshotOf } from "./exec_context.ts";
import type { SampleByNode, Sampled } from "./sample_by.ts";
import { type Bucketer, bucketerOf, fixedStrideMicros } from "./sample_by_buckets.ts";
import { isNull, KIND, segmentEnds, typed, WIDTH } from "./sample_by_fast.ts";
import { FastPathUnavailable, Scratch } from "./wasm_scratch.ts";
import { lowerBound, partitionRanges } from "./scan.ts";

type ScanNode = Extract<PlanNode, { kind: "scan" }>;
type Fn = "count" | "sum" | "avg" | "min" | "max" | "first" | "last";
type Num = Float64Array | Float32Array | BigInt64Array | Int32Array;

const FNS = ["count", "sum", "avg", "min", "max", "first", "last"];

interface KAgg {
  fn: Fn;
  /** Scan column, -1 for count(*). */
  col: number;
  returns: ColumnType;
}

/** Per measured column: group state, grown as groups appear. */
interface ColState {
  col: number;
  kind: MeasureKind;
  counts: Float64Array;
  sums: Float64Array | BigInt64Array;
  mins: Num;
  maxs: Num;
  firsts?: Num;
  lasts?: Num;
}

function shapeOf(n: SampleByNode): { scan: ScanNode; key: number; aggs: KAgg[] } | undefined {
  const spec = n.spec;
  const scan = n.input;
  if (spec.keys.length !== 1 || spec.fill.length > 0) return undefined;
  if (scan.kind !== "scan" || scan.reverse || scan.timestampIndex !== spec.tsIndex) return undefined;
  if (scan.columns[spec.tsIndex].type.tag !== "TIMESTAMP") return undefined;
  const key = spec.keys[0];
  if (key.kind !== "column" || scan.columns[key.index]?.type.tag !== "SYMBOL") return undefined;
  const aggs: KAgg[] = [];
  for (const a of spec.aggs) {
    if (a.filter || !FNS.includes(a.name) || (a.binding as { distinct?: boolean }).distinct) return undefined;
    if (a.args.length === 0) {
      if (a.name !== "count") return undefined;
      aggs.push({ fn: "count", col: -1, returns: a.binding.returns });
      continue;
    }
    const arg = a.args[0];
    if (a.args.length !== 1 || arg.kind !== "column") return undefined;
    if (!KIND[scan.columns[arg.index].type.tag]) return undefined;
    aggs.push({ fn: a.name as Fn, col: arg.index, returns: a.binding.returns });
  }
  return { scan, key: key.index, aggs };
}

export async function trySampleByKeyedFast(n: SampleByNode, ctx: ExecContext): Promise<Sampled | undefined> {
  const shape = shapeOf(n);
  if (!shape) return undefined;
  try {
    return await runKeyed(n, shape.scan, shape.key, shape.aggs, ctx);
  } catch (err) {
    if (err instanceof FastPathUnavailable) return undefined;
    throw err;
  }
}

function nullOf(kind: MeasureKind): number | bigint {
  return kind === "i64" ? -(2n ** 63n) : kind === "i32" ? -2147483648 : NaN;
}

function newNum(kind: MeasureKind, n: number): Num {
  return kind === "f64"
    ? new Float64Array(n)
    : kind === "f32"
    ? new Float32Array(n)
    : kind === "i64"
    ? new BigInt64Array(n)
    : new Int32Array(n);
}

function wasmView(kind: MeasureKind, ptr: number, n: number): Num {
  const mem = wasmMemory();
  return kind === "f64"
    ? mem.f64(ptr, n)
    : kind === "f32"
    ? mem.f32(ptr, n)
    : kind === "i64"
    ? mem.i64(ptr, n)
    : mem.i32(ptr, n);
}

function grow<T extends Num | Int32Array | Float64Array>(a: T, need: number, fill?: number | bigint): T {
  if (a.length >= need) return a;
  // deno-lint-ignore no-explicit-any
  const b = new (a.constructor as any)(Math.max(need, a.length * 2, 1024)) as T;
  b.set(a as never);
  if (fill !== undefined) (b as unknown as { fill(v: unknown, s: number): void }).fill(fill, a.length);
  return b;
}

async function runKeyed(
  n: SampleByNode,
  scan: ScanNode,
  keyIdx: number,
  aggs: KAgg[],
  ctx: ExecContext,
): Promise<Sampled> {
  const spec = n.spec;
  const snap = snapshotOf(ctx, scan.table);
  const mem = wasmMemory();
  const k = kernels();
  const tsCol = scan.columnIndexes[spec.tsIndex];
  const keyCol = scan.columnIndexes[keyIdx];
  const dict = snap.symbols(keyCol);
  const K = dict.size;
  const stride = fixedStrideMicros(spec) ?? 28n * 86_400_000_000n;
  let bucketer: Bucketer | undefined;
  const kindOf = (c: number) => KIND[scan.columns[c].type.tag]!;
  const cols: ColState[] = [...new Set(aggs.filter((a) => a.col >= 0).map((a) => a.col))].map((col) => {
    const kind = kindOf(col);
    const float = kind === "f64" || kind === "f32";
    const needs = (fn: Fn) => aggs.some((a) => a.col === col && a.fn === fn);
    return {
      col,
      kind,
      counts: new Float64Array(0),
      sums: float ? new Float64Array(0) : new BigInt64Array(0),
      mins: newNum(kind, 0),
      maxs: newNum(kind, 0),
      firsts: needs("first") ? newNum(kind, 0) : undefined,
      lasts: needs("last") ? newNum(kind, 0) : undefined,
    };
  });
  // Groups in emission order: bucket index, key slot (K = NULL), rows.
  let gBucket = new Int32Array(0), gKey = new Int32Array(0), gRows = new Float64Array(0);
  let groups = 0;
  const bucketStarts: bigint[] = [];
  /** Per key slot: the bucket index it last appeared in, and its group there. */
  const stamp = new Int32Array(K + 1).fill(-1);
  const slotGroup = new Int32Array(K + 1);
  let bucketFirstGroup = 0;
  for (let p = 0; p < snap.partitions.length; p++) {
    checkCancelled(ctx);
    const ranges = await partitionRanges(snap, p, scan.intervals);
    if (!ranges.length) continue;
    const tsRegion = await snap.region(p, tsCol);
    const keyRegion = await snap.region(p, keyCol);
    if (!tsRegion || !keyRegion) throw new FastPathUnavailable();
    const regions = new Map<number, number>();
    for (const c of cols) {
      const r = await snap.region(p, scan.columnIndexes[c.col]);
      if (!r) throw new FastPathUnavailable();
      regions.set(c.col, r.ptr);
    }
    const rowCount = tsRegion.rowCount;
    for (let [from, to] of ranges) {
      const ts = mem.i64(tsRegion.ptr, rowCount);
      if (!bucketer) bucketer = bucketerOf(spec, ts[from]);
      if (bucketer.first !== undefined) from = lowerBound(ts, bucketer.first, from, to);
      if (spec.to !== undefined) to = lowerBound(ts, spec.to, from, to);
      if (to <= from) continue;
      const rangeScratch = new Scratch();
      try {
        const { starts, ends } = segmentEnds(bucketer, ts, tsRegion.ptr, from, to, stride, rangeScratch);
        const rangeRows = to - from;
        const gidPtr = rangeScratch.alloc(rangeRows * 4);
        // Groups of the bucket continued from the previous range keep their numbers.
        const continues = bucketStarts.length > 0 && starts[0] === bucketStarts[bucketStarts.length - 1];
        const base = continues ? bucketFirstGroup : groups;
        const firstNew = groups - base;
        const gid = mem.i32(gidPtr, rangeRows);
        const keys = mem.i32(keyRegion.ptr, rowCount);
        // Upper bound of the groups this range can add: one per row, or per key and bucket.
        const newMax = Math.min(rangeRows, (K + 1) * ends.length);
        gBucket = grow(gBucket, groups + newMax);
        gKey = grow(gKey, groups + newMax);
        gRows = grow(gRows, groups + newMax);
        const firstRow = new Int32Array(firstNew + newMax);
        const lastRow = new Int32Array(firstRow.length).fill(-1);
        let prev = from;
        for (let s = 0; s < ends.length; s++) {
          const end = ends[s];
          if (end <= prev) continue;
          if (bucketStarts.length === 0 || starts[s] !== bucketStarts[bucketStarts.length - 1]) {
            bucketStarts.push(starts[s]);
            bucketFirstGroup = groups;
          }
          const b = bucketStarts.length - 1;
          for (let i = prev; i < end; i++) {
            const key = keys[i];
            let sl = key;
            if (key < 0 || key >= K) {
              if (key !== -1) throw new FastPathUnavailable();
              sl = K;
            }
            let g: number;
            if (stamp[sl] === b) g = slotGroup[sl];
            else {
              stamp[sl] = b;
              g = slotGroup[sl] = groups++;
              gBucket[g] = b;
              gKey[g] = sl;
              firstRow[g - base] = i - from;
            }
            gRows[g]++;
            gid[i - from] = g - base;
            lastRow[g - base] = i - from;
          }
          prev = end;
        }
        const local = groups - base;
        for (const c of cols) {
          mergeColumn(
            c,
            k,
            rangeScratch,
            gidPtr,
            regions.get(c.col)!,
            from,
            rangeRows,
            base,
            local,
            firstNew,
            firstRow,
            lastRow,
          );
        }
      } finally {
        rangeScratch.release();
      }
    }
  }
  const names: Value[] = [];
  for (let i = 0; i < K; i++) names.push(dict.valueOf(i));
  names.push(null);
  const finishers = aggs.map((a) => finisher(a, cols.find((c) => c.col === a.col), gRows));
  const buckets: Sampled["buckets"] = new Map();
  let g0 = 0;
  for (let b = 0; b < bucketStarts.length; b++) {
    let g1 = g0;
    while (g1 < groups && gBucket[g1] === b) g1++;
    buckets.set(bucketStarts[b], lazyGroups(g0, g1, gKey, names, finishers));
    g0 = g1;
  }
  return {
    bucketer: bucketer ?? (spec.from !== undefined ? bucketerOf(spec, spec.from) : undefined),
    buckets,
    keys: new Map(),
    batches: () => columnarGroups(n, groups, bucketStarts, gBucket, gKey, K, dict, finishers),
  };
}

/**
 * The groups as output batches, built column by column: bucket start, symbol key (dictionary
 * codes, the NULL key slot K as -1), then each aggregate written straight into its vector.
 */
function* columnarGroups(
  n: SampleByNode,
  groups: number,
  bucketStarts: bigint[],
  gBucket: Int32Array,
  gKey: Int32Array,
  K: number,
  dict: SymbolDict,
  finishers: ((g: number) => Value)[],
): Generator<Batch> {
  const types = n.columns.map((c) => c.type);
  for (let g0 = 0; g0 < groups; g0 += BATCH_ROWS_MAX) {
    const rows = Math.min(BATCH_ROWS_MAX, groups - g0);
    const ts = new BigInt64Array(rows);
    const keys = new Int32Array(rows);
    for (let i = 0; i < rows; i++) {
      ts[i] = bucketStarts[gBucket[g0 + i]];
      const k = gKey[g0 + i];
      keys[i] = k === K ? SYMBOL_NULL_KEY : k;
    }
    const columns: Vector[] = [{ type: types[0], data: ts }, { type: types[1], data: keys, dict }];
    finishers.forEach((f, a) => {
      const t = types[2 + a];
      const data = allocVectorData(t, rows);
      for (let i = 0; i < rows; i++) writeValue(t, data, i, f(g0 + i));
      columns.push({ type: t, data });
    });
    yield { rowCount: rows, columns };
  }
}

type Group = { keys: Value[]; values: Value[] };

/** A bucket's groups as the emitter reads them (`values()`), built on demand from typed arrays. */
function lazyGroups(
  g0: number,
  g1: number,
  gKey: Int32Array,
  names: Value[],
  finishers: ((g: number) => Value)[],
) {
  const nf = finishers.length;
  const at = (g: number): Group => {
    const values = new Array<Value>(nf);
    for (let i = 0; i < nf; i++) values[i] = finishers[i](g);
    return { keys: [names[gKey[g]]], values };
  };
  return {
    get size() {
      return g1 - g0;
    },
    *values(): IterableIterator<Group> {
      for (let g = g0; g < g1; g++) yield at(g);
    },
    *keys(): IterableIterator<unknown> {
      for (let g = g0; g < g1; g++) yield names[gKey[g]];
    },
    get(h: unknown): Group | undefined {
      for (let g = g0; g < g1; g++) if (names[gKey[g]] === h) return at(g);
      return undefined;
    },
  } as unknown as Map<unknown, Group>;
}

/** Reduces one column of a range by group (keyedStats) and merges into the column's state. */
function mergeColumn(
  c: ColState,
  k: ReturnType<typeof kernels>,
  scratch: Scratch,
  gidPtr: number,
  dataPtr: number,
  from: number,
  rangeRows: number,
  base: number,
  local: number,
  firstNew: number,
  firstRow: Int32Array,
  lastRow: Int32Array,
): void {
  const kind = c.kind, w = WIDTH[kind], slots = local + 1;
  const float = kind === "f64" || kind === "f32";
  const nul = nullOf(kind);
  const rows = scratch.alloc(slots * 8), counts = scratch.alloc(slots * 8), sums = scratch.alloc(slots * 8);
  const mins = scratch.alloc(slots * w), maxs = scratch.alloc(slots * w);
  const mem = wasmMemory();
  mem.i64(rows, slots).fill(0n);
  mem.i64(counts, slots).fill(0n);
  if (float) mem.f64(sums, slots).fill(0);
  else mem.i64(sums, slots).fill(0n);
  (wasmView(kind, mins, slots) as { fill(v: unknown): void }).fill(nul);
  (wasmView(kind, maxs, slots) as { fill(v: unknown): void }).fill(nul);
  const data = dataPtr + from * w;
  k.keyedStats(kind, {
    keys: gidPtr,
    data,
    rowCount: rangeRows,
    keyCount: local,
    rows,
    counts,
    sums,
    mins,
    maxs,
  });
  const need = base + local;
  c.counts = grow(c.counts, need);
  c.sums = grow(c.sums, need);
  c.mins = grow(c.mins, need, nul);
  c.maxs = grow(c.maxs, need, nul);
  if (c.firsts) c.firsts = grow(c.firsts, need, nul);
  if (c.lasts) c.lasts = grow(c.lasts, need, nul);
  const lc = mem.i64(counts, slots);
  const ls = float ? mem.f64(sums, slots) : mem.i64(sums, slots);
  const lmin = wasmView(kind, mins, slots), lmax = wasmView(kind, maxs, slots);
  // Groups continued from the previous range merge; new groups copy.
  for (let j = 0; j < Math.min(firstNew, local); j++) {
    const g = base + j;
    const cnt = Number(lc[j]);
    if (cnt === 0) continue;
    c.counts[g] += cnt;
    if (float) (c.sums as Float64Array)[g] += ls[j] as number;
    else (c.sums as BigInt64Array)[g] = (c.sums as BigInt64Array)[g] + (ls[j] as bigint);
    const mn = lmin[j], mx = lmax[j];
    if (!isNull(mn, kind) && (isNull(c.mins[g], kind) || mn < c.mins[g])) c.mins[g] = mn;
    if (!isNull(mx, kind) && (isNull(c.maxs[g], kind) || mx > c.maxs[g])) c.maxs[g] = mx;
  }
  if (local > firstNew) {
    const at = base + firstNew;
    for (let j = firstNew; j < local; j++) c.counts[base + j] = Number(lc[j]);
    (c.sums as Float64Array).set(ls.subarray(firstNew, local) as Float64Array, at);
    (c.mins as Float64Array).set(lmin.subarray(firstNew, local) as Float64Array, at);
    (c.maxs as Float64Array).set(lmax.subarray(firstNew, local) as Float64Array, at);
  }
  if (c.firsts || c.lasts) {
    const col = wasmView(kind, data, rangeRows);
    if (c.firsts) { for (let j = firstNew; j < local; j++) c.firsts[base + j] = col[firstRow[j]]; }
    if (c.lasts) {
      for (let j = 0; j < local; j++) {
        const r = lastRow[j];
        if (r >= 0) c.lasts[base + j] = col[r];
      }
    }
  }
}

function finisher(a: KAgg, c: ColState | undefined, gRows: Float64Array): (g: number) => Value {
  if (a.col < 0 || !c) return (g) => BigInt(gRows[g]);
  const kind = c.kind;
  const float = kind === "f64" || kind === "f32";
  const pick = (arr: Num) => (g: number) => {
    const v = arr[g];
    return isNull(v, kind) ? null : typed(a.returns, v);
  };
  switch (a.fn) {
    case "count":
      return (g) => BigInt(c.counts[g]);
    case "sum":
      return (g) => {
        if (c.counts[g] === 0) return null;
        const s = c.sums[g];
        if (float && !Number.isFinite(s as number)) return null;
        return typed(a.returns, s);
      };
    case "avg":
      return (g) => {
        const n = c.counts[g];
        if (n === 0) return null;
        const v = Number(c.sums[g]) / n;
        return Number.isFinite(v) ? v : null;
      };
    case "min":
      return (g) => pick(c.mins)(g);
    case "max":
      return (g) => pick(c.maxs)(g);
    case "first":
      return (g) => pick(c.firsts!)(g);
    case "last":
      return (g) => pick(c.lasts!)(g);
  }
}
