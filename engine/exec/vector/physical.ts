/**
 * Physical operator choice (issue #16): which implementation runs a logical aggregate or a
 * sorted LIMIT. The choice is a pure function of the plan node, so EXPLAIN (plan/explain.ts)
 * prints exactly the operator the executor runs, and no operator is picked by trying another
 * first.
 *
 * | aggregate op | runs                                                                        |
 * | ------------ | --------------------------------------------------------------------------- |
 * | `wasm`       | fast_aggregate.ts: WASM kernels over the table's column memory (count/sum/   |
 * |              | avg/min/max of numeric columns, unkeyed or keyed by one SYMBOL column,      |
 * |              | filters of comparisons and OR/AND/NOT of them (keyed: also as aggregate     |
 * |              | FILTER (WHERE ...)); unkeyed also of DOUBLE                                 |
 * |              | `a op b` and count(DISTINCT) of a SYMBOL column, as a bitmap of its keys    |
 * |              | (EXPLAIN `distinct symbol keys`)); worker heaps if enabled;                 |
 * |              | unfiltered unkeyed count/sum/avg/min/max of columns answer whole partitions |
 * |              | from partition statistics (partition_stats.ts); over UNION ALL of such      |
 * |              | scans, branch by branch, merged by key value (union_aggregate.ts)           |
 * | `columnar`   | columnar_aggregate.ts: unkeyed count/sum/avg/min/max over any input         |
 * | `hash`       | vector/hash_aggregate.ts: every other GROUP BY (any keys, any aggregate)    |
 * | `rows`       | aggregate.ts: row at a time, the reference the differential tests compare   |
 *
 * `wasm` needs its columns in WASM memory; when the column cache cannot place them there the
 * same query runs on `hash` instead (a memory condition, not a shape decision).
 *
 * A sort under a LIMIT with constant bounds whose rows come from the start (`LIMIT n`,
 * `LIMIT a, b` with a, b >= 0, `LIMIT n OFFSET m`) becomes a top-N keeping those rows, up to
 * TOP_N_KEEP_MAX of them; beyond, a radix sort orders and gathers only the window (radix_window.ts).
 * Any other sort whose keys are numbers, times, symbols or strings is a radix sort of a row
 * permutation (radix_sort.ts); keys of other types sort rows (sort.ts).
 */
import type { LimitSpec, PlanNode } from "../../plan/plan_node.ts";
import { limitWindow } from "../limit.ts";
import { columnarPlan } from "../columnar_aggregate.ts";
import { fastShape, usesPartitionStats } from "../fast_aggregate.ts";
import { blockMemoSetting, blockMemoShapeFits } from "../block_partials.ts";
import { unionShapes } from "../union_aggregate.ts";
import { RADIX_KEY_TYPES } from "./radix_sort.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;

export type AggregateOp = "wasm" | "columnar" | "hash" | "rows";

let reference = false;

/**
 * Forces the row-at-a-time reference operators (aggregate `rows`, full sorts). For the
 * differential tests, which run each query both ways; never set in production.
 */
export function setReferenceExecution(on: boolean): void {
  reference = on;
}

/** Whether the reference operators are forced (batch expression forms are off too). */
export function referenceExecution(): boolean {
  return reference;
}

export function aggregateOp(n: AggregateNode): AggregateOp {
  if (reference) return "rows";
  // fastShape takes count(DISTINCT) of a SYMBOL column (unkeyed) and no other DISTINCT.
  if (fastShape(n)) return "wasm";
  // GROUP BY over UNION ALL of scans: each branch a `wasm` shape, merged by key value.
  if (unionShapes(n)) return "wasm";
  if (columnarPlan(n)) return "columnar";
  return "hash";
}

/**
 * Whether a `wasm` aggregate answers whole partitions from partition statistics
 * (partition_stats.ts); EXPLAIN adds `partition stats` to the operator.
 */
export function aggregatePartitionStats(n: AggregateNode): boolean {
  if (aggregateOp(n) !== "wasm") return false;
  const shape = fastShape(n);
  // Over UNION ALL: when any branch answers from statistics.
  return shape ? usesPartitionStats(shape) : (unionShapes(n) ?? []).some(usesPartitionStats);
}

/**
 * Whether a `wasm` aggregate folds partitions on this heap in memoized blocks
 * (block_partials.ts) when the worker heaps do not take it; EXPLAIN adds `block memo`.
 */
export function aggregateBlockMemo(n: AggregateNode): boolean {
  if (aggregateOp(n) !== "wasm") return false;
  const shape = fastShape(n);
  return blockMemoSetting.enabled && shape !== undefined && !usesPartitionStats(shape) &&
    blockMemoShapeFits(shape);
}

/**
 * Whether a `wasm` aggregate counts DISTINCT values of a SYMBOL column beside its other
 * aggregates as a bitmap of the column's keys per heap (fast_aggregate.ts); EXPLAIN adds
 * `distinct symbol keys` to the operator.
 */
export function aggregateDistinctKeys(n: AggregateNode): boolean {
  const shape = aggregateOp(n) === "wasm" ? fastShape(n) : undefined;
  return shape !== undefined && shape.aggs.some((a) => a.fn === "countDistinct");
}

/**
 * The aggregates of a `wasm` aggregate whose argument folds as its column (affine_arg.ts:
 * `min(qty * 2 + 1)` from the extremes of qty); EXPLAIN adds `affine args: ...`.
 */
export function aggregateAffineArgs(n: AggregateNode): string[] {
  const shape = aggregateOp(n) === "wasm" ? fastShape(n) : undefined;
  return shape ? shape.aggs.flatMap((a, i) => (a.affine ? [n.aggs[i].name] : [])) : [];
}

/**
 * Branches of the UNION ALL a `wasm` aggregate reads branch by branch (union_aggregate.ts), 0
 * for any other aggregate; EXPLAIN adds `union branches N`.
 */
export function aggregateUnionBranches(n: AggregateNode): number {
  if (aggregateOp(n) !== "wasm" || fastShape(n)) return 0;
  return unionShapes(n)?.length ?? 0;
}

export const AGGREGATE_OP_LABEL: Record<AggregateOp, string> = {
  wasm: "wasm kernels",
  columnar: "columnar",
  hash: "vectorized hash",
  rows: "row at a time",
};

type DistinctNode = Extract<PlanNode, { kind: "distinct" }>;

/** SELECT DISTINCT: the hash (hash_distinct.ts) or the row-at-a-time reference (distinct.ts). */
export function distinctOp(_n: DistinctNode): "hash" | "rows" {
  return reference ? "rows" : "hash";
}

type LimitNode = Extract<PlanNode, { kind: "limit" }>;
type SortNode = Extract<PlanNode, { kind: "sort" }>;

/** A full sort: the radix sort of a permutation (radix_sort.ts) or rows (sort.ts). */
export function sortOp(n: SortNode): "radix" | "rows" {
  if (reference) return "rows";
  return n.keys.every((k) => RADIX_KEY_TYPES.has(n.columns[k.index].type.tag)) ? "radix" : "rows";
}

export const SORT_OP_LABEL = { radix: "radix permutation", rows: "row at a time" } as const;

/**
 * The sort under a LIMIT that runs as a top-N, reached through projections of plain columns
 * (they keep rows one for one: ORDER BY an expression sorts a widened row and narrows after),
 * and how many rows it keeps; undefined for a full sort.
 */
export function topNOf(limit: LimitNode): { sort: SortNode; keep: number } | undefined {
  const keep = topNKeep(limit.limit);
  if (keep === undefined) return undefined;
  let n = limit.input;
  while (n.kind === "project" && n.exprs.every((e) => e.kind === "column")) n = n.input;
  if (n.kind !== "sort") return undefined;
  // A top-N holding more rows than this is slower than sorting every row by radix.
  return keep > TOP_N_KEEP_MAX && sortOp(n) === "radix" ? undefined : { sort: n, keep };
}

/** The most rows a top-N keeps; larger windows are cut from a radix sort (sortWindowOf). */
export const TOP_N_KEEP_MAX = 8192;

/**
 * The radix sort under a LIMIT keeping rows [skip, stop) from the start that answers the LIMIT
 * itself (radix_window.ts: only the rows that can be in the window are ordered and gathered),
 * reached through projections of plain columns; undefined when the LIMIT is a top-N or other.
 */
export function sortWindowOf(limit: LimitNode): { sort: SortNode; skip: number; stop: number } | undefined {
  if (reference || topNOf(limit)) return undefined;
  const w = constantHead(limit.limit);
  if (w === undefined) return undefined;
  let n = limit.input;
  while (n.kind === "project" && n.exprs.every((e) => e.kind === "column")) n = n.input;
  return n.kind === "sort" && sortOp(n) === "radix" ? { sort: n, skip: w.skip, stop: w.stop } : undefined;
}

/** Rows a top-N must keep under `limit` (skip included), or undefined for a full sort. */
export function topNKeep(limit: LimitSpec): number | undefined {
  return reference ? undefined : constantHead(limit)?.stop;
}

/** The rows [skip, stop) kept from the start by a LIMIT of constant bounds, stop finite. */
function constantHead(limit: LimitSpec): { skip: number; stop: number } | undefined {
  const c = (e: LimitSpec["lo"]) => {
    if (e === null) return undefined;
    if (e.kind !== "const") return NaN;
    const v = e.value;
    return v === null
      ? null
      : typeof v === "bigint"
      ? Number(v)
      : typeof v === "number"
      ? Math.trunc(v)
      : NaN;
  };
  const lo = c(limit.lo), hi = c(limit.hi), offset = c(limit.offset);
  if ([lo, hi, offset].some((x) => typeof x === "number" && Number.isNaN(x))) return undefined;
  const w = limitWindow(lo, hi, limit.comma, offset);
  return w.kind === "head" && Number.isFinite(w.stop) ? w : undefined;
}
