/** The plan printer EXPLAIN uses (and tests compare): one line per node, indented by depth. */
import type { PlanNode } from "./plan_node.ts";

export function explainPlan(n: PlanNode, depth = 0): string[] {
  const pad = "    ".repeat(depth);
  const line = pad + describe(n);
  const inputs: PlanNode[] = "input" in n ? [n.input] : "left" in n ? [n.left, n.right] : [];
  return [line, ...inputs.flatMap((i) => explainPlan(i, depth + 1))];
}

function describe(n: PlanNode): string {
  switch (n.kind) {
    case "scan":
      return `DataFrame table: ${n.table} columns: ${n.columns.map((c) => c.name).join(",")}` +
        `${n.intervals ? ` intervals: ${n.intervals.length}` : ""}${n.reverse ? " backward" : ""}`;
    case "filter":
      return "Filter";
    case "project":
      return `VirtualRecord columns: ${n.columns.map((c) => c.name).join(",")}`;
    case "aggregate":
      return n.keys.length
        ? `GroupBy keys: ${n.keys.length} values: ${n.aggs.map((a) => a.name).join(",")}`
        : `GroupBy values: ${n.aggs.map((a) => a.name).join(",")}`;
    case "sort":
      return `Sort keys: ${n.keys.map((k) => n.columns[k.index].name + (k.desc ? " desc" : "")).join(",")}`;
    case "limit":
      return "Limit";
    case "join":
      return `${n.type[0].toUpperCase()}${n.type.slice(1)} Join${
        n.equi.length ? " (hash)" : " (nested loop)"
      }`;
    case "longSequence":
      return "long_sequence";
    default:
      return n.kind[0].toUpperCase() + n.kind.slice(1);
  }
}
