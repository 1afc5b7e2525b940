/**
 * The WASM path of keyed SAMPLE BY (ARCHITECTURE.md "SAMPLE BY bucketing"): one SYMBOL key
 * column of a table scan, no FILL, count/sum/avg/min/max/first/last of numeric columns.
 * Per scanned range, bucket ends come from `lowerBounds` (as in `sample_by_fast.ts`); one
 * TypeScript pass over the key column numbers the (bucket, key) groups densely in
 * first-appearance order — the order the row path emits — and the `keyedStats` kernel then
 * reduces every column by group number in one pass. The result streams: a range's complete
 * buckets are written straight into output batches from the kernel's WASM scratch, and only
 * its last bucket is held back (at most one group per key) in case the next range continues
 * it. Memory is per range, not per result. Ranges are reduced in slices of rows with turns of
 * the event loop between them (issue #17); no WASM view lives across a turn. Other shapes
 * answer undefined.
 */
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import { SqlError } from "../base/errors.ts";
import {
  allocVectorData,
  type Batch,
  SYMBOL_NULL_KEY,
  type SymbolDict,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import type { ColumnType } from "../base/types.ts";
import { kernels, type MeasureKind, wasmMemory } from "../../engine-wasm/mod.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { type ExecContext, pace, paceDue, snapshotOf } from "./exec_context.ts";
import type { SampleByNode, Sampled } from "./sample_by.ts";
import { boundTicks, type Bucketer, bucketerOf, fixedStrideTicks } from "./sample_by_buckets.ts";
import { isNull, KIND, segmentEnds, typed, type View, view, WIDTH } from "./sample_by_fast.ts";
import { FastPathUnavailable, Scratch } from "./wasm_scratch.ts";
import { exactLongSum, sumLongRows } from "./exact_long_sum.ts";
import { lowerBound, partitionRanges } from "./scan.ts";
import { type Pred, predicateOf, predLeaves } from "./kernel_predicates.ts";
import { filteredRows } from "./sample_by_filter.ts";

type ScanNode = Extract<PlanNode, { kind: "scan" }>;
type Fn = "count" | "sum" | "avg" | "min" | "max" | "first" | "last";
type Num = View;

const FNS = ["count", "sum", "avg", "min", "max", "first", "last"];

/** Partitions reduced on this path since start-up: lets tests tell it from the row path. */
export const keyedFastStats = { partitions: 0 };

/**
 * Rows reduced between two chances to give the event loop a turn: ~2-5 ms of grouping, kernel
 * and output at 40K rows, so pace() can keep its slices. Tests lower it to cut buckets often.
 */
export const keyedFastTuning = { sliceRows: 40_000 };

export interface KAgg {
  fn: Fn;
  /** Scan column, -1 for count(*). */
  col: number;
  returns: ColumnType;
  /** FILTER (WHERE ...): index into the shape's `filters`; the aggregate sees only rows passing it. */
  filter?: number;
}

/** The shape the keyed WASM path runs. */
export interface KeyedShape {
  scan: ScanNode;
  key: number;
  aggs: KAgg[];
  /** The aggregates' FILTER conditions (kernel predicates over numeric scan columns), deduplicated. */
  filters: Pred[];
}

/** Scan columns a shape reads besides the timestamp and key: measured and filtered ones. */
export function loadedColumns(aggs: { col: number }[], filters: Pred[] = []): number[] {
  return [
    ...new Set([
      ...aggs.filter((a) => a.col >= 0).map((a) => a.col),
      ...predLeaves(filters).map((l) => l.col),
    ]),
  ];
}

/**
 * A FILTER condition the kernels run (selection vectors over numeric columns: comparisons,
 * AND / OR / NOT), its index in `filters` (shared by equal conditions), else undefined.
 * Symbol conditions stay on the hash path: their key tables are per dictionary.
 */
export function filterIndexOf(
  e: Parameters<typeof predicateOf>[0],
  scan: ScanNode,
  filters: Pred[],
  seen: Map<string, number>,
): number | undefined {
  const p = predicateOf(e, scan.columns);
  if (!p) return undefined;
  for (const l of predLeaves([p])) {
    if (l.kind !== "cmp" || !KIND[scan.columns[l.col].type.tag]) return undefined;
  }
  const key = JSON.stringify(p, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
  let at = seen.get(key);
  if (at === undefined) seen.set(key, at = filters.push(p) - 1);
  return at;
}

/** Per measured column: group state, grown as groups appear. */
interface ColState {
  col: number;
  filter?: number;
  kind: MeasureKind;
  counts: Float64Array;
  sums: Float64Array | BigInt64Array;
  mins: Num;
  maxs: Num;
  firsts?: Num;
  lasts?: Num;
}

export function keyedShapeOf(n: SampleByNode): KeyedShape | undefined {
  const spec = n.spec;
  const scan = n.input;
  if (spec.keys.length !== 1 || spec.fill.length > 0) return undefined;
  if (scan.kind !== "scan" || scan.reverse || scan.timestampIndex !== spec.tsIndex) return undefined;
  if (scan.columns[spec.tsIndex].type.tag !== "TIMESTAMP") return undefined;
  const key = spec.keys[0];
  if (key.kind !== "column" || scan.columns[key.index]?.type.tag !== "SYMBOL") return undefined;
  const aggs: KAgg[] = [];
  const filters: Pred[] = [], seen = new Map<string, number>();
  for (const a of spec.aggs) {
    if (!FNS.includes(a.name) || (a.binding as { distinct?: boolean }).distinct) return undefined;
    let filter: number | undefined;
    if (a.filter) {
      // first/last of a filtered aggregate would need the first passing row per group.
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
    aggs.push({ fn: a.name as Fn, col: arg.index, returns: a.binding.returns, filter });
  }
  // A LONG column's statistics carry one kind of sum: sum() wraps at 64 bits as on every path,
  // avg() divides the exact sum (exactSums), so a column may not have both here.
  const i64 = (a: KAgg) => a.col >= 0 && KIND[scan.columns[a.col].type.tag] === "i64";
  const avgCols = new Set(aggs.filter((a) => a.fn === "avg" && i64(a)).map((a) => a.col));
  if (aggs.some((a) => a.fn === "sum" && avgCols.has(a.col))) return undefined;
  return { scan, key: key.index, aggs, filters };
}

export async function trySampleByKeyedFast(n: SampleByNode, ctx: ExecContext): Promise<Sampled | undefined> {
  const shape = keyedShapeOf(n);
  if (!shape) return undefined;
  try {
    return await runKeyed(n, shape, ctx);
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

/** Per-group statistics of one measured column, indexed by group. */
export interface ColStats {
  col: number;
  /** The FILTER these statistics saw rows through (KAgg.filter); count(*) FILTER has col -1. */
  filter?: number;
  kind: MeasureKind;
  counts: ArrayLike<number | bigint>;
  sums: Float64Array | BigInt64Array;
  mins: Num;
  maxs: Num;
  firsts?: Num;
  lasts?: Num;
}

/** Groups [0, count) with their bucket, key slot (K = NULL) and statistics. */
export interface GroupSet {
  count: number;
  bucket(g: number): bigint;
  slot: ArrayLike<number>;
  rows: ArrayLike<number>;
  cols: ColStats[];
}

/**
 * The groups of the last bucket seen, held until the next range shows whether it goes on:
 * plain JS arrays, one entry per key that appeared, merged in place when it continues.
 */
export class HeldBucket implements GroupSet {
  count = 0;
  readonly slot: number[] = [];
  readonly rows: number[] = [];
  readonly cols: ColStats[];
  readonly #at = new Map<number, number>();

  constructor(readonly start: bigint, template: ColStats[]) {
    this.cols = template.map((c) => ({
      col: c.col,
      filter: c.filter,
      kind: c.kind,
      counts: [] as number[],
      sums: c.sums instanceof Float64Array ? new Float64Array(0) : new BigInt64Array(0),
      mins: newNum(c.kind, 0),
      maxs: newNum(c.kind, 0),
      firsts: c.firsts ? newNum(c.kind, 0) : undefined,
      lasts: c.lasts ? newNum(c.kind, 0) : undefined,
    }));
  }

  bucket(): bigint {
    return this.start;
  }

  /** Folds group `g` of `src` (same bucket) into the held group of its key. */
  add(src: GroupSet, g: number): void {
    const sl = src.slot[g];
    let h = this.#at.get(sl);
    const fresh = h === undefined;
    if (h === undefined) {
      h = this.count++;
      this.#at.set(sl, h);
      this.slot.push(sl);
      this.rows.push(0);
    }
    this.rows[h] += src.rows[g];
    src.cols.forEach((sc, i) => {
      const c = this.cols[i];
      const kind = c.kind;
      const counts = c.counts as number[];
      if (fresh) {
        counts.push(0);
        c.sums = grown(c.sums, h!);
        c.sums[h!] = c.sums instanceof BigInt64Array ? 0n : 0;
        c.mins = grown(c.mins, h!);
        c.mins[h!] = nullOf(kind);
        c.maxs = grown(c.maxs, h!);
        c.maxs[h!] = nullOf(kind);
        if (c.firsts) (c.firsts = grown(c.firsts, h!))[h!] = sc.firsts![g];
        if (c.lasts) (c.lasts = grown(c.lasts, h!))[h!] = nullOf(kind);
      }
      const n = Number(sc.counts[g]);
      if (c.lasts && src.rows[g] > 0) c.lasts[h!] = sc.lasts![g];
      if (n === 0) return;
      counts[h!] += n;
      if (c.sums instanceof BigInt64Array) {
        c.sums[h!] = BigInt.asIntN(64, c.sums[h!] + (sc.sums[g] as bigint));
      } else c.sums[h!] += sc.sums[g] as number;
      const mn = sc.mins[g], mx = sc.maxs[g];
      if (!isNull(mn, kind) && (isNull(c.mins[h!], kind) || mn < c.mins[h!])) c.mins[h!] = mn;
      if (!isNull(mx, kind) && (isNull(c.maxs[h!], kind) || mx > c.maxs[h!])) c.maxs[h!] = mx;
    });
  }
}

/**
 * `a`, or a copy twice as long when index `at` is past its end. Held buckets gain one group
 * per key that appears (1,000 hosts in a TSBS-style table): growing by one element per group
 * made each held bucket cost K^2 copies.
 */
function grown<T extends Num | Float64Array | BigInt64Array>(a: T, at: number): T {
  if (at < a.length) return a;
  // deno-lint-ignore no-explicit-any
  const b = new (a.constructor as any)(Math.max(16, a.length * 2)) as T;
  b.set(a as never);
  return b;
}

/** Output batches filled group by group; full ones are handed out by `take`. */
export class Output {
  readonly #types: ColumnType[];
  #data: VectorData[] = [];
  rows = 0;

  /**
   * `dict` is undefined on a worker heap: the main thread attaches it to the key column.
   * `capacity`: rows per batch (the main thread's edge buckets are small). Columns are
   * allocated on the first append, so a last `take` allocates nothing.
   */
  constructor(
    types: ColumnType[],
    readonly aggs: KAgg[],
    readonly dict: SymbolDict | undefined,
    readonly K: number,
    readonly capacity: number = BATCH_ROWS_MAX,
  ) {
    this.#types = types;
  }

  #alloc() {
    const n = this.capacity;
    this.#data = this.#types.map((t, i) => (i === 1 ? new Int32Array(n) : allocVectorData(t, n)));
  }

  get full(): boolean {
    return this.rows === this.capacity;
  }

  take(): Batch {
    const rows = this.rows;
    const columns: Vector[] = this.#types.map((t, i) => {
      const d = this.#data[i];
      const data = rows === this.capacity ? d : (d as Float64Array).slice(0, rows);
      return i === 1 ? { type: t, data, dict: this.dict } : { type: t, data: data as VectorData };
    });
    this.#data = [];
    this.rows = 0;
    return { rowCount: rows, columns };
  }

  /** Appends groups [from, to) of `set`, stopping when the batch is full; answers where it stopped. */
  append(set: GroupSet, from: number, to: number): number {
    if (this.#data.length === 0) this.#alloc();
    const room = Math.min(to, from + this.capacity - this.rows);
    const at = this.rows;
    const ts = this.#data[0] as BigInt64Array, keys = this.#data[1] as Int32Array;
    for (let g = from, i = at; g < room; g++, i++) {
      ts[i] = set.bucket(g);
      const sl = set.slot[g];
      keys[i] = sl === this.K ? SYMBOL_NULL_KEY : sl;
    }
    this.aggs.forEach((a, k) => writeAgg(a, set, this.#types[2 + k], this.#data[2 + k], from, room, at));
    this.rows += room - from;
    return room;
  }
}

/** Writes aggregate `a` of groups [from, to) into `out` from position `at`. */
function writeAgg(
  a: KAgg,
  set: GroupSet,
  t: ColumnType,
  out: VectorData,
  from: number,
  to: number,
  at: number,
): void {
  if (a.col < 0 && a.filter === undefined) {
    const o = out as BigInt64Array;
    for (let g = from, i = at; g < to; g++, i++) o[i] = BigInt(set.rows[g]);
    return;
  }
  const c = set.cols.find((x) => x.col === a.col && (x.filter ?? -1) === (a.filter ?? -1))!;
  const kind = c.kind;
  if (a.fn === "count") {
    const o = out as BigInt64Array;
    for (let g = from, i = at; g < to; g++, i++) o[i] = BigInt(c.counts[g]);
    return;
  }
  if (t.tag === "DOUBLE" && (kind === "f64" || kind === "f32")) {
    // The common case, without a Value per cell: NaN is NULL, as are non-finite results.
    const o = out as Float64Array;
    const pick = (src: Num) => {
      for (let g = from, i = at; g < to; g++, i++) {
        const v = src[g] as number;
        o[i] = v - v === 0 ? v : NaN;
      }
    };
    switch (a.fn) {
      case "sum":
      case "avg":
        for (let g = from, i = at; g < to; g++, i++) {
          const n = Number(c.counts[g]);
          const v = a.fn === "sum" ? (c.sums[g] as number) : (c.sums[g] as number) / n;
          o[i] = n === 0 || v - v !== 0 ? NaN : v;
        }
        return;
      case "min":
        return pick(c.mins);
      case "max":
        return pick(c.maxs);
      case "first":
        return pick(c.firsts!);
      case "last":
        return pick(c.lasts!);
    }
  }
  for (let g = from, i = at; g < to; g++, i++) writeValue(t, out, i, aggValue(a, c, g));
}

function aggValue(a: KAgg, c: ColStats, g: number): Value {
  const kind = c.kind;
  const float = kind === "f64" || kind === "f32";
  const pick = (arr: Num) => {
    const v = arr[g];
    return isNull(v, kind) ? null : typed(a.returns, v);
  };
  switch (a.fn) {
    case "count":
      return BigInt(c.counts[g]);
    case "sum": {
      if (Number(c.counts[g]) === 0) return null;
      const s = c.sums[g];
      if (float && !Number.isFinite(s as number)) return null;
      return typed(a.returns, s);
    }
    case "avg": {
      const n = Number(c.counts[g]);
      if (n === 0) return null;
      const v = Number(c.sums[g]) / n;
      return Number.isFinite(v) ? v : null;
    }
    case "min":
      return pick(c.mins);
    case "max":
      return pick(c.maxs);
    case "first":
      return pick(c.firsts!);
    case "last":
      return pick(c.lasts!);
  }
}

async function runKeyed(n: SampleByNode, shape: KeyedShape, ctx: ExecContext): Promise<Sampled | undefined> {
  const { scan, aggs, filters } = shape;
  const spec = n.spec;
  const snap = snapshotOf(ctx, scan.table);
  const tsCol = scan.columnIndexes[spec.tsIndex];
  const keyCol = scan.columnIndexes[shape.key];
  const measured = loadedColumns(aggs, filters);
  // Partitions stream through the cache one at a time (loaded, reduced, released), so a
  // table larger than the cache budget is answered here too. Once output has streamed the
  // row path can no longer take over, so every partition must be known to fit first: half
  // the budget leaves room for what concurrent statements hold pinned.
  const rowBytes = 8 + 4 + measured.reduce((sum, m) => sum + WIDTH[KIND[scan.columns[m].type.tag]!], 0);
  const budget = (snap.regionBudgetBytes ?? Infinity) / 2;
  const plan: { p: number; ranges: [number, number][] }[] = [];
  for (let p = 0; p < snap.partitions.length; p++) {
    const ranges = await partitionRanges(snap, p, scan.intervals);
    if (!ranges.length) continue;
    if (snap.partitions[p].rowCount * rowBytes > budget) return undefined;
    plan.push({ p, ranges });
  }
  const dict = snap.symbols(keyCol);
  let bucketer: Bucketer | undefined;
  if (plan.length) {
    const r0 = await snap.region(plan[0].p, tsCol);
    if (!r0) return undefined;
    bucketer = bucketerOf(spec, wasmMemory().i64(r0.ptr, r0.rowCount)[plan[0].ranges[0][0]]);
  }
  bucketer ??= spec.from !== undefined ? bucketerOf(spec, boundTicks(spec, spec.from)) : undefined;
  return {
    bucketer,
    buckets: new Map(),
    keys: new Map(),
    batches: () =>
      streamKeyed(n, scan, snap, plan, keyCol, tsCol, measured, aggs, filters, dict, bucketer, ctx),
  };
}

async function* streamKeyed(
  n: SampleByNode,
  scan: ScanNode,
  snap: ReturnType<typeof snapshotOf>,
  plan: { p: number; ranges: [number, number][] }[],
  keyCol: number,
  tsCol: number,
  measured: number[],
  aggs: KAgg[],
  filters: Pred[],
  dict: SymbolDict,
  bucketer: Bucketer | undefined,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  if (!bucketer) return;
  const spec = n.spec;
  const mem = wasmMemory();
  const K = dict.size;
  const stride = fixedStrideTicks(spec) ?? 28n * 86_400_000_000n;
  const kindOf = (c: number) => KIND[scan.columns[c].type.tag]!;
  const out = new Output(n.columns.map((c) => c.type), aggs, dict, K);
  let held: HeldBucket | undefined;
  // Per key slot: the segment it last appeared in (within the current slice), and its group.
  const stamp = new Int32Array(K + 1);
  const slotGroup = new Int32Array(K + 1);
  // Appends a group set to the output; full batches wait in `ready` until the slice's scratch
  // is freed, so that no WASM view is read after a yield (the consumer may take turns, and
  // another statement's allocation then grow and detach the memory).
  const ready: Batch[] = [];
  const drain = (set: GroupSet, from: number, to: number) => {
    for (let g = from; g < to;) {
      g = out.append(set, g, to);
      if (out.full) ready.push(out.take());
    }
  };
  for (const { p, ranges } of plan) {
    await pace(ctx);
    const region = async (c: number) => {
      const r = await snap.region(p, c);
      if (!r) {
        throw new SqlError("not enough cache memory for SAMPLE BY (cairo.column.cache.bytes)", -1, "limit");
      }
      return r;
    };
    // Regions stay pinned (their addresses valid) until releasePartition; views of them do not
    // survive a turn of the event loop, so each slice makes its own.
    const tsRegion = await region(tsCol);
    const keyRegion = await region(keyCol);
    const dataPtr = new Map<number, number>();
    for (const c of measured) dataPtr.set(c, (await region(scan.columnIndexes[c])).ptr);
    const rowCount = tsRegion.rowCount;
    for (let [from, to] of ranges) {
      const ts = mem.i64(tsRegion.ptr, rowCount);
      if (bucketer.first !== undefined) from = lowerBound(ts, bucketer.first, from, to);
      if (spec.to !== undefined) to = lowerBound(ts, boundTicks(spec, spec.to), from, to);
      // Slices of the range, each reduced without a turn in between and the event loop given
      // turns between them (issue #17): a whole partition held it for up to ~500 ms at 10M
      // rows. A bucket cut by a slice edge continues in the held bucket, as across ranges.
      // Equal slices: a 33K-row partition is one slice, not 32K rows and a costly sliver.
      const slice = Math.ceil((to - from) / Math.ceil((to - from) / keyedFastTuning.sliceRows));
      for (let a = from; a < to;) {
        if (paceDue(ctx)) await pace(ctx);
        const b = Math.min(to, a + slice);
        const scratch = new Scratch();
        try {
          const set = reduceSlice(
            { bucketer, stride, K, stamp, slotGroup, kindOf, aggs, measured, filters },
            { ts: tsRegion.ptr, keys: keyRegion.ptr, rowCount, data: dataPtr },
            a,
            b,
            scratch,
          );
          const groups = set.count;
          // Groups of the first segment continue the held bucket when it is the same bucket.
          let g = 0;
          if (held && set.bucket(0) === held.start) {
            while (g < groups && set.seg[g] === set.seg[0]) held.add(set, g++);
          }
          if (g < groups) {
            if (held) drain(held, 0, held.count);
            const lastSeg = set.seg[groups - 1];
            let lastStart = groups;
            while (lastStart > g && set.seg[lastStart - 1] === lastSeg) lastStart--;
            drain(set, g, lastStart);
            held = new HeldBucket(set.bucket(groups - 1), set.cols);
            for (let h = lastStart; h < groups; h++) held.add(set, h);
          }
        } catch (err) {
          if (err instanceof FastPathUnavailable) {
            throw new SqlError("not enough WASM memory for SAMPLE BY", -1, "limit");
          }
          throw err;
        } finally {
          scratch.release();
        }
        a = b;
        yield* ready.splice(0);
      }
    }
    // Reduced (the held bucket holds copies): the partition may leave the cache.
    snap.releasePartition?.(p);
    keyedFastStats.partitions++;
  }
  if (held) drain(held, 0, held.count);
  yield* ready.splice(0);
  if (out.rows > 0) yield out.take();
}

/** What stays the same across a statement's slices. */
export interface SliceEnv {
  bucketer: Bucketer;
  stride: bigint;
  /** Dictionary size: slot K stands for NULL. */
  K: number;
  /** Per key slot: the segment it last appeared in (within the slice), and its group. */
  stamp: Int32Array;
  slotGroup: Int32Array;
  kindOf: (c: number) => MeasureKind;
  aggs: KAgg[];
  /** Columns whose data `reduceSlice` is given: the measured and the filtered. */
  measured: number[];
  /** The aggregates' FILTER conditions (KAgg.filter indexes them). */
  filters?: Pred[];
}

/** A slice's groups, statistics as views into its scratch; `seg` numbers their buckets within the slice. */
export interface SliceSet extends GroupSet {
  seg: Int32Array;
}

/**
 * Reduces rows [from, to) of one partition (non-empty) to its groups, numbered by (segment,
 * key) in first-appearance order, the `keyedStats` kernel reducing every column by group
 * number. Synchronous; the views it answers are valid until the caller frees `scratch` or
 * allocates WASM memory, so the caller reads them before either and never across a yield.
 */
export function reduceSlice(
  env: SliceEnv,
  at: { ts: number; keys: number; rowCount: number; data: Map<number, number> },
  from: number,
  to: number,
  scratch: Scratch,
): SliceSet {
  const { K, stamp, slotGroup } = env;
  const mem = wasmMemory();
  const ts = mem.i64(at.ts, at.rowCount);
  const { starts, ends } = segmentEnds(env.bucketer, ts, at.ts, from, to, env.stride, scratch);
  const rangeRows = to - from;
  const gidPtr = scratch.alloc(rangeRows * 4);
  // Views only after the allocations above, which may have grown (and detached) the memory.
  const gid = mem.i32(gidPtr, rangeRows);
  const keys = mem.i32(at.keys, at.rowCount);
  const maxGroups = Math.min(rangeRows, (K + 1) * ends.length);
  const gSeg = new Int32Array(maxGroups), gSlot = new Int32Array(maxGroups);
  const gRows = new Float64Array(maxGroups),
    firstRow = new Int32Array(maxGroups),
    lastRow = new Int32Array(maxGroups);
  stamp.fill(-1);
  let groups = 0, prev = from;
  for (let s = 0; s < ends.length; s++) {
    const end = ends[s];
    for (let i = prev; i < end; i++) {
      const key = keys[i];
      let sl = key;
      if (key < 0 || key >= K) {
        if (key !== -1) throw new SqlError(`symbol key ${key} outside its dictionary`, -1, "internal");
        sl = K;
      }
      let g: number;
      if (stamp[sl] === s) g = slotGroup[sl];
      else {
        stamp[sl] = s;
        g = slotGroup[sl] = groups++;
        gSeg[g] = s;
        gSlot[g] = sl;
        firstRow[g] = i - from;
      }
      gRows[g]++;
      gid[i - from] = g;
      lastRow[g] = i - from;
    }
    prev = Math.max(prev, end);
  }
  // Each FILTER's passing rows of the slice, as a selection vector in the scratch.
  const sels = (env.filters ?? []).map((p) => filteredRows(p, at.data, from, rangeRows, scratch));
  // One set of statistics per (column, filter): unfiltered count(d) and sum(d) share one.
  const measures: { col: number; filter?: number }[] = [];
  for (const a of env.aggs) {
    if (a.col < 0 && a.filter === undefined) continue;
    if (measures.some((m) => m.col === a.col && m.filter === a.filter)) continue;
    measures.push({ col: a.col, filter: a.filter });
  }
  const reduced = measures.map(({ col, filter }) => {
    const sel = filter === undefined ? undefined : sels[filter];
    if (col < 0) return filteredCount(filter!, sel!, gidPtr, rangeRows, groups);
    const kind = env.kindOf(col);
    return rangeStats(
      kernels(),
      scratch,
      kind,
      col,
      gidPtr,
      at.data.get(col)! + from * WIDTH[kind],
      rangeRows,
      groups,
      firstRow,
      lastRow,
      env.aggs,
      filter,
      sel,
    );
  });
  return {
    count: groups,
    seg: gSeg,
    bucket: (g) => starts[gSeg[g]],
    slot: gSlot,
    rows: gRows,
    // Views only now: each column's scratch allocations may have grown (and detached) the memory.
    cols: reduced.map((view) => view()),
  };
}

/**
 * The exact sums of a LONG column's groups, as doubles (exact_long_sum.ts): avg() of LONG
 * divides the true sum, as the hash and row operators do, while the kernel's sums wrap.
 */
function exactSums(
  groups: number,
  at: {
    sums: number;
    counts: number;
    mins: number;
    maxs: number;
    gid: number;
    data: number;
    rowCount: number;
    sel?: { ptr: number; count: number };
  },
): Float64Array {
  const mem = wasmMemory();
  const wrapped = mem.i64(at.sums, groups), counts = mem.i64(at.counts, groups);
  const mins = mem.i64(at.mins, groups), maxs = mem.i64(at.maxs, groups);
  const out = new Float64Array(groups);
  let gid: Int32Array | undefined;
  for (let g = 0; g < groups; g++) {
    // Rare (values near +-2^62): the group's rows summed again.
    const sum = exactLongSum(counts[g], wrapped[g], mins[g], maxs[g]) ??
      sumLongRows(
        mem.i64(at.data, at.rowCount),
        at.sel && mem.i32(at.sel.ptr, at.sel.count),
        (row) => (gid ??= mem.i32(at.gid, at.rowCount))[row] === g,
      );
    out[g] = Number(sum);
  }
  return out;
}

/** Reduces one column of a range by group number (keyedStats), as views into the range's scratch. */
function rangeStats(
  k: ReturnType<typeof kernels>,
  scratch: Scratch,
  kind: MeasureKind,
  col: number,
  gidPtr: number,
  data: number,
  rangeRows: number,
  groups: number,
  firstRow: Int32Array,
  lastRow: Int32Array,
  aggs: KAgg[],
  filter?: number,
  sel?: { ptr: number; count: number },
): () => ColStats {
  const w = WIDTH[kind], slots = groups + 1;
  const float = kind === "f64" || kind === "f32";
  const nul = nullOf(kind);
  const rows = scratch.alloc(slots * 8), counts = scratch.alloc(slots * 8), sums = scratch.alloc(slots * 8);
  const mins = scratch.alloc(slots * w), maxs = scratch.alloc(slots * w);
  const mem = wasmMemory();
  mem.i64(rows, slots).fill(0n);
  mem.i64(counts, slots).fill(0n);
  if (float) mem.f64(sums, slots).fill(0);
  else mem.i64(sums, slots).fill(0n);
  (view(kind, mins, slots) as { fill(v: unknown): void }).fill(nul);
  (view(kind, maxs, slots) as { fill(v: unknown): void }).fill(nul);
  k.keyedStats(kind, {
    keys: gidPtr,
    data,
    rowCount: rangeRows,
    keyCount: groups,
    rows,
    counts,
    sums,
    mins,
    maxs,
    ...(sel ? { sel: sel.ptr, selCount: sel.count } : {}),
  });
  const needs = (fn: Fn) => aggs.some((a) => a.col === col && a.filter === filter && a.fn === fn);
  const values = view(kind, data, rangeRows);
  const pickRows = (at: Int32Array) => {
    const o = newNum(kind, groups);
    for (let g = 0; g < groups; g++) (o as unknown as (number | bigint)[])[g] = values[at[g]];
    return o;
  };
  const firsts = needs("first") ? pickRows(firstRow) : undefined;
  const lasts = needs("last") ? pickRows(lastRow) : undefined;
  const exact = kind === "i64" && needs("avg");
  return () => ({
    col,
    filter,
    kind,
    counts: wasmMemory().i64(counts, slots),
    sums: exact
      ? exactSums(groups, { sums, counts, mins, maxs, gid: gidPtr, data, rowCount: rangeRows, sel })
      : float
      ? wasmMemory().f64(sums, slots)
      : wasmMemory().i64(sums, slots),
    mins: view(kind, mins, slots),
    maxs: view(kind, maxs, slots),
    firsts,
    lasts,
  });
}

/**
 * count(*) FILTER: per group, the rows passing the filter (its selection over the slice's
 * group numbers), as statistics of no column that HeldBucket merges like any other.
 */
function filteredCount(
  filter: number,
  sel: { ptr: number; count: number },
  gidPtr: number,
  rangeRows: number,
  groups: number,
): () => ColStats {
  const counts = new Float64Array(groups);
  const mem = wasmMemory();
  const rows = mem.i32(sel.ptr, sel.count), gid = mem.i32(gidPtr, rangeRows);
  for (let i = 0; i < rows.length; i++) counts[gid[rows[i]]]++;
  // Separate arrays: HeldBucket merges into its own copies, never into these.
  return () => ({
    col: -1,
    filter,
    kind: "f64",
    counts,
    sums: new Float64Array(groups),
    mins: new Float64Array(groups).fill(NaN),
    maxs: new Float64Array(groups).fill(NaN),
  });
}
