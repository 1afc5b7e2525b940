/**
 * Window functions over grouped rows (spec/sql.md §12: "evaluated after WHERE/GROUP BY"):
 * `SELECT sym, sum(x) s, rank() OVER (ORDER BY sum(x) DESC) FROM t GROUP BY sym`, and the same
 * over SAMPLE BY buckets or implicit grouping. The window planner works on the rows of one
 * SELECT, so the query is split in two: an inner SELECT that does the grouping (WHERE, GROUP BY,
 * SAMPLE BY, HAVING unchanged) and outputs every aggregate and grouping expression the items use
 * as hidden columns, and an outer SELECT over it that evaluates the window functions and the
 * items, named as the original items would have been.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { mapChildExprs, someExpr } from "../sql/expr_walk.ts";
import { exprKey } from "../sql/printer.ts";
import { isAggregateCall, WINDOW_ONLY_FUNCTIONS } from "./bind_expr.ts";
import { baseName } from "./column_names.ts";
import type { PlanContext } from "./plan_context.ts";
import type { PlanNode } from "./plan_node.ts";
import { containsWindow } from "./plan_sample_by.ts";
import { containsAggregate, planSelect } from "./plan_select.ts";

const HIDDEN = "\u0000grouped";

/** True for a SELECT that groups rows and has a window function in its select list. */
export function needsGroupedWindows(core: A.SelectCore): boolean {
  refuseAggregatePartitions(core);
  refuseBareWindowOnlyCalls(core);
  // A window call inside an aggregate's arguments is an error the grouping planner reports.
  const windowOverGroups = (e: A.Expr) =>
    someExpr(
      e,
      (x) => (x.kind !== "call" ? undefined : x.over ? true : isAggregateCall(x) ? false : undefined),
    );
  if (!core.items || !core.items.some((i) => i.expr.kind !== "star" && windowOverGroups(i.expr))) {
    return false;
  }
  return core.groupBy !== undefined || core.sampleBy !== undefined ||
    core.items.some((i) => i.expr.kind !== "star" && containsAggregate(i.expr));
}

export function planGroupedWindows(
  core: A.SelectCore,
  orderBy: A.OrderItem[],
  limit: A.Limit | undefined,
  pc: PlanContext,
): PlanNode {
  const items = core.items!;
  for (const i of items) {
    if (i.expr.kind === "star") {
      throw new SqlError("'*' is not allowed with aggregates and window functions", i.expr.pos);
    }
  }
  checkNestedWindows(core);
  const hidden: A.SelectItem[] = [];
  const hiddenTexts: string[] = [];
  const hide = (expr: A.Expr, pos: number): A.Expr => {
    const text = exprKey(expr);
    let k = hiddenTexts.indexOf(text);
    if (k < 0) {
      k = hidden.length;
      hidden.push({ expr, alias: `${HIDDEN}${k}` });
      hiddenTexts.push(text);
    }
    return { kind: "column", pos, name: `${HIDDEN}${k}` };
  };
  const itemTexts = items.map((i) => exprKey(i.expr));
  const keyTexts = (core.groupBy ?? []).map((g) => exprKey(g));
  const outputNames = items.map((i) => (i.alias ?? baseName(i, pc.legacyNames)).toLowerCase());

  /** Replaces everything computed per group by a hidden column of the inner SELECT. */
  const rewrite = (e: A.Expr, inOrderBy = false): A.Expr => {
    const again = (x: A.Expr) => rewrite(x, inOrderBy);
    if (e.kind === "call" && e.over) {
      return {
        ...e,
        args: e.args.map(again),
        over: {
          ...e.over,
          partitionBy: e.over.partitionBy.map(again),
          orderBy: e.over.orderBy.map((o) => ({ ...o, expr: again(o.expr) })),
        },
      };
    }
    if (e.kind === "call" && isAggregateCall(e)) return hide(e, e.pos);
    if (!someExpr(e, (x) => (x.kind === "column" ? true : undefined))) return e;
    if (!containsAggregate(e) && !containsWindow(e)) {
      const text = exprKey(e);
      if (e.kind === "column" && !e.qualifier && inOrderBy && outputNames.includes(e.name.toLowerCase())) {
        return e;
      }
      const k = itemTexts.indexOf(text);
      if (k >= 0) return hide(items[k].expr, e.pos);
      if (keyTexts.includes(text)) return hide(e, e.pos);
      if (e.kind === "column") {
        // Under implicit grouping an extra item would be a new key and change the groups;
        // under GROUP BY and SAMPLE BY the grouping planner checks the column is allowed.
        if (!core.groupBy && !core.sampleBy) {
          throw new SqlError("column must appear in GROUP BY clause or aggregate function", e.pos);
        }
        return hide(e, e.pos);
      }
    }
    return mapChildExprs(e, again);
  };

  const outerItems: A.SelectItem[] = items.map((i, k) => ({
    expr: rewrite(i.expr),
    alias: i.alias ?? baseName(items[k], pc.legacyNames),
    aliasPos: i.aliasPos,
  }));
  const outerOrder = orderBy.map((o) => ({ ...o, expr: rewrite(o.expr, true) }));
  const windows = core.windows.map((w) => ({
    ...w,
    spec: {
      ...w.spec,
      partitionBy: w.spec.partitionBy.map((x) => rewrite(x)),
      orderBy: w.spec.orderBy.map((o) => ({ ...o, expr: rewrite(o.expr) })),
    },
  }));
  const inner: A.SelectCore = { ...core, items: hidden, windows: [], distinct: false, distinctOn: undefined };
  const outer: A.SelectCore = {
    kind: "select",
    pos: core.pos,
    distinct: core.distinct,
    distinctOn: core.distinctOn?.map((x) => rewrite(x, true)),
    items: outerItems,
    from: {
      first: {
        kind: "subquerySource",
        pos: core.pos,
        query: { kind: "query", pos: core.pos, with: [], body: inner, orderBy: [] },
      },
      joins: [],
    },
    windows,
  };
  return planSelect(outer, outerOrder, limit, pc);
}

/**
 * QuestDB rejects a window call inside an expression of a grouped select (`avg(x) - avg(x) OVER
 * ()`, `abs(avg(x) OVER ())`) at the window call, and a GROUP BY position naming such an item
 * there first (WindowFunctionTest#testNestedWindowFunctionInGroupByContextFails). Windows over
 * the groups' aggregates (`sum(q) / sum(sum(q)) OVER ()`) are our extension (spec/sql.md §7.13)
 * and stay allowed: only a nested window that reads no aggregate is refused.
 */
function checkNestedWindows(core: A.SelectCore): void {
  const nested = (e: A.Expr): A.Expr | undefined => {
    if (e.kind === "call" && e.over) return undefined;
    let found: A.Expr | undefined;
    someExpr(e, (x) => {
      if (x.kind !== "call") return undefined;
      if (x.over) {
        return readsAggregate(x) ? false : (found = x, true);
      }
      return isAggregateCall(x) ? false : undefined;
    });
    return found;
  };
  for (const g of core.groupBy ?? []) {
    const item = itemAtPosition(core, g);
    if (item && item.expr.kind !== "star" && nested(item.expr)) {
      throw new SqlError("aggregate functions are not allowed in GROUP BY", g.pos);
    }
    // An alias naming such an item fails at the GROUP BY entry too (GroupByTest
    // #test2FailOnWindowFunctionNestedInFunctionAliasInGroupByClause2).
    const named = itemNamedBy(core, g);
    if (named && named.expr.kind !== "star" && nested(named.expr)) {
      throw new SqlError("window functions are not allowed in GROUP BY", g.pos);
    }
  }
  for (const i of core.items!) {
    const w = i.expr.kind === "star" ? undefined : nested(i.expr);
    if (w) {
      throw new SqlError("Window function is not allowed in context of aggregation. Use sub-query.", w.pos);
    }
  }
  // A whole item that is a window call over ungrouped rows (`sum(x) OVER w` beside GROUP BY,
  // x no key): QuestDB's validateWindowAggregation refuses every window of a grouped select at
  // position 0 (WindowFunctionTest#testNamedWindowWithGroupBy); windows that read only keys and
  // aggregates stay our extension.
  for (const i of core.items!) {
    const e = i.expr;
    if (e.kind === "call" && e.over && !readsAggregate(e) && !namedReadsAggregate(core, e.over)) {
      if (readsUngroupedColumn(core, e)) {
        throw new SqlError("Window function is not allowed in context of aggregation. Use sub-query.", 0);
      }
    }
  }
}

/** True when `call` reads, outside aggregates, a column that is no grouping key of `core`. */
function readsUngroupedColumn(core: A.SelectCore, call: A.FunctionCall): boolean {
  const items = (core.items ?? []).filter((i) => i.expr.kind !== "star");
  const keys: A.Expr[] = core.groupBy
    ? core.groupBy.map((g) => {
      if (g.kind === "literal" && g.type === "int") return itemAtPosition(core, g)?.expr ?? g;
      const named = itemNamedBy(core, g);
      return named && named.expr.kind !== "star" ? named.expr : g;
    })
    : items.map((i) => i.expr).filter((x) => !containsAggregate(x) && !containsWindow(x));
  const keyTexts = new Set(keys.map(exprKey));
  const keyNames = new Set(keys.flatMap((k) => (k.kind === "column" ? [k.name.toLowerCase()] : [])));
  const aliases = new Set(
    items.filter((i) => i.alias && keys.some((k) => exprKey(k) === exprKey(i.expr))).map((i) =>
      i.alias!.toLowerCase()
    ),
  );
  const over = call.over!;
  const parts = [...call.args, ...over.partitionBy, ...over.orderBy.map((o) => o.expr)];
  return parts.some((p) =>
    someExpr(p, (x) => {
      if (x.kind === "call" && isAggregateCall(x)) return false;
      if (keyTexts.has(exprKey(x))) return false;
      if (x.kind !== "column") return undefined;
      const n = x.name.toLowerCase();
      return keyNames.has(n) || (!x.qualifier && aliases.has(n)) ? false : true;
    })
  );
}

/**
 * A window-only function written without OVER in a grouped select (`sum(x) + row_number()`)
 * fails at the call with QuestDB's aggregation message rather than the non-window-context one
 * (WindowFunctionTest#testNestedWindowFunctionInGroupByContextFails).
 */
function refuseBareWindowOnlyCalls(core: A.SelectCore): void {
  const items = (core.items ?? []).filter((i) => i.expr.kind !== "star");
  const grouped = core.groupBy !== undefined || core.sampleBy !== undefined ||
    items.some((i) => containsAggregate(i.expr));
  if (!grouped) return;
  // A GROUP BY entry naming such a call, by alias, position or text, fails first at the entry
  // (GroupByTest: 'window functions are not allowed in GROUP BY').
  const windowOnly = (e: A.Expr) =>
    someExpr(
      e,
      (
        x,
      ) => (x.kind === "call" && !x.over && WINDOW_ONLY_FUNCTIONS.has(x.name.toLowerCase())
        ? true
        : undefined),
    );
  for (const g of core.groupBy ?? []) {
    const item = itemAtPosition(core, g) ?? itemNamedBy(core, g);
    if (windowOnly(g) || (item && item.expr.kind !== "star" && windowOnly(item.expr))) return;
  }
  for (const item of items) {
    someExpr(item.expr, (x) => {
      if (x.kind === "subquery") return false;
      if (x.kind !== "call" || x.over) return undefined;
      if (WINDOW_ONLY_FUNCTIONS.has(x.name.toLowerCase())) {
        throw new SqlError("Window function is not allowed in context of aggregation. Use sub-query.", x.pos);
      }
      return undefined;
    });
  }
}

/**
 * A window's PARTITION BY may not hold an aggregate, grouped query or not: QuestDB refuses it at
 * the window function (WindowFunctionTest#testAggregateFunctionInPartitionByFails).
 */
function refuseAggregatePartitions(core: A.SelectCore): void {
  for (const item of core.items ?? []) {
    if (item.expr.kind === "star") continue;
    someExpr(item.expr, (x) => {
      if (x.kind === "call" && x.over && x.over.partitionBy.some(containsAggregate)) {
        throw new SqlError("aggregate functions in partition by are not supported", x.pos);
      }
      return undefined;
    });
  }
}

/** True when the base windows a spec names (`OVER w`, `w AS (w0 ...)`) order or partition by an aggregate. */
function namedReadsAggregate(core: A.SelectCore, spec: A.WindowSpec): boolean {
  const seen = new Set<string>();
  for (let name = spec.baseName; name !== undefined && !seen.has(name.toLowerCase());) {
    seen.add(name.toLowerCase());
    const base = core.windows?.find((w) => w.name.toLowerCase() === name!.toLowerCase())?.spec;
    if (!base) return false;
    if (base.partitionBy.some(containsAggregate) || base.orderBy.some((o) => containsAggregate(o.expr))) {
      return true;
    }
    name = base.baseName;
  }
  return false;
}

/** Whether a window call's arguments, PARTITION BY or ORDER BY hold an aggregate. */
function readsAggregate(call: A.FunctionCall): boolean {
  const over = call.over!;
  return call.args.some(containsAggregate) || over.partitionBy.some(containsAggregate) ||
    over.orderBy.some((o) => containsAggregate(o.expr));
}

/** The select item a GROUP BY entry names by its 1-based position (`GROUP BY 2`), if any. */
function itemAtPosition(core: A.SelectCore, g: A.Expr): A.SelectItem | undefined {
  return g.kind === "literal" && g.type === "int" ? core.items?.[(g.value as number) - 1] : undefined;
}

/** The select item a bare GROUP BY name refers to by its alias, if any. */
function itemNamedBy(core: A.SelectCore, g: A.Expr): A.SelectItem | undefined {
  return g.kind === "column" && !g.qualifier
    ? core.items?.find((i) => i.alias?.toLowerCase() === g.name.toLowerCase())
    : undefined;
}
