/**
 * Finds the designated timestamp of rows read newest first, which the plan shape no longer
 * names as designated.
 */
import type { PlanNode } from "./plan_node.ts";

/**
 * The column of a plan ordered by its designated timestamp descending (`ORDER BY ts DESC`, a
 * backward scan), or -1. Our plan drops the designated timestamp of such rows where QuestDB keeps
 * it and scans backwards, so SUBSAMPLE (SubsampleTest#testFallbackSortDescendingInput) and twap()'s
 * order check (twap_checks.ts) find it here.
 */
export function descendingTimestamp(n: PlanNode): number {
  switch (n.kind) {
    case "scan":
      return n.reverse ? n.timestampIndex : -1;
    case "sort": {
      const k = n.keys[0];
      const ts = n.input.timestampIndex >= 0 ? n.input.timestampIndex : descendingTimestamp(n.input);
      return k?.desc && k.index === ts ? ts : -1;
    }
    case "filter":
    case "limit":
      return descendingTimestamp(n.input);
    case "project": {
      const i = descendingTimestamp(n.input);
      return i < 0 ? -1 : n.exprs.findIndex((e) => e.kind === "column" && e.index === i);
    }
    default:
      return -1;
  }
}
