/**
 * Evaluating correlated subqueries (issue 10). Evaluators are synchronous and plans run
 * asynchronously, so the subquery cannot run inside the evaluator: the node's input batches
 * pass through `prefetchCorrelated` (correlated_prefetch.ts) first, which runs the subquery
 * once per distinct combination of outer values and caches the result here; the evaluator
 * then only looks the result up. Errors (a scalar subquery with two rows) are cached too and
 * thrown only when the row is really evaluated, so a CASE branch not taken cannot fail.
 */
import { SqlError } from "../base/errors.ts";
import type { Batch, Value } from "../base/values.ts";
import { hashKey } from "../functions/value_compare.ts";
import type { BoundExpr } from "../plan/bound.ts";
import { normKey } from "../plan/bind_expr.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import type { ExecContext } from "./exec_context.ts";

type Evaluator = (b: Batch, row: number) => Value;
export type CorrelatedExpr = Extract<BoundExpr, { kind: "subquery" | "inSubquery" | "exists" }>;

/** A subquery result for one combination of outer values. */
export type CorrelatedResult =
  | { kind: "scalar"; value: Value }
  | { kind: "set"; keys: Set<unknown> }
  | { kind: "exists"; any: boolean }
  | { kind: "error"; error: unknown };

/** Inside a correlated subquery's run: the value of outer slot `slot`, constant for the run. */
export function outerValue(slot: number, ctx: ExecContext): Evaluator {
  const values = ctx.outerValues;
  if (!values || slot >= values.length) {
    throw new SqlError("correlated column reference outside its subquery", -1);
  }
  const v = values[slot];
  return () => v;
}

export function resultCache(ctx: ExecContext, plan: PlanNode): Map<string, unknown> {
  ctx.correlated ??= new Map();
  let cache = ctx.correlated.get(plan);
  if (!cache) ctx.correlated.set(plan, cache = new Map());
  return cache;
}

export function outerKey(values: Value[]): string {
  return hashKey(values);
}

export function correlatedEvaluator(
  e: CorrelatedExpr,
  ctx: ExecContext,
  compile: (e: BoundExpr, ctx: ExecContext) => Evaluator,
): Evaluator {
  const args = e.outer!.map((o) => compile(o, ctx));
  const cache = resultCache(ctx, e.plan);
  const tested = e.kind === "inSubquery" ? compile(e.arg, ctx) : undefined;
  const not = e.kind === "inSubquery" && e.not;
  const pos = e.kind === "subquery" ? e.pos : -1;
  return (b, i) => {
    const r = cache.get(outerKey(args.map((a) => a(b, i)))) as CorrelatedResult | undefined;
    // Only filters, projections and aggregates prefetch (run_plan.ts); elsewhere there is no result.
    if (!r) {
      throw new SqlError(
        "correlated subqueries are only supported in WHERE, the select list and aggregate arguments",
        pos,
      );
    }
    switch (r.kind) {
      case "error":
        throw r.error;
      case "scalar":
        return r.value;
      case "exists":
        return r.any;
      case "set":
        return r.keys.has(normKey(tested!(b, i))) !== not;
    }
  };
}
