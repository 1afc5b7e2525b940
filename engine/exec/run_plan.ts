/**
 * Runs a plan tree as a pull pipeline: each node is an async generator of batches pulling
 * from its inputs. Batches handed downstream must not be mutated.
 */
import { SqlError } from "../base/errors.ts";
import type { Batch } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { runAggregate } from "./aggregate.ts";
import { correlatedOf, prefetchCorrelated } from "./correlated_prefetch.ts";
import { runDistinct } from "./distinct.ts";
import type { ExecContext } from "./exec_context.ts";
import { runFilter } from "./filter.ts";
import { bindParamIntervals } from "./param_intervals.ts";
import { runJoin } from "./join.ts";
import { joinKeyFamilies, joinOp, runHashJoin } from "./hash_join.ts";
import { runLimit } from "./limit.ts";
import { runProject } from "./project.ts";
import { runScan } from "./scan.ts";
import { runSetOp } from "./setop.ts";
import { runSort } from "./sort.ts";
import { distinctOp, sortOp, sortWindowOf, topNOf } from "./vector/physical.ts";
import { runSortWindow } from "./vector/radix_window.ts";
import { runRadixSort } from "./vector/radix_sort.ts";
import { runHashDistinct } from "./vector/hash_distinct.ts";
import { parallelOf, runParallelHash } from "./vector/hash_parallel.ts";
import { runTopN } from "./vector/top_n.ts";
import { parallelTopNOf, runParallelTopN } from "./vector/top_n_parallel.ts";
import { runSetFunction } from "./set_function.ts";
import { runGenerator, runLongSequence, runRows, runValues } from "./sources.ts";

type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;
const extensions = new Map<string, (n: PlanNode, ctx: ExecContext, run: Runner) => AsyncGenerator<Batch>>();

/** Lets later operators (SAMPLE BY, LATEST ON, ASOF, window) plug in without touching this file. */
export function registerOperator(
  kind: string,
  run: (n: PlanNode, ctx: ExecContext, run: Runner) => AsyncGenerator<Batch>,
): void {
  extensions.set(kind, run);
}

export async function* runPlan(plan: PlanNode, ctx: ExecContext): AsyncGenerator<Batch> {
  // `ts > $1` over a scan becomes the scan's intervals for this execution's values (the
  // Engine binds them before choosing operators; other callers, a worker heap, get it here).
  const n = bindParamIntervals(plan, ctx);
  switch (n.kind) {
    case "scan":
      yield* runScan(n, ctx);
      return;
    case "values":
      yield* runValues(n, ctx);
      return;
    case "rows":
      yield* runRows(n);
      return;
    case "longSequence":
      yield* runLongSequence(n, ctx);
      return;
    case "generator":
      yield* runGenerator(n, ctx);
      return;
    case "setFunction":
      yield* runSetFunction(n, ctx);
      return;
    case "filter":
      yield* runFilter(n, withCorrelated(n, ctx), ctx);
      return;
    case "project":
      yield* runProject(n, withCorrelated(n, ctx), ctx);
      return;
    case "aggregate":
      yield* runAggregate(n, () => withCorrelated(n, ctx), ctx);
      return;
    case "sort":
      if (sortOp(n) === "radix") yield* runRadixSort(n, runPlan(n.input, ctx), ctx);
      else yield* runSort(n, runPlan(n.input, ctx), ctx);
      return;
    case "limit": {
      // A sort under a LIMIT keeping the first rows is a top-N (vector/physical.ts).
      const top = topNOf(n);
      // A wider window is cut from a radix sort, which then answers the LIMIT itself.
      const window = top ? undefined : sortWindowOf(n);
      if (window) {
        yield* runSortWindow(n.input, window.sort, window, ctx, runPlan);
        return;
      }
      yield* runLimit(n, top ? runAbove(n.input, top.sort, top.keep, ctx) : runPlan(n.input, ctx), ctx);
      return;
    }
    case "distinct":
      if (distinctOp(n) === "hash") {
        // Chosen for this plan (EXPLAIN shows it): morsels on the worker heaps, merged here.
        const merged = parallelOf(n) ? await runParallelHash(n, ctx) : undefined;
        if (merged) yield* merged;
        else yield* runHashDistinct(runPlan(n.input, ctx), ctx);
      } else yield* runDistinct(n, runPlan(n.input, ctx), ctx);
      return;
    case "setop":
      yield* runSetOp(n, runPlan(n.left, ctx), runPlan(n.right, ctx), ctx);
      return;
    case "join": {
      const families = joinOp(n) === "vectorized hash" ? joinKeyFamilies(n) : undefined;
      if (families) yield* runHashJoin(n, families, runPlan(n.left, ctx), runPlan(n.right, ctx), ctx);
      else yield* runJoin(n, runPlan(n.left, ctx), runPlan(n.right, ctx), ctx);
      return;
    }
    default: {
      const ext = extensions.get(n.kind);
      if (!ext) throw new SqlError(`operator not supported yet: ${n.kind}`, -1);
      yield* ext(n, ctx, runPlan);
    }
  }
}

/** Runs `n` with the sort `sort` below it (through column projections) as a top-N of `keep` rows. */
function runAbove(
  n: PlanNode,
  sort: Extract<PlanNode, { kind: "sort" }>,
  keep: number,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  if (n === sort) {
    const single = () => runTopN(sort, keep, runPlan(sort.input, ctx), ctx);
    // Chosen for this plan (EXPLAIN shows it): morsels on the worker heaps, merged here.
    return parallelTopNOf(sort) ? runParallelTopN(sort, keep, ctx, single) : single();
  }
  if (n.kind !== "project") return runPlan(n, ctx);
  return runProject(n, runAbove(n.input, sort, keep, ctx), ctx);
}

/** A node's input, with the correlated subqueries of the node run ahead of each batch. */
function withCorrelated(
  n: Extract<PlanNode, { kind: "filter" | "project" | "aggregate" }>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const input = runPlan(n.input, ctx);
  const subs = correlatedOf(n);
  return subs.length ? prefetchCorrelated(subs, input, ctx, runPlan) : input;
}
