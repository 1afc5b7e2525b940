/**
 * PIVOT and UNPIVOT (QuestDB 9, docs/sql.md "PIVOT"), planned by rewriting them into plain
 * queries, as QuestDB's plans show:
 *
 *   src PIVOT (agg AS a FOR f IN (v1, v2) GROUP BY g)
 *   → SELECT g, first_not_null(CASE WHEN f = v1 THEN a END) "v1_a", ... FROM (
 *       SELECT g, f, agg a FROM src WHERE f IN (v1, v2) GROUP BY g, f) GROUP BY g
 *
 * The inner GROUP BY computes every aggregate once per (group, pivot value); the outer one
 * spreads those rows into columns. UNPIVOT crosses its input with a counter over the listed columns.
 * IN (SELECT ...) lists have been replaced by their values before planning (pivot_lists.ts).
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import type { PivotClause, UnpivotClause } from "../sql/ast_pivot.ts";
import { mapChildExprs, someExpr } from "../sql/expr_walk.ts";
import { exprToText } from "../sql/printer.ts";
import { isAggregateCall } from "./bind_expr.ts";
import type { PlanContext } from "./plan_context.ts";
import type { PlanNode } from "./plan_node.ts";
import { planQuery } from "./plan_query.ts";

/** cairo.sql.pivot.max.produced.columns default. */
export const PIVOT_MAX_PRODUCED_COLUMNS = 5000;

/** Plans `src.query` reshaped by its PIVOT or UNPIVOT clause. */
export function planPivotSource(src: A.SubquerySource, pc: PlanContext): PlanNode {
  const q = src.pivot ? pivotQuery(src.query, src.pivot) : unpivotQuery(src.query, src.unpivot!, pc);
  return planQuery(q, { ...pc, depth: pc.depth + 1 });
}

const F = "__pivot_for_";
const A_ = "__pivot_agg_";
const K = "__unpivot_k";

function col(name: string, pos: number): A.ColumnRef {
  return { kind: "column", pos, name };
}

function call(name: string, args: A.Expr[], pos: number): A.FunctionCall {
  return { kind: "call", pos, name, args, distinct: false, star: false };
}

function and(l: A.Expr, r: A.Expr): A.Expr {
  return { kind: "binary", pos: r.pos, op: "and", left: l, right: r };
}

function selectQuery(core: Omit<A.SelectCore, "kind" | "distinct" | "windows">): A.Query {
  return {
    kind: "query",
    pos: core.pos,
    with: [],
    body: { kind: "select", distinct: false, windows: [], ...core },
    orderBy: [],
  };
}

function source(query: A.Query, pos: number, alias?: string): A.FromClause {
  const first: A.SubquerySource = { kind: "subquerySource", pos, query };
  if (alias !== undefined) first.alias = alias;
  return { first, joins: [] };
}

/** `t PIVOT (sum(t.x) ...)`: the name a table source is referred to by inside the clause. */
function sourceName(q: A.Query): string | undefined {
  const first = q.body.kind === "select" ? q.body.from?.first : undefined;
  return first?.kind === "table" ? first.alias ?? first.name : first?.alias;
}

/** The text a pivot value gives its column: its alias, a string's content, or as written. */
function valueName(v: { expr: A.Expr; alias?: string }): string {
  if (v.alias !== undefined) return v.alias;
  const e = v.expr;
  if (e.kind === "literal") return e.type === "string" || e.type === "char" ? String(e.value) : e.text;
  return exprToText(e);
}

/** An aggregate as QuestDB's pivot names it: its text, `count(*)` read as `count()` (PivotTest#testPivotWithCount). */
function aggregateText(e: A.Expr): string {
  const noStar = (x: A.Expr): A.Expr => {
    const y = mapChildExprs(x, noStar);
    return y.kind === "call" && y.star ? { ...y, star: false, args: [] } : y;
  };
  return exprToText(noStar(e));
}

function isCount(e: A.Expr): boolean {
  return e.kind === "call" && e.over === undefined && e.name.toLowerCase() === "count";
}

function groupName(e: A.Expr): string {
  return e.kind === "column" ? e.name : exprToText(e);
}

function pivotQuery(inner: A.Query, pv: PivotClause): A.Query {
  const pos = pv.pos;
  for (const a of pv.aggregates) {
    const hasAggregate = someExpr(
      a.expr,
      (x) => x.kind === "call" && (isAggregateCall(x) || x.over !== undefined) ? true : undefined,
    );
    if (!hasAggregate) {
      throw new SqlError(`expected aggregate function [col=${exprToText(a.expr)}]`, a.expr.pos);
    }
  }
  for (const f of pv.fors) {
    // Only Describe/prepare plan without running (engine.ts runs the lists first).
    if (f.query) throw new SqlError("PIVOT IN (SELECT ...) is known only when the query runs", f.query.pos);
  }
  for (const g of pv.groupBy) {
    if (g.kind === "literal") throw new SqlError("cannot use positional group by inside `PIVOT`", g.pos);
  }
  // Every combination of the FOR values, in order: the first FOR varies slowest.
  let combos: { values: A.Expr[]; name: string }[] = [{ values: [], name: "" }];
  for (const f of pv.fors) {
    const values = f.values ?? [];
    const seen = new Set<string>();
    for (const v of values) {
      const key = v.expr.kind === "literal" ? `${v.expr.type}:${String(v.expr.value)}` : exprToText(v.expr);
      if (seen.has(key)) {
        const text = v.expr.kind === "literal" ? v.expr.text : exprToText(v.expr);
        throw new SqlError(`duplicate value in PIVOT IN list: ${text}`, v.expr.pos);
      }
      seen.add(key);
    }
    const total = combos.length * values.length * pv.aggregates.length;
    if (total > PIVOT_MAX_PRODUCED_COLUMNS) {
      throw new SqlError(
        `PIVOT produces too many columns: ${total}, limit is ${PIVOT_MAX_PRODUCED_COLUMNS}`,
        f.pos,
      );
    }
    const next: typeof combos = [];
    for (const c of combos) {
      for (const v of values) {
        next.push({
          values: [...c.values, v.expr],
          name: c.name === "" ? valueName(v) : `${c.name}_${valueName(v)}`,
        });
      }
    }
    combos = next;
  }

  // Inner: one row per (group, FOR values) with every aggregate, over the listed values only.
  const innerItems: A.SelectItem[] = [];
  const groupNames = pv.groupBy.map(groupName);
  pv.groupBy.forEach((g, i) => innerItems.push({ expr: g, alias: groupNames[i] }));
  pv.fors.forEach((f, i) => innerItems.push({ expr: f.expr, alias: F + i }));
  pv.aggregates.forEach((a, i) => innerItems.push({ expr: a.expr, alias: A_ + i }));
  let where: A.Expr | undefined;
  for (const f of pv.fors) {
    const cond: A.Expr = {
      kind: "in",
      pos: f.pos,
      expr: f.expr,
      list: (f.values ?? []).map((v) => v.expr),
      not: false,
      pivot: true,
    };
    where = where ? and(where, cond) : cond;
  }
  const grouped = selectQuery({
    pos,
    items: innerItems,
    from: source(inner, pos, sourceName(inner)),
    where,
    groupBy: [...pv.groupBy, ...pv.fors.map((f) => f.expr)],
  });

  // Outer: one column per (combination, aggregate), named as QuestDB names them.
  const items: A.SelectItem[] = groupNames.map((n) => ({ expr: col(n, pos), alias: n }));
  const used = new Set(groupNames.map((n) => n.toLowerCase()));
  const multi = pv.aggregates.length > 1;
  for (const c of combos) {
    pv.aggregates.forEach((a, ai) => {
      let cond: A.Expr | undefined;
      c.values.forEach((v, fi) => {
        const eq: A.Expr = { kind: "binary", pos, op: "=", left: col(F + fi, pos), right: v };
        cond = cond ? and(cond, eq) : eq;
      });
      const pick: A.CaseExpr = { kind: "case", pos, whens: [{ when: cond!, then: col(A_ + ai, pos) }] };
      let name = a.alias !== undefined
        ? `${c.name}_${a.alias}`
        : multi
        ? `${c.name}_${aggregateText(a.expr)}`
        : c.name;
      if (used.has(name.toLowerCase())) {
        let k = 2;
        while (used.has(`${name}_${k}`.toLowerCase())) k++;
        name = `${name}_${k}`;
      }
      used.add(name.toLowerCase());
      // A count over no rows is 0 in QuestDB's pivots, as count() is; other aggregates give NULL.
      const picked = call("first_not_null", [pick], pos);
      const zero: A.Literal = { kind: "literal", pos, type: "int", value: 0, text: "0" };
      items.push({ expr: isCount(a.expr) ? call("coalesce", [picked, zero], pos) : picked, alias: name });
    });
  }
  const pivoted = selectQuery({
    pos,
    items,
    from: source(grouped, pos),
    groupBy: groupNames.length ? groupNames.map((n) => col(n, pos)) : undefined,
  });
  if (pv.orderBy) pivoted.orderBy = pv.orderBy;
  if (pv.limit) pivoted.limit = pv.limit;
  return pivoted;
}

function unpivotQuery(inner: A.Query, up: UnpivotClause, pc: PlanContext): A.Query {
  const pos = up.pos;
  const input = planQuery(inner, { ...pc, depth: pc.depth + 1 });
  const names = input.columns.map((c) => c.name);
  const listed = new Set<number>();
  for (const c of up.columns) {
    const i = names.findIndex((n) => n.toLowerCase() === c.name.toLowerCase());
    if (i < 0) throw new SqlError(`Invalid column: ${c.name}`, c.pos);
    listed.add(i);
  }
  const kept = names.filter((_, i) => !listed.has(i));
  // Each input row spreads into one row per listed column, in list order (QuestDB's Unpivot
  // cursor; UnpivotTest#testBasicUnpivot): the input crossed with a counter 0..n-1, the counter
  // picking the column's name and value.
  const int = (n: number): A.Literal => ({ kind: "literal", pos, type: "int", value: n, text: String(n) });
  const counter = selectQuery({
    pos,
    items: [{ expr: { kind: "binary", pos, op: "-", left: col("x", pos), right: int(1) }, alias: K }],
    from: {
      first: { kind: "functionSource", pos, call: call("long_sequence", [int(up.columns.length)], pos) },
      joins: [],
    },
  });
  const pick = (value: (c: UnpivotClause["columns"][number]) => A.Expr): A.CaseExpr => ({
    kind: "case",
    pos,
    whens: up.columns.map((c, i) => ({
      when: { kind: "binary", pos, op: "=", left: col(K, pos), right: int(i) },
      then: value(c),
    })),
  });
  const items: A.SelectItem[] = kept.map((n) => ({ expr: col(n, pos), alias: n }));
  items.push({
    // The column's own name, not as the list writes it (UnpivotTest#testBasicUnpivot: `jan` is `Jan`).
    expr: pick((c) => {
      const label = c.alias ?? names.find((n) => n.toLowerCase() === c.name.toLowerCase())!;
      return {
        kind: "literal",
        pos: c.pos,
        type: "string",
        value: label,
        text: `'${label.replaceAll("'", "''")}'`,
      };
    }),
    alias: up.nameColumn,
  });
  items.push({ expr: pick((c) => col(c.name, c.pos)), alias: up.valueColumn });
  const spread = selectQuery({
    pos,
    items,
    from: {
      first: { kind: "subquerySource", pos, query: inner },
      joins: [{ kind: "cross", pos, source: { kind: "subquerySource", pos, query: counter } }],
    },
  });
  if (up.includeNulls) return spread;
  return selectQuery({
    pos,
    items: [...kept, up.nameColumn, up.valueColumn].map((n) => ({ expr: col(n, pos), alias: n })),
    from: source(spread, pos),
    where: { kind: "isNull", pos, expr: col(up.valueColumn, pos), not: true },
  });
}
