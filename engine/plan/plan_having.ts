/**
 * HAVING (issue 10; QuestDB itself rejects it, Postgres accepts it): a filter over grouped
 * rows. Rather than teach every grouping planner (GROUP BY, implicit grouping, SAMPLE BY) about
 * it, the aggregates and grouping expressions HAVING uses are appended to the select list as
 * hidden items, the select is planned as usual, the predicate is bound over its output, and a
 * final projection drops the hidden columns. So `SELECT sym FROM t GROUP BY sym HAVING
 * sum(x) > 5` plans as `SELECT sym, sum(x) h0 ... ` filtered on `h0 > 5`, projected to `sym`.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { exprKey } from "../sql/printer.ts";
import { mapChildExprs, someExpr } from "../sql/expr_walk.ts";
import { bindExpr, isAggregateCall } from "./bind_expr.ts";
import type { BoundExpr } from "./bound.ts";
import type { PlanContext } from "./plan_context.ts";
import { type PlanNode, shape } from "./plan_node.ts";
import {
  applyWhere,
  bindContext,
  containsAggregate,
  finishQuery,
  outputScope,
  planSelect,
} from "./plan_select.ts";
import { Scope } from "./scope.ts";

const HIDDEN = "\u0000having";

export function planHaving(
  core: A.SelectCore,
  orderBy: A.OrderItem[],
  limit: A.Limit | undefined,
  pc: PlanContext,
): PlanNode {
  const having = core.having!;
  const items: A.SelectItem[] = core.items ?? [{ expr: { kind: "star", pos: core.pos } }];
  const grouped = core.groupBy !== undefined || core.sampleBy !== undefined || containsAggregate(having) ||
    items.some((i) => containsAggregate(i.expr));
  if (!grouped) throw new SqlError("HAVING needs GROUP BY, SAMPLE BY or an aggregate function", having.pos);

  const hidden: A.SelectItem[] = [];
  const hide = (expr: A.Expr, pos: number): A.Expr => {
    hidden.push({ expr, alias: `${HIDDEN}${hidden.length}` });
    return { kind: "column", pos, name: `${HIDDEN}${hidden.length - 1}` };
  };
  const itemTexts = items.map((i) => (i.expr.kind === "star" ? undefined : exprKey(i.expr)));
  const keyTexts = (core.groupBy ?? []).map((g) => exprKey(g));
  const rewrite = (e: A.Expr): A.Expr => {
    if (e.kind === "call" && !e.over && isAggregateCall(e)) return hide(e, e.pos);
    if (!refersToColumns(e) && !containsAggregate(e)) return e;
    if (!containsAggregate(e)) {
      // A grouping-level expression: a select item (by text or alias) or an explicit key.
      const text = exprKey(e);
      const k = itemTexts.indexOf(text);
      if (k >= 0) return hide(items[k].expr, e.pos);
      if (keyTexts.includes(text)) return hide(e, e.pos);
      if (e.kind === "column") {
        const a = e.qualifier ? -1 : items.findIndex((i) => i.alias?.toLowerCase() === e.name.toLowerCase());
        if (a >= 0) return hide(items[a].expr, e.pos);
        // Under implicit grouping an extra item would become a new key, changing the groups;
        // under GROUP BY the aggregation planner checks that the column is a key.
        if (!core.groupBy) {
          throw new SqlError("column must appear in GROUP BY clause or aggregate function", e.pos);
        }
        return hide(e, e.pos);
      }
    }
    return mapChildExprs(e, rewrite);
  };
  const pred = rewrite(having);

  const inner: A.SelectCore = {
    ...core,
    items: [...items, ...hidden],
    having: undefined,
    distinct: false,
    distinctOn: undefined,
  };
  const node = planSelect(inner, [], undefined, pc);
  const visible = node.columns.length - hidden.length;
  // Only the hidden columns are visible to the predicate: it was rewritten to use nothing else.
  const scope = new Scope(node.columns.map((c, i) => ({
    name: i >= visible ? `${HIDDEN}${i - visible}` : `\u0000visible${i}`,
    type: c.type,
    qualifiers: [],
  })));
  const bound = bindExpr(pred, bindContext(scope, pc, "HAVING"));
  if (bound.type.tag !== "BOOLEAN" && bound.type.tag !== "NULL") {
    throw new SqlError("boolean expression expected", having.pos);
  }
  const filtered = applyWhere(node, bound);
  const exprs: BoundExpr[] = node.columns.slice(0, visible).map((c, i) => ({
    kind: "column",
    type: c.type,
    index: i,
  }));
  const tsIndex = node.timestampIndex < visible ? node.timestampIndex : -1;
  const projected: PlanNode = {
    ...shape(node.columns.slice(0, visible), tsIndex),
    kind: "project",
    input: filtered,
    exprs,
  };
  return finishQuery(
    projected,
    outputScope(projected),
    orderBy,
    limit,
    pc,
    core.distinct,
    undefined,
    core.distinctOn,
  );
}

function refersToColumns(e: A.Expr): boolean {
  return someExpr(e, (x) => (x.kind === "column" ? true : undefined));
}
