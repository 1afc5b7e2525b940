/**
 * The vectorized hash aggregation over a table scan as morsels on the worker heaps (issue #17):
 * each morsel (a partition's row range) is grouped on a worker into a partial hash table (key
 * values per group, and per aggregate a count and a partial value in typed arrays, transferred
 * back), and the main thread merges the partials in morsel order. Morsels are contiguous row
 * ranges in table order and each partial lists its groups in first-appearance order, so the
 * merged groups come out in the order the single-heap operator (hash_aggregate.ts) gives.
 *
 * The shape: GROUP BY plain columns (SYMBOL, text, numbers, times, BOOLEAN, CHAR) of a forward
 * table scan (designated-timestamp intervals allowed, no other filter), aggregates
 * count(*)/count/sum/avg/min/max of numeric or time columns without FILTER or DISTINCT. Other
 * aggregates and inputs stay on the main thread.
 *
 * The choice is made per plan (`markParallelHash`, called by the engine after column pruning,
 * before EXPLAIN prints and before execution), so EXPLAIN shows `[vectorized hash, parallel N]`
 * exactly when the operator runs on N workers. While the workers run, the main thread only
 * waits on messages: its event loop serves other clients.
 *
 * What runs on a worker is `hashPartialOf`, plain data in and out (the job and the morsel);
 * avg travels as sum and count, and integer sums as exact 64-bit sums.
 */
import { BATCH_ROWS_MAX } from "../../base/limits.ts";
import { type ColumnType, T } from "../../base/types.ts";
import {
  type Batch,
  type Interval,
  LONG_NULL,
  nullValueOf,
  type Value,
  type Vector,
} from "../../base/values.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import type { Storage, TableSnapshot } from "../../storage/api.ts";
import { rowsToBatches } from "../batch_util.ts";
import { charge, checkCancelled, type ExecContext, snapshotOf } from "../exec_context.ts";
import { partitionRanges } from "../scan.ts";
import { NativeAgg, type NativeFn, nativeFnOf } from "./agg_states.ts";
import { isDistinct } from "./hash_aggregate.ts";
import { IntPairHash } from "./int_hash.ts";
import { KeyIds } from "./key_ids.ts";
import { aggregateOp } from "./physical.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;
type ScanNode = Extract<PlanNode, { kind: "scan" }>;

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

/** One aggregate of a job: its native form over scan column `col` (-1: count(*)). */
export interface HashJobAgg {
  fn: Exclude<NativeFn, "countDistinct">;
  col: number;
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
  /** Scan column of each key. */
  keys: number[];
  aggs: HashJobAgg[];
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
 * The groups of one morsel: per key, the key value of each group (SYMBOL keys as dictionary
 * codes, which the main snapshot turns into text); per aggregate, the non-NULL rows and the
 * partial value of each group (sum, min or max; absent for counts).
 */
export interface HashPartial {
  groups: number;
  keys: Value[][];
  counts: Float64Array[];
  values: (Float64Array | BigInt64Array | undefined)[];
}

/** The worker side of a pool, as the executor sees it (engine/parallel/worker_pool.ts). */
export interface ParallelHash {
  readonly workers: number;
  /** Rows a table must hold for a hash aggregation over it to go to the workers. */
  readonly hashRowsMin: number;
  /** Every core is busy now: plans keep their aggregations on the main thread. */
  readonly busy?: boolean;
  /** Partials of every morsel in order, or undefined when the workers cannot run it. */
  hashPartials(job: HashJob, snap: TableSnapshot, ctx: ExecContext): Promise<HashPartial[] | undefined>;
}

interface Shape {
  scan: ScanNode;
  job: HashJob;
}

/** The job of an aggregate the workers can run, or undefined. */
export function parallelHashShape(n: AggregateNode): Shape | undefined {
  if (aggregateOp(n) !== "hash" || n.keys.length === 0) return undefined;
  const scan = n.input;
  if (scan.kind !== "scan" || scan.reverse) return undefined;
  const keys: number[] = [];
  for (const k of n.keys) {
    if (k.kind !== "column" || !KEY_TAGS.has(scan.columns[k.index].type.tag)) return undefined;
    keys.push(k.index);
  }
  const aggs: HashJobAgg[] = [];
  for (const a of n.aggs) {
    if (a.filter || isDistinct(a) || a.args.length > 1) return undefined;
    const arg = a.args[0];
    if (arg && (arg.kind !== "column" || !ARG_TAGS.has(scan.columns[arg.index].type.tag))) return undefined;
    const argTag = arg ? scan.columns[arg.index].type.tag : undefined;
    const fn = nativeFnOf(a.name, arg?.type, false);
    if (!fn || fn === "countDistinct") return undefined;
    const returns = a.binding.returns;
    const wide = fn === "avg"
      ? !["FLOAT", "DOUBLE"].includes(argTag!)
      : (fn === "sum" || fn === "min" || fn === "max") && WIDE_TAGS.has(returns.tag);
    aggs.push({ fn, col: arg ? arg.index : -1, argTag, returns, wide });
  }
  return {
    scan,
    job: {
      columnIndexes: [...scan.columnIndexes],
      types: scan.columns.map((c) => c.type),
      intervals: scan.intervals,
      keys,
      aggs,
    },
  };
}

/** Workers each parallel aggregate node runs on, as chosen for its plan. */
const chosen = new WeakMap<PlanNode, number>();

/**
 * Marks the aggregates of `plan` that run on the workers: the shape fits, the pool has
 * workers, the machine has a core to spare (the pool is not `busy`) and the table holds at
 * least `hashRowsMin` rows now. A plan kept by a statement cache keeps its choice.
 */
export function markParallelHash(plan: PlanNode, pool: ParallelHash | undefined, storage: Storage): void {
  if (!pool || pool.workers === 0 || pool.busy) return;
  const visit = (n: PlanNode) => {
    if (n.kind === "aggregate") {
      const shape = parallelHashShape(n);
      if (shape) {
        const snap = storage.table(shape.scan.table)?.snapshot();
        const rows = snap?.rowCount ?? 0;
        snap?.release();
        if (rows >= pool.hashRowsMin) chosen.set(n, pool.workers);
      }
    }
    if ("input" in n) visit(n.input);
    if ("left" in n) {
      visit(n.left);
      visit(n.right);
    }
  };
  visit(plan);
}

/** Workers the plan chose for this aggregate (0: it runs on the main thread). */
export function parallelOf(n: PlanNode): number {
  return chosen.get(n) ?? 0;
}

// ---- on a worker heap ----

/** Groups the rows of one morsel of `snap` (a worker's snapshot of the same committed state). */
export async function hashPartialOf(job: HashJob, snap: TableSnapshot, m: Morsel): Promise<HashPartial> {
  const keyIds = job.keys.map(() => new KeyIds());
  const folds = job.keys.slice(1).map(() => new IntPairHash());
  // avg travels as its sum; FLOAT sums stay doubles until the merged total is rounded once.
  const aggs = job.aggs.map((a) => {
    const summed = a.fn === "avg" || a.fn === "sum";
    return new NativeAgg(
      a.fn === "avg" ? "sum" : a.fn,
      summed && a.returns.tag === "FLOAT" ? T.DOUBLE : a.returns,
    );
  });
  const groupKeyIds: number[][] = job.keys.map(() => []);
  const cols = [...new Set([...job.keys, ...job.aggs.filter((a) => a.col >= 0).map((a) => a.col)])];
  let groups = 0;
  let gids = new Int32Array(0), fold = new Int32Array(0), ids = new Int32Array(0);
  let perKey: Int32Array[] = [];
  for (const piece of m.pieces) {
    const ranges = (await partitionRanges(snap, piece.p, job.intervals))
      .map(([a, b]): [number, number] => [Math.max(a, piece.lo), Math.min(b, piece.hi)])
      .filter(([a, b]) => b > a);
    for (const range of ranges) await groupRange(piece.p, range);
  }
  async function groupRange(p: number, [from, to]: [number, number]): Promise<void> {
    for (let at = from; at < to; at += BATCH_ROWS_MAX) {
      const end = Math.min(to, at + BATCH_ROWS_MAX), rows = end - at;
      const vectors = new Map<number, Vector>();
      for (const c of cols) {
        const v = await snap.read(p, job.columnIndexes[c], at, end);
        // A worker's snapshot has no dictionaries: SYMBOL keys group by their codes (KeyIds
        // takes a dictionary-less SYMBOL vector as codes).
        vectors.set(c, job.types[c].tag === "SYMBOL" ? { type: T.SYMBOL, data: v.data } : v);
      }
      if (gids.length < rows) {
        gids = new Int32Array(rows);
        fold = new Int32Array(rows);
        ids = new Int32Array(rows);
        perKey = job.keys.map(() => new Int32Array(rows));
      }
      if (job.keys.length === 1) {
        keyIds[0].map(vectors.get(job.keys[0])!, rows, gids);
        groups = keyIds[0].size;
      } else {
        groups = foldKeys(job.keys.map((k) => vectors.get(k)!), rows, keyIds, folds, perKey, gids, fold, ids);
        recordFirst(groupKeyIds, perKey, gids, rows, groups);
      }
      job.aggs.forEach((a, i) => {
        aggs[i].reserve(groups);
        aggs[i].add(gids, rows, a.col >= 0 ? vectors.get(a.col) : undefined, undefined);
      });
    }
  }
  const keys = job.keys.map((_, k) =>
    job.keys.length === 1
      ? keyIds[0].values.slice(0, groups)
      : groupKeyIds[k].map((id) => keyIds[k].values[id])
  );
  const counts: Float64Array[] = [];
  const values: (Float64Array | BigInt64Array | undefined)[] = [];
  job.aggs.forEach((a, i) => {
    const st = aggs[i];
    st.reserve(groups);
    const count = new Float64Array(groups);
    for (let g = 0; g < groups; g++) count[g] = st.countOf(g);
    counts.push(count);
    if (a.fn === "count" || a.fn === "count*") {
      values.push(undefined);
      return;
    }
    if (a.wide) {
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
  return { groups, keys, counts, values };
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
 * Runs the aggregate on the workers and answers its batches, or undefined when the pool
 * declines (no workers running, the snapshot is not a plain table's): the caller then runs it
 * on this heap.
 */
export async function runParallelHash(n: AggregateNode, ctx: ExecContext): Promise<Batch[] | undefined> {
  const pool = ctx.parallel as Partial<ParallelHash> | undefined;
  const shape = parallelHashShape(n);
  if (!shape || !pool?.hashPartials) return undefined;
  const { job } = shape;
  const snap = snapshotOf(ctx, shape.scan.table);
  const partials = await pool.hashPartials(job, snap, ctx);
  if (!partials) return undefined;
  checkCancelled(ctx);
  const dicts = job.keys.map((c) =>
    job.types[c].tag === "SYMBOL" ? snap.symbols(job.columnIndexes[c]) : undefined
  );
  const keyIds = job.keys.map(() => new KeyIds());
  const folds = job.keys.slice(1).map(() => new IntPairHash());
  const groupKeyIds: number[][] = job.keys.map(() => []);
  const counts = job.aggs.map(() => [] as number[]);
  const values = job.aggs.map(() => [] as (number | bigint)[]);
  let groups = 0;
  const groupBytes = 16 * job.keys.length + 24 * job.aggs.length;
  for (const p of partials) {
    const rows = p.groups;
    if (rows === 0) continue;
    const vectors: Vector[] = p.keys.map((vs, k) => {
      const dict = dicts[k];
      const data = dict
        ? vs.map((code) => code === null ? null : dict.valueOf(code as number))
        : vs.map((x) => (x === 0 ? 0 : x)); // -0 and 0 are one key, as on one heap
      return { type: job.types[job.keys[k]], data };
    });
    const gids = new Int32Array(rows);
    const before = groups;
    if (job.keys.length === 1) {
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
    charge(ctx, (groups - before) * groupBytes);
    job.aggs.forEach((a, i) => mergeAgg(a, counts[i], values[i], p.counts[i], p.values[i], gids, rows));
  }
  const types = n.columns.map((c) => c.type);
  const out: Value[][] = new Array(groups);
  for (let g = 0; g < groups; g++) {
    const row: Value[] = new Array(job.keys.length + job.aggs.length);
    for (let k = 0; k < job.keys.length; k++) {
      row[k] = keyIds[k].values[job.keys.length === 1 ? g : groupKeyIds[k][g]];
    }
    job.aggs.forEach((a, i) => row[job.keys.length + i] = finish(a, counts[i][g] ?? 0, values[i][g]));
    out[g] = row;
  }
  return [...rowsToBatches(types, out)];
}

function mergeAgg(
  a: HashJobAgg,
  counts: number[],
  values: (number | bigint)[],
  pc: Float64Array,
  pv: Float64Array | BigInt64Array | undefined,
  gids: Int32Array,
  rows: number,
): void {
  for (let i = 0; i < rows; i++) {
    const g = gids[i], c = pc[i];
    const had = counts[g] ?? 0;
    counts[g] = had + c;
    if (c === 0 || !pv) continue;
    const v = pv[i];
    if (had === 0) {
      values[g] = v;
      continue;
    }
    const cur = values[g];
    if (a.fn === "sum" || a.fn === "avg") {
      values[g] = typeof v === "bigint" ? BigInt.asIntN(64, (cur as bigint) + v) : (cur as number) + v;
    } else if (a.fn === "min" ? v < cur : v > cur) {
      // Ties keep the earlier value, as one heap's strict comparison does.
      values[g] = v;
    }
  }
}

function finish(a: HashJobAgg, count: number, v: number | bigint | undefined): Value {
  if (a.fn === "count" || a.fn === "count*") return BigInt(count);
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
