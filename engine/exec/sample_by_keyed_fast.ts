/**
 * The WASM path of keyed SAMPLE BY (ARCHITECTURE.md "SAMPLE BY bucketing"): one SYMBOL key
 * column of a table scan, no FILL, count/sum/avg/min/max/first/last of numeric columns.
 * Per slice of rows, bucket ends come from `lowerBounds` (as in `sample_by_fast.ts`), the
 * `groupIds` kernel numbers the (bucket, key) groups densely in first-appearance order — the
 * order the row path emits — and `keyedFold` (`keyedStats` for FILTERed columns) reduces
 * the columns by group number (sample_by_keyed_acc.ts, whose groups stay in WASM memory
 * across slices). EXPLAIN shows this path as `SampleBy [keyed wasm]`. The result
 * streams: complete buckets are written straight into output batches from WASM memory, and
 * only the last bucket is held (at most one group per key) in case the next slice continues
 * it. Memory is per slice and key, not per result. Ranges are reduced in slices of rows with turns of
 * the event loop between them (issue #17); no WASM view lives across a turn. Other shapes
 * answer undefined.
 */
import { keyText } from "../base/key_text.ts";
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
import { type MeasureKind, wasmMemory } from "../../engine-wasm/mod.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { type ExecContext, pace, paceDue, snapshotOf } from "./exec_context.ts";
import type { SampleByNode, Sampled } from "./sample_by.ts";
import { boundTicks, type Bucketer, bucketerOf, fixedStrideTicks } from "./sample_by_buckets.ts";
import { isNull, KIND, typed, type View, WIDTH } from "./sample_by_fast.ts";
import { FastPathUnavailable } from "./wasm_scratch.ts";
import { lowerBound, partitionRanges } from "./scan.ts";
import { type Pred, predicateOf, predLeaves } from "./kernel_predicates.ts";
import { absMaxOf, foldCount, KeyedAcc } from "./sample_by_keyed_acc.ts";

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
  const key = keyText(p);
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
  /** Empty when `noExtremes`: no min()/max() reads them, and nothing computes them. */
  mins: Num;
  maxs: Num;
  noExtremes?: boolean;
  firsts?: Num;
  lasts?: Num;
  /**
   * A DOUBLE measure's fold records in WASM memory (sample_by_keyed_acc.ts): per group 32 bytes,
   * NULLs (i64), sum, min, max (f64), and the group's rows. Output reads sums, means and extremes
   * from them directly; valid while the GroupSet is.
   */
  fold?: { f64: Float64Array; words: Int32Array; rows: Float64Array };
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
 * A bucket's groups gathered from morsel edges on the main thread (sample_by_parallel.ts): a
 * bucket cut by a morsel edge arrives as the tail of one morsel and the head of the next, each
 * at most one group per key. Typed arrays grown by doubling; `addAll` folds a whole edge in,
 * column by column.
 */
export class HeldBucket implements GroupSet {
  count = 0;
  slot = new Int32Array(16);
  rows = new Float64Array(16);
  readonly cols: ColStats[];
  readonly #at = new Map<number, number>();

  constructor(readonly start: bigint, template: ColStats[]) {
    this.cols = template.map((c) => ({
      col: c.col,
      filter: c.filter,
      kind: c.kind,
      counts: new Float64Array(16),
      sums: c.sums instanceof BigInt64Array ? new BigInt64Array(16) : new Float64Array(16),
      mins: newNum(c.kind, c.noExtremes ? 0 : 16),
      maxs: newNum(c.kind, c.noExtremes ? 0 : 16),
      noExtremes: c.noExtremes,
      firsts: c.firsts ? newNum(c.kind, 16) : undefined,
      lasts: c.lasts ? newNum(c.kind, 16) : undefined,
    }));
  }

  bucket(): bigint {
    return this.start;
  }

  /** Folds every group of `src` (the same bucket) into the held group of its key. */
  addAll(src: GroupSet): void {
    const n = src.count, before = this.count;
    const to = new Int32Array(n);
    let count = before;
    for (let g = 0; g < n; g++) {
      const sl = src.slot[g];
      let h = this.#at.get(sl);
      if (h === undefined) this.#at.set(sl, h = count++);
      to[g] = h;
    }
    if (count > this.slot.length) this.#grow(count);
    this.count = count;
    const slot = this.slot, rows = this.rows;
    for (let g = 0; g < n; g++) {
      const h = to[g];
      if (h >= before) slot[h] = src.slot[g];
      rows[h] += src.rows[g];
    }
    src.cols.forEach((sc, i) => {
      const c = this.cols[i], kind = c.kind, nul = nullOf(kind);
      const counts = c.counts as Float64Array, mins = c.mins, maxs = c.maxs;
      for (let h = before; h < count; h++) {
        if (!c.noExtremes) {
          mins[h] = nul;
          maxs[h] = nul;
        }
        if (c.lasts) c.lasts[h] = nul;
      }
      for (let g = 0; g < n; g++) {
        const h = to[g];
        if (h >= before && c.firsts) c.firsts[h] = sc.firsts![g];
        if (c.lasts && src.rows[g] > 0) c.lasts[h] = sc.lasts![g];
      }
      if (c.sums instanceof BigInt64Array) {
        const sums = c.sums, from = sc.sums as BigInt64Array;
        for (let g = 0; g < n; g++) {
          if (Number(sc.counts[g]) !== 0) sums[to[g]] = BigInt.asIntN(64, sums[to[g]] + from[g]);
        }
      } else {
        const sums = c.sums, from = sc.sums as Float64Array;
        for (let g = 0; g < n; g++) if (Number(sc.counts[g]) !== 0) sums[to[g]] += from[g];
      }
      for (let g = 0; g < n; g++) counts[to[g]] += Number(sc.counts[g]);
      if (c.noExtremes) return;
      for (let g = 0; g < n; g++) {
        if (Number(sc.counts[g]) === 0) continue;
        const h = to[g];
        const mn = sc.mins[g], mx = sc.maxs[g];
        if (!isNull(mn, kind) && (isNull(mins[h], kind) || mn < mins[h])) mins[h] = mn;
        if (!isNull(mx, kind) && (isNull(maxs[h], kind) || mx > maxs[h])) maxs[h] = mx;
      }
    });
  }

  /** Room for `need` groups: every array twice as long (or `need`), new entries zero. */
  #grow(need: number): void {
    const size = Math.max(need, this.slot.length * 2);
    const more = <T extends Num | Float64Array | BigInt64Array>(a: T): T => {
      // deno-lint-ignore no-explicit-any
      const b = new (a.constructor as any)(size) as T;
      b.set(a as never);
      return b;
    };
    this.slot = more(this.slot);
    this.rows = more(this.rows);
    for (const c of this.cols) {
      c.counts = more(c.counts as Float64Array);
      c.sums = more(c.sums);
      if (!c.noExtremes) {
        c.mins = more(c.mins);
        c.maxs = more(c.maxs);
      }
      if (c.firsts) c.firsts = more(c.firsts);
      if (c.lasts) c.lasts = more(c.lasts);
    }
  }
}

/** Output batches filled group by group; full ones are handed out by `take`. */
export class Output {
  readonly #types: ColumnType[];
  #data: VectorData[] = [];
  /** Rows the columns have room for: they start small and grow fourfold up to `capacity`. */
  #size = 0;
  rows = 0;

  /**
   * `dict` is undefined on a worker heap: the main thread attaches it to the key column.
   * `capacity`: rows per batch (the main thread's edge buckets are small). Columns are
   * allocated on the first append, so a last `take` allocates nothing, and grow as rows come:
   * a worker's morsel of a few thousand groups allocated and zeroed 65,536 rows per column.
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

  /** Room for `need` rows, keeping the rows written. */
  #reserve(need: number) {
    if (need <= this.#size) return;
    const size = Math.min(this.capacity, Math.max(need, this.#size * 4, 1024));
    const old = this.#data, rows = this.rows;
    this.#data = this.#types.map((t, i) => {
      const d = i === 1 ? new Int32Array(size) : allocVectorData(t, size);
      const o = old[i];
      if (o && ArrayBuffer.isView(d) && ArrayBuffer.isView(o)) {
        (d as Float64Array).set((o as Float64Array).subarray(0, rows));
      } else if (o) { for (let r = 0; r < rows; r++) (d as unknown[])[r] = (o as unknown[])[r]; }
      return d;
    });
    this.#size = size;
  }

  get full(): boolean {
    return this.rows === this.capacity;
  }

  take(): Batch {
    const rows = this.rows;
    const columns: Vector[] = this.#types.map((t, i) => {
      const d = this.#data[i];
      const data = rows === this.#size ? d : (d as Float64Array).slice(0, rows);
      return i === 1 ? { type: t, data, dict: this.dict } : { type: t, data: data as VectorData };
    });
    this.#data = [];
    this.#size = 0;
    this.rows = 0;
    return { rowCount: rows, columns };
  }

  /** Appends groups [from, to) of `set`, stopping when the batch is full; answers where it stopped. */
  append(set: GroupSet, from: number, to: number): number {
    const room = Math.min(to, from + this.capacity - this.rows);
    this.#reserve(this.rows + room - from);
    const at = this.rows;
    writeKeys(set, this.#data[0] as BigInt64Array, this.#data[1] as Int32Array, from, room, at, this.K);
    this.aggs.forEach((a, k) => writeAgg(a, set, this.#types[2 + k], this.#data[2 + k], from, room, at));
    this.rows += room - from;
    return room;
  }
}

// The loops over groups below are functions of their own, each small: written inline in
// Output.append and writeAgg they made V8 replace those whole functions on the stack (OSR) and
// compile them with everything inlined, 8-17 ms a time on a background thread per worker heap,
// again after each deoptimization, in the first runs of every new SAMPLE BY shape.

/** Bucket starts and key codes of groups [from, to), written from position `at`. */
function writeKeys(
  set: GroupSet,
  ts: BigInt64Array,
  keys: Int32Array,
  from: number,
  to: number,
  at: number,
  K: number,
): void {
  for (let g = from, i = at; g < to; g++, i++) {
    ts[i] = set.bucket(g);
    const sl = set.slot[g];
    keys[i] = sl === K ? SYMBOL_NULL_KEY : sl;
  }
}

/** Sums (or means: sum / count) of groups [from, to) as DOUBLE; NULL (NaN) without values or when not finite. */
function sumsOrMeans(
  o: Float64Array,
  sums: Num,
  counts: ArrayLike<number | bigint>,
  mean: boolean,
  from: number,
  to: number,
  at: number,
): void {
  for (let g = from, i = at; g < to; g++, i++) {
    const n = Number(counts[g]);
    const v = mean ? (sums[g] as number) / n : (sums[g] as number);
    o[i] = n === 0 || v - v !== 0 ? NaN : v;
  }
}

/**
 * One field of groups [from, to) from DOUBLE fold records: the sum (field 1, divided by the
 * count for a mean), the minimum (2) or the maximum (3); NULL (NaN) where the group saw no value
 * or the result is not finite.
 */
function recordField(
  o: Float64Array,
  fold: NonNullable<ColStats["fold"]>,
  field: number,
  mean: boolean,
  from: number,
  to: number,
  at: number,
): void {
  const { f64, words, rows } = fold;
  for (let g = from, i = at; g < to; g++, i++) {
    const n = foldCount(words, rows, g);
    const v = mean ? f64[4 * g + field] / n : f64[4 * g + field];
    o[i] = n === 0 || v - v !== 0 ? NaN : v;
  }
}

/** Values of groups [from, to) as DOUBLE, NaN for the non-finite (NULL). */
function finiteOrNaN(o: Float64Array, src: Num, from: number, to: number, at: number): void {
  for (let g = from, i = at; g < to; g++, i++) {
    const v = src[g] as number;
    o[i] = v - v === 0 ? v : NaN;
  }
}

/** Counts of groups [from, to) as LONG. */
function counted(
  o: BigInt64Array,
  counts: ArrayLike<number | bigint>,
  from: number,
  to: number,
  at: number,
): void {
  for (let g = from, i = at; g < to; g++, i++) o[i] = BigInt(counts[g]);
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
  if (a.col < 0 && a.filter === undefined) return counted(out as BigInt64Array, set.rows, from, to, at);
  const c = set.cols.find((x) => x.col === a.col && (x.filter ?? -1) === (a.filter ?? -1))!;
  const kind = c.kind;
  if (a.fn === "count") return counted(out as BigInt64Array, c.counts, from, to, at);
  if (t.tag === "DOUBLE" && c.fold && a.fn !== "first" && a.fn !== "last") {
    // From the fold records: no copy of the field first.
    const field = a.fn === "min" ? 2 : a.fn === "max" ? 3 : 1;
    return recordField(out as Float64Array, c.fold, field, a.fn === "avg", from, to, at);
  }
  if (t.tag === "DOUBLE" && (kind === "f64" || kind === "f32")) {
    // The common case, without a Value per cell: NaN is NULL, as are non-finite results.
    const o = out as Float64Array;
    switch (a.fn) {
      case "sum":
      case "avg":
        return sumsOrMeans(o, c.sums, c.counts, a.fn === "avg", from, to, at);
      case "min":
        return finiteOrNaN(o, c.mins, from, to, at);
      case "max":
        return finiteOrNaN(o, c.maxs, from, to, at);
      case "first":
        return finiteOrNaN(o, c.firsts!, from, to, at);
      case "last":
        return finiteOrNaN(o, c.lasts!, from, to, at);
    }
  }
  if (t.tag === "DOUBLE" && a.fn === "avg" && c.sums instanceof Float64Array) {
    // avg() of LONG: the exact sums as doubles (sample_by_keyed_acc.ts).
    return sumsOrMeans(out as Float64Array, c.sums, c.counts, true, from, to, at);
  }
  if (
    kind === "i64" && out instanceof BigInt64Array && a.fn !== "sum" &&
    (t.tag === "LONG" || t.tag === "TIMESTAMP" || t.tag === "DATE")
  ) {
    // min/max/first/last of a 64-bit column into its own type: the words as they are (NULL is
    // LONG_NULL on both sides), no BigInt per cell.
    const src = a.fn === "min" ? c.mins : a.fn === "max" ? c.maxs : a.fn === "first" ? c.firsts! : c.lasts!;
    const s64 = src as BigInt64Array;
    const o = new Int32Array(out.buffer, out.byteOffset, out.length * 2);
    const w = new Int32Array(s64.buffer, s64.byteOffset, s64.length * 2);
    for (let g = from, i = at; g < to; g++, i++) {
      o[2 * i] = w[2 * g];
      o[2 * i + 1] = w[2 * g + 1];
    }
    return;
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
  // Full batches wait in `ready` until the slice is written out, then go to the consumer.
  const ready: Batch[] = [];
  const drain = (set: GroupSet, from: number, to: number) => {
    for (let g = from; g < to;) {
      g = out.append(set, g, to);
      if (out.full) ready.push(out.take());
    }
  };
  // The groups live in WASM memory across slices and partitions (a bucket cut by a slice or
  // partition edge goes on there); complete buckets are written out after each slice.
  const acc = new KeyedAcc({ bucketer, stride, K, kindOf, aggs, filters });
  try {
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
      const data = new Map<number, number>();
      for (const c of measured) data.set(c, (await region(scan.columnIndexes[c])).ptr);
      const rowCount = tsRegion.rowCount;
      const absMax = new Map<number, number>();
      for (const c of acc.exactColumns()) {
        absMax.set(c, absMaxOf(snap, p, scan.columnIndexes[c], data.get(c)!, rowCount));
      }
      for (let [from, to] of ranges) {
        const ts = mem.i64(tsRegion.ptr, rowCount);
        if (bucketer.first !== undefined) {
          from = lowerBound(ts, bucketer.rowsFrom ?? bucketer.first, from, to);
        }
        if (spec.to !== undefined) to = lowerBound(ts, boundTicks(spec, spec.to), from, to);
        // Slices of the range, each reduced without a turn in between and the event loop given
        // turns between them (issue #17): a whole partition held it for up to ~500 ms at 10M
        // rows. Equal slices: a 33K-row partition is one slice, not 32K rows and a costly sliver.
        const slice = Math.ceil((to - from) / Math.ceil((to - from) / keyedFastTuning.sliceRows));
        for (let a = from; a < to;) {
          if (paceDue(ctx)) await pace(ctx);
          const b = Math.min(to, a + slice);
          acc.add({ ts: tsRegion.ptr, keys: keyRegion.ptr, rowCount, data, absMax }, a, b);
          const done = acc.complete();
          if (done > 0) {
            drain(acc.view(done), 0, done);
            acc.drop(done);
          }
          a = b;
          yield* ready.splice(0);
        }
      }
      // Reduced (the groups held are in the accumulator): the partition may leave the cache.
      snap.releasePartition?.(p);
      keyedFastStats.partitions++;
    }
    if (acc.count > 0) drain(acc.view(), 0, acc.count);
  } finally {
    acc.dispose();
  }
  yield* ready.splice(0);
  if (out.rows > 0) yield out.take();
}
