/**
 * A LIMIT keeping rows [skip, stop) from the start of a radix sort (physical.ts sortWindowOf):
 * the sort orders only the rows that can fall in the window and gathers only those
 * (radix_sort.ts `SortWindow`), so `ORDER BY price LIMIT 5 OFFSET 1000000` reads the key
 * digits of every row but sorts and materialises a handful. Column projections between the
 * LIMIT and the sort keep rows one for one and run on the window's rows.
 */
import type { Batch } from "../../base/values.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import type { ExecContext } from "../exec_context.ts";
import { runProject } from "../project.ts";
import { runRadixSort, type SortWindow } from "./radix_sort.ts";

type SortNode = Extract<PlanNode, { kind: "sort" }>;
type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;

/** Runs `n` (the LIMIT's input) with `sort` below it cut to `window`; the LIMIT is then done. */
export function runSortWindow(
  n: PlanNode,
  sort: SortNode,
  window: SortWindow,
  ctx: ExecContext,
  run: Runner,
): AsyncGenerator<Batch> {
  if (n === sort) return runRadixSort(sort, run(sort.input, ctx), ctx, window);
  if (n.kind !== "project") throw new Error("runSortWindow: only column projections lie above the sort");
  return runProject(n, runSortWindow(n.input, sort, window, ctx, run), ctx);
}
