/**
 * `touch(SELECT ...)`: reads the pages a table query would read and answers how many, as the
 * STRING `{"data_pages": n, "index_key_pages":k, "index_values_pages": v}` (QuestDB's
 * TouchTableFunctionFactory, spelling included). Only a query QuestDB can run as page frames
 * qualifies: a forward scan of a table, its designated-timestamp intervals and a choice of its
 * columns; anything else (a filter, an expression, a join) is refused at the query.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import type { BindContext } from "./bind_expr.ts";
import type { BoundExpr } from "./bound.ts";
import { type PlanNode, shape } from "./plan_node.ts";
import { TOUCH_GENERATOR } from "../catalog/touch.ts";

export function bindTouch(arg: A.ScalarSubquery, ctx: BindContext): BoundExpr {
  const frames = pageFrameSource(ctx.planSubquery(arg.query));
  if (!frames) {
    throw new SqlError("query does not support framing execution and cannot be pre-touched", arg.pos);
  }
  const args: Value[] = [frames.table, frames.columnIndexes.join(","), ...(frames.intervals ?? [])];
  const plan: PlanNode = {
    ...shape([{ name: "touch", type: T.STRING }]),
    kind: "generator",
    name: TOUCH_GENERATOR,
    args,
  };
  return { kind: "subquery", type: T.STRING, plan, pos: arg.pos };
}

type Scan = Extract<PlanNode, { kind: "scan" }>;

/** The table scan `plan` is, seen through projections that only pick its columns. */
function pageFrameSource(plan: PlanNode): Scan | undefined {
  if (plan.kind === "scan") return plan.reverse ? undefined : plan;
  if (plan.kind !== "project") return undefined;
  const scan = pageFrameSource(plan.input);
  if (!scan || plan.exprs.some((e) => e.kind !== "column")) return undefined;
  const picked = plan.exprs.map((e) => scan.columnIndexes[(e as { index: number }).index]);
  return { ...scan, columnIndexes: picked };
}
