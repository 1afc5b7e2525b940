/**
 * A WHERE over a `SAMPLE BY ... FILL` subquery that names only the subquery's key columns is
 * applied inside the subquery, before sampling, as QuestDB pushes it into the inner group-by's
 * filter. With FILL this changes the answer, not just the speed: the filled grid is built from
 * the rows that pass, so a key the filter keeps gets no leading or trailing fill rows from the
 * buckets only the filtered-out keys have (SampleByFillTest
 * #testFillNullPushdownEliminatesFilteredKeyFills).
 *
 * Only the plain shape is rewritten: `SELECT ... FROM (SELECT ... FROM table ... SAMPLE BY ...
 * FILL(...)) [alias] WHERE ...`, aligned to the calendar, with no joins on either level and no ORDER BY/LIMIT inside; a
 * conjunct moves when every column it reads is a select item of the subquery that is a bare
 * column of that table other than its designated timestamp (the bucket timestamp differs from
 * the row timestamp).
 */
import type * as A from "../sql/ast.ts";
import { mapChildExprs, someExpr } from "../sql/expr_walk.ts";
import type { PlanContext } from "./plan_context.ts";

export function pushKeyFiltersIntoFill(core: A.SelectCore, pc: PlanContext): A.SelectCore {
  const src = core.from?.first;
  if (!core.where || !src || core.from!.joins.length > 0 || src.kind !== "subquerySource") return core;
  const q = src.query;
  const inner = q.body;
  if (q.with.length > 0 || q.orderBy.length > 0 || q.limit || inner.kind !== "select") return core;
  const fill = inner.sampleBy?.fill ?? [];
  if (!inner.items || fill.length === 0 || fill.every((f) => f.kind === "none")) return core;
  // ALIGN TO FIRST OBSERVATION keeps the filter above the sampling: the first observation is
  // the first row of all keys (SampleByTest#testSampleByDoesntAllowNonTimestampPredicatePushdown).
  if (inner.sampleBy!.align.kind === "firstObservation") return core;
  const table = inner.from?.first;
  if (!table || inner.from!.joins.length > 0 || table.kind !== "table") return core;
  if (pc.ctes.has(table.name.toLowerCase())) return core;
  const meta = pc.catalog.table(table.name)?.meta;
  if (!meta) return core;
  const tsName = meta.timestampIndex >= 0 ? meta.columns[meta.timestampIndex].name.toLowerCase() : "";
  const tableColumns = new Set(meta.columns.map((c) => c.name.toLowerCase()));
  // Output name -> the table column it is.
  const keys = new Map<string, A.ColumnRef>();
  for (const item of inner.items) {
    const e = item.expr;
    if (e.kind !== "column" || e.variable) continue;
    const column = e.name.toLowerCase();
    if (column === tsName || !tableColumns.has(column)) continue;
    keys.set((item.alias ?? e.name).toLowerCase(), e);
  }
  if (keys.size === 0) return core;
  const alias = src.alias?.toLowerCase();
  const readsKeysOnly = (e: A.Expr) =>
    !someExpr(e, (x) => {
      if (x.kind === "subquery" || x.kind === "exists") return true;
      if (x.kind === "in" && !Array.isArray(x.list)) return true;
      if (x.kind === "call" && x.over) return true;
      if (x.kind !== "column") return undefined;
      if (x.qualifier && x.qualifier.toLowerCase() !== alias) return true;
      return !keys.has(x.name.toLowerCase());
    });
  const moved: A.Expr[] = [];
  const kept: A.Expr[] = [];
  for (const c of conjuncts(core.where)) (readsKeysOnly(c) ? moved : kept).push(c);
  if (moved.length === 0) return core;
  const toInner = (e: A.Expr): A.Expr => {
    if (e.kind === "column") {
      const k = keys.get(e.name.toLowerCase())!;
      return { kind: "column", pos: e.pos, name: k.name, qualifier: k.qualifier };
    }
    return mapChildExprs(e, toInner);
  };
  const pushed = moved.map(toInner);
  const innerWhere = andAll(inner.where ? [inner.where, ...pushed] : pushed);
  const newInner: A.SelectCore = { ...inner, where: innerWhere };
  return {
    ...core,
    where: kept.length > 0 ? andAll(kept) : undefined,
    from: { ...core.from!, first: { ...src, query: { ...q, body: newInner } } },
  };
}

function conjuncts(e: A.Expr): A.Expr[] {
  return e.kind === "binary" && e.op === "and" && !e.list
    ? [...conjuncts(e.left), ...conjuncts(e.right)]
    : [e];
}

function andAll(es: A.Expr[]): A.Expr {
  return es.reduce((a, b) => ({ kind: "binary", pos: b.pos, op: "and", left: a, right: b }));
}
