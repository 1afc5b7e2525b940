/**
 * Rewrite: ORDER BY the designated timestamp needs no sort. Ascending, the data already comes
 * in that order; descending, the scan reads backwards from the newest rows, so that
 * `ORDER BY ts DESC LIMIT n` reads only the last n rows (ARCHITECTURE.md "Time-series
 * shortcuts"). Applies through projections, filters and the left side of joins down to a table
 * scan.
 */
import type { PlanNode } from "./plan_node.ts";

/** The same plan reading its scan backwards, or undefined when the chain has other nodes. */
export function reversed(n: PlanNode): PlanNode | undefined {
  switch (n.kind) {
    case "scan":
      return { ...n, reverse: !n.reverse };
    case "filter": {
      const input = reversed(n.input);
      return input && { ...n, input };
    }
    case "project": {
      const input = reversed(n.input);
      return input && { ...n, input };
    }
    // A window computes each partition in its own ORDER BY, so reading backwards changes only
    // which of the rows tied on that order comes first: QuestDB scans backwards below its window
    // too (WindowFunctionTest#testAggregateFunctionsOverPartitionByBooleanExpr: `ORDER BY ts
    // DESC` around `avg(val) OVER (... ORDER BY ts DESC)` counts equal timestamps newest first).
    case "window": {
      const input = reversed(n.input);
      return input && { ...n, input };
    }
    // INNER, LEFT and CROSS joins emit rows in left-input order (exec/join.ts, hash_join.ts),
    // so reading the left side backwards reverses the output by the left timestamp, each left
    // row still followed by its right rows in their order: QuestDB's cross join scans its left
    // table backwards for `ORDER BY ts DESC LIMIT n` and stops after n rows
    // (SqlOptimiserTest#testOrderingOfSortsInSingleTimestampCase).
    case "join": {
      if (n.type !== "inner" && n.type !== "left" && n.type !== "cross") return undefined;
      const left = reversed(n.left);
      return left && { ...n, left };
    }
    default:
      return undefined;
  }
}

/**
 * For a sort whose only key is the designated timestamp of `input`: the plan that produces
 * that order without sorting, or undefined.
 */
export function orderByTimestamp(
  input: PlanNode,
  keys: { index: number; desc: boolean }[],
): PlanNode | undefined {
  if (keys.length !== 1 || input.timestampIndex < 0 || keys[0].index !== input.timestampIndex) {
    return undefined;
  }
  if (!keys[0].desc) return reversed(input) ? input : undefined;
  const r = reversed(input);
  return r && { ...r, timestampIndex: -1 };
}
