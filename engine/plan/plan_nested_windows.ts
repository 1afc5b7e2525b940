/**
 * Window functions inside an aggregate's arguments, `SELECT sym, max(avg(x) OVER ()) FROM t
 * GROUP BY sym`: QuestDB 9 accepts them (questdb#6954, #6955) by putting a select-window layer
 * between the grouping and the filtered rows, so the window functions see every row the WHERE
 * keeps and the aggregates then fold their values. The query is split the same way here: an
 * inner SELECT over the same FROM and WHERE outputs every column plus each nested window call as
 * a hidden column, and the outer SELECT groups those rows with the calls replaced by the columns.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { mapChildExprs, someExpr } from "../sql/expr_walk.ts";
import { exprKey } from "../sql/printer.ts";
import { isAggregateCall } from "./bind_expr.ts";
import { baseName } from "./column_names.ts";
import type { PlanContext } from "./plan_context.ts";
import type { PlanNode } from "./plan_node.ts";
import { planSelect } from "./plan_select.ts";

const HIDDEN = "\u0000nested_window";

function isWindowCall(x: A.Expr): boolean {
  return x.kind === "call" && x.over !== undefined;
}

/** True when some aggregate's arguments (outside window calls) hold a window call. */
function hasNestedWindow(e: A.Expr): boolean {
  return someExpr(e, (x) => {
    if (x.kind !== "call" || isWindowCall(x)) return undefined;
    return isAggregateCall(x)
      ? x.args.some((a) => someExpr(a, (y) => (isWindowCall(y) ? true : undefined)))
      : undefined;
  });
}

/**
 * An aggregate over a window call must be a whole select item: QuestDB refuses it inside an
 * expression (`max(avg(x) OVER ()) + 1`, a CASE branch) at the aggregate, with its text
 * (WindowFunctionTest#testAggregateOverWindowInExpressionFails).
 */
function checkWindowAggregatesAtRoot(core: A.SelectCore): void {
  for (const item of core.items ?? []) {
    const e = item.expr;
    if (e.kind === "star" || (e.kind === "call" && !isWindowCall(e) && isAggregateCall(e))) continue;
    // A bare window call beside the aggregate fails first, at that call, as QuestDB's
    // validateWindowAggregation finds it before the aggregate over a window
    // (WindowFunctionTest#testNestedWindowFunctionInGroupByContextFails:
    // `max(avg(x) OVER ()) - avg(x) OVER ()` at the second window).
    let bare: A.Expr | undefined;
    if (!isWindowCall(e) && hasNestedWindow(e)) {
      someExpr(e, (x) => {
        if (x.kind !== "call") return undefined;
        if (isWindowCall(x)) return (bare = x, true);
        return isAggregateCall(x) ? false : undefined;
      });
    }
    if (bare) {
      throw new SqlError(
        "Window function is not allowed in context of aggregation. Use sub-query.",
        bare.pos,
      );
    }
    let at: A.Expr | undefined;
    someExpr(e, (x) => {
      if (x.kind !== "call" || isWindowCall(x) || !isAggregateCall(x)) return undefined;
      if (!hasNestedWindow(x)) return false;
      at = x;
      return true;
    });
    if (at) {
      throw new SqlError(
        "Aggregate over window function cannot be combined with other terms. Use a sub-query.",
        at.pos,
      );
    }
  }
}

/**
 * True for a SELECT with a window call inside an aggregate in its items, HAVING or ORDER BY.
 * SAMPLE BY keeps its own refusal (plan_sample_by.ts: QuestDB's "window function cannot be an
 * aggregate argument").
 */
export function needsNestedWindows(core: A.SelectCore, orderBy: A.OrderItem[]): boolean {
  if (core.sampleBy) return false;
  checkWindowAggregatesAtRoot(core);
  const exprs = [
    ...(core.items ?? []).map((i) => i.expr).filter((e) => e.kind !== "star"),
    ...(core.having ? [core.having] : []),
    ...orderBy.map((o) => o.expr),
  ];
  return exprs.some(hasNestedWindow);
}

export function planNestedWindows(
  core: A.SelectCore,
  orderBy: A.OrderItem[],
  limit: A.Limit | undefined,
  pc: PlanContext,
): PlanNode {
  const first = core.from?.first;
  const refuse = (what: string) => {
    const at = (core.items ?? []).find((i) => hasNestedWindow(i.expr))?.expr.pos ?? core.pos;
    return new SqlError(`window functions inside aggregates are not supported ${what}`, at);
  };
  if (!first) throw refuse("without FROM");
  if (core.from!.joins.length > 0) throw refuse("with joins");
  if (core.latestOn) throw refuse("with LATEST ON");

  const hidden: A.SelectItem[] = [];
  const hiddenKeys: string[] = [];
  const hide = (call: A.Expr): A.Expr => {
    const key = exprKey(call);
    let k = hiddenKeys.indexOf(key);
    if (k < 0) {
      k = hidden.length;
      hidden.push({ expr: call, alias: `${HIDDEN}${k}` });
      hiddenKeys.push(key);
    }
    return { kind: "column", pos: call.pos, name: `${HIDDEN}${k}` };
  };
  /** Inside an aggregate's arguments: each window call becomes its hidden column. */
  const inAggregate = (e: A.Expr): A.Expr => (isWindowCall(e) ? hide(e) : mapChildExprs(e, inAggregate));
  /** Elsewhere: only aggregates' arguments change (a window over groups stays for the outer SELECT). */
  const rewrite = (e: A.Expr): A.Expr => {
    if (e.kind === "call" && !isWindowCall(e) && isAggregateCall(e)) return mapChildExprs(e, inAggregate);
    return mapChildExprs(e, rewrite);
  };

  // Items keep the names their original text gives them.
  const items = core.items!.map((i) =>
    i.expr.kind === "star"
      ? i
      : { ...i, expr: rewrite(i.expr), alias: i.alias ?? baseName(i, pc.legacyNames) }
  );
  const having = core.having && rewrite(core.having);
  const outerOrder = orderBy.map((o) => ({ ...o, expr: rewrite(o.expr) }));
  const star: A.SelectItem = { expr: { kind: "star", pos: core.pos } };
  const inner: A.SelectCore = {
    kind: "select",
    pos: core.pos,
    distinct: false,
    items: [star, ...hidden],
    from: core.from,
    where: core.where,
    windows: core.windows,
  };
  // The subquery takes the source's name so that `t.x` still reads as before.
  const alias = first.alias ?? (first.kind === "table" ? first.name : undefined);
  const source: A.SubquerySource = {
    kind: "subquerySource",
    pos: core.pos,
    query: { kind: "query", pos: core.pos, with: [], body: inner, orderBy: [] },
  };
  if (alias !== undefined) source.alias = alias;
  const outer: A.SelectCore = {
    ...core,
    items,
    having,
    from: { first: source, joins: [] },
    where: undefined,
  };
  return planSelect(outer, outerOrder, limit, pc);
}
