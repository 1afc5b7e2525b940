/** The plan printer EXPLAIN uses (and tests compare): one line per node, indented by depth. */
import type { PlanNode } from "./plan_node.ts";
// The physical choice is the executor's; EXPLAIN asks the same function that decides it.
import {
  AGGREGATE_OP_LABEL,
  aggregateOp,
  distinctOp,
  SORT_OP_LABEL,
  sortOp,
  topNOf,
} from "../exec/vector/physical.ts";

// Whether an aggregate runs on the worker heaps was chosen for this plan (Engine, before EXPLAIN).
import { parallelOf } from "../exec/vector/hash_parallel.ts";
import { parallelSampleByOf } from "../exec/sample_by_parallel.ts";
import { parallelTopNOf } from "../exec/vector/top_n_parallel.ts";

export function explainPlan(n: PlanNode, depth = 0, topN?: { sort: PlanNode; keep: number }): string[] {
  const pad = "    ".repeat(depth);
  const line = pad + describe(n, topN);
  // The sort a LIMIT turns into a top-N, as the executor decides it (run_plan.ts).
  if (n.kind === "limit") topN = topNOf(n);
  const inputs: PlanNode[] = "input" in n ? [n.input] : "left" in n ? [n.left, n.right] : [];
  return [line, ...inputs.flatMap((i) => explainPlan(i, depth + 1, topN))];
}

function describe(n: PlanNode, topN?: { sort: PlanNode; keep: number }): string {
  switch (n.kind) {
    case "scan":
      return `DataFrame table: ${n.table} columns: ${n.columns.map((c) => c.name).join(",")}` +
        `${n.intervals ? ` intervals: ${n.intervals.length}` : ""}${n.reverse ? " backward" : ""}`;
    case "filter":
      return "Filter";
    case "project":
      return `VirtualRecord columns: ${n.columns.map((c) => c.name).join(",")}`;
    case "aggregate": {
      const workers = parallelOf(n);
      const op = ` [${AGGREGATE_OP_LABEL[aggregateOp(n)]}${workers ? `, parallel ${workers}` : ""}]`;
      return (n.keys.length
        ? `GroupBy keys: ${n.keys.length} values: ${n.aggs.map((a) => a.name).join(",")}`
        : `GroupBy values: ${n.aggs.map((a) => a.name).join(",")}`) + op;
    }
    case "sort": {
      const keys = n.keys.map((k) => n.columns[k.index].name + (k.desc ? " desc" : "")).join(",");
      return topN?.sort === n
        ? `Top N ${parallelLabel(parallelTopNOf(n))}keys: ${keys} keep: ${topN.keep}`
        : `Sort [${SORT_OP_LABEL[sortOp(n)]}] keys: ${keys}`;
    }
    case "limit":
      return "Limit";
    case "distinct":
      return `Distinct [${AGGREGATE_OP_LABEL[distinctOp(n)]}${
        parallelOf(n) ? `, parallel ${parallelOf(n)}` : ""
      }]`;
    case "join":
      return `${n.type[0].toUpperCase()}${n.type.slice(1)} Join${
        n.equi.length ? " (hash)" : " (nested loop)"
      }`;
    case "lateral":
      return `Lateral ${n.type[0].toUpperCase()}${
        n.type.slice(1)
      } Join (per outer values: ${n.outer.length})`;
    case "sampleBy": {
      const workers = parallelSampleByOf(n);
      return workers ? `SampleBy [parallel ${workers}]` : "SampleBy";
    }
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
