/**
 * SAMPLE BY's WASM fast paths (sample_by_fast.ts unkeyed, sample_by_keyed_fast.ts keyed) as
 * morsels on the worker heaps (issue #17): the table's rows, in table order, are cut into
 * morsels (partition row ranges, `sampleByTuning.morselRows` each); a worker reduces a morsel
 * with the same code the main heap runs, and the main thread only merges what crosses morsel
 * edges.
 *
 * - Unkeyed: a morsel answers its buckets' partial states (count, sum, min, max, first, last
 *   per aggregate) column-wise in typed arrays; the main thread merges a morsel's first bucket
 *   into the previous morsel's last when they are one bucket, then writes the result batches
 *   from the arrays, or, with FILL, builds the bucket map `emit` (sample_by.ts) fills as on one
 *   heap.
 * - Keyed: a morsel answers its output rows as finished column batches (typed arrays,
 *   transferred, not copied), except its first and last buckets, which travel as partial
 *   states: a bucket cut by a morsel edge continues in the next morsel. The main thread merges
 *   those edge buckets (the same `HeldBucket` the single-heap path holds between slices) and
 *   streams the batches in order: keys within a bucket keep their first-appearance order.
 *
 * Every worker builds the statement's bucketer from the same first timestamp (read on the
 * main thread), so FIRST OBSERVATION alignment, calendar units, time zones and offsets give
 * the buckets one heap gives. The choice is made per plan (`markParallelSampleBy`, next to
 * `markParallelHash`) and EXPLAIN prints `SampleBy [parallel N]`. While the workers reduce,
 * the main thread waits on messages: its event loop serves other clients. Unlike the hash
 * aggregation, the choice ignores the machine's load: the point here is that one statement's
 * SAMPLE BY does not hold every other client's statements, not speed.
 */
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import { SqlError } from "../base/errors.ts";
import type { ColumnType } from "../base/types.ts";
import {
  allocVectorData,
  type Batch,
  type Interval,
  LONG_NULL,
  type Value,
  type VectorData,
  writeValue,
} from "../base/values.ts";
import { type MeasureKind, wasmMemory } from "../../engine-wasm/mod.ts";
import { forEachPlanNode, type PlanNode, type SampleBySpec } from "../plan/plan_node.ts";
import type { Storage, TableSnapshot } from "../storage/api.ts";
import {
  charge,
  checkCancelled,
  type ExecContext,
  pace,
  PACE_MASK,
  paceDue,
  rowBytes as heldRowBytes,
  snapshotOf,
} from "./exec_context.ts";
import type { SampleByNode, Sampled } from "./sample_by.ts";
import { boundTicks, type Bucketer, bucketerOf, fixedStrideTicks } from "./sample_by_buckets.ts";
import {
  type Acc,
  accumulatePieces,
  type FastAgg,
  isNull,
  KIND,
  mergeAcc,
  sampledOf,
  typed,
  type UnkeyedEnv,
  unkeyedEnv,
  unkeyedShapeOf,
  WIDTH,
} from "./sample_by_fast.ts";
import {
  type ColStats,
  type GroupSet,
  HeldBucket,
  type KAgg,
  keyedShapeOf,
  loadedColumns,
  Output,
} from "./sample_by_keyed_fast.ts";
import { absMaxOf, type AccEnv, KeyedAcc } from "./sample_by_keyed_acc.ts";
import { lowerBound, partitionRanges } from "./scan.ts";
import type { Pred } from "./kernel_predicates.ts";
import { FastPathUnavailable, Scratch } from "./wasm_scratch.ts";
import { blockMemoSetting } from "./block_partials.ts";

/**
 * Tables smaller than this keep SAMPLE BY on the main thread (tests lower it through the
 * pool's `hashRowsMin`). At 500K rows the fast paths hold the main thread ~100 ms in all;
 * below, a round trip to the workers is most of the time.
 */
export const SAMPLE_BY_ROWS_MIN = 500_000;
/**
 * Tables smaller than this keep the unkeyed SAMPLE BY on the main thread: it reduces ~2 ns a
 * row in 64K-row slices with turns between (4M rows: ~8 ms in all, the table-scan aggregates'
 * bound), and there it reuses memoized blocks (sample_by_blocks.ts). On the workers, a
 * dashboard's SAMPLE BY over a 1M-row table still receiving rows waited behind long
 * statements' morsels at the workers' lower priority (soak).
 */
export const SAMPLE_BY_UNKEYED_ROWS_MIN = 4_000_000;
/**
 * The morsel size unit (the unit of fairness and cancellation on a worker; keyed morsels are
 * KEYED_MORSEL_FACTOR of it, unkeyed UNKEYED_MORSEL_FACTOR) and rows a worker reduces per
 * slice (bounds its scratch, as on the main heap). Tests lower both to cut buckets at morsel
 * and slice edges on small tables.
 */
export const sampleByTuning = { morselRows: 262_144, workerSliceRows: 65_536 };

/**
 * Keyed morsels are twice the unit (512K rows by default): since the group numbering and the
 * folds run as kernels a 512K-row morsel reduces in ~20-40 ms on the bench machine, what 256K
 * rows took before, and every morsel costs a round trip and two edge buckets (up to one group
 * per key each) that the main thread merges. TSBS double-groupby over 10M cpu rows (12 hours
 * of a day, 1,000 hosts), in process: CPU 35 -> 27 ms, c13 (whole table by day) 110 -> 100.
 */
const KEYED_MORSEL_FACTOR = 2;
/** Unkeyed morsels are this many times the unit (2M rows by default). */
const UNKEYED_MORSEL_FACTOR = 8;

/** Rows [lo, hi) of partition `p`, in table order (further narrowed by intervals, FROM, TO). */
export interface SampleByMorsel {
  pieces: { p: number; lo: number; hi: number }[];
}

/** What a worker needs, as plain structured-cloneable data (the spec without expressions). */
export type SampleByJob =
  | { kind: "unkeyed"; env: UnkeyedEnv; firstTs: bigint }
  | {
    kind: "keyed";
    spec: SampleBySpec;
    firstTs: bigint;
    tsCol: number;
    keyCol: number;
    /** Table column of each scan column, and the scan columns' types. */
    columnIndexes: number[];
    scanTypes: ColumnType[];
    intervals?: Interval[];
    measured: number[];
    aggs: KAgg[];
    /** The aggregates' FILTER conditions (plain data: kernel predicates). */
    filters: Pred[];
    /** Output column types: bucket, key, aggregates. */
    outTypes: ColumnType[];
    /** Size of the key's dictionary in the snapshot: code K stands for NULL. */
    K: number;
    sliceRows: number;
  };

/** A morsel's edge bucket as it travels: a `HeldBucket`'s data (its class is not cloned). */
export interface EdgeBucket {
  start: bigint;
  count: number;
  /** Typed arrays: a structured clone copies them as bytes. */
  slot: Int32Array;
  rows: Float64Array;
  cols: ColStats[];
}

/**
 * The unkeyed partial states of a morsel's buckets, column-wise in typed arrays (moved, not
 * cloned: an object per bucket and aggregate cost the main thread more to receive than the
 * reduction saved). Per aggregate: `values` holds sum, min, max, first, last (NULL as the
 * measured kind's NULL); `seen` marks the states that saw a row of their column.
 */
export interface UnkeyedBuckets {
  starts: BigInt64Array;
  rows: Float64Array;
  aggs: { counts: Float64Array; seen: Uint8Array; values: (Float64Array | BigInt64Array)[] }[];
}

export type SampleByPartial =
  | { kind: "unkeyed"; buckets: UnkeyedBuckets }
  | { kind: "keyed"; head?: EdgeBucket; batches: Batch[]; tail?: EdgeBucket };

/** The worker side of a pool, as SAMPLE BY sees it (engine/parallel/worker_pool.ts). */
export interface ParallelSampleBy {
  readonly workers: number;
  readonly hashRowsMin: number;
  /** Values a table-scan aggregate reads before it goes to the workers (tests lower it). */
  readonly valuesMin?: number;
  /**
   * The partials of `morsels`, in order, as the workers finish them (a few in flight per
   * worker); undefined when the pool cannot run them. Throws the statement's cancel or timeout
   * between morsels.
   */
  sampleByPartials(
    job: SampleByJob,
    snap: TableSnapshot,
    morsels: SampleByMorsel[],
    ctx: ExecContext,
  ): Promise<AsyncGenerator<SampleByPartial> | undefined>;
}

/** Workers each parallel SAMPLE BY node runs on, as chosen for its plan. */
const chosen = new WeakMap<PlanNode, number>();

/** Marks the SAMPLE BY nodes of `plan` whose fast path runs on the workers. */
export function markParallelSampleBy(
  plan: PlanNode,
  pool: Partial<ParallelSampleBy> | undefined,
  storage: Storage,
): void {
  if (!pool?.workers || !pool.sampleByPartials) return;
  const keyedMin = Math.min(SAMPLE_BY_ROWS_MIN, pool.hashRowsMin ?? SAMPLE_BY_ROWS_MIN);
  const unkeyedMin = Math.min(SAMPLE_BY_UNKEYED_ROWS_MIN, pool.valuesMin ?? SAMPLE_BY_UNKEYED_ROWS_MIN);
  forEachPlanNode(plan, (n) => {
    const keyed = n.kind === "sampleBy" && keyedShapeOf(n) !== undefined;
    if (n.kind === "sampleBy" && (keyed || (n.spec.keys.length === 0 && unkeyedShapeOf(n)))) {
      const snap = storage.table((n.input as Extract<PlanNode, { kind: "scan" }>).table)?.snapshot();
      const rows = snap?.rowCount ?? 0;
      snap?.release();
      if (rows >= (keyed ? keyedMin : unkeyedMin)) chosen.set(n, pool.workers!);
    }
  });
}

/**
 * The operator a SAMPLE BY node runs, for EXPLAIN (`SampleBy [keyed wasm, parallel 2]`): `keyed
 * wasm` (one SYMBOL key: groupIds and keyedStats kernels, sample_by_keyed_acc.ts), `wasm` (no
 * key: the segmented reduce of sample_by_fast.ts) or `hash` (any other keys or aggregates:
 * sample_by_hash.ts). Decided from the plan, as the executor decides; the WASM paths give way
 * to the hash path only when a partition does not fit the column cache.
 */
export function sampleByOp(n: SampleByNode): string {
  const op = n.spec.keys.length > 0
    ? (keyedShapeOf(n) ? "keyed wasm" : "hash")
    : (unkeyedShapeOf(n) ? "wasm" : "hash");
  const workers = parallelSampleByOf(n);
  // On this heap the unkeyed reduce memoizes complete blocks (sample_by_blocks.ts).
  if (workers) return `${op}, parallel ${workers}`;
  return op === "wasm" && blockMemoSetting.enabled ? "wasm, block memo" : op;
}

/** Workers the plan chose for this SAMPLE BY (0: it runs on the main thread). */
export function parallelSampleByOf(n: PlanNode): number {
  return chosen.get(n) ?? 0;
}

// ---- on the main thread ----

/**
 * Runs the SAMPLE BY on the workers, or answers undefined (the pool declines, the data does
 * not fit a worker's cache): the caller then runs it on this heap.
 */
export async function runParallelSampleBy(n: SampleByNode, ctx: ExecContext): Promise<Sampled | undefined> {
  const pool = ctx.parallel as Partial<ParallelSampleBy> | undefined;
  if (!pool?.sampleByPartials || !pool.workers) return undefined;
  const spec = n.spec;
  const keyed = spec.keys.length > 0 ? keyedShapeOf(n) : undefined;
  const unkeyed = keyed ? undefined : unkeyedShapeOf(n);
  const scan = keyed?.scan ?? unkeyed?.scan;
  if (!scan) return undefined;
  const snap = snapshotOf(ctx, scan.table);
  const tsCol = scan.columnIndexes[spec.tsIndex];
  const measured = loadedColumns(keyed?.aggs ?? unkeyed!.aggs, keyed?.filters ?? unkeyed!.filters);
  // A partition's columns must fit a worker's cache (half of its share of the budget): the
  // keyed output streams, so the main heap cannot take over once it began.
  const rowBytes = 8 + 4 + measured.reduce((s, m) => s + WIDTH[KIND[scan.columns[m].type.tag]!], 0);
  const budget = (snap.regionBudgetBytes ?? Infinity) / (2 * pool.workers);
  // The unkeyed reduce runs at ~2 ns a row: a 256K-row morsel is less work than its round
  // trip, and t4 (SAMPLE BY 1h over 10M rows) took 37 ms on the workers against 19 on one heap.
  const morselRows = sampleByTuning.morselRows * (unkeyed ? UNKEYED_MORSEL_FACTOR : KEYED_MORSEL_FACTOR);
  // The rows in range, partition by partition: a partition the intervals cut is narrowed here
  // (its timestamps are read once, as the first one's are for FIRST OBSERVATION), so the
  // morsels below share out the rows that are scanned, not whole partitions (c07: 12 hours of a
  // 1.4M-row day as morsels of 512K whole-partition rows left one worker 3/4 of the rows).
  const spans: { p: number; lo: number; hi: number }[] = [];
  let firstTs: bigint | undefined;
  for (let p = 0; p < snap.partitions.length; p++) {
    const part = snap.partitions[p];
    if (part.rowCount === 0) continue;
    if (scan.intervals && !scan.intervals.some((iv) => iv.hi >= part.minTs && iv.lo <= part.maxTs)) continue;
    if (part.rowCount * rowBytes > budget) return undefined;
    const ranges = scan.intervals ? await partitionRanges(snap, p, scan.intervals) : [[0, part.rowCount]];
    if (!ranges.length) continue;
    if (firstTs === undefined) {
      // The first row in range gives FIRST OBSERVATION's origin, as on one heap.
      const at = ranges[0][0];
      firstTs = at === 0 ? part.minTs : (await snap.read(p, tsCol, at, at + 1)).data[0] as bigint;
    }
    for (const [lo, hi] of ranges) spans.push({ p, lo, hi });
  }
  const morsels = cutMorsels(spans, morselRows, pool.workers);
  const bucketer = firstTs !== undefined
    ? bucketerOf(spec, firstTs)
    : spec.from !== undefined
    ? bucketerOf(spec, boundTicks(spec, spec.from))
    : undefined;
  const bare: SampleBySpec = { ...spec, keys: [], aggs: [], fill: [] };
  if (unkeyed) {
    const aggs = unkeyed.aggs;
    // The morsels' buckets in order; rows sorted by time make each morsel's buckets ascending,
    // so only a morsel's first bucket can continue the previous morsel's last: merged there.
    const chunks: { enc: UnkeyedBuckets; from: number }[] = [];
    if (firstTs !== undefined) {
      const env = unkeyedEnv(spec, scan, aggs, unkeyed.filters);
      const replies = await pool.sampleByPartials({ kind: "unkeyed", env, firstTs }, snap, morsels, ctx);
      if (!replies) return undefined;
      for await (const r of replies) {
        if (r.kind !== "unkeyed") throw new SqlError("parallel SAMPLE BY: unexpected reply", -1, "internal");
        const enc = r.buckets;
        if (enc.starts.length === 0) continue;
        let from = 0;
        const prev = chunks.at(-1)?.enc;
        const last = prev ? prev.starts.length - 1 : -1;
        if (prev && prev.starts[last] === enc.starts[0]) {
          const merged = decodeAccs(aggs, prev, last), next = decodeAccs(aggs, enc, 0);
          merged.forEach((a, i) => mergeAcc(a, next[i], aggs[i].exact));
          storeAccs(aggs, prev, last, merged);
          from = 1;
        }
        // Every morsel's buckets are held until the last morsel is merged.
        charge(ctx, heldRowBytes(enc.starts.length, aggs.length + 1));
        if (from < enc.starts.length) chunks.push({ enc, from });
      }
    }
    if (spec.fill.length === 0) {
      const types = n.columns.map((c) => c.type);
      return {
        bucketer,
        buckets: new Map(),
        keys: new Map(),
        batches: () => unkeyedBatches(aggs, types, chunks, ctx),
      };
    }
    const partial = new Map<bigint, Acc[]>();
    for (const { enc, from } of chunks) {
      for (let b = from; b < enc.starts.length; b++) {
        if ((b & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
        partial.set(enc.starts[b], decodeAccs(aggs, enc, b));
      }
    }
    return await sampledOf(spec, aggs, partial, bucketer, ctx);
  }
  const { aggs } = keyed!;
  const keyCol = scan.columnIndexes[keyed!.key];
  const dict = snap.symbols(keyCol);
  const outTypes = n.columns.map((c) => c.type);
  let replies: AsyncGenerator<SampleByPartial> | undefined;
  if (firstTs !== undefined) {
    const job: SampleByJob = {
      kind: "keyed",
      spec: bare,
      firstTs,
      tsCol,
      keyCol,
      columnIndexes: [...scan.columnIndexes],
      scanTypes: scan.columns.map((c) => c.type),
      intervals: scan.intervals,
      measured,
      aggs,
      filters: keyed!.filters,
      outTypes,
      K: dict.size,
      sliceRows: sampleByTuning.workerSliceRows,
    };
    replies = await pool.sampleByPartials(job, snap, morsels, ctx);
    if (!replies) return undefined;
  }
  async function* batches(): AsyncGenerator<Batch> {
    if (!replies) return;
    const ready: Batch[] = [];
    // An edge bucket (at most one group per key) becomes a batch of its own, sized to it.
    const drain = (set: GroupSet) => {
      if (set.count === 0) return;
      const out = new Output(outTypes, aggs, dict, dict.size, Math.min(set.count, BATCH_ROWS_MAX));
      for (let g = 0; g < set.count;) {
        g = out.append(set, g, set.count);
        if (out.full || g === set.count) ready.push(out.take());
      }
    };
    const withDict = (b: Batch): Batch => ({
      rowCount: b.rowCount,
      columns: b.columns.map((c, i) => (i === 1 ? { ...c, dict } : c)),
    });
    let held: HeldBucket | undefined;
    for await (const r of replies) {
      if (r.kind !== "keyed") throw new SqlError("parallel SAMPLE BY: unexpected reply", -1, "internal");
      if (r.head) {
        const head = groupSetOf(r.head);
        if (held && held.start === r.head.start) held.addAll(head);
        else {
          if (held) drain(held);
          held = new HeldBucket(r.head.start, head.cols);
          held.addAll(head);
        }
      }
      // Only a head (or nothing): no bucket of the morsel ended, the held one may go on.
      if (!r.tail && r.batches.length === 0) continue;
      // The held bucket is complete (a morsel without a head began a bucket of its own): it,
      // then the morsel's inner buckets, then its tail held.
      if (held) drain(held);
      held = undefined;
      yield* ready.splice(0);
      for (const b of r.batches) yield withDict(b);
      if (r.tail) {
        const tail = groupSetOf(r.tail);
        held = new HeldBucket(r.tail.start, tail.cols);
        held.addAll(tail);
      }
      checkCancelled(ctx);
    }
    if (held) drain(held);
    yield* ready.splice(0);
  }
  return { bucketer, buckets: new Map(), keys: new Map(), batches };
}

/**
 * Cuts the row spans (in table order) into morsels of at most `morselRows` rows, equal in size
 * and, when there is more than one, as many as a multiple of the workers: each worker then
 * reduces the same number of rows (720K rows as 512K + 208K kept one worker busy 2.5 times as
 * long as the other).
 */
export function cutMorsels(
  spans: { p: number; lo: number; hi: number }[],
  morselRows: number,
  workers: number,
): SampleByMorsel[] {
  const total = spans.reduce((t, s) => t + s.hi - s.lo, 0);
  let count = Math.ceil(total / Math.max(1, morselRows));
  if (count > 1) count = Math.ceil(count / workers) * workers;
  const size = Math.ceil(total / Math.max(1, count));
  const morsels: SampleByMorsel[] = [];
  let open: SampleByMorsel | undefined, rows = 0;
  for (const { p, lo: from, hi: to } of spans) {
    for (let lo = from; lo < to;) {
      if (!open) {
        morsels.push(open = { pieces: [] });
        rows = 0;
      }
      const hi = Math.min(to, lo + size - rows);
      open.pieces.push({ p, lo, hi });
      rows += hi - lo;
      lo = hi;
      if (rows >= size) open = undefined;
    }
  }
  return morsels;
}

const FIELDS = ["sum", "min", "max", "first", "last"] as const;

/** Whether an aggregate's values travel as 64-bit integers (LONG/TIMESTAMP/DATE/INT columns). */
const wideOf = (a: FastAgg) => a.kind !== undefined && a.kind !== "f64" && a.kind !== "f32";

function encodeBuckets(env: UnkeyedEnv, partial: Map<bigint, Acc[]>): UnkeyedBuckets {
  const n = partial.size;
  const enc: UnkeyedBuckets = {
    starts: new BigInt64Array(n),
    rows: new Float64Array(n),
    aggs: env.aggs.map((a) => ({
      counts: new Float64Array(n),
      seen: new Uint8Array(n),
      // An exact sum (FastAgg.exact) may pass 2^63: its high word travels as a sixth array.
      values: [...FIELDS, ...(a.exact ? ["hi"] : [])].map(
        () => (wideOf(a) ? new BigInt64Array(n) : new Float64Array(n)),
      ),
    })),
  };
  let b = 0;
  for (const [start, accs] of partial) {
    enc.starts[b] = start;
    storeAccs(env.aggs, enc, b++, accs);
  }
  return enc;
}

/** Writes bucket `b`'s states into `enc` (NULL as LONG_NULL in 64-bit arrays, NaN in doubles). */
function storeAccs(aggs: FastAgg[], enc: UnkeyedBuckets, b: number, accs: Acc[]): void {
  enc.rows[b] = accs.length ? accs[0].rows : 0;
  for (let i = 0; i < aggs.length; i++) {
    const acc = accs[i], out = enc.aggs[i], v = out.values;
    out.counts[b] = acc.count;
    out.seen[b] = acc.seen ? 1 : 0;
    if (v[0] instanceof BigInt64Array) {
      // NULL travels as LONG_NULL for INT columns too: isNull reads a BigInt so.
      const nul = LONG_NULL;
      const sum = acc.count === 0 ? 0n : BigInt(acc.sum);
      v[0][b] = BigInt.asIntN(64, sum);
      if (aggs[i].exact) v[5][b] = sum >> 64n;
      v[1][b] = acc.min === null ? nul : BigInt(acc.min);
      v[2][b] = acc.max === null ? nul : BigInt(acc.max);
      v[3][b] = acc.first === null ? nul : BigInt(acc.first);
      v[4][b] = acc.last === null ? nul : BigInt(acc.last);
    } else {
      v[0][b] = acc.count === 0 ? 0 : acc.sum as number;
      v[1][b] = acc.min === null ? NaN : acc.min as number;
      v[2][b] = acc.max === null ? NaN : acc.max as number;
      v[3][b] = acc.first === null ? NaN : acc.first as number;
      v[4][b] = acc.last === null ? NaN : acc.last as number;
    }
  }
}

/**
 * The result rows of the merged chunks (no FILL), column by column from their typed arrays:
 * an object per bucket and aggregate, as the Map of `sampledOf` needs, cost the main thread
 * ~1 µs a bucket (SAMPLE BY 1m over 10M rows is 432K buckets).
 */
async function* unkeyedBatches(
  aggs: FastAgg[],
  types: ColumnType[],
  chunks: { enc: UnkeyedBuckets; from: number }[],
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  let data: VectorData[] = [], rows = 0;
  const take = (): Batch => {
    const columns = types.map((type, c) => ({
      type,
      data: rows === BATCH_ROWS_MAX ? data[c] : (data[c] as Float64Array).slice(0, rows) as VectorData,
    }));
    const batch = { rowCount: rows, columns };
    data = [];
    rows = 0;
    return batch;
  };
  for (const { enc, from } of chunks) {
    for (let b = from; b < enc.starts.length; b++) {
      if ((b & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      if (rows === 0) data = types.map((t) => allocVectorData(t, BATCH_ROWS_MAX));
      (data[0] as BigInt64Array)[rows] = enc.starts[b];
      for (let i = 0; i < aggs.length; i++) {
        writeValue(types[1 + i], data[1 + i], rows, finishAt(aggs[i], enc, i, b));
      }
      if (++rows === BATCH_ROWS_MAX) yield take();
    }
  }
  if (rows > 0) yield take();
}

const FIELD_AT = { min: 1, max: 2, first: 3, last: 4 } as const;

/** Aggregate `i` of bucket `b`, as `finish` in sample_by_fast.ts answers it from an Acc. */
function finishAt(a: FastAgg, enc: UnkeyedBuckets, i: number, b: number): Value {
  const e = enc.aggs[i], count = e.counts[b];
  switch (a.fn) {
    case "count":
      return BigInt(a.col < 0 && a.filter === undefined ? enc.rows[b] : count);
    case "sum":
      return count === 0 ? null : typed(a.returns, e.values[0][b]);
    case "avg":
      return count === 0 ? null : Number(a.exact ? exactAt(e.values, b) : e.values[0][b]) / count;
    default: {
      const x = e.values[FIELD_AT[a.fn]][b], kind = a.kind ?? "f64";
      return isNull(x, kind) ? null : typed(a.returns, kind === "i32" ? Number(x) : x);
    }
  }
}

/** An exact sum from its two words: the low in `values[0]`, the high in `values[5]`. */
function exactAt(values: (Float64Array | BigInt64Array)[], b: number): bigint {
  return ((values[5][b] as bigint) << 64n) + BigInt.asUintN(64, values[0][b] as bigint);
}

function decodeAccs(aggs: FastAgg[], enc: UnkeyedBuckets, b: number): Acc[] {
  const out: Acc[] = new Array(aggs.length);
  for (let i = 0; i < aggs.length; i++) {
    const e = enc.aggs[i], v = e.values;
    const kind = aggs[i].kind ?? "f64";
    // An i32 column's min/max/first/last are numbers on one heap; its sum a 64-bit integer.
    const get = (k: number) => {
      const x = v[k][b];
      return isNull(x, kind) ? null : kind === "i32" ? Number(x) : x;
    };
    out[i] = {
      rows: enc.rows[b],
      count: e.counts[b],
      sum: e.counts[b] === 0 ? 0 : aggs[i].exact ? exactAt(v, b) : v[0][b],
      min: get(1),
      max: get(2),
      first: get(3),
      last: get(4),
      seen: e.seen[b] === 1,
    };
  }
  return out;
}

function groupSetOf(e: EdgeBucket): GroupSet {
  return { count: e.count, bucket: () => e.start, slot: e.slot, rows: e.rows, cols: e.cols };
}

// ---- on a worker heap ----

/** Reduces one morsel of `snap` (a worker's snapshot of the statement's committed state). */
export async function sampleByPartialOf(
  job: SampleByJob,
  snap: TableSnapshot,
  m: SampleByMorsel,
): Promise<SampleByPartial> {
  if (job.kind === "unkeyed") {
    const partial = new Map<bigint, Acc[]>();
    const scratch = new Scratch();
    try {
      await accumulatePieces(job.env, snap, m.pieces, partial, {
        bucketer: bucketerOf(job.env.spec, job.firstTs),
      }, scratch);
    } finally {
      scratch.release();
    }
    return { kind: "unkeyed", buckets: encodeBuckets(job.env, partial) };
  }
  return await keyedMorsel(job, snap, m);
}

async function keyedMorsel(
  job: Extract<SampleByJob, { kind: "keyed" }>,
  snap: TableSnapshot,
  m: SampleByMorsel,
): Promise<SampleByPartial> {
  const { spec, K } = job;
  const mem = wasmMemory();
  const bucketer = bucketerOf(spec, job.firstTs);
  const env: AccEnv = {
    bucketer,
    stride: fixedStrideTicks(spec) ?? 28n * 86_400_000_000n,
    K,
    kindOf: (c: number): MeasureKind => KIND[job.scanTypes[c].tag]!,
    aggs: job.aggs,
    filters: job.filters,
  };
  const out = new Output(job.outTypes, job.aggs, undefined, K);
  const batches: Batch[] = [];
  const drain = (set: GroupSet, from: number, to: number) => {
    for (let g = from; g < to;) {
      g = out.append(set, g, to);
      if (out.full) batches.push(out.take());
    }
  };
  // The morsel's first bucket is held apart when it may continue the previous morsel's last,
  // and so is its last when the next morsel may continue it; the buckets between are written
  // out. A bucket that starts or ends at the morsel's edge is written out too (`edges`).
  let head: EdgeBucket | undefined;
  let headTaken = false, lastFinal = false;
  const acc = new KeyedAcc(env, () => new FastPathUnavailable());
  try {
    for (let k = 0; k < m.pieces.length; k++) {
      const { p, lo, hi } = m.pieces[k];
      const ranges = (await partitionRanges(snap, p, job.intervals))
        .map(([a, b]): [number, number] => [Math.max(a, lo), Math.min(b, hi)])
        .filter(([a, b]) => b > a);
      if (!ranges.length) continue;
      const region = async (c: number) => {
        const r = await snap.region(p, c);
        if (!r) throw new FastPathUnavailable();
        return r;
      };
      const tsRegion = await region(job.tsCol);
      const keyRegion = await region(job.keyCol);
      const data = new Map<number, number>();
      for (const c of job.measured) data.set(c, (await region(job.columnIndexes[c])).ptr);
      const rowCount = tsRegion.rowCount;
      const absMax = new Map<number, number>();
      for (const c of acc.exactColumns()) {
        absMax.set(c, absMaxOf(snap, p, job.columnIndexes[c], data.get(c)!, rowCount));
      }
      const edges = bucketEdges(snap, p, mem.i64(tsRegion.ptr, rowCount), lo, hi, bucketer);
      if (k === 0) headTaken = edges.startsBucket;
      if (k === m.pieces.length - 1) lastFinal = edges.endsBucket;
      for (let [from, to] of ranges) {
        const ts = mem.i64(tsRegion.ptr, rowCount);
        if (bucketer.first !== undefined) {
          from = lowerBound(ts, bucketer.rowsFrom ?? bucketer.first, from, to);
        }
        if (spec.to !== undefined) to = lowerBound(ts, boundTicks(spec, spec.to), from, to);
        for (let a = from; a < to;) {
          const b = Math.min(to, a + job.sliceRows);
          acc.add({ ts: tsRegion.ptr, keys: keyRegion.ptr, rowCount, data, absMax }, a, b);
          const done = acc.complete();
          if (done > 0) {
            let g = 0;
            if (!headTaken) {
              // The accumulator's first bucket (id 0) is the morsel's head.
              while (g < done && acc.bucketIdOf(g) === 0) g++;
              head = acc.copy(0, g);
              headTaken = true;
            }
            drain(acc.view(done), g, done);
            acc.drop(done);
          }
          a = b;
        }
      }
      snap.releasePartition?.(p);
    }
    // No bucket ended inside the morsel and its first may continue the previous morsel's last:
    // all of it is the head.
    if (!headTaken) {
      if (out.rows > 0) batches.push(out.take());
      return { kind: "keyed", head: acc.count > 0 ? acc.copy(0, acc.count) : undefined, batches };
    }
    if (lastFinal && acc.count > 0) {
      drain(acc.view(), 0, acc.count);
      acc.drop(acc.count);
    }
    if (out.rows > 0) batches.push(out.take());
    const last = acc.count > 0 ? acc.copy(0, acc.count) : undefined;
    return { kind: "keyed", head, batches, tail: last };
  } finally {
    acc.dispose();
  }
}

/**
 * Whether rows [lo, hi) of partition `p` (timestamps `ts`) begin a bucket no row before them
 * in table order belongs to, and end one no later row belongs to. Rows are in time order and
 * buckets ascend with time, so comparing with the neighbouring rows (or the neighbouring
 * partitions' first and last timestamps) decides it whichever rows the neighbouring morsels
 * hold: a morsel's bucket that starts or ends at its edge is written out on the worker
 * instead of travelling as an edge bucket for the main thread to merge (TSBS double-groupby:
 * 12 hours cut into two morsels of 6, each edge 1,000 groups).
 */
export function bucketEdges(
  snap: { partitions: readonly { rowCount: number; minTs: bigint; maxTs: bigint }[] },
  p: number,
  ts: BigInt64Array,
  lo: number,
  hi: number,
  bucketer: Pick<Bucketer, "floor">,
): { startsBucket: boolean; endsBucket: boolean } {
  const parts = snap.partitions;
  let before: bigint | undefined, after: bigint | undefined;
  if (lo > 0) before = ts[lo - 1];
  else {
    for (let q = p - 1; q >= 0 && before === undefined; q--) {
      if (parts[q].rowCount > 0) before = parts[q].maxTs;
    }
  }
  if (hi < ts.length) after = ts[hi];
  else {
    for (let q = p + 1; q < parts.length && after === undefined; q++) {
      if (parts[q].rowCount > 0) after = parts[q].minTs;
    }
  }
  return {
    startsBucket: before === undefined || bucketer.floor(before) !== bucketer.floor(ts[lo]),
    endsBucket: after === undefined || bucketer.floor(after) !== bucketer.floor(ts[hi - 1]),
  };
}

/** The buffers of a keyed partial's output batches, moved to the main thread instead of copied. */
export function sampleByTransfers(partial: SampleByPartial): ArrayBuffer[] {
  if (partial.kind !== "keyed") {
    const { starts, rows, aggs } = partial.buckets;
    return [starts, rows, ...aggs.flatMap((a) => [a.counts, a.seen, ...a.values])].map((x) =>
      x.buffer as ArrayBuffer
    );
  }
  const buffers = new Set<ArrayBuffer>();
  for (const b of partial.batches) {
    for (const c of b.columns) {
      if (ArrayBuffer.isView(c.data) && c.data.buffer instanceof ArrayBuffer) buffers.add(c.data.buffer);
    }
  }
  return [...buffers];
}
