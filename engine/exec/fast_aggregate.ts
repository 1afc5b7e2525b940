/**
 * The WASM hot path for aggregates over a table (ARCHITECTURE.md "WASM hot path"):
 * count/sum/avg/min/max of numeric columns (unkeyed also of `a op b`, +, - or * over DOUBLE
 * columns and constants: the `binop` kernel fills a scratch chunk that `stats` folds, so
 * `sum(price - amount)` is one pass of two WASM loops per chunk), unkeyed or keyed by one
 * SYMBOL column, over a scan narrowed by timestamp intervals and simple filters (numeric
 * column vs constant, symbol equality and IN, IS NULL); keyed, aggregates may carry FILTER (WHERE
 * ...) of the same predicates. Kernels scan the cached column memory in place through selection
 * vectors; keyed scans fold every range into one set of accumulators (KeyedFolder, the keyedFold
 * kernel); partial results merge across partitions and heaps in TypeScript.
 *
 * `tryFastAggregate` answers undefined when the query is outside this shape, and the
 * generic row path runs instead.
 */
import { keyText } from "../base/key_text.ts";
import type { ColumnType } from "../base/types.ts";
import { type Batch, type Interval, LONG_NULL, SYMBOL_NULL_KEY, type Value } from "../base/values.ts";

import {
  kernels,
  KEYED_FOLD_COLUMNS,
  KEYED_FOLD_SLOT_BYTES,
  type MeasureKind,
  type NumericKind,
  wasmMemory,
} from "../../engine-wasm/mod.ts";
import { conjuncts } from "../plan/intervals_from_where.ts";
import type { BoundExpr } from "../plan/bound.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import type { TableSnapshot } from "../storage/api.ts";
import { rowsToBatch } from "./batch_util.ts";
import { type ExecContext, pace, snapshotOf } from "./exec_context.ts";
import { partitionRanges } from "./scan.ts";
import {
  KIND,
  type Pred,
  predColumns,
  predicateOf,
  predLeaves,
  type PredRunner,
  runPred,
  runSymbolLeaf,
  WIDTH,
} from "./kernel_predicates.ts";
import { exactLongSum, sumLongRows } from "./exact_long_sum.ts";
import { FastPathUnavailable, Scratch } from "./wasm_scratch.ts";
import { accumulateWithStats, statsShapeFits } from "./partition_stats.ts";
import { accumulateByBlocks, blockMemoFits } from "./block_partials.ts";
import { affineAcc, affineArgOf, type AffineStep } from "./affine_arg.ts";

/** LONG's largest value: where a keyedFold minimum of integers starts. */
const LONG_MAX = (1n << 63n) - 1n;

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;

export type Agg = {
  /** countDistinct: count(DISTINCT s) / count_distinct(s) of a SYMBOL column, unkeyed (issue #16). */
  fn: "count" | "sum" | "avg" | "min" | "max" | "countDistinct";
  /** The scan column aggregated (for an expression: its first column operand); -1 for count(*). */
  col: number;
  kind?: NumericKind;
  returns: ColumnType;
  /** A DOUBLE `a op b` argument (issue #16), evaluated chunk by chunk by the `binop` kernel. */
  expr?: ArgExpr;
  /** countDistinct: the column's dictionary size in the job's snapshot (set by heapScanOf). */
  keyCount?: number;
  /** Keyed only: the index of its FILTER (WHERE ...) among the shape's `filters`. */
  filter?: number;
  /**
   * The argument is column `col` through `affine`'s steps (`qty * 2 + 1`): the column is folded
   * and `finish` maps its count, sum and extremes (affine_arg.ts).
   */
  affine?: AffineStep[];
};

/**
 * An operand of an expression argument: a scan column, a constant (DOUBLE: a number, NaN for
 * NULL; LONG: a bigint, LONG_MIN for NULL) or a nested expression of the same kind.
 */
export type ArgOperand = { col: number } | { value: number | bigint } | ArgExpr;

/**
 * `a op b` over DOUBLE (`f64`) or LONG (`i64`) operands with at least one column among its
 * leaves: the `binop` kernel evaluates it node by node over chunks of scratch memory.
 */
export interface ArgExpr {
  kind: "f64" | "i64";
  op: "+" | "-" | "*";
  a: ArgOperand;
  b: ArgOperand;
}

/** The scan columns an expression argument reads. */
const operandColumns = (o: ArgOperand): number[] =>
  "op" in o ? [...operandColumns(o.a), ...operandColumns(o.b)] : "col" in o ? [o.col] : [];

/** The text an expression argument is cached by within one chunk (aggregates sharing it). */
const exprKey = (e: ArgExpr) => keyText(e);

/**
 * `e` as a binop argument: +, - or * over DOUBLE columns and numeric constants (IEEE
 * arithmetic keeps the scalar operators' NULL rules, kernels.ts BinopArgs), or over LONG
 * columns and integer constants (wrapping, NULL in gives NULL), nested, of one kind throughout.
 */
export function argExprOf(e: BoundExpr, columns: readonly { type: ColumnType }[]): ArgExpr | undefined {
  const kind = e.type.tag === "DOUBLE" ? "f64" : e.type.tag === "LONG" ? "i64" : undefined;
  if (!kind) return undefined;
  const expr = nodeOf(e, kind, columns);
  return expr && operandColumns(expr).length > 0 ? expr : undefined;
}

function nodeOf(
  e: BoundExpr,
  kind: ArgExpr["kind"],
  columns: readonly { type: ColumnType }[],
): ArgExpr | undefined {
  if (e.kind !== "call" || e.args.length !== 2) return undefined;
  if (e.type.tag !== (kind === "f64" ? "DOUBLE" : "LONG")) return undefined;
  if (e.name !== "+" && e.name !== "-" && e.name !== "*") return undefined;
  const operand = (x: BoundExpr): ArgOperand | undefined => {
    if (x.kind === "call") return nodeOf(x, kind, columns);
    if (x.kind === "column") {
      return columns[x.index].type.tag === (kind === "f64" ? "DOUBLE" : "LONG")
        ? { col: x.index }
        : undefined;
    }
    if (x.kind !== "const") return undefined;
    const v = x.value;
    if (kind === "i64") {
      if (v === null) return { value: LONG_NULL };
      if (typeof v === "bigint") return { value: BigInt.asIntN(64, v) };
      return typeof v === "number" && Number.isSafeInteger(v) ? { value: BigInt(v) } : undefined;
    }
    const n = typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v === null ? NaN : undefined;
    return n === undefined ? undefined : { value: Number.isFinite(n) ? n : NaN };
  };
  const a = operand(e.args[0]), b = operand(e.args[1]);
  return a && b ? { kind, op: e.name, a, b } : undefined;
}

export interface Shape {
  scan: ScanNode;
  preds: Pred[];
  key?: number;
  aggs: Agg[];
  /** The distinct FILTER (WHERE ...) conditions of keyed aggregates, each as its conjuncts. */
  filters: Pred[][];
}

/** Recognises the shape, or undefined. */
export function fastShape(n: AggregateNode): Shape | undefined {
  let input = n.input;
  const preds: Pred[] = [];
  if (input.kind === "filter") {
    if (input.input.kind !== "scan") return undefined;
    for (const c of conjuncts(input.predicate)) {
      const p = predicateOf(c, input.input.columns);
      if (!p) return undefined;
      preds.push(p);
    }
    input = input.input;
  }
  if (input.kind !== "scan" || input.reverse) return undefined;
  const scan = input;
  let key: number | undefined;
  if (n.keys.length > 1) return undefined;
  if (n.keys.length === 1) {
    const k = n.keys[0];
    if (k.kind !== "column" || scan.columns[k.index].type.tag !== "SYMBOL") return undefined;
    key = k.index;
  }
  const aggs: Agg[] = [];
  const filters: Pred[][] = [], filterTexts: string[] = [];
  for (const a of n.aggs) {
    let filter: number | undefined;
    if (a.filter) {
      // Keyed: the rows passing the condition (a selection within the WHERE's) fold apart.
      if (key === undefined) return undefined;
      const conds: Pred[] = [];
      for (const c of conjuncts(a.filter)) {
        const p = predicateOf(c, scan.columns);
        if (!p) return undefined;
        conds.push(p);
      }
      const text = keyText(conds);
      filter = filterTexts.indexOf(text);
      if (filter < 0) {
        filter = filterTexts.push(text) - 1;
        filters.push(conds);
      }
    }
    const distinct = (a.binding as { distinct?: boolean }).distinct === true;
    if ((a.name === "count" && distinct) || a.name === "count_distinct") {
      // The distinct SYMBOL keys of the visited rows: per range, the keyedCount kernel's counts
      // per key, kept as a bitmap per heap and OR-ed when partials merge.
      const arg = a.args[0];
      if (key !== undefined || a.args.length !== 1 || arg.kind !== "column") return undefined;
      if (scan.columns[arg.index].type.tag !== "SYMBOL") return undefined;
      aggs.push({ fn: "countDistinct", col: arg.index, returns: a.binding.returns });
      continue;
    }
    const fn = a.name as Agg["fn"];
    if (!["count", "sum", "avg", "min", "max"].includes(fn)) return undefined;
    if (distinct) return undefined;
    if (a.args.length === 0) {
      if (fn !== "count") return undefined;
      aggs.push({ fn, col: -1, returns: a.binding.returns, filter });
      continue;
    }
    const arg = a.args[0];
    if (a.args.length !== 1) return undefined;
    const affine = arg.kind === "column" ? undefined : affineArgOf(arg, scan.columns);
    if (affine && (affine.kind === "i64" || fn === "min" || fn === "max" || fn === "count")) {
      // A column through + - * with constants: the column folds, finish maps its states.
      aggs.push({
        fn,
        col: affine.col,
        kind: affine.kind,
        returns: a.binding.returns,
        filter,
        affine: affine.steps,
      });
      continue;
    }
    if (arg.kind !== "column") {
      // Keyed scans fold by column (keyedStats): an expression argument is unkeyed only.
      const expr = key === undefined ? argExprOf(arg, scan.columns) : undefined;
      if (!expr) return undefined;
      aggs.push({ fn, col: operandColumns(expr)[0], kind: expr.kind, returns: a.binding.returns, expr });
      continue;
    }
    const kind = KIND[scan.columns[arg.index].type.tag];
    if (!kind) return undefined;
    if (key !== undefined && (kind === "i16" || kind === "i8")) return undefined;
    if (kind === "i16" || kind === "i8") {
      if (fn !== "sum" && fn !== "count") return undefined;
    }
    aggs.push({ fn, col: arg.index, kind, returns: a.binding.returns, filter });
  }
  return { scan, preds, key, aggs, filters };
}

/** Partial state of one aggregate for one group. */
export interface Acc {
  count: number;
  sum: number | bigint;
  min: number | bigint | null;
  max: number | bigint | null;
  /** countDistinct: one byte per dictionary key, 1 where a visited row had it. */
  seen?: Uint8Array;
}

export const newAcc = (): Acc => ({ count: 0, sum: 0, min: null, max: null });

function lessThan(a: number | bigint, b: number | bigint): boolean {
  return a < b;
}

export function finish(a: Agg, acc: Acc, rows: number): Value {
  // Throws FastPathUnavailable when the steps overflow for the column's extremes.
  if (a.affine) return finish({ ...a, affine: undefined }, affineAcc(a.affine, a.kind!, acc), rows);
  switch (a.fn) {
    case "countDistinct": {
      let n = 0;
      for (const b of acc.seen ?? []) n += b;
      return BigInt(n);
    }
    case "count":
      // count(*) FILTER counts its passing rows in acc.count.
      return BigInt(a.col < 0 && a.filter === undefined ? rows : acc.count);
    case "sum":
      if (acc.count === 0) return null;
      if (a.returns.tag === "DOUBLE") return Number(acc.sum);
      if (a.returns.tag === "FLOAT") return Math.fround(Number(acc.sum));
      return BigInt.asIntN(64, BigInt(acc.sum));
    case "avg":
      return acc.count === 0 ? null : Number(acc.sum) / acc.count;
    case "min":
    case "max": {
      const v = a.fn === "min" ? acc.min : acc.max;
      if (v === null) return null;
      if (a.returns.tag === "DOUBLE" || a.returns.tag === "FLOAT") return Number(v);
      if (a.returns.tag === "INT" || a.returns.tag === "SHORT" || a.returns.tag === "BYTE") return Number(v);
      return BigInt(v);
    }
  }
}

/**
 * What one heap needs to scan partitions on its own (ARCHITECTURE.md "several heaps"): plain
 * data, so that it can be posted to a Worker. Symbol predicates arrive resolved to key tables
 * (one byte per dictionary key plus one for NULL), so a heap needs no dictionary.
 */
export interface HeapScan {
  /** Table column index of each scan column. */
  columnIndexes: number[];
  /** Type tag of each scan column. */
  tags: string[];
  intervals?: Interval[];
  preds: Pred[];
  /** Keyed: the FILTER conditions of aggregates (Agg.filter indexes them), each its conjuncts. */
  filters?: Pred[][];
  /**
   * Per leaf of the predicates and then of the filters (predLeaves order, `allPreds`): the key
   * table of a symbol leaf, else undefined.
   */
  keySets: (Uint8Array | undefined)[];
  key?: number;
  /** Dictionary size of the key column in the snapshot (0 when unkeyed). */
  keyCount: number;
  aggs: Agg[];
  /**
   * Rows [lo, hi) of partition p only: the worker pool cuts a partition between two heaps when
   * whole partitions would leave one with more rows than the other (worker_pool.ts `#split`).
   */
  rowSpans?: { p: number; lo: number; hi: number }[];
}

/** Partial aggregate states of one heap: per group slot, one Acc per aggregate, and its rows. */
export interface Partials {
  groups: Acc[][];
  rowsPerGroup: Float64Array;
}

/**
 * Runs the partial aggregation of a snapshot's partitions on other heaps (the worker pool);
 * undefined when it declines and the aggregate runs on this heap.
 */
export interface ParallelHeaps {
  aggregate(job: HeapScan, snap: TableSnapshot, ctx: ExecContext): Promise<Partials | undefined>;
}

/**
 * Runs the aggregate on the WASM kernels, its scan on the workers when the plan chose them;
 * undefined when the shape does not fit.
 */
export async function tryFastAggregate(
  n: AggregateNode,
  ctx: ExecContext,
  onWorkers: boolean,
): Promise<Batch | undefined> {
  const shape = fastShape(n);
  if (!shape) return undefined;
  const snap = snapshotOf(ctx, shape.scan.table);
  const job = heapScanOf(shape, snap);
  const partials = await shapePartials(shape, job, snap, ctx, onWorkers);
  try {
    return partials && finishBatch(n, shape, snap, partials);
  } catch (err) {
    // An affine argument that overflows within its column's range: the hash path evaluates it.
    if (err instanceof FastPathUnavailable) return undefined;
    throw err;
  }
}

/**
 * The merged partial states of a shape's job over its snapshot: on the worker heaps when the
 * plan chose them (`onWorkers`, fast_aggregate_parallel.ts) and they take it, from partition
 * statistics when the shape uses them, else on this heap; undefined when the WASM memory cannot
 * hold what the kernels need.
 */
export async function shapePartials(
  shape: Shape,
  job: HeapScan,
  snap: TableSnapshot,
  ctx: ExecContext,
  onWorkers: boolean,
): Promise<Partials | undefined> {
  const stats = usesPartitionStats(shape);
  let partials = ctx.parallel && onWorkers && !stats
    ? await ctx.parallel.aggregate(job, snap, ctx)
    : undefined;
  if (!partials && stats) {
    try {
      partials = await accumulateWithStats(job, snap, () => pace(ctx));
    } catch (err) {
      if (err instanceof FastPathUnavailable) return undefined;
      throw err;
    }
  }
  if (!partials) {
    const all = snap.partitions.map((_, i) => i);
    try {
      partials = blockMemoFits(job)
        ? await accumulateByBlocks(job, snap, () => pace(ctx))
        : await accumulatePartitions(job, { snap, partitions: all, yieldTurn: () => pace(ctx) });
    } catch (err) {
      if (err instanceof FastPathUnavailable) return undefined;
      throw err;
    }
  }
  return partials;
}

/**
 * Whether the aggregate answers whole partitions from partition statistics
 * (partition_stats.ts): a plan-time decision, shown by EXPLAIN.
 */
export function usesPartitionStats(s: Shape): boolean {
  // Statistics hold counts, sums and extremes, not a partition's keys.
  if (s.aggs.some((a) => a.fn === "countDistinct")) return false;
  return statsShapeFits({ preds: s.preds, key: s.key, aggs: s.aggs });
}

/** The WHERE conjuncts, then every FILTER condition's: the order of the job's key sets. */
function allPreds(s: { preds: Pred[]; filters?: Pred[][] }): Pred[] {
  return [...s.preds, ...(s.filters ?? []).flat()];
}

/** The cloneable job of a shape over a snapshot. */
export function heapScanOf(s: Shape, snap: TableSnapshot): HeapScan {
  const tableCol = (c: number) => s.scan.columnIndexes[c];
  // Symbol predicates become key tables once: keys are per table column, shared by partitions.
  const keySets = predLeaves(allPreds(s)).map((p) => {
    if (p.kind !== "sym") return undefined;
    const dict = snap.symbols(tableCol(p.col));
    const bytes = new Uint8Array(dict.size + 1).fill(p.not ? 1 : 0);
    for (const v of p.values) {
      const key = v === null ? dict.size : dict.keyOf(v);
      if (key !== undefined) bytes[key] = p.not ? 0 : 1;
    }
    return bytes;
  });
  return {
    columnIndexes: [...s.scan.columnIndexes],
    tags: s.scan.columns.map((c) => c.type.tag),
    intervals: s.scan.intervals,
    preds: s.preds,
    ...(s.filters.length ? { filters: s.filters } : {}),
    keySets,
    key: s.key,
    keyCount: s.key !== undefined ? snap.symbols(tableCol(s.key)).size : 0,
    aggs: s.aggs.map((a) =>
      a.fn === "countDistinct" ? { ...a, keyCount: snap.symbols(tableCol(a.col)).size } : a
    ),
  };
}

/** Empty partial states for a job. */
export function emptyPartials(job: HeapScan): Partials {
  const slots = job.key !== undefined ? job.keyCount + 1 : 1;
  return {
    groups: Array.from({ length: slots }, () => job.aggs.map(newAcc)),
    rowsPerGroup: new Float64Array(slots),
  };
}

/** Adds partial states `from` into `into` (same job). */
export function mergePartials(job: HeapScan, into: Partials, from: Partials): void {
  for (let slot = 0; slot < into.groups.length; slot++) {
    into.rowsPerGroup[slot] += from.rowsPerGroup[slot];
    mergeGroup(job, into.groups[slot], from.groups[slot]);
  }
}

/** Adds one group's partial states `from` into `into` (one Acc per aggregate of `job`). */
export function mergeGroup(job: Pick<HeapScan, "aggs">, into: Acc[], from: Acc[]): void {
  job.aggs.forEach((a, i) => {
    const acc = from[i], to = into[i];
    if (a.fn === "countDistinct") {
      if (!acc.seen) return;
      if (!to.seen) to.seen = acc.seen.slice();
      else for (let key = 0; key < to.seen.length; key++) to.seen[key] |= acc.seen[key];
      return;
    }
    if (acc.count === 0) return;
    to.count += acc.count;
    if (a.col < 0) return;
    if (typeof acc.sum === "bigint") {
      to.sum = exactAvg(a) ? BigInt(to.sum) + acc.sum : BigInt.asIntN(64, BigInt(to.sum) + acc.sum);
    } else to.sum = Number(to.sum) + acc.sum;
    if (acc.min !== null && (to.min === null || lessThan(acc.min, to.min))) to.min = acc.min;
    if (acc.max !== null && (to.max === null || lessThan(to.max, acc.max))) to.max = acc.max;
  });
}

/**
 * The partial aggregates of partitions `on.partitions` of `on.snap` on this heap's kernels: the
 * partition scan any heap can run on its own. Throws FastPathUnavailable when the WASM memory
 * cannot hold what the kernels need.
 */
export async function accumulatePartitions(
  job: HeapScan,
  on: { snap: TableSnapshot; partitions: number[]; yieldTurn?: () => Promise<void> },
): Promise<Partials> {
  const scratch = new Scratch();
  try {
    return await accumulateOn(
      job,
      on.snap,
      on.partitions,
      on.yieldTurn ?? (() => Promise.resolve()),
      scratch,
    );
  } finally {
    scratch.release();
  }
}

/** The scan columns a job reads: predicates, FILTER conditions, aggregate arguments, the key. */
export function scanColumnsRead(s: HeapScan): Set<number> {
  const needed = new Set<number>([
    ...predColumns(allPreds(s)),
    ...s.aggs.filter((a) => a.col >= 0).map((a) => a.col),
    ...s.aggs.flatMap((a) => (a.expr ? operandColumns(a.expr) : [])),
  ]);
  if (s.key !== undefined) needed.add(s.key);
  return needed;
}

async function accumulateOn(
  s: HeapScan,
  snap: TableSnapshot,
  partitions: number[],
  yieldTurn: () => Promise<void>,
  scratch: Scratch,
): Promise<Partials> {
  const k = kernels();
  const mem = wasmMemory();
  const tableCol = (c: number) => s.columnIndexes[c];
  const partials = emptyPartials(s);
  const { groups, rowsPerGroup } = partials;
  const symSets = s.keySets.map((bytes) => {
    if (!bytes) return 0;
    const set = scratch.alloc(bytes.length);
    mem.u8(set, bytes.length).set(bytes);
    return set;
  });
  const leafIndex = new Map(predLeaves(allPreds(s)).map((l, i) => [l, i]));
  const needed = scanColumnsRead(s);
  const width = (c: number) => (s.tags[c] === "SYMBOL" ? 4 : WIDTH[KIND[s.tags[c]]!]);
  // Keyed: one set of accumulators for the whole scan (flushed per range only for avg of LONG),
  // and one per FILTER condition, folding the rows that pass it.
  const folder = s.key !== undefined ? new KeyedFolder(s, scratch) : undefined;
  const filterFolders = (s.filters ?? []).map((_, f) => new KeyedFolder(s, scratch, f));
  const filterSels = (s.filters ?? []).map(() => ({ ptr: 0, rows: 0 }));
  for (const p of partitions) {
    await yieldTurn();
    const span = s.rowSpans?.find((x) => x.p === p);
    // A span without intervals is the rows to fold (block_partials.ts counts its ranges once).
    let ranges = span && !s.intervals ? [] : await partitionRanges(snap, p, s.intervals);
    if (span && !s.intervals) ranges = span.lo < span.hi ? [[span.lo, span.hi]] : [];
    else if (span) {
      ranges = ranges.map(([a, b]): [number, number] => [Math.max(a, span.lo), Math.min(b, span.hi)])
        .filter(([a, b]) => a < b);
    }
    if (!ranges.length) continue;
    const regions = new Map<number, number>();
    for (const c of needed) {
      const r = await snap.region(p, tableCol(c));
      if (!r) throw new FastPathUnavailable();
      regions.set(c, r.ptr);
    }
    for (const [from, to] of ranges) {
      const rowCount = to - from;
      const at = (c: number) => regions.get(c)! + from * width(c);
      let sel: number | undefined;
      let selCount = rowCount;
      const runner: PredRunner = {
        leaf(pr, rows, out) {
          if (pr.kind === "sym") {
            const i = leafIndex.get(pr)!;
            return runSymbolLeaf(pr, s.keySets[i]!, () => symSets[i], at(pr.col), rows, out, runner);
          }
          if (pr.type === "i64") {
            return k.filter("i64", {
              ...rows,
              data: at(pr.col),
              op: pr.op,
              value: pr.value as bigint | null,
              value2: pr.value2 as bigint | undefined,
              out,
            });
          }
          return k.filter(pr.type, {
            ...rows,
            data: at(pr.col),
            op: pr.op,
            value: pr.value as number | null,
            value2: pr.value2 as number | undefined,
            out,
          });
        },
        alloc: (bytes) => {
          const ptr = mem.alloc(Math.max(16, bytes));
          if (ptr < 0) throw new FastPathUnavailable();
          return ptr;
        },
        free: (ptr) => mem.free(ptr),
      };
      if (s.preds.length > 0) {
        sel = scratch.alloc(rowCount * 4);
        selCount = runPred({ kind: "and", all: s.preds }, { rowCount }, sel, runner);
      }
      if (selCount === 0) continue;
      const rows = sel === undefined ? { rowCount } : { rowCount, sel, selCount };
      if (!folder) {
        accumulateUnkeyed(s, groups[0], rows, at, scratch);
        rowsPerGroup[0] += selCount;
      } else {
        folder.add(rows, at);
        if (folder.perRange) folder.flush(groups, rowsPerGroup, { rows, at });
        filterFolders.forEach((ff, f) => {
          // The rows of this range passing the WHERE and the FILTER condition.
          const buf = filterSels[f];
          if (buf.rows < rowCount) buf.ptr = scratch.alloc((buf.rows = rowCount) * 4);
          const n = runPred({ kind: "and", all: s.filters![f] }, rows, buf.ptr, runner);
          if (n === 0) return;
          const passing = { rowCount, sel: buf.ptr, selCount: n };
          ff.add(passing, at);
          if (ff.perRange) ff.flush(groups, rowsPerGroup, { rows: passing, at });
        });
      }
    }
    // Folded into the accumulators: let the partition's columns leave the cache, so a table
    // larger than the cache budget streams through it instead of failing the fast path.
    snap.releasePartition?.(p);
  }
  if (folder && !folder.perRange) folder.flush(groups, rowsPerGroup);
  for (const ff of filterFolders) if (!ff.perRange) ff.flush(groups, rowsPerGroup);
  return partials;
}

/** The result batch of merged partial states. */
function finishBatch(n: AggregateNode, s: Shape, snap: TableSnapshot, partials: Partials): Batch {
  const { groups, rowsPerGroup } = partials;
  const types = n.columns.map((c) => c.type);
  if (s.key === undefined) {
    return rowsToBatch(types, [s.aggs.map((a, i) => finish(a, groups[0][i], rowsPerGroup[0]))]);
  }
  const keyCount = groups.length - 1;
  const dict = snap.symbols(s.scan.columnIndexes[s.key]);
  const out: Value[][] = [];
  const codes: number[] = [];
  for (let slot = 0; slot < groups.length; slot++) {
    if (rowsPerGroup[slot] === 0) continue;
    codes.push(slot === keyCount ? SYMBOL_NULL_KEY : slot);
    out.push([null, ...s.aggs.map((a, i) => finish(a, groups[slot][i], rowsPerGroup[slot]))]);
  }
  // The key stays the table's SYMBOL, codes and dictionary, as a scan gives it: a join, sort or
  // GROUP BY above keys on the codes (j3, trades JOIN quotes' per-symbol max: the keys as
  // strings made the join gather and the GROUP BY above hash a string per joined row).
  const batch = rowsToBatch(types, out);
  batch.columns[0] = { type: types[0], data: Int32Array.from(codes), dict };
  return batch;
}

type RowsArg = { rowCount: number; sel?: number; selCount?: number };

function accumulateUnkeyed(
  s: HeapScan,
  accs: Acc[],
  rows: RowsArg,
  at: (c: number) => number,
  scratch: Scratch,
): void {
  const k = kernels();
  const cache = new Map<
    number | string,
    { count: number; sum: number | bigint; min: number | bigint; max: number | bigint }
  >();
  s.aggs.forEach((a, i) => {
    if (a.col < 0) return;
    if (a.fn === "countDistinct") {
      distinctKeys(a, accs[i], rows, at(a.col), scratch);
      return;
    }
    if (a.expr) {
      // Aggregates of the same expression (sum and min of price - amount) share one pass.
      const key = exprKey(a.expr);
      let st = cache.get(key);
      if (!st) cache.set(key, st = exprStats(a.expr, rows, at, scratch));
      mergeStats(accs[i], st, a.expr.kind, exactAvg(a));
      return;
    }
    let st = cache.get(a.col);
    if (!st) {
      const kind = a.kind!;
      st = kind === "f64" || kind === "f32"
        ? k.stats(kind, { ...rows, data: at(a.col) })
        : k.stats(kind, { ...rows, data: at(a.col) });
      if (kind === "i64") st = { ...st, sum: trueSum(st, () => sumLongRows(...longRows(rows, at(a.col)))) };
      cache.set(a.col, st);
    }
    mergeStats(accs[i], st, a.kind!, exactAvg(a));
  });
}

/**
 * Marks in `acc.seen` the SYMBOL keys of the visited rows: the keyedCount kernel counts rows per
 * key (NULL and keys past the snapshot's dictionary go to the last slot, which count(DISTINCT)
 * leaves out).
 */
/** The counts block of each countDistinct aggregate, allocated once per scan's scratch. */
const distinctCounts = new WeakMap<Scratch, Map<Agg, number>>();

function distinctKeys(a: Agg, acc: Acc, rows: RowsArg, keys: number, scratch: Scratch): void {
  const keyCount = a.keyCount!;
  const slots = keyCount + 1;
  let perAgg = distinctCounts.get(scratch);
  if (!perAgg) distinctCounts.set(scratch, perAgg = new Map());
  let counts = perAgg.get(a);
  if (counts === undefined) perAgg.set(a, counts = scratch.alloc(slots * 8));
  const mem = wasmMemory();
  mem.i64(counts, slots).fill(0n);
  kernels().keyedCount({ ...rows, keys, keyCount, counts });
  const c = mem.i64(counts, slots);
  const seen = acc.seen ??= new Uint8Array(keyCount);
  for (let key = 0; key < keyCount; key++) if (c[key] !== 0n) seen[key] = 1;
}

/** Rows per `binop` chunk: 256 KiB of DOUBLEs, written and folded while in cache. */
const EXPR_CHUNK = 32_768;

/**
 * count/sum/min/max of an expression argument over the visited rows: per chunk, the `binop`
 * kernel writes each node's values into scratch memory (a selected column's rows first gathered
 * by `x * 1`), the `stats` kernel folds the root's, and the chunks' partial states add up in
 * order.
 */
function exprStats(
  e: ArgExpr,
  rows: RowsArg,
  at: (c: number) => number,
  scratch: Scratch,
): { count: number; sum: number | bigint; min: number | bigint; max: number | bigint } {
  const k = kernels();
  const long = e.kind === "i64";
  const visits = rows.sel === undefined ? rows.rowCount : rows.selCount!;
  const chunk = Math.min(visits, EXPR_CHUNK);
  const blocks = new Map<object, number>();
  const block = (owner: object) => {
    let p = blocks.get(owner);
    if (p === undefined) blocks.set(owner, p = scratch.alloc(chunk * 8));
    return p;
  };
  const evaluate = (node: ArgExpr, from: number, n: number): number => {
    if (rows.sel !== undefined && !("op" in node.a) && !("op" in node.b)) {
      // Columns and constants only: one pass reads the selected rows of both operands.
      const leaf = (o: ArgOperand) => ("col" in o ? { data: at(o.col) } : o as { value: number | bigint });
      const out = block(node);
      const sel = { rowCount: rows.rowCount, sel: rows.sel + from * 4, selCount: n };
      k.binop({ ...sel, kind: node.kind, op: node.op, a: leaf(node.a), b: leaf(node.b), out });
      return out;
    }
    const operand = (o: ArgOperand) => {
      if ("op" in o) return { data: evaluate(o, from, n) };
      if (!("col" in o)) return o;
      if (rows.sel === undefined) return { data: at(o.col) + from * 8 };
      const out = block(o);
      const sel = { rowCount: rows.rowCount, sel: rows.sel + from * 4, selCount: n };
      k.binop({ ...sel, kind: node.kind, op: "*", a: { data: at(o.col) }, b: { value: long ? 1n : 1 }, out });
      return { data: out };
    };
    const out = block(node);
    k.binop({ rowCount: n, kind: node.kind, op: node.op, a: operand(node.a), b: operand(node.b), out });
    return out;
  };
  let count = 0, sum: number | bigint = long ? 0n : 0;
  let min: number | bigint | null = null, max: number | bigint | null = null;
  for (let from = 0; from < visits; from += EXPR_CHUNK) {
    const n = Math.min(EXPR_CHUNK, visits - from);
    const data = evaluate(e, from, n);
    const st = long ? k.stats("i64", { data, rowCount: n }) : k.stats("f64", { data, rowCount: n });
    if (st.count === 0) continue;
    count += st.count;
    // LONG sums are kept exact here (avg() divides them); mergeStats wraps them for sum().
    sum = typeof st.sum === "bigint"
      ? (sum as bigint) + trueSum(st, () => sumLongRows(wasmMemory().i64(data, n)))
      : (sum as number) + st.sum;
    if (min === null || st.min < min) min = st.min;
    if (max === null || st.max > max) max = st.max;
  }
  const none = long ? LONG_NULL : NaN;
  return { count, sum, min: min ?? none, max: max ?? none };
}

/**
 * Folds one range's statistics into `acc`. LONG sums arrive exact (trueSum); sum() wraps them
 * at 64 bits as QuestDB's does, avg() (`exact`) keeps the true sum to divide.
 */
function mergeStats(
  acc: Acc,
  st: { count: number; sum: number | bigint; min: number | bigint; max: number | bigint },
  kind: NumericKind,
  exact = false,
): void {
  if (st.count === 0) return;
  acc.count += st.count;
  if (typeof st.sum === "bigint") {
    acc.sum = exact ? BigInt(acc.sum) + st.sum : BigInt.asIntN(64, BigInt(acc.sum) + st.sum);
  } else acc.sum = Number(acc.sum) + st.sum;
  const isNull = (v: number | bigint) =>
    (typeof v === "bigint" ? v === LONG_NULL : Number.isNaN(v)) || (kind === "i32" && v === -2147483648n);
  if (!isNull(st.min) && (acc.min === null || lessThan(st.min, acc.min))) acc.min = st.min;
  if (!isNull(st.max) && (acc.max === null || lessThan(acc.max, st.max))) acc.max = st.max;
}

/** avg() of LONG values: its sum must stay exact (mergeStats, mergePartials). */
function exactAvg(a: Agg): boolean {
  return a.fn === "avg" && (a.expr ? a.expr.kind === "i64" : a.kind === "i64");
}

/** The true sum of a range's LONG statistics (exact_long_sum.ts), or `again()` when ambiguous. */
function trueSum(
  st: { count: number; sum: number | bigint; min: number | bigint; max: number | bigint },
  again: () => bigint,
): bigint {
  const sum = st.sum as bigint;
  return exactLongSum(BigInt(st.count), sum, BigInt(st.min), BigInt(st.max)) ?? again();
}

/** A range's LONG column and its selected rows, as views (valid until WASM memory grows). */
function longRows(rows: RowsArg, data: number): [BigInt64Array, Int32Array | undefined] {
  const mem = wasmMemory();
  const sel = rows.sel === undefined ? undefined : mem.i32(rows.sel, rows.selCount!);
  return [mem.i64(data, rows.rowCount), sel];
}

/**
 * The keyed accumulators of one scan on this heap: the keyedFold kernel reads each row's key
 * once and folds up to KEYED_FOLD_COLUMNS value columns per pass (issue #16: one keyedStats pass
 * per column re-read the keys and computed extremes nobody asked for), adding range after range
 * into the same WASM arrays; `flush` turns them into partial states once per scan. A column
 * computes extremes only for min()/max(), or for avg() of LONG, whose exact sum is recovered
 * from a range's extremes (exact_long_sum.ts): then every range is flushed on its own.
 */
class KeyedFolder {
  readonly #s: HeapScan;
  readonly #folds: { col: number; kind: MeasureKind; extremes: boolean }[];
  readonly #slots: number;
  /** Rows visited per slot, one block per kernel pass (the first is count(*)). */
  readonly #rowBlocks: number[] = [];
  /** One KEYED_FOLD_SLOT_BYTES record per slot per fold. */
  readonly #accs: number[];
  /** Whether a range must be flushed before the next is added (avg() of LONG). */
  readonly perRange: boolean;
  /** The FILTER condition whose aggregates this folds (Agg.filter), or undefined: the others. */
  readonly #filter: number | undefined;
  /** Indexes into the job's aggregates of those this folds. */
  readonly #aggs: number[];

  constructor(s: HeapScan, scratch: Scratch, filter?: number) {
    this.#s = s;
    this.#filter = filter;
    this.#aggs = s.aggs.flatMap((a, i) => (a.filter === filter ? [i] : []));
    this.#folds = keyedFolds(this.#aggs.map((i) => s.aggs[i]));
    this.#slots = s.keyCount + 1;
    const passes = Math.max(1, Math.ceil(this.#folds.length / KEYED_FOLD_COLUMNS));
    for (let i = 0; i < passes; i++) this.#rowBlocks.push(scratch.alloc(this.#slots * 8));
    this.#accs = this.#folds.map(() => scratch.alloc(this.#slots * KEYED_FOLD_SLOT_BYTES));
    this.perRange = this.#aggs.some((i) => s.aggs[i].col >= 0 && exactAvg(s.aggs[i]));
    this.#reset();
  }

  /** Starts every slot empty: no rows, no NULLs, sum 0, extremes at their starting values. */
  #reset(): void {
    const mem = wasmMemory();
    const slots = this.#slots;
    for (const block of this.#rowBlocks) mem.i64(block, slots).fill(0n);
    this.#folds.forEach((f, fi) => {
      const acc = this.#accs[fi];
      mem.i64(acc, slots * 4).fill(0n);
      if (f.kind === "f64" || f.kind === "f32") {
        const v = mem.f64(acc, slots * 4);
        for (let at = 0; at < slots * 4; at += 4) {
          v[at + 2] = Infinity;
          v[at + 3] = -Infinity;
        }
      } else {
        const v = mem.i64(acc, slots * 4);
        for (let at = 0; at < slots * 4; at += 4) {
          v[at + 2] = LONG_MAX;
          v[at + 3] = LONG_NULL;
        }
      }
    });
  }

  /** Folds the visited rows of one range. */
  add(rows: RowsArg, at: (c: number) => number): void {
    const k = kernels();
    const keys = at(this.#s.key!), keyCount = this.#s.keyCount;
    if (this.#folds.length === 0) {
      k.keyedCount({ ...rows, keys, keyCount, counts: this.#rowBlocks[0] });
      return;
    }
    for (let from = 0; from < this.#folds.length; from += KEYED_FOLD_COLUMNS) {
      const columns = this.#folds.slice(from, from + KEYED_FOLD_COLUMNS).map((f, i) => ({
        kind: f.kind,
        data: at(f.col),
        acc: this.#accs[from + i],
        extremes: f.extremes,
      }));
      k.keyedFold({ ...rows, keys, keyCount, rows: this.#rowBlocks[from / KEYED_FOLD_COLUMNS], columns });
    }
  }

  /**
   * Adds what was folded since the last flush into the partials and starts over. `range`: the
   * one range folded (perRange), whose rows an ambiguous exact LONG sum is summed again from.
   */
  flush(
    groups: Acc[][],
    rowsPerGroup: Float64Array,
    range?: { rows: RowsArg; at: (c: number) => number },
  ): void {
    const mem = wasmMemory();
    const s = this.#s, slots = this.#slots, keyCount = s.keyCount;
    const rowCounts = mem.i64(this.#rowBlocks[0], slots);
    this.#folds.forEach((f, fi) => {
      const { col, kind } = f;
      const float = kind === "f64" || kind === "f32";
      const acc = this.#accs[fi];
      const i64 = mem.i64(acc, slots * 4), f64 = mem.f64(acc, slots * 4);
      const extreme = (v: bigint | number): number | bigint => (kind === "i32" ? Number(v) : v);
      const noValue = float ? NaN : LONG_NULL;
      this.#aggs.forEach((ai) => {
        const a = s.aggs[ai];
        if (a.col !== col) return;
        for (let slot = 0; slot < slots; slot++) {
          const n = Number(rowCounts[slot] - i64[slot * 4]);
          if (n === 0) continue;
          const min = f.extremes ? extreme(float ? f64[slot * 4 + 2] : i64[slot * 4 + 2]) : noValue;
          const max = f.extremes ? extreme(float ? f64[slot * 4 + 3] : i64[slot * 4 + 3]) : noValue;
          let sum: number | bigint = float ? f64[slot * 4 + 1] : i64[slot * 4 + 1];
          if (kind === "i64" && exactAvg(a)) {
            sum = trueSum({ count: n, sum, min, max }, () => {
              // Rare (values near +-2^62): this group's rows summed again; NULL keys and keys
              // past the dictionary fold into the last slot, as in keyedFold.
              const { rows, at } = range!;
              const keyOf = wasmMemory().i32(at(s.key!), rows.rowCount);
              const slotOf = (
                row: number,
              ) => (keyOf[row] < 0 || keyOf[row] >= keyCount ? keyCount : keyOf[row]);
              const [values, sel] = longRows(rows, at(col));
              return sumLongRows(values, sel, (row) => slotOf(row) === slot);
            });
          }
          mergeStats(groups[slot][ai], { count: n, sum, min, max }, kind, exactAvg(a));
        }
      });
    });
    if (this.#filter === undefined) {
      for (let i = 0; i < slots; i++) rowsPerGroup[i] += Number(rowCounts[i]);
    } else {
      // count(*) FILTER: the passing rows (groups exist by the unfiltered rows alone).
      for (const ai of this.#aggs) {
        if (s.aggs[ai].col >= 0) continue;
        for (let i = 0; i < slots; i++) groups[i][ai].count += Number(rowCounts[i]);
      }
    }
    this.#reset();
  }
}

/**
 * The value columns of keyed aggregates in first-use order, each with whether its aggregates need
 * extremes: min() or max(), or avg() of LONG (its exact sum is recovered from them).
 */
function keyedFolds(aggs: readonly Agg[]): { col: number; kind: MeasureKind; extremes: boolean }[] {
  const folds: { col: number; kind: MeasureKind; extremes: boolean }[] = [];
  for (const a of aggs) {
    if (a.col < 0) continue;
    let f = folds.find((x) => x.col === a.col);
    if (!f) folds.push(f = { col: a.col, kind: a.kind as MeasureKind, extremes: false });
    // An affine argument's answer is checked against overflow at the column's extremes.
    if (a.fn === "min" || a.fn === "max" || exactAvg(a) || a.affine) f.extremes = true;
  }
  return folds;
}
