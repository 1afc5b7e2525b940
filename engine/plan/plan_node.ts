/**
 * Physical plan nodes: an immutable tree that `engine/exec` runs as a pull pipeline of
 * batches. Column references inside a node's expressions index the columns of its input
 * (for joins: left columns, then right columns).
 */
import type { ColumnType } from "../base/types.ts";
import type { Interval, Value } from "../base/values.ts";
import type { AggregateBinding } from "../functions/registry_types.ts";
import type { BoundExpr } from "./bound.ts";

export interface OutputColumn {
  name: string;
  type: ColumnType;
  /** A projected untyped NULL (`SELECT null x`): a function reading it gets the NULL literal (scope.ts). */
  untypedNull?: boolean;
}

interface Base {
  columns: OutputColumn[];
  /** Index of the designated timestamp in `columns`, or -1. */
  timestampIndex: number;
}

/** One set-returning call of a `setFunction` node (plan_set_function.ts); arguments read when it runs. */
export interface SetCall {
  name: "unnest" | "generate_subscripts" | "generate_series" | "unnest_array" | "unnest_json" | "ordinality";
  args: BoundExpr[];
  type: ColumnType;
  /** unnest of a catalog vector (INT elements), not of a text array; unnest_json: a scalar element is read too. */
  vector: boolean;
  /** unnest_json: the field read from each element. */
  path?: string;
}

export interface AggregateCall {
  name: string;
  binding: AggregateBinding;
  args: BoundExpr[];
  /** Aggregate FILTER (WHERE ...) over the input row. */
  filter?: BoundExpr;
  /** Offset of the call in the SQL text, for errors its running state raises. */
  pos?: number;
}

/**
 * LIMIT bounds as written (spec/sql.md §7.8), resolved to numbers (null = absent).
 * `comma` tells `LIMIT n` (lo only) from `LIMIT a, b`.
 */
export interface LimitSpec {
  lo: BoundExpr | null;
  hi: BoundExpr | null;
  comma: boolean;
  offset: BoundExpr | null;
  /** Where `lo` starts in the text: QuestDB points there for `LIMIT <negative>, <positive>`. */
  loPos?: number;
}

export type JoinType = "inner" | "left" | "right" | "full" | "cross";

export type PlanNode =
  | (Base & {
    kind: "scan";
    table: string;
    /** Table column indexes read, in output order. */
    columnIndexes: number[];
    /** Designated-timestamp intervals to read (sorted, merged, inclusive); undefined = all. */
    intervals?: Interval[];
    /**
     * EXPLAIN before Bind: the `ts <op> $n` conjuncts of the filter above whose values become
     * intervals when the statement runs (exec/param_intervals.ts).
     */
    paramIntervals?: string[];
    /** Read newest rows first (ORDER BY ts DESC). */
    reverse: boolean;
  })
  | (Base & { kind: "values"; rows: BoundExpr[][] })
  | (Base & { kind: "rows"; rows: Value[][] })
  | (Base & { kind: "longSequence"; count: BoundExpr; seed?: [BoundExpr, BoundExpr] })
  | (Base & { kind: "generator"; name: string; args: Value[] })
  | (Base & { kind: "setFunction"; calls: SetCall[] })
  | (Base & {
    kind: "filter";
    input: PlanNode;
    predicate: BoundExpr;
    /**
     * Columns only the predicate reads (nothing above does): the filter leaves them ungathered
     * in the batches it emits (exec/filter.ts). Set by column pruning.
     */
    unread?: number[];
  })
  | (Base & { kind: "project"; input: PlanNode; exprs: BoundExpr[] })
  | (Base & { kind: "aggregate"; input: PlanNode; keys: BoundExpr[]; aggs: AggregateCall[] })
  | (Base & { kind: "sort"; input: PlanNode; keys: { index: number; desc: boolean }[] })
  | (Base & { kind: "limit"; input: PlanNode; limit: LimitSpec })
  | (Base & { kind: "distinct"; input: PlanNode })
  | (Base & {
    kind: "setop";
    op: "union" | "except" | "intersect";
    all: boolean;
    left: PlanNode;
    right: PlanNode;
  })
  | (Base & {
    kind: "join";
    type: JoinType;
    left: PlanNode;
    right: PlanNode;
    /** Equality keys [left column, right column] usable for a hash join. */
    equi: [number, number][];
    /** Remaining condition over left ++ right columns. */
    condition?: BoundExpr;
  })
  | (Base & {
    /**
     * LATERAL JOIN (spec/sql.md §11.6): `right` runs once per distinct combination of the
     * `outer` values of a left row (its outer slots, read as `ctx.outerValues`), and its rows
     * join that left row. Columns: left, then right.
     */
    kind: "lateral";
    type: "inner" | "left" | "cross";
    left: PlanNode;
    right: PlanNode;
    /** Per outer slot of `right`: the expression over the left row that fills it. */
    outer: BoundExpr[];
    /** The ON condition over left ++ right columns. */
    condition?: BoundExpr;
    /** LEFT: the right columns of a left row without right rows (NULL, 0 for counts). */
    unmatched?: Value[];
  })
  | (Base & {
    kind: "asof";
    type: "asof" | "lt" | "splice";
    left: PlanNode;
    right: PlanNode;
    leftKeys: number[];
    rightKeys: number[];
    /** Designated timestamps of both inputs (column indexes of each side). */
    leftTs: number;
    rightTs: number;
    /** TOLERANCE in the joined timestamps' ticks (µs, or ns when either side is TIMESTAMP_NS). */
    toleranceTicks?: bigint;
    /**
     * Right columns (indexes of the right input) nothing above the join reads: kept for the
     * merge (keys, timestamp) but not gathered per output row. Set by column pruning.
     */
    rightUnused?: number[];
  })
  | (Base & {
    kind: "latestBy";
    input: PlanNode;
    keys: BoundExpr[];
    /** The LATEST ON timestamp column of the input. */
    tsIndex: number;
    /** Applied to the latest rows (QuestDB evaluates `within` after LATEST ON). */
    post?: BoundExpr;
    /**
     * Set for QuestDB's "LatestBy light" (a subquery or CTE input with random access, see
     * plan_latest_on.ts): the rows come out in the order their keys first appear in the input,
     * and the result has no designated timestamp. The value is the LATEST ON query's position,
     * where QuestDB reports that timestamp missing to a parent needing it.
     */
    keyOrder?: number;
    /**
     * Columns nothing above reads (nor `post`): the hashed operators leave them unread in the
     * rows they emit (zeros), as they only key and order by the others. Set by column pruning.
     */
    unused?: number[];
  })
  | (Base & { kind: "window"; input: PlanNode; windows: WindowCall[] })
  | (Base & { kind: "sampleBy"; input: PlanNode; spec: SampleBySpec });

export interface WindowCall {
  name: string;
  args: BoundExpr[];
  partitionBy: BoundExpr[];
  orderBy: { expr: BoundExpr; desc: boolean }[];
  /** Offsets: rows for ROWS frames, microseconds for RANGE frames (undefined = unbounded). */
  frame: {
    unit: "rows" | "range";
    start: { kind: string; offset?: number | bigint };
    end: { kind: string; offset?: number | bigint };
    excludeCurrent: boolean;
  };
  ignoreNulls: boolean;
  type: ColumnType;
  /** Where the call is written: the runtime errors of a window function point there. */
  pos?: number;
  /** Where its first argument is written (a DECIMAL sum's overflow points there). */
  argPos?: number;
}

export type FillSpec =
  | { kind: "none" | "null" | "prev" | "linear" }
  | { kind: "value"; value: Value }
  /** FILL(PREV(alias)): the previous bucket's value of aggregate `index`. */
  | { kind: "prevOf"; index: number }
  /** FILL(PREV(k)) naming key `index`: the filled row's own key value. */
  | { kind: "key"; index: number };

/** SAMPLE BY after binding: keys and aggregates over the input, bucketing options. */
export interface SampleBySpec {
  tsIndex: number;
  stride: number;
  unit: string;
  keys: BoundExpr[];
  aggs: AggregateCall[];
  /** One option per aggregate (empty = FILL(NONE)). */
  fill: FillSpec[];
  alignFirstObservation: boolean;
  timeZone?: string;
  offsetMicros: bigint;
  from?: bigint;
  to?: bigint;
  /**
   * The designated timestamp is TIMESTAMP_NS: rows carry nanoseconds while the grid, FROM/TO
   * and the offset stay in microseconds (sample_by_buckets.ts converts at the edge).
   */
  nanos?: boolean;
  /**
   * FILL(PREV) buckets before the first data row read zero, not NULL: a non-keyed query whose FROM
   * is not a literal runs on QuestDB's older cursor, whose previous values start at zero
   * (SampleByTest#testFillPrevConsistency: `FROM timestamp_floor(...)`, `fill(0, prev)`).
   */
  prevStartsAtZero?: boolean;
}

/**
 * The position of a LATEST ON query whose rows come in key order without a designated timestamp
 * (`keyOrder`), seen through projections, filters and limits; undefined for any other node.
 */
export function timestampLostByLatest(node: PlanNode): number | undefined {
  let n = node;
  while (n.kind === "project" || n.kind === "filter" || n.kind === "limit") n = n.input;
  return n.kind === "latestBy" ? n.keyOrder : undefined;
}

/** The output shape helper used by the planner. */
export function shape(columns: OutputColumn[], timestampIndex = -1): Base {
  return { columns, timestampIndex };
}

/**
 * Calls `fn` on every node of `plan`, each before its inputs (a join's left before its right),
 * with the node it is an input of: the walk the planner's marking passes share.
 */
export function forEachPlanNode(
  plan: PlanNode,
  fn: (n: PlanNode, parent?: PlanNode) => void,
  parent?: PlanNode,
): void {
  fn(plan, parent);
  if ("input" in plan) forEachPlanNode(plan.input, fn, plan);
  if ("left" in plan) {
    forEachPlanNode(plan.left, fn, plan);
    forEachPlanNode(plan.right, fn, plan);
  }
}
