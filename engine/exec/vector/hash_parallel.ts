/**
 * The vectorized hash aggregation over a table scan as morsels on the worker heaps (issue #17):
 * each morsel (a partition's row range) is filtered and grouped on a worker into a partial hash
 * table (key values per group, and per aggregate a count and a partial value in typed arrays,
 * transferred back), and the main thread merges the partials in morsel order. Morsels are
 * contiguous row ranges in table order and each partial lists its groups in first-appearance
 * order, so the merged groups come out in the order the single-heap operator
 * (hash_aggregate.ts, hash_distinct.ts) gives.
 *
 * The shape: an aggregate (the `hash` or `columnar` operator) or a SELECT DISTINCT over a
 * forward table scan, through filters and projections; keys, aggregate arguments, WHERE and
 * FILTER clauses are plain columns or expressions with a batch form (batch_expr.ts), which the
 * workers evaluate themselves (the expressions travel as plain data: expr_ship.ts). Aggregates
 * count(*)/count/sum/avg/min/max and count(DISTINCT x); no keys (one group) or any number of
 * keys of the types KeyIds groups. Other aggregates (first, stddev, string_agg, ...) and
 * expressions without a batch form stay on the main thread.
 *
 * The choice is made per plan (`markParallelHash`, called by the engine after column pruning,
 * before EXPLAIN prints and before execution), so EXPLAIN shows `[vectorized hash, parallel N]`
 * (`Distinct [vectorized hash, parallel N]`) exactly when the operator runs on N workers.
 * While the workers run, the main thread only waits on messages: its event loop serves other
 * clients.
 *
 * What runs on a worker is `hashPartialOf`, plain data in and out (the job and the morsel);
 * avg travels as its double sum and count, integer sums as exact 64-bit sums, count(DISTINCT x) as the
 * morsel's distinct (group, value) pairs.
 */
import { keyText } from "../../base/key_text.ts";
import { BATCH_ROWS_MAX } from "../../base/limits.ts";
import { type ColumnType, T } from "../../base/types.ts";
import {
  allocVectorData,
  type Batch,
  type Interval,
  LONG_NULL,
  nullValueOf,
  type SymbolDict,
  type Value,
  type Vector,
  type VectorData,
  writeValue,
  zeroedVectorData,
} from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import { conjuncts } from "../../plan/intervals_from_where.ts";
import { forEachPlanNode, type PlanNode } from "../../plan/plan_node.ts";
import type { Storage, TableSnapshot } from "../../storage/api.ts";
import { gather, gatherData, rowsToBatches } from "../batch_util.ts";
import { charge, checkCancelled, type ExecContext, pace, paceDue, snapshotOf } from "../exec_context.ts";
import { kernelSelect } from "../filter.ts";
import { type Pred, predicateOf } from "../kernel_predicates.ts";
import { partitionRanges } from "../scan.ts";
import { FastPathUnavailable } from "../wasm_scratch.ts";
import { NativeAgg, type NativeFn, nativeFnOf } from "./agg_states.ts";
import { DenseGroups, type DenseKey, denseKeyOf, denseSlots } from "./dense_groups.ts";
import { batchMask, batchSelect } from "./batch_eval.ts";
import {
  columnsOf,
  inline,
  rebind,
  shipExpr,
  shippable,
  ShippedCodeDict,
  shippedExecContext,
  type ShippedExpr,
  shippedSymbolCodes,
  type SymbolCodes,
} from "./expr_ship.ts";
import { isDistinct, vectorOf } from "./hash_aggregate.ts";
import { IntPairHash } from "./int_hash.ts";
import { PairSet } from "./pair_set.ts";
import { KeyIds } from "./key_ids.ts";
import { manyGroupsOf } from "./group_estimate.ts";
import { aggregateOp, distinctOp } from "./physical.ts";
import {
  buildJoinSpec,
  fewJoinGroups,
  joinedBatches,
  joinShapeOf,
  type JoinSpec,
  markParallelProbe,
} from "./join_parallel.ts";
import { runPlan } from "../run_plan.ts";
import { markParallelSetOp } from "./setop_parallel.ts";
import { keyHashes } from "./key_hash.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;
type DistinctNode = Extract<PlanNode, { kind: "distinct" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;
type JoinNode = Extract<PlanNode, { kind: "join" }>;

const KEY_TAGS = new Set([
  "SYMBOL",
  "STRING",
  "VARCHAR",
  "CHAR",
  "BOOLEAN",
  "BYTE",
  "SHORT",
  "INT",
  "LONG",
  "DATE",
  "TIMESTAMP",
  "FLOAT",
  "DOUBLE",
]);
/** Argument types whose vectors the native states read as typed arrays. */
const ARG_TAGS = new Set(["BYTE", "SHORT", "INT", "LONG", "DATE", "TIMESTAMP", "FLOAT", "DOUBLE"]);
const WIDE_TAGS = new Set(["LONG", "DATE", "TIMESTAMP", "TIMESTAMP_NS"]);

/** One aggregate of a job: its native form over an argument (absent: count(*)). */
export interface HashJobAgg {
  fn: NativeFn;
  arg?: ShippedExpr;
  /** The FILTER clause. */
  filter?: ShippedExpr;
  argTag?: string;
  returns: ColumnType;
  /** The partial value is a 64-bit integer (BigInt64Array) rather than a double. */
  wide: boolean;
}

/** What a worker needs to group a morsel: plain, structured-cloneable data. */
export interface HashJob {
  /** Table column index of each scan column. */
  columnIndexes: number[];
  types: ColumnType[];
  intervals?: Interval[];
  /** WHERE conditions over the scan columns, all of which a row must meet. */
  filters: ShippedExpr[];
  /** The grouping keys over the scan columns (none: one group). */
  keys: ShippedExpr[];
  aggs: HashJobAgg[];
  symbols: SymbolCodes[];
  /** The session's time zone, for the row path of a batch the loops decline. */
  timeZone: string;
  /** Slots of each key when the plan chose dense keys (dense_groups.ts) and they fit now. */
  dense?: DenseKey[];
  /**
   * The scan is the left input of this hash join (join_parallel.ts): the columns above are the
   * join's (`columnIndexes` of the right ones negative), each morsel is probed first.
   */
  join?: JoinSpec;
}

/**
 * Consecutive row ranges of the snapshot, in table order: rows [lo, hi) of partition `p`
 * (further narrowed by the job's intervals). Small partitions share a morsel, so a worker's
 * fixed cost per morsel (a snapshot, fresh hash tables, a message) is paid per ~256K rows.
 */
export interface Morsel {
  pieces: { p: number; lo: number; hi: number }[];
}

/**
 * The morsels of `snap` for a scan with these intervals: consecutive row ranges in table order
 * of `size` rows each (partitions the intervals miss and empty ones left out; a large
 * partition spans several morsels, small ones share one).
 */
export function morselsOf(snap: TableSnapshot, intervals: Interval[] | undefined, size: number): Morsel[] {
  const morsels: Morsel[] = [];
  let open: Morsel | undefined, rows = 0;
  snap.partitions.forEach((p, i) => {
    if (p.rowCount === 0) return;
    if (intervals && !intervals.some((iv) => iv.hi >= p.minTs && iv.lo <= p.maxTs)) return;
    for (let lo = 0; lo < p.rowCount;) {
      if (!open) {
        morsels.push(open = { pieces: [] });
        rows = 0;
      }
      const hi = Math.min(p.rowCount, lo + size - rows);
      open.pieces.push({ p: i, lo, hi });
      rows += hi - lo;
      lo = hi;
      if (rows >= size) open = undefined;
    }
  });
  return morsels;
}

/**
 * On a worker heap: the batches of one morsel's rows the intervals keep, with only the scan
 * columns `cols` read; a SYMBOL column carries its stand-in dictionary from `dicts`.
 */
export async function* morselBatches(
  snap: TableSnapshot,
  m: Morsel,
  scan: { intervals?: Interval[]; types: ColumnType[]; columnIndexes: number[] },
  cols: Set<number>,
  dicts: Map<number, SymbolDict>,
): AsyncGenerator<Batch> {
  for (const piece of m.pieces) {
    const ranges = (await partitionRanges(snap, piece.p, scan.intervals))
      .map(([a, b]): [number, number] => [Math.max(a, piece.lo), Math.min(b, piece.hi)])
      .filter(([a, b]) => b > a);
    for (const [from, to] of ranges) {
      for (let at = from; at < to; at += BATCH_ROWS_MAX) {
        const end = Math.min(to, at + BATCH_ROWS_MAX);
        const columns: Vector[] = new Array(scan.types.length);
        for (const c of cols) {
          const v = await snap.read(piece.p, scan.columnIndexes[c], at, end);
          columns[c] = scan.types[c].tag === "SYMBOL"
            ? { type: T.SYMBOL, data: v.data, dict: dicts.get(c) }
            : v;
        }
        yield { rowCount: end - at, columns };
      }
    }
  }
}

/**
 * The groups of one morsel: per key, the key value of each group as vector data of the key's
 * type (SYMBOL columns as dictionary codes, which the main snapshot's dictionary reads), so the
 * main thread's KeyIds map them with their typed loops; per aggregate, the non-NULL rows and the
 * partial value of each group (sum, min or max; absent for counts); per count(DISTINCT x), the
 * morsel's distinct pairs as a group and a value each.
 */
export interface HashPartial {
  groups: number;
  keys: VectorData[];
  counts: Float64Array[];
  values: (Float64Array | BigInt64Array | undefined)[];
  distinct?: ({ groups: Int32Array; values: VectorData } | undefined)[];
  /**
   * A radix job's: each group's first row (its morsel's index times 2^32 plus its ordinal
   * among the morsel's rows the WHERE keeps).
   */
  firsts?: Float64Array;
  /** A radix partition's final groups: each aggregate's result column (`finishedColumn`). */
  finished?: VectorData[];
}

/** The worker side of a pool, as the executor sees it (engine/parallel/worker_pool.ts). */
export interface ParallelHash {
  readonly workers: number;
  /** Rows a table must hold for a hash aggregation over it to go to the workers. */
  readonly hashRowsMin: number;
  /** Partials of every morsel in order, or undefined when the workers cannot run it. */
  hashPartials(job: HashJob, snap: TableSnapshot, ctx: ExecContext): Promise<HashPartial[] | undefined>;
  /**
   * The final groups of each hash partition of a radix job (hash_radix.ts), each in
   * first-row order with its first rows, or undefined when the workers cannot run it.
   */
  radixPartials(job: HashJob, snap: TableSnapshot, ctx: ExecContext): Promise<HashPartial[] | undefined>;
}

/** An aggregate of a shape, in bound form over the scan's columns. */
interface ShapeAgg {
  fn: NativeFn;
  arg?: BoundExpr;
  filter?: BoundExpr;
  returns: ColumnType;
}

/** What the workers run, in bound form over the scan's columns (decided at plan time). */
interface Shape {
  scan: ScanNode;
  /** A hash join between the aggregate and the scan (its left input), probed on the workers. */
  join?: JoinNode;
  /**
   * GROUP BY over UNION ALL of two inputs: each side's shape (this shape is the left one's);
   * the morsels of both sides' scans run and their partials merge left before right.
   */
  union?: Shape[];
  filters: BoundExpr[];
  keys: BoundExpr[];
  aggs: ShapeAgg[];
}

const shapes = new WeakMap<PlanNode, Shape | null>();

/**
 * The shape of an aggregate or DISTINCT over a scan the workers can run, or undefined (the
 * group estimate samples these; shapes over a join are left out).
 */
export function parallelHashShape(n: AggregateNode | DistinctNode): Shape | undefined {
  const s = shapeFor(n);
  return s?.join || s?.union ? undefined : s;
}

/** The shape of an aggregate or DISTINCT the workers can run (over a scan or a join), or undefined. */
function shapeFor(n: AggregateNode | DistinctNode): Shape | undefined {
  let s = shapes.get(n);
  if (s === undefined) {
    s = shapeOf(n) ?? unionShapeOf(n) ?? null;
    shapes.set(n, s);
  }
  return s ?? undefined;
}

/**
 * An aggregate right over UNION ALL whose sides each fit as the same aggregate over that side
 * (no count(DISTINCT): its pairs would need one value encoding across tables). SYMBOL keys
 * (also those the planner cast to text: two tables' symbols) group by code on the workers and
 * by text at the merge, each side's partials with its own table's dictionary.
 */
function unionShapeOf(n: AggregateNode | DistinctNode): Shape | undefined {
  const u = n.input;
  if (n.kind !== "aggregate" || u.kind !== "setop" || u.op !== "union" || !u.all) return undefined;
  // The WASM kernels may read the union branch by branch (union_aggregate.ts).
  const op = aggregateOp(n);
  if (op !== "hash" && op !== "columnar") return undefined;
  const sides = [u.left, u.right].map((input) => shapeOf({ ...n, input }, true));
  const [l, r] = sides;
  if (!l || !r || l.join || r.join) return undefined;
  if (l.aggs.some((a) => a.fn === "countDistinct")) return undefined;
  return { ...l, union: [l, r] };
}

/**
 * Whether each side of a union shape has few groups a morsel: its keys have small known
 * domains (SYMBOL columns, also cast to text, by their dictionaries; dense_groups.ts
 * `denseKeyOf`). The group estimate (group_estimate.ts) samples single scans only.
 */
function fewUnionGroups(sides: Shape[], storage: Storage): boolean {
  return sides.every((side) => {
    const snap = storage.table(side.scan.table)?.snapshot();
    if (!snap) return false;
    try {
      const size = (c: number) => snap.symbols(side.scan.columnIndexes[c]).size;
      let slots = 1;
      for (const k of side.keys) {
        const sym = k.kind === "cast" && k.arg.kind === "column" && k.arg.type.tag === "SYMBOL" ? k.arg : k;
        const d = denseKeyOf(sym, size);
        if (!d) return false;
        slots *= d.slots;
      }
      return slots <= UNION_GROUPS_MAX;
    } finally {
      snap.release();
    }
  });
}

/** Group slots of a union shape's keys beyond which it stays on the main thread. */
const UNION_GROUPS_MAX = 16_384;

function shapeOf(n: AggregateNode | DistinctNode, symbolCasts = false): Shape | undefined {
  let keys: BoundExpr[];
  let aggs: ShapeAgg[] = [];
  if (n.kind === "distinct") {
    if (distinctOp(n) !== "hash") return undefined;
    keys = n.input.columns.map((c, index): BoundExpr => ({ kind: "column", type: c.type, index }));
  } else {
    const op = aggregateOp(n);
    if (op !== "hash" && op !== "columnar") return undefined;
    keys = n.keys;
    for (const a of n.aggs) {
      if (a.args.length > 1) return undefined;
      const arg = a.args[0];
      const fn = nativeFnOf(a.name, arg?.type, isDistinct(a));
      if (!fn) return undefined;
      const tags = fn === "countDistinct" ? KEY_TAGS : ARG_TAGS;
      if (arg && !tags.has(arg.type.tag)) return undefined;
      aggs.push({ fn, arg, filter: a.filter, returns: a.binding.returns });
    }
  }
  // A union side's key cast from SYMBOL to text groups as the symbol: its texts are the same
  // values (the merge reads them through the side's dictionary).
  const uncast = (k: BoundExpr) =>
    symbolCasts && k.kind === "cast" && (k.type.tag === "STRING" || k.type.tag === "VARCHAR") &&
      k.arg.kind === "column" && k.arg.type.tag === "SYMBOL"
      ? k.arg
      : k;
  // Down to the scan: filters are kept, projections are inlined into what is above them.
  const filters: BoundExpr[] = [];
  let input = n.input;
  for (;;) {
    if (input.kind === "filter") {
      filters.push(input.predicate);
      input = input.input;
    } else if (input.kind === "project") {
      const exprs = input.exprs;
      keys = keys.map((k) => inline(k, exprs));
      aggs = aggs.map((a) => ({
        ...a,
        arg: a.arg && inline(a.arg, exprs),
        filter: a.filter && inline(a.filter, exprs),
      }));
      for (let i = 0; i < filters.length; i++) filters[i] = inline(filters[i], exprs);
      input = input.input;
    } else break;
  }
  let join: JoinNode | undefined;
  if (input.kind === "join") {
    const j = joinShapeOf(input);
    if (!j) return undefined;
    join = j.join;
    if (j.condition) filters.push(j.condition);
    input = j.scan;
  }
  if (input.kind !== "scan" || input.reverse) return undefined;
  const scan = input;
  keys = keys.map(uncast);
  for (const k of keys) {
    if (k.kind === "column" ? !KEY_TAGS.has(k.type.tag) : !shippable(k, "value")) return undefined;
  }
  for (const a of aggs) {
    if (a.arg && !shippable(a.arg, "value")) return undefined;
    if (a.filter && !shippable(a.filter, "mask")) return undefined;
  }
  if (!filters.every((f) => shippable(f, "select"))) return undefined;
  return { scan, join, filters, keys, aggs };
}

/** The job of `shape` for this execution over `snap`. */
function jobOf(
  shape: Shape,
  ctx: ExecContext,
  snap: TableSnapshot,
  dense: boolean,
  join?: { spec: JoinSpec; dicts: (SymbolDict | undefined)[] },
): HashJob {
  const ship = (e: BoundExpr) => shipExpr(e, ctx.params);
  const { scan } = shape;
  const right = shape.join?.right.columns ?? [];
  const job: HashJob = {
    columnIndexes: [...scan.columnIndexes, ...right.map((_, j) => -1 - j)],
    types: [...scan.columns, ...right].map((c) => c.type),
    intervals: scan.intervals,
    filters: shape.filters.map(ship),
    keys: shape.keys.map(ship),
    aggs: shape.aggs.map((a) => {
      const argTag = a.arg?.type.tag;
      // avg's partial is its double sum, whatever the argument (agg_states.ts adds it so).
      const wide = (a.fn === "sum" || a.fn === "min" || a.fn === "max") && WIDE_TAGS.has(a.returns.tag);
      return {
        fn: a.fn,
        arg: a.arg && ship(a.arg),
        filter: a.filter && ship(a.filter),
        argTag,
        returns: a.returns,
        wide,
      };
    }),
    symbols: [],
    timeZone: ctx.evalContext.timeZone,
    dense: dense ? denseOf(shape, snap) : undefined,
    join: join?.spec,
  };
  job.symbols = shippedSymbolCodes(
    [...job.filters, ...job.keys, ...job.aggs.flatMap((a) => [a.arg, a.filter])],
    job,
    join ? joinedSymbols(snap, join.dicts) : snap,
  );
  return job;
}

/**
 * `snap` whose negative column indexes are the join's right columns (-1 - j: right column j),
 * whose SYMBOL codes are in `dicts[j]`.
 */
function joinedSymbols(snap: TableSnapshot, dicts: (SymbolDict | undefined)[]): TableSnapshot {
  return {
    symbols: (index: number) => index >= 0 ? snap.symbols(index) : dicts[-1 - index] ?? unavailable(),
  } as TableSnapshot;
}

/**
 * Rows of the partitions a scan with these intervals reads: a six-hour interval of a 10M-row
 * table is a few hundred thousand rows, which the main thread groups faster than a round trip.
 */
function scannedRows(snap: TableSnapshot, intervals: Interval[] | undefined): number {
  let rows = 0;
  for (const p of snap.partitions) {
    if (!intervals || intervals.some((iv) => iv.hi >= p.minTs && iv.lo <= p.maxTs)) rows += p.rowCount;
  }
  return rows;
}

/** Workers each parallel aggregate or DISTINCT node runs on, as chosen for its plan. */
const chosen = new WeakMap<PlanNode, number>();
/** Parallel nodes whose plan chose dense keys (dense_groups.ts). */
const denseChosen = new WeakSet<PlanNode>();

/** Stand-in bind values for the plan-time compile of the fused loop. */
const PARAMS_PROBE: readonly unknown[] = new Array(64).fill(null);

/**
 * The dense keys of `shape` over `snap` (SYMBOL sizes read from it), or undefined when a key has
 * no small domain, the slots pass DENSE_SLOTS_MAX, or an aggregate has no fused form
 * (count(DISTINCT)).
 */
function denseOf(shape: Shape, snap: TableSnapshot): DenseKey[] | undefined {
  // Global aggregates (no keys) are the partition-statistics and kernel paths' (fast_aggregate.ts).
  if (shape.keys.length === 0 || shape.join || shape.union) return undefined;
  if (shape.aggs.some((a) => a.fn === "countDistinct")) return undefined;
  const dense: DenseKey[] = [];
  for (const k of shape.keys) {
    const d = denseKeyOf(k, (c) => snap.symbols(shape.scan.columnIndexes[c]).size);
    if (!d) return undefined;
    dense.push(d);
  }
  if (denseSlots(dense) === Infinity) return undefined;
  return dense;
}

/**
 * Marks the aggregates and DISTINCTs of `plan` that run on the workers: the shape fits, the
 * pool has workers and the partitions it scans hold at least `hashRowsMin` rows now. The machine's load is
 * not consulted: on a busy machine the workers ran about as fast as the main thread (faster
 * from 1M rows, docs/parallel.md), and only on the workers does the main thread stay free for
 * other clients, which is what matters most when the machine is busy (issue #17). A DISTINCT
 * right under a LIMIT stays on the main thread, which stops reading once it has the rows. A
 * plan kept by a statement cache keeps its choice.
 */
export function markParallelHash(plan: PlanNode, pool: ParallelHash | undefined, storage: Storage): void {
  if (!pool || pool.workers === 0) return;
  forEachPlanNode(plan, (n, parent) => {
    if (n.kind === "aggregate" || (n.kind === "distinct" && parent?.kind !== "limit")) {
      const shape = shapeFor(n);
      if (shape) {
        const snap = storage.table(shape.scan.table)?.snapshot();
        let rows = snap ? scannedRows(snap, shape.scan.intervals) : 0;
        const dense = snap && rows >= pool.hashRowsMin ? denseOf(shape, snap) : undefined;
        // A join's groups are not estimated (group_estimate.ts samples scans): few by their keys.
        const few = !shape.join || (snap !== undefined &&
          fewJoinGroups(shape.keys, shape.join, (c) => snap.symbols(shape.scan.columnIndexes[c]).size));
        snap?.release();
        if (shape.union) {
          const right = storage.table(shape.union[1].scan.table)?.snapshot();
          if (right) rows += scannedRows(right, shape.union[1].scan.intervals);
          right?.release();
          if (!fewUnionGroups(shape.union, storage)) rows = 0;
        }
        // About a group per row in a morsel (group_estimate.ts): the main thread groups it.
        if (rows >= pool.hashRowsMin && !manyGroupsOf(n) && few) {
          chosen.set(n, pool.workers);
          if (shape.join) markParallelProbe(shape.join);
        } else if (
          rows >= pool.hashRowsMin && manyGroupsOf(n) && pool.workers >= partitionTuning.workersMin &&
          partitionable(n, shape)
        ) {
          // About a group per row: radix aggregation (hash_radix.ts), each hash partition of
          // the rows grouped whole on one worker, so no merge of all groups on this thread.
          chosen.set(n, pool.workers);
          partitionedChosen.add(n);
        }
        const fused = dense && !partitionedChosen.has(n) &&
          DenseGroups.create(shape.keys, dense, denseAggs(shape.aggs), PARAMS_PROBE, 1);
        if (fused) denseChosen.add(n);
      }
    }
    // UNION/INTERSECT/EXCEPT of two large scans: hash partitions on the workers (setop_parallel.ts).
    if (n.kind === "setop" && markParallelSetOp(n, storage, pool.hashRowsMin)) chosen.set(n, pool.workers);
  });
}

/**
 * `workersMin`: workers a pool needs for many-group shapes to run as radix aggregation (below
 * it they group on one heap). Each row is grouped once, by the worker of its partition, but it
 * is also read, hashed and copied into a packet (~22 ns a row) and the grouping itself costs a
 * worker about what it costs one heap (~45 ns a row), so two workers end about where one heap
 * does. Measured on the 2-core machine (10M trades, load ~4, medians of 5, server CPU / wall
 * ms): GROUP BY qty, symbol 880 / 484 radix vs 450 / 483 one heap, DISTINCT symbol, qty 730 /
 * 401 vs 340 / 371 (a two-phase form that merged each worker's groups per partition on a second
 * pass: 1,100 / 1,230 vs 510 / 930 at load 7). From four workers the rows a worker groups and
 * packs fall to a quarter. Tests set it to 2.
 */
export const partitionTuning = { workersMin: 4 };

/** Parallel nodes the plan runs as radix aggregation (EXPLAIN: `radix N`). */
const partitionedChosen = new WeakSet<PlanNode>();

/** Whether the plan runs this parallel node as radix aggregation (hash_radix.ts). */
export function partitionedOf(n: PlanNode): boolean {
  return partitionedChosen.has(n);
}

/**
 * Whether a shape can run as radix aggregation: a plain scan (no join or union), some
 * keys, each of its output column's type, a SYMBOL key a plain column (its codes read the
 * scan's dictionary).
 */
function partitionable(n: AggregateNode | DistinctNode, shape: Shape): boolean {
  if (shape.join || shape.union || shape.keys.length === 0) return false;
  return shape.keys.every((k, i) =>
    n.columns[i].type.tag === k.type.tag && (k.type.tag !== "SYMBOL" || k.kind === "column")
  );
}

/** Workers the plan chose for this node (0: it runs on the main thread). */
export function parallelOf(n: PlanNode): number {
  return chosen.get(n) ?? 0;
}

/** Whether the plan chose dense keys for this parallel node (EXPLAIN: `dense keys`). */
export function denseKeysOf(n: PlanNode): boolean {
  return denseChosen.has(n);
}

/** The aggregates of a shape or job as the fused loop takes them. */
function denseAggs(aggs: { fn: NativeFn; arg?: BoundExpr; filter?: BoundExpr; returns: ColumnType }[]) {
  return aggs.map((a) => ({
    fn: a.fn,
    arg: a.arg,
    filter: a.filter,
    returns: a.returns,
    wide: (a.fn === "sum" || a.fn === "min" || a.fn === "max") && WIDE_TAGS.has(a.returns.tag),
  }));
}

// ---- on a worker heap ----

/** A count(DISTINCT x) of a morsel: the (group, value id) pairs seen, in first-seen order. */
class DistinctPairs {
  readonly ids = new KeyIds();
  readonly pairs = new PairSet();
  readonly groups: number[] = [];
  readonly valueIds: number[] = [];
  #vids = new Int32Array(0);
  #g = new Int32Array(0);
  #v = new Int32Array(0);
  #fresh = new Uint8Array(0);

  add(gids: Int32Array, n: number, arg: Vector, mask: Uint8Array | undefined): void {
    if (this.#vids.length < n) {
      this.#vids = new Int32Array(n);
      this.#g = new Int32Array(n);
      this.#v = new Int32Array(n);
      this.#fresh = new Uint8Array(n);
    }
    const vids = this.#vids, g = this.#g, v = this.#v, fresh = this.#fresh;
    this.ids.map(arg, n, vids);
    const nullId = this.ids.nullId();
    let m = 0;
    for (let i = 0; i < n; i++) {
      if ((mask && !mask[i]) || vids[i] === nullId) continue;
      g[m] = gids[i];
      v[m++] = vids[i];
    }
    this.pairs.markNew(g, v, m, fresh);
    for (let i = 0; i < m; i++) {
      if (fresh[i]) {
        this.groups.push(g[i]);
        this.valueIds.push(v[i]);
      }
    }
  }
}

/** Groups the rows of one morsel of `snap` (a worker's snapshot of the same committed state). */
export async function hashPartialOf(job: HashJob, snap: TableSnapshot, m: Morsel): Promise<HashPartial> {
  const grouping = groupingOf(job);
  // Dense keys first: the general path's tables and loops are not even used.
  if (job.dense) {
    const partial = await grouping.densePartial(snap, m);
    if (partial) return partial;
  }
  await grouping.fold(snap, m);
  return grouping.partial();
}

/**
 * The groups of a job on a worker heap: of one morsel's rows (`hashPartialOf`), or of a radix
 * job's partition, whose rows come as packets (hash_radix.ts) and whose groups also record
 * their first rows.
 */
export interface Grouping {
  /** Groups so far. */
  readonly groups: number;
  /** Folds the rows of morsel `m` of `snap` into the groups. */
  fold(snap: TableSnapshot, m: Morsel): Promise<void>;
  /** The dense keys' fused loop over one morsel, or undefined when a batch needs the row path. */
  densePartial(snap: TableSnapshot, m: Morsel): Promise<HashPartial | undefined>;
  /** The groups as a partial (with `firsts` when they came as packets). */
  partial(): HashPartial;
  /**
   * The rows of morsel `m` of `snap` the WHERE keeps, cut into `parts` packets by the hash of
   * their keys (radix aggregation: packet p goes to the worker grouping partition p).
   */
  split(snap: TableSnapshot, m: Morsel, parts: number): Promise<RowPacket[]>;
  /** Folds a packet of rows of the morsel of index `index` into the groups. */
  foldPacket(packet: RowPacket, index: number): void;
}

/**
 * Rows of one morsel for one hash partition: the scan columns the job reads (others
 * undefined; SYMBOL as codes) and each row's ordinal among the morsel's rows the WHERE keeps.
 */
export interface RowPacket {
  rows: number;
  columns: (VectorData | undefined)[];
  ords: Int32Array;
}

/** A grouping of `job`'s rows (see Grouping). */
export function groupingOf(job: HashJob): Grouping {
  const ctx = shippedExecContext(job.timeZone);
  const keys = job.keys.map(rebind);
  const bound = job.filters.map(rebind);
  const filters = bound.map((e) => batchSelect(e, ctx) ?? unavailable());
  // Conjuncts of plain comparisons (qty BETWEEN a AND b, side = 'sell', symbol IN (...)) go
  // through the WASM kernels, as the main thread's filter does: several times faster than the
  // generated loops.
  const scanColumns = job.types.map((type) => ({ name: "", type }));
  const simple = bound.flatMap((e) => conjuncts(e)).map((c) => predicateOf(c, scanColumns));
  const kernelPreds = simple.length && simple.every((p) => p !== undefined) ? simple as Pred[] : undefined;
  const keySets = new Map<SymbolDict, Map<Pred, Uint8Array>>();
  const stubs = new Map(job.symbols.map((s) => [s.col, new ShippedCodeDict(s.size, s.codes)]));
  const cols = new Set<number>();
  for (const e of [...job.filters, ...job.keys, ...job.aggs.flatMap((a) => [a.arg, a.filter])]) {
    if (e) columnsOf(e, (c) => cols.add(c));
  }
  let sel = new Int32Array(0);
  const keyOf = keys.map((k) => vectorOf(k, ctx));
  const keyIds = keys.map(() => new KeyIds());
  const folds = keys.slice(1).map(() => new IntPairHash());
  // Aggregates over the same computed argument (sum(price - amount), min(price - amount))
  // share one evaluation per batch: the loop over the batch is most of such an aggregate's cost.
  const argOf = new Map<string, number>();
  const argKeyOf = (a: HashJobAgg) => {
    if (!a.arg || a.arg.kind === "column") return -1;
    const text = keyText(a.arg);
    let k = argOf.get(text);
    if (k === undefined) argOf.set(text, k = argOf.size);
    return k;
  };
  // FLOAT sums stay doubles until the merged total is rounded once.
  const aggs = job.aggs.map((a) => {
    const arg = a.arg && rebind(a.arg);
    const filter = a.filter && rebind(a.filter);
    const summed = a.fn === "sum";
    return {
      argKey: argKeyOf(a),
      arg: arg && vectorOf(arg, ctx),
      mask: filter && (batchMask(filter, ctx) ?? unavailable()),
      distinct: a.fn === "countDistinct" ? new DistinctPairs() : undefined,
      native: a.fn === "countDistinct"
        ? undefined
        : new NativeAgg(a.fn, summed && a.returns.tag === "FLOAT" ? T.DOUBLE : a.returns),
    };
  });
  const groupKeyIds: number[][] = keys.map(() => []);
  let groups = keys.length === 0 ? 1 : 0;
  let gids = new Int32Array(0), fold = new Int32Array(0), ids = new Int32Array(0);
  let mask = new Uint8Array(0);
  let perKey: Int32Array[] = [];
  // A radix partition's packets (`foldPacket`) come in morsel order: each group's first row is
  // recorded as the morsel's index times 2^32 plus the row's ordinal among the morsel's rows the
  // WHERE keeps (the main thread interleaves the partitions' groups in first-appearance order by it).
  // Their key values are copied from those rows (typed arrays: no boxed value per group).
  let firsts = new Float64Array(0), firstCount = 0;
  const firstKeys: VectorData[][] = keys.map(() => []);
  let indexed = false, newRows = new Int32Array(0);
  /** The key vectors of the batch last grouped. */
  let batchKeys: Vector[] = [];

  async function foldMorsel(snap: TableSnapshot, m: Morsel): Promise<void> {
    for await (const scanned of batchesOf(job, snap, m, cols, stubs)) {
      const picked = selectRows(scanned, true);
      if (picked) groupBatch(picked.b);
    }
  }

  async function splitMorsel(snap: TableSnapshot, m: Morsel, parts: number): Promise<RowPacket[]> {
    const chunks = Array.from({ length: parts }, () => ({
      columns: job.types.map((): VectorData[] => []),
      ords: [] as Int32Array[],
      rows: 0,
    }));
    const sels = Array.from({ length: parts }, () => new Int32Array(0));
    const counts = new Int32Array(parts);
    let hashes = new Int32Array(0), kept = 0;
    for await (const scanned of batchesOf(job, snap, m, cols, stubs)) {
      const picked = selectRows(scanned, true);
      if (!picked) continue;
      const b = picked.b, rows = b.rowCount;
      if (hashes.length < rows) {
        hashes = new Int32Array(rows);
        for (let p = 0; p < parts; p++) sels[p] = new Int32Array(rows);
      }
      keyHashes(keys.map((_, k) => keyVectorOf(b, k)), rows, hashes);
      counts.fill(0);
      for (let i = 0; i < rows; i++) {
        const p = ((hashes[i] >>> 16) * parts) >>> 16;
        sels[p][counts[p]++] = i;
      }
      for (let p = 0; p < parts; p++) {
        const n = counts[p];
        if (n === 0) continue;
        const c = chunks[p], sel = sels[p];
        for (const col of cols) c.columns[col].push(gatherData(b.columns[col].data, sel, n));
        const ords = new Int32Array(n);
        for (let j = 0; j < n; j++) ords[j] = kept + sel[j];
        c.ords.push(ords);
        c.rows += n;
      }
      kept += rows;
    }
    return chunks.map((c) => ({
      rows: c.rows,
      columns: c.columns.map((parts, col) => cols.has(col) ? concatData(parts, job.types[col]) : undefined),
      ords: concatData(c.ords, T.INT) as Int32Array,
    }));
  }

  function foldPacket(packet: RowPacket, index: number): void {
    indexed = true;
    const base = index * 4294967296;
    for (let at = 0; at < packet.rows; at += BATCH_ROWS_MAX) {
      const end = Math.min(packet.rows, at + BATCH_ROWS_MAX), rows = end - at;
      const columns: Vector[] = job.types.map((type, c) => {
        const d = packet.columns[c];
        if (!d) return undefined as unknown as Vector;
        const data = (Array.isArray(d) ? d.slice(at, end) : d.subarray(at, end)) as VectorData;
        return type.tag === "SYMBOL" ? { type: T.SYMBOL, data, dict: stubs.get(c) } : { type, data };
      });
      const before = groups;
      groupBatch({ rowCount: rows, columns });
      if (groups > before) recordFirsts(rows, (j) => base + packet.ords[at + j]);
    }
  }

  /** Records the first rows (and key values) of the groups the batch last grouped created. */
  function recordFirsts(rows: number, ordinal: (j: number) => number): void {
    if (newRows.length < rows) newRows = new Int32Array(rows);
    if (firsts.length < groups) {
      const grown = new Float64Array(Math.max(groups, 2 * firsts.length));
      grown.set(firsts.subarray(0, firstCount));
      firsts = grown;
    }
    let next = firstCount, fresh = 0;
    for (let j = 0; j < rows && next < groups; j++) {
      if (gids[j] === next) {
        firsts[next++] = ordinal(j);
        newRows[fresh++] = j;
      }
    }
    firstCount = next;
    batchKeys.forEach((v, k) => firstKeys[k].push(gatherData(v.data, newRows, fresh)));
  }

  function keyVectorOf(b: Batch, k: number): Vector {
    const e = keys[k];
    return e.kind === "column" ? plainColumn(b, e.index) : keyOf[k](b);
  }

  /**
   * The rows of a batch the WHERE keeps: undefined when none; a selection of the batch's rows
   * when the kernels chose some and `gatherAll` is false (the fused loop reads through it),
   * else a batch of the kept rows.
   */
  function selectRows(
    scanned: Batch,
    gatherAll: boolean,
  ): { b: Batch; sel?: Int32Array; count?: number } | undefined {
    let b = scanned;
    const viaKernels = kernelPreds && kernelSelect(b, kernelPreds, keySets);
    if (viaKernels) {
      if (viaKernels.count === 0) return undefined;
      if (viaKernels.count === b.rowCount) return { b };
      return gatherAll
        ? { b: gather(b, viaKernels.sel, viaKernels.count) }
        : { b, sel: viaKernels.sel, count: viaKernels.count };
    }
    if (filters.length && sel.length < b.rowCount) sel = new Int32Array(b.rowCount);
    for (const f of filters) {
      const count = f(b, sel);
      if (count === 0) return undefined;
      if (count < b.rowCount) b = gather(b, sel, count);
    }
    return { b };
  }

  /** A scan column as a key or argument: SYMBOL as its codes (no dictionary to read text from). */
  function plainColumn(b: Batch, index: number): Vector {
    const v = b.columns[index];
    return v.type.tag === "SYMBOL" ? { type: T.SYMBOL, data: v.data } : v;
  }

  function groupBatch(b: Batch): void {
    const rows = b.rowCount;
    if (gids.length < rows) {
      gids = new Int32Array(rows);
      fold = new Int32Array(rows);
      ids = new Int32Array(rows);
      mask = new Uint8Array(rows);
      perKey = keys.map(() => new Int32Array(rows));
    }
    batchKeys = keys.map((_, k) => keyVectorOf(b, k));
    if (keys.length === 0) {
      gids.fill(0, 0, rows);
    } else if (keys.length === 1) {
      keyIds[0].map(batchKeys[0], rows, gids);
      groups = keyIds[0].size;
    } else {
      groups = foldKeys(batchKeys, rows, keyIds, folds, perKey, gids, fold, ids);
      if (!indexed) recordFirst(groupKeyIds, perKey, gids, rows, groups);
    }
    const argsOfBatch: (Vector | undefined)[] = new Array(argOf.size);
    job.aggs.forEach((a, i) => {
      const st = aggs[i];
      let m: Uint8Array | undefined;
      if (st.mask) {
        m = mask;
        st.mask(b, m);
      }
      let arg: Vector | undefined;
      if (a.arg?.kind === "column") arg = plainColumn(b, a.arg.index);
      else if (st.argKey >= 0) arg = argsOfBatch[st.argKey] ??= st.arg!(b);
      if (st.distinct) return st.distinct.add(gids, rows, arg!, m);
      st.native!.reserve(groups);
      st.native!.add(gids, rows, arg, m);
    });
  }
  function partial(): HashPartial {
    const outKeys = indexed
      ? firstKeys.map((chunks, k) => concatData(chunks, keys[k].type))
      : keys.map((e, k) =>
        dataOf(
          e.type,
          keys.length === 1
            ? keyIds[0].values.slice(0, groups)
            : groupKeyIds[k].map((id) => keyIds[k].values[id]),
        )
      );
    const counts: Float64Array[] = [];
    const values: (Float64Array | BigInt64Array | undefined)[] = [];
    const distinct: ({ groups: Int32Array; values: VectorData } | undefined)[] = [];
    job.aggs.forEach((a, i) => {
      const { native, distinct: pairs } = aggs[i];
      if (pairs) {
        counts.push(new Float64Array(0));
        values.push(undefined);
        distinct.push({
          groups: Int32Array.from(pairs.groups),
          values: dataOf(job.aggs[i].arg!.type, pairs.valueIds.map((id) => pairs.ids.values[id])),
        });
        return;
      }
      distinct.push(undefined);
      const st = native!;
      st.reserve(groups);
      const count = new Float64Array(groups);
      for (let g = 0; g < groups; g++) count[g] = st.countOf(g);
      counts.push(count);
      if (a.fn === "count" || a.fn === "count*") {
        values.push(undefined);
        return;
      }
      if (a.fn === "avg") {
        const out = new Float64Array(groups);
        for (let g = 0; g < groups; g++) out[g] = count[g] === 0 ? NaN : st.sumOf(g);
        values.push(out);
      } else if (a.wide) {
        const out = new BigInt64Array(groups);
        for (let g = 0; g < groups; g++) {
          const v = count[g] === 0 ? null : st.result(g);
          out[g] = typeof v === "bigint" ? v : v === null ? LONG_NULL : BigInt(v as number);
        }
        values.push(out);
      } else {
        const out = new Float64Array(groups);
        for (let g = 0; g < groups; g++) {
          const v = count[g] === 0 ? null : st.result(g);
          out[g] = v === null ? NaN : Number(v);
        }
        values.push(out);
      }
    });
    return {
      groups,
      keys: outKeys,
      counts,
      values,
      distinct,
      firsts: indexed ? firsts.slice(0, firstCount) : undefined,
    };
  }

  return {
    get groups() {
      return groups;
    },
    fold: foldMorsel,
    densePartial: (snap, m) => densePartialOf(job, keys, snap, m, cols, stubs, selectRows),
    partial,
    split: splitMorsel,
    foldPacket,
  };
}

/** The morsel's batches of the job's columns `cols`: the scan's, or the join's rows over it. */
function batchesOf(
  job: HashJob,
  snap: TableSnapshot,
  m: Morsel,
  cols: Set<number>,
  stubs: Map<number, SymbolDict>,
): AsyncIterable<Batch> {
  const spec = job.join;
  if (!spec) return morselBatches(snap, m, job, cols, stubs);
  const w = spec.leftWidth;
  const leftCols = new Set([...cols].filter((c) => c < w).concat(spec.leftKeys));
  const scan = {
    intervals: job.intervals,
    types: job.types.slice(0, w),
    columnIndexes: job.columnIndexes.slice(0, w),
  };
  return joinedBatches(spec, morselBatches(snap, m, scan, leftCols, stubs), cols, stubs);
}

/**
 * The partial of a morsel through the fused loop of dense keys (dense_groups.ts), or undefined
 * when a batch needs the row path (the caller then groups the morsel the general way).
 */
async function densePartialOf(
  job: HashJob,
  keys: BoundExpr[],
  snap: TableSnapshot,
  m: Morsel,
  cols: Set<number>,
  stubs: Map<number, SymbolDict>,
  selectRows: (b: Batch, gatherAll: boolean) => { b: Batch; sel?: Int32Array; count?: number } | undefined,
): Promise<HashPartial | undefined> {
  let rows = 0;
  for (const p of m.pieces) rows += p.hi - p.lo;
  const aggs = job.aggs.map((a) => ({
    fn: a.fn,
    arg: a.arg && rebind(a.arg),
    filter: a.filter && rebind(a.filter),
    returns: a.returns,
    wide: a.wide,
  }));
  const fused = DenseGroups.create(keys, job.dense!, aggs, [], rows);
  if (!fused) return undefined;
  for await (const scanned of morselBatches(snap, m, job, cols, stubs)) {
    const picked = selectRows(scanned, false);
    if (picked && !fused.add(picked.b, picked.sel, picked.count)) return undefined;
  }
  return fused.partial();
}

/** Chunks of one key's values of type `t` (typed arrays of one kind, or value arrays) as one array. */
function concatData(chunks: VectorData[], t: ColumnType): VectorData {
  if (chunks.length === 0) return t.tag === "SYMBOL" ? new Int32Array(0) : zeroedVectorData(t, 0);
  if (chunks.length === 1) return chunks[0];
  if (Array.isArray(chunks[0])) return ([] as Value[]).concat(...chunks as Value[][]);
  let n = 0;
  for (const c of chunks) n += c.length;
  // deno-lint-ignore no-explicit-any
  const out = new (chunks[0].constructor as any)(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Scalar values (a worker's KeyIds values) as vector data of type `t`; SYMBOL values are codes. */
function dataOf(t: ColumnType, values: Value[]): VectorData {
  if (t.tag === "SYMBOL") return Int32Array.from(values, (v) => v === null ? -1 : v as number);
  const d = allocVectorData(t, values.length);
  for (let i = 0; i < values.length; i++) writeValue(t, d, i, values[i]);
  return d;
}

function unavailable(): never {
  throw new FastPathUnavailable("no batch form on the worker heap");
}

/** Folds several keys' value ids pairwise into one group id per row; answers the group count. */
function foldKeys(
  vectors: Vector[],
  rows: number,
  keyIds: KeyIds[],
  folds: IntPairHash[],
  perKey: Int32Array[],
  gids: Int32Array,
  fold: Int32Array,
  ids: Int32Array,
): number {
  keyIds[0].map(vectors[0], rows, perKey[0]);
  let cur = perKey[0];
  for (let k = 1; k < vectors.length; k++) {
    keyIds[k].map(vectors[k], rows, perKey[k]);
    const out = k === vectors.length - 1 ? gids : (k % 2 ? fold : ids);
    folds[k - 1].mapBatch(cur, perKey[k], rows, out);
    cur = out;
  }
  return folds[folds.length - 1].size;
}

/** Records each new group's key ids (groups first appear in increasing order). */
function recordFirst(
  groupKeyIds: number[][],
  perKey: Int32Array[],
  gids: Int32Array,
  rows: number,
  groups: number,
) {
  for (let i = 0; i < rows && groupKeyIds[0].length < groups; i++) {
    if (gids[i] === groupKeyIds[0].length) {
      for (let k = 0; k < perKey.length; k++) groupKeyIds[k].push(perKey[k][i]);
    }
  }
}

// ---- on the main thread ----

/**
 * Runs the aggregate or DISTINCT on the workers and answers its batches, or undefined when the
 * pool declines (no workers running, the snapshot is not a plain table's, a worker cannot
 * evaluate a batch): the caller then runs it on this heap.
 */
export async function runParallelHash(
  n: AggregateNode | DistinctNode,
  ctx: ExecContext,
): Promise<Batch[] | undefined> {
  const pool = ctx.parallel as Partial<ParallelHash> | undefined;
  const shape = shapeFor(n);
  if (!shape || !pool?.hashPartials) return undefined;
  const snap = snapshotOf(ctx, shape.scan.table);
  if (partitionedChosen.has(n)) return runPartitioned(n, shape, pool as ParallelHash, snap, ctx);
  // A join's build side runs and is hashed here first; its SYMBOL columns' codes are in `dicts`.
  const join = shape.join && await buildJoinSpec(shape.join, snap, shape.scan.columnIndexes, ctx, runPlan);
  const job = jobOf(shape, ctx, snap, denseChosen.has(n), join);
  const symbols = join ? joinedSymbols(snap, join.dicts) : snap;
  let partials = await pool.hashPartials(job, snap, ctx);
  const leftPartials = partials?.length ?? 0;
  let rightDicts: (SymbolDict | undefined)[] | undefined;
  if (partials && shape.union) {
    // UNION ALL: the right side's morsels after the left's, merged in that order.
    const right = shape.union[1];
    const rsnap = snapshotOf(ctx, right.scan.table);
    const rjob = jobOf(right, ctx, rsnap, false);
    const more = await pool.hashPartials(rjob, rsnap, ctx);
    partials = more && [...partials, ...more];
    rightDicts = rjob.keys.map((k) =>
      k.kind === "column" && k.type.tag === "SYMBOL" ? rsnap.symbols(rjob.columnIndexes[k.index]) : undefined
    );
  }
  if (!partials) return undefined;
  checkCancelled(ctx);
  const keyTypes = job.keys.map((k) => k.type);
  const dictsOf = (j: HashJob, of: { symbols(index: number): SymbolDict }) =>
    j.keys.map((k) =>
      k.kind === "column" && k.type.tag === "SYMBOL" ? of.symbols(j.columnIndexes[k.index]) : undefined
    );
  const dicts = dictsOf(job, symbols);
  // A union's right partials read their SYMBOL keys with the right table's dictionaries.
  const partialDicts = partials.map((_, i) => i < leftPartials ? dicts : rightDicts ?? dicts);
  const nk = job.keys.length;
  const keyIds = job.keys.map(() => new KeyIds());
  const folds = job.keys.slice(1).map(() => new IntPairHash());
  const groupKeyIds: number[][] = job.keys.map(() => []);
  const merged = job.aggs.map(() => new Merged());
  // count(DISTINCT x): the merged (group, value id) pairs, each new pair counting once.
  const distinct = job.aggs.map((a, i) => {
    if (a.fn !== "countDistinct") return undefined;
    const arg = a.arg!;
    const dict = arg.kind === "column" && arg.type.tag === "SYMBOL"
      ? symbols.symbols(job.columnIndexes[arg.index])
      : undefined;
    return { ids: new KeyIds(), pairs: new PairSet(), dict, type: arg.type, merged: merged[i] };
  });
  let groups = nk === 0 ? 1 : 0;
  const groupBytes = 16 * nk + 24 * job.aggs.length;
  for (const [pi, p] of partials.entries()) {
    const rows = p.groups;
    if (rows === 0) continue;
    // Other clients get their turns between partials (up to a morsel's groups each).
    if (paceDue(ctx)) await pace(ctx);
    const gids = new Int32Array(rows);
    const before = groups;
    if (nk > 0) {
      const vectors: Vector[] = p.keys.map((data, k) => ({
        type: keyTypes[k],
        data,
        dict: partialDicts[pi][k],
      }));
      if (nk === 1) {
        keyIds[0].map(vectors[0], rows, gids);
        groups = keyIds[0].size;
      } else {
        const perKey = job.keys.map(() => new Int32Array(rows));
        groups = foldKeys(
          vectors,
          rows,
          keyIds,
          folds,
          perKey,
          gids,
          new Int32Array(rows),
          new Int32Array(rows),
        );
        recordFirst(groupKeyIds, perKey, gids, rows, groups);
      }
    }
    charge(ctx, (groups - before) * groupBytes);
    for (const m of merged) m.reserve(groups);
    job.aggs.forEach((a, i) => {
      const d = distinct[i];
      if (d) {
        // The merged pairs and values are held until the end: they count against the
        // statement's memory.
        const held = d.pairs.bytes + d.ids.bytes;
        mergeDistinct(d, p.distinct![i]!, gids);
        return charge(ctx, d.pairs.bytes + d.ids.bytes - held);
      }
      mergeAgg(a, merged[i], p.counts[i], p.values[i], gids, rows);
    });
  }
  // A SYMBOL key of one table leaves as its codes with the dictionary, as a scan gives it
  // (key_ids.ts symbolCodes), not a string per group: its cells in the rows stay NULL.
  const syms = keyIds.map((ids, k) => n.columns[k].type.tag === "SYMBOL" ? ids.symbolCodes() : undefined);
  const idOf = (k: number, g: number) => nk === 1 ? g : groupKeyIds[k][g];
  const out: Value[][] = new Array(groups);
  for (let g = 0; g < groups; g++) {
    const row: Value[] = new Array(nk + job.aggs.length);
    for (let k = 0; k < nk; k++) row[k] = syms[k] ? null : keyIds[k].values[idOf(k, g)];
    job.aggs.forEach((a, i) => row[nk + i] = finish(a, merged[i].countOf(g), merged[i].valueAt(g)));
    out[g] = row;
  }
  const batches = [...rowsToBatches(n.columns.map((c) => c.type), out)];
  syms.forEach((sym, k) => {
    if (!sym) return;
    let g = 0;
    for (const b of batches) {
      const codes = new Int32Array(b.rowCount);
      for (let r = 0; r < b.rowCount; r++, g++) codes[r] = sym.codes[idOf(k, g)];
      b.columns[k] = { type: b.columns[k].type, data: codes, dict: sym.dict };
    }
  });
  return batches;
}

/**
 * One aggregate's merged state on the main thread, by group, in typed arrays: the count, and
 * the value as a double or, for 64-bit integer partials, as its two words. A group's value is
 * defined once its count is not 0.
 */
class Merged {
  cnt = new Float64Array(16);
  num = new Float64Array(16);
  /** A 64-bit integer value as its high word and its (unsigned) low word. */
  hi = new Int32Array(16);
  lo = new Float64Array(16);
  wide = false;
  #word = new BigInt64Array(1);

  reserve(groups: number): void {
    if (this.cnt.length >= groups) return;
    let cap = this.cnt.length * 2;
    while (cap < groups) cap *= 2;
    const grow = <A extends Float64Array | Int32Array>(a: A): A => {
      const b = new (a.constructor as new (n: number) => A)(cap);
      b.set(a);
      return b;
    };
    this.cnt = grow(this.cnt);
    this.num = grow(this.num);
    this.hi = grow(this.hi);
    this.lo = grow(this.lo);
  }

  countOf(g: number): number {
    return this.cnt[g];
  }

  valueAt(g: number): number | bigint | undefined {
    if (this.cnt[g] === 0) return undefined;
    if (!this.wide) return this.num[g];
    const w = new Int32Array(this.#word.buffer);
    w[0] = this.lo[g];
    w[1] = this.hi[g];
    return this.#word[0];
  }
}

function mergeDistinct(
  d: { ids: KeyIds; pairs: PairSet; dict?: SymbolDict; type: ColumnType; merged: Merged },
  part: { groups: Int32Array; values: VectorData },
  gids: Int32Array,
): void {
  const m = part.groups.length;
  if (m === 0) return;
  const vids = new Int32Array(m), g = new Int32Array(m), fresh = new Uint8Array(m);
  d.ids.map({ type: d.type, data: part.values, dict: d.dict }, m, vids);
  for (let i = 0; i < m; i++) g[i] = gids[part.groups[i]];
  d.pairs.markNew(g, vids, m, fresh);
  for (let i = 0; i < m; i++) d.merged.cnt[g[i]] += fresh[i];
}

function mergeAgg(
  a: HashJobAgg,
  m: Merged,
  pc: Float64Array,
  pv: Float64Array | BigInt64Array | undefined,
  gids: Int32Array,
  rows: number,
): void {
  const counts = m.cnt;
  if (!pv) {
    for (let i = 0; i < rows; i++) counts[gids[i]] += pc[i];
    return;
  }
  if (pv instanceof Float64Array) return mergeDoubles(a.fn, counts, m.num, pc, pv, gids, rows);
  // 64-bit integers as their words (a BigInt per read cost more than the rest of the merge):
  // sums wrap as int64 addition does, min/max compare the signed high words, then the low.
  m.wide = true;
  const w = new Int32Array(pv.buffer, pv.byteOffset, rows * 2);
  const his = m.hi, los = m.lo;
  const add = a.fn === "sum" || a.fn === "avg", max = a.fn === "max";
  for (let i = 0; i < rows; i++) {
    const g = gids[i], c = pc[i];
    if (c === 0) continue;
    const had = counts[g];
    counts[g] = had + c;
    const lo = w[2 * i] >>> 0, hi = w[2 * i + 1];
    if (had === 0) {
      his[g] = hi;
      los[g] = lo;
    } else if (add) {
      const l = los[g] + lo, carry = l >= 4294967296 ? 1 : 0;
      los[g] = l - carry * 4294967296;
      his[g] = (his[g] + hi + carry) | 0;
    } else {
      const ch = his[g], cl = los[g];
      // Ties keep the earlier value, as one heap's strict comparison does.
      if (max ? hi > ch || (hi === ch && lo > cl) : hi < ch || (hi === ch && lo < cl)) {
        his[g] = hi;
        los[g] = lo;
      }
    }
  }
}

/** mergeAgg of double partials (sums, averages' sums, minimums, maximums), in typed arrays. */
function mergeDoubles(
  fn: NativeFn,
  counts: Float64Array,
  values: Float64Array,
  pc: Float64Array,
  pv: Float64Array,
  gids: Int32Array,
  rows: number,
): void {
  const add = fn === "sum" || fn === "avg", max = fn === "max";
  for (let i = 0; i < rows; i++) {
    const g = gids[i], c = pc[i];
    if (c === 0) continue;
    const had = counts[g];
    counts[g] = had + c;
    const v = pv[i];
    if (had === 0) values[g] = v;
    else if (add) values[g] += v;
    // Ties keep the earlier value, as one heap's strict comparison does.
    else if (max ? v > values[g] : v < values[g]) values[g] = v;
  }
}

/**
 * An aggregate's result column over `n` groups from their merged counts and values (radix
 * phase 2 finishes its partition on the worker): counts as 64-bit words, no bigint per group.
 */
export function finishedColumn(
  a: HashJobAgg,
  counts: Float64Array,
  values: Float64Array | BigInt64Array | undefined,
  n: number,
): VectorData {
  if (a.fn === "count" || a.fn === "count*" || a.fn === "countDistinct") {
    const out = new BigInt64Array(n), w = new Int32Array(out.buffer);
    for (let g = 0; g < n; g++) {
      const c = counts[g];
      w[2 * g] = c % 4294967296;
      w[2 * g + 1] = Math.floor(c / 4294967296);
    }
    return out;
  }
  const out = allocVectorData(a.returns, n);
  for (let g = 0; g < n; g++) {
    const c = counts[g];
    writeValue(a.returns, out, g, finish(a, c, c === 0 || !values ? undefined : values[g]));
  }
  return out;
}

function finish(a: HashJobAgg, count: number, v: number | bigint | undefined): Value {
  if (a.fn === "count" || a.fn === "count*" || a.fn === "countDistinct") return BigInt(count);
  if (count === 0 || v === undefined) return a.fn === "min" || a.fn === "max" ? nullValueOf(a.returns) : null;
  if (a.fn === "avg") {
    const r = Number(v) / count;
    return Number.isFinite(r) ? r : null;
  }
  if (typeof v === "bigint") return a.fn === "sum" ? (v === LONG_NULL ? null : v) : v;
  if (a.fn === "sum") {
    if (!Number.isFinite(v)) return null;
    return a.returns.tag === "FLOAT" ? Math.fround(v) : v;
  }
  return v;
}

/**
 * The aggregate or DISTINCT as radix aggregation (hash_radix.ts): the workers answer
 * each hash partition's final groups in first-row order, which interleave here by first row,
 * in the order one heap gives (first appearance), without a hash table on this thread.
 */
async function runPartitioned(
  n: AggregateNode | DistinctNode,
  shape: Shape,
  pool: ParallelHash,
  snap: TableSnapshot,
  ctx: ExecContext,
): Promise<Batch[] | undefined> {
  const job = jobOf(shape, ctx, snap, false);
  const partials = await pool.radixPartials(job, snap, ctx);
  if (!partials) return undefined;
  checkCancelled(ctx);
  const nk = job.keys.length, types = n.columns.map((c) => c.type);
  const dicts = job.keys.map((k) =>
    k.kind === "column" && k.type.tag === "SYMBOL" ? snap.symbols(job.columnIndexes[k.index]) : undefined
  );
  let total = 0;
  for (const p of partials) total += p.groups;
  // The result's batches are held until the statement reads them.
  charge(ctx, total * (16 * nk + 8 * job.aggs.length));
  const at = partials.map(() => 0);
  const out: Batch[] = [];
  const from = new Int32Array(Math.min(total, BATCH_ROWS_MAX)), idx = new Int32Array(from.length);
  for (let done = 0; done < total;) {
    // The next groups by first row across the partitions.
    let count = 0;
    while (count < BATCH_ROWS_MAX && done < total) {
      let best = -1, bestPos = Infinity;
      for (let w = 0; w < partials.length; w++) {
        const p = partials[w];
        if (at[w] < p.groups && p.firsts![at[w]] < bestPos) {
          bestPos = p.firsts![at[w]];
          best = w;
        }
      }
      from[count] = best;
      idx[count++] = at[best]++;
      done++;
    }
    const columns: Vector[] = types.map((type, c) => {
      if (c < nk) {
        const data = pickRows(partials.map((p) => p.keys[c]), from, idx, count);
        return { type, data, dict: dicts[c] };
      }
      const i = c - nk, a = job.aggs[i];
      // Finished on the workers (radix phase 2).
      if (a.returns.tag === type.tag && partials.every((p) => p.finished)) {
        return { type, data: pickRows(partials.map((p) => p.finished![i]), from, idx, count) };
      }
      const data = allocVectorData(type, count);
      for (let r = 0; r < count; r++) {
        const p = partials[from[r]], g = idx[r];
        const cnt = p.counts[i][g], pv = p.values[i];
        writeValue(type, data, r, finish(a, cnt, cnt === 0 || !pv ? undefined : pv[g]));
      }
      return { type, data };
    });
    out.push({ rowCount: count, columns });
    if (paceDue(ctx)) await pace(ctx);
  }
  return out;
}

/** Rows (from[i], idx[i]) of per-partition typed data or value arrays, as one array. */
function pickRows(srcs: VectorData[], from: Int32Array, idx: Int32Array, n: number): VectorData {
  if (srcs[0] instanceof BigInt64Array) {
    // As two int32 words: reading a BigInt64Array element allocates a bigint.
    const out = new BigInt64Array(n), o = new Int32Array(out.buffer);
    const w = srcs.map((a) =>
      new Int32Array((a as BigInt64Array).buffer, (a as BigInt64Array).byteOffset, a.length * 2)
    );
    for (let i = 0; i < n; i++) {
      const s = w[from[i]], r = 2 * idx[i];
      o[2 * i] = s[r];
      o[2 * i + 1] = s[r + 1];
    }
    return out;
  }
  // deno-lint-ignore no-explicit-any
  const s = srcs as any[], out = new (s.find((a) => a.length > 0) ?? s[0]).constructor(n);
  for (let i = 0; i < n; i++) out[i] = s[from[i]][idx[i]];
  return out as VectorData;
}
