/** The plan printer EXPLAIN uses (and tests compare): one line per node, indented by depth. */
import type { PlanNode } from "./plan_node.ts";
import { formatTicks } from "../functions/format_value.ts";
// The physical choice is the executor's; EXPLAIN asks the same function that decides it.
import {
  AGGREGATE_OP_LABEL,
  aggregateAffineArgs,
  aggregateBlockMemo,
  aggregateDistinctKeys,
  aggregateOp,
  aggregatePartitionStats,
  aggregateUnionBranches,
  distinctOp,
  referenceExecution,
  SORT_OP_LABEL,
  sortOp,
  sortWindowOf,
  topNOf,
} from "../exec/vector/physical.ts";

// Whether an aggregate runs on the worker heaps was chosen for this plan (Engine, before EXPLAIN).
import { denseKeysOf, parallelOf, partitionedOf } from "../exec/vector/hash_parallel.ts";
import { denseIdsShape } from "../exec/vector/dense_ids.ts";
import { sampleByOp } from "../exec/sample_by_parallel.ts";
import { parallelKernelsOf } from "../exec/fast_aggregate_parallel.ts";
import { filterOp } from "../exec/filter.ts";
import { batchForm } from "../exec/vector/batch_eval.ts";
import { parallelTopNNotes, parallelTopNOf } from "../exec/vector/top_n_parallel.ts";
import { joinOp } from "../exec/hash_join.ts";
import { parallelProbeOf } from "../exec/vector/join_parallel.ts";
import { latestOp } from "../exec/latest_by.ts";
import { windowOpLabel } from "../exec/window.ts";
import { setOpOp } from "../exec/setop.ts";
import { rowAccumulatorAggs } from "../exec/vector/agg_kind.ts";

/** The sort a LIMIT cuts: a top-N of `keep` rows, or a radix sort's window [skip, keep). */
type LimitedSort = { sort: PlanNode; keep: number; skip?: number };

export function explainPlan(n: PlanNode, depth = 0, topN?: LimitedSort): string[] {
  const pad = "    ".repeat(depth);
  const line = pad + describe(n, topN);
  // The sort a LIMIT turns into a top-N, as the executor decides it (run_plan.ts).
  if (n.kind === "limit") {
    const w = sortWindowOf(n);
    topN = topNOf(n) ?? (w && { sort: w.sort, keep: w.stop, skip: w.skip });
  }
  const inputs: PlanNode[] = "input" in n ? [n.input] : "left" in n ? [n.left, n.right] : [];
  if (n.kind === "aggregate" && aggregateUnionBranches(n) > 0) {
    return [line, ...unionBranches(n.input, depth + 1)];
  }
  return [line, ...inputs.flatMap((i) => explainPlan(i, depth + 1, topN))];
}

/** The UNION ALL under an aggregate that reads it branch by branch (union_aggregate.ts). */
function unionBranches(n: PlanNode, depth: number): string[] {
  if (n.kind !== "setop") return explainPlan(n, depth);
  return [
    `${"    ".repeat(depth)}Union All [per branch]`,
    ...[n.left, n.right].flatMap((i) => unionBranches(i, depth + 1)),
  ];
}

/** Up to this many intervals are listed; more are counted. */
const INTERVALS_LISTED = 4;

/**
 * A scan's intervals: listed (QuestDB's `intervals: [('lo', 'hi')]`) when few and the
 * timestamp's unit is known, else counted; before Bind, the parameter conjuncts they come from.
 */
function scanIntervals(n: Extract<PlanNode, { kind: "scan" }>): string {
  if (n.paramIntervals) {
    const fixed = n.intervals ? `${n.intervals.length} and ` : "";
    return ` intervals: ${fixed}[${n.paramIntervals.join(", ")}]`;
  }
  if (!n.intervals) return "";
  const ts = n.timestampIndex >= 0 ? n.columns[n.timestampIndex].type.tag : undefined;
  if (!ts || n.intervals.length > INTERVALS_LISTED) return ` intervals: ${n.intervals.length}`;
  const unit = ts === "TIMESTAMP_NS" ? "ns" : "us";
  const end = (t: bigint) => t <= MIN_TICKS ? "MIN" : t >= MAX_TICKS ? "MAX" : `'${formatTicks(t, unit)}'`;
  return ` intervals: [${n.intervals.map((iv) => `(${end(iv.lo)}, ${end(iv.hi)})`).join(", ")}]`;
}

const MIN_TICKS = -(2n ** 63n) + 1n;
const MAX_TICKS = 2n ** 63n - 1n;

function describe(n: PlanNode, topN?: LimitedSort): string {
  switch (n.kind) {
    case "scan":
      return `DataFrame table: ${n.table} columns: ${n.columns.map((c) => c.name).join(",")}` +
        `${scanIntervals(n)}${n.reverse ? " backward" : ""}`;
    case "filter": {
      // Kernels, else one generated loop per batch, else the row evaluator (compile_expr.ts).
      const op = filterOp(n) ?? (batchForm(n.predicate, "select") ? "batch loop" : "row");
      return `Filter [${op}]`;
    }
    case "project": {
      // Computed columns the row evaluator runs (the others run as batch loops or pass through).
      const rows = n.exprs.flatMap((e, c) =>
        e.kind === "column" || (batchForm(e, "value") && e.type.tag === n.columns[c].type.tag)
          ? []
          : [n.columns[c].name]
      );
      const computed = n.exprs.some((e) => e.kind !== "column");
      const mark = rows.length ? ` [row: ${rows.join(",")}]` : computed ? " [batch loops]" : "";
      return `VirtualRecord columns: ${n.columns.map((c) => c.name).join(",")}${mark}`;
    }
    case "aggregate": {
      // A `wasm kernels` aggregate's scans on the workers, or a hash aggregation's.
      const workers = parallelKernelsOf(n) || parallelOf(n);
      const stats = aggregatePartitionStats(n)
        ? ", partition stats"
        : aggregateBlockMemo(n)
        ? ", block memo"
        : "";
      const distinctKeys = aggregateDistinctKeys(n) ? ", distinct symbol keys" : "";
      const affine = aggregateAffineArgs(n);
      const affineArgs = affine.length ? `, affine args: ${affine.join(",")}` : "";
      const branches = aggregateUnionBranches(n) ? `, union branches ${aggregateUnionBranches(n)}` : "";
      // Dense keys: the workers' fused loop, or this heap's direct table of group ids (dense_ids.ts).
      const dense = denseKeysOf(n) || (!workers && aggregateOp(n) === "hash" && denseIdsShape(n))
        ? ", dense keys"
        : "";
      // The hash aggregation's aggregates that run on row-at-a-time accumulators (agg_kind.ts).
      const rowAccs = aggregateOp(n) === "hash" ? rowAccumulatorAggs(n.aggs) : [];
      const accs = rowAccs.length ? `, row accumulators: ${rowAccs.join(",")}` : "";
      const op = ` [${AGGREGATE_OP_LABEL[aggregateOp(n)]}${stats}${distinctKeys}${affineArgs}${branches}${
        workers ? `, ${partitionedOf(n) ? "radix" : "parallel"} ${workers}` : ""
      }${dense}${accs}]`;
      return (n.keys.length
        ? `GroupBy keys: ${n.keys.length} values: ${n.aggs.map((a) => a.name).join(",")}`
        : `GroupBy values: ${n.aggs.map((a) => a.name).join(",")}`) + op;
    }
    case "sort": {
      const keys = n.keys.map((k) => n.columns[k.index].name + (k.desc ? " desc" : "")).join(",");
      if (topN?.sort === n && topN.skip !== undefined) {
        return `Sort [${SORT_OP_LABEL[sortOp(n)]}, rows ${topN.skip}..${topN.keep}] keys: ${keys}`;
      }
      return topN?.sort === n
        ? `Top N ${parallelLabel(parallelTopNOf(n))}keys: ${keys} keep: ${topN.keep}${parallelTopNNotes(n)}`
        : `Sort [${SORT_OP_LABEL[sortOp(n)]}] keys: ${keys}`;
    }
    case "limit":
      return "Limit";
    case "distinct":
      return `Distinct [${AGGREGATE_OP_LABEL[distinctOp(n)]}${
        parallelOf(n) ? `, ${partitionedOf(n) ? "radix" : "parallel"} ${parallelOf(n)}` : ""
      }${denseKeysOf(n) ? ", dense keys" : ""}]`;
    case "setop":
      return `${n.op[0].toUpperCase()}${n.op.slice(1)}${n.all ? " All" : ""} [${setOpOp(n)}${
        parallelOf(n) ? `, parallel ${parallelOf(n)}` : ""
      }]`;
    case "join":
      return `${n.type[0].toUpperCase()}${n.type.slice(1)} Join (${joinOp(n)}${
        parallelProbeOf(n) ? ", parallel probe" : ""
      })`;
    case "lateral":
      return `Lateral ${n.type[0].toUpperCase()}${
        n.type.slice(1)
      } Join (per outer values: ${n.outer.length})`;
    case "sampleBy": {
      // The hash path is the hash aggregation, with its row accumulators (agg_kind.ts).
      const op = sampleByOp(n);
      const rowAccs = op.startsWith("hash") && !referenceExecution() ? rowAccumulatorAggs(n.spec.aggs) : [];
      return `SampleBy [${op}${rowAccs.length ? `, row accumulators: ${rowAccs.join(",")}` : ""}]`;
    }
    case "window":
      return `Window [${windowOpLabel(n)}]`;
    case "latestBy":
      return `LatestBy [${latestOp(n)}]`;
    case "longSequence":
      return "long_sequence";
    case "setFunction":
      return n.calls.map((c) => c.name).join(", ");
    default:
      return n.kind[0].toUpperCase() + n.kind.slice(1);
  }
}

/** `[parallel N] ` for an operator chosen to run on N worker heaps, else nothing. */
function parallelLabel(workers: number): string {
  return workers ? `[parallel ${workers}] ` : "";
}
