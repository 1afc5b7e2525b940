/**
 * QuestDB's WINDOW JOIN (docs query/sql/window-join.md): for each left row, the select list's
 * aggregates run over the right table's rows whose timestamp lies in a range around the left
 * row's (both bounds inclusive) and that meet the ON condition; INCLUDE PREVAILING (the default)
 * adds the last such row at or before the range start. The join is rewritten, before planning,
 * into one correlated scalar subquery per aggregate:
 *
 *   sum(p.price)  ->  (SELECT sum(p.price) FROM prices p WHERE <on> AND p.ts <= hi
 *                       AND (p.ts >= lo [OR p.ts = (SELECT max(p.ts) FROM prices p
 *                                                   WHERE <on> AND p.ts <= lo)]))
 *
 * with lo/hi = dateadd(unit, ±n, <left>.<ts>). Each aggregate keeps the name it would have had.
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { mapChildExprs, someExpr } from "../sql/expr_walk.ts";
import { isAggregateCall } from "./bind_expr.ts";
import { NameAllocator, takeItemName } from "./column_names.ts";
import type { PlanContext } from "./plan_context.ts";
import { planSource } from "./plan_from.ts";
import type { PlanNode } from "./plan_node.ts";

export function rewriteWindowJoins(core: A.SelectCore, pc: PlanContext): A.SelectCore {
  const from = core.from;
  const joins = from?.windowJoins;
  if (!from || !joins?.length) return core;
  // QuestDB refuses window functions, inline or named, beside a WINDOW JOIN, at the window call
  // (WindowFunctionTest#testNamedWindowWithWindowJoinDisallowed).
  for (const item of core.items ?? []) {
    if (item.expr.kind === "star") continue;
    someExpr(item.expr, (e) => {
      if (e.kind === "call" && e.over) {
        throw new SqlError("WINDOW functions are not allowed in WINDOW JOIN queries", e.pos);
      }
      return e.kind === "subquery" ? false : undefined;
    });
  }
  // Each left row is its own group already: QuestDB refuses SAMPLE BY at its stride and GROUP BY
  // at its first key (SqlOptimiserTest#testWindowJoinNotSupportGroupBy).
  if (core.sampleBy) throw new SqlError("SAMPLE BY cannot be used with WINDOW JOIN", core.sampleBy.stridePos);
  if (core.groupBy?.length) {
    throw new SqlError("GROUP BY cannot be used with WINDOW JOIN", core.groupBy[0].pos);
  }
  const left = from.first;
  const leftName = sourceName(left);
  const leftTs = timestampName(left, pc, "left", joins[0].pos);
  const rights = joins.map((j) => {
    if (
      j.source.kind !== "table" &&
      !(j.source.kind === "subquerySource" && timeFramed(planSource(j.source, pc).node))
    ) {
      // At the WINDOW keyword (WindowJoinTest#testWindowJoinFailsWhenSlaveDoesNotSupportTimeFrames).
      throw new SqlError("right side of window join must be a table, not sub-query", j.pos);
    }
    return {
      join: j,
      table: j.source,
      name: sourceName(j.source),
      ts: timestampName(j.source, pc, "right", j.pos),
    };
  });
  const names = new NameAllocator(pc.legacyNames);
  const items = (core.items ?? []).map((item) => {
    if (item.expr.kind === "star") return item;
    let changed = false;
    const expr = replaceAggregates(item.expr, (call) => {
      changed = true;
      // One aggregate reads one right table (WindowJoinTest#testWindowJoinChain: sum(p1.price + p.price)).
      if (rights.filter((r) => qualifies(call, r.name)).length > 1) {
        throw new SqlError(
          "WINDOW join aggregate function cannot reference columns from multiple models",
          call.pos,
        );
      }
      const right = rights.find((r) => qualifies(call, r.name)) ?? rights[0];
      return subqueryFor(call, right, leftName, leftTs);
    });
    // A right column outside an aggregate has no single row to come from (WindowJoinTest
    // #testWindowJoinFailsOnMasterColumnAggregate: `p.price` in the select list).
    someExpr(expr, (e) => {
      if (e.kind === "subquery") return false;
      if (e.kind === "column" && rights.some((r) => e.qualifier?.toLowerCase() === r.name.toLowerCase())) {
        throw new SqlError(
          `WINDOW join cannot reference right table non-aggregate column: ${e.qualifier}.${e.name}`,
          e.pos,
        );
      }
      return undefined;
    });
    if (!changed) return item;
    return { ...item, expr, alias: item.alias ?? takeItemName(item, pc.legacyNames, names) };
  });
  return { ...core, items, from: { first: left, joins: from.joins } };
}

function sourceName(s: A.Source): string {
  if (s.alias) return s.alias;
  if (s.kind === "table") return s.name;
  throw new SqlError("WINDOW JOIN needs an alias for the left source", s.pos);
}

/** The designated timestamp's name; QuestDB reports a missing one at the WINDOW keyword. */
function timestampName(s: A.Source, pc: PlanContext, side: string, pos: number): string {
  const { node } = planSource(s, pc);
  if (node.timestampIndex < 0) throw new SqlError(`${side} side of time series join has no timestamp`, pos);
  return node.columns[node.timestampIndex].name;
}

/** Whether a column of `call` is qualified by `name`. */
function qualifies(call: A.FunctionCall, name: string): boolean {
  return someExpr(
    call,
    (e) => e.kind === "column" && e.qualifier?.toLowerCase() === name.toLowerCase() || undefined,
  );
}

/** `e` with each aggregate call (not a window function) replaced. */
function replaceAggregates(e: A.Expr, replace: (call: A.FunctionCall) => A.Expr): A.Expr {
  if (e.kind === "call" && !e.over && isAggregateCall(e)) return replace(e);
  if (e.kind === "call" && e.over) return e;
  return mapChildExprs(e, (c) => replaceAggregates(c, replace));
}

/**
 * A right side QuestDB reads by time frames: a table scan, at most narrowed by timestamp
 * intervals and projected to plain columns (WindowJoinTest#testWindowJoinFilterTimestampFilter:
 * `(prices WHERE ts IN '1970-01-01')`, `(SELECT price, price price0, sym, ts FROM prices WHERE
 * ts IN ...)`); a row filter makes it a sub-query it refuses.
 */
function timeFramed(node: PlanNode): boolean {
  let n = node;
  while (n.kind === "project" && n.exprs.every((e) => e.kind === "column")) n = n.input;
  return n.kind === "scan";
}

type Right = { join: A.WindowJoin; table: A.TableSource | A.SubquerySource; name: string; ts: string };

function subqueryFor(call: A.FunctionCall, right: Right, leftName: string, leftTs: string): A.Expr {
  const pos = call.pos;
  const col = (qualifier: string, name: string): A.Expr => ({ kind: "column", pos, qualifier, name });
  const bin = (op: A.BinaryOp, l: A.Expr, r: A.Expr): A.Expr => ({
    kind: "binary",
    pos,
    op,
    left: l,
    right: r,
  });
  const bound = (b: A.WindowJoinBound): A.Expr => ({
    kind: "call",
    pos,
    name: "dateadd",
    args: [
      { kind: "literal", pos, type: "string", value: b.unit, text: `'${b.unit}'` },
      {
        kind: "literal",
        pos,
        type: "int",
        value: b.preceding ? -b.amount : b.amount,
        text: String(b.amount),
      },
      col(leftName, leftTs),
    ],
    distinct: false,
    star: false,
  });
  const j = right.join;
  const rightTs = col(right.name, right.ts);
  let on: A.Expr | undefined = j.on;
  // `ON (sym)`: the same-named columns of both sides.
  if (on?.kind === "column" && !on.qualifier) on = bin("=", col(leftName, on.name), col(right.name, on.name));
  const lo = bound(j.lo);
  const matching = (extra: A.Expr) => (on ? bin("and", on, extra) : extra);
  let start: A.Expr = bin(">=", rightTs, lo);
  if (j.prevailing) {
    const latest: A.Query = query(
      { kind: "call", pos, name: "max", args: [rightTs], distinct: false, star: false },
      right.table,
      matching(bin("<=", rightTs, lo)),
    );
    start = bin("or", start, bin("=", rightTs, { kind: "subquery", pos, query: latest }));
  }
  const where = matching(bin("and", bin("<=", rightTs, bound(j.hi)), start));
  return { kind: "subquery", pos, query: query(call, right.table, where) };
}

function query(item: A.Expr, table: A.TableSource | A.SubquerySource, where: A.Expr): A.Query {
  const pos = item.pos;
  return {
    kind: "query",
    pos,
    with: [],
    orderBy: [],
    body: {
      kind: "select",
      pos,
      distinct: false,
      windows: [],
      items: [{ expr: item }],
      from: { first: { ...table }, joins: [] },
      where,
    },
  };
}
