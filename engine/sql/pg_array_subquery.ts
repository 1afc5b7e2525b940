/**
 * PostgreSQL's array constructor over a subquery, `ARRAY(SELECT b.rolname FROM ... WHERE
 * m.member = r.oid)` (psql's `\du`, `\d` and `\dp` send it): an array of the subquery's one
 * column, in its row order. The engine's arrays hold DOUBLE only, so this array is
 * PostgreSQL's text form (`{a,b}`, `{}` for no rows), as the catalog's vectors are
 * (functions/pg_text_arrays.ts). It is read as the scalar subquery
 * `(SELECT pg_array_agg(_array.<column>) FROM (subquery) _array)`, correlated like any other.
 */
import { syntaxError } from "../base/errors.ts";
import type { Expr, Query, QueryBody, SelectCore } from "./ast.ts";

/** The first SELECT block of a query, whose items name the result's columns. */
function firstCore(body: QueryBody): SelectCore {
  if (body.kind === "select") return body;
  if (body.kind === "setop") return firstCore(body.left);
  return firstCore(body.body);
}

/** The name the subquery's only column has, naming an unnamed expression `array`. */
function columnName(q: Query, pos: number): string {
  const items = firstCore(q.body).items;
  if (!items || items.length !== 1 || items[0].expr.kind === "star") {
    throw syntaxError("subquery must return only one column", pos);
  }
  const item = items[0];
  if (item.alias !== undefined) return item.alias;
  if (item.expr.kind === "column") return item.expr.name;
  item.alias = "array";
  return item.alias;
}

export function arraySubquery(query: Query, pos: number): Expr {
  const column = columnName(query, pos);
  const core: SelectCore = {
    kind: "select",
    pos,
    distinct: false,
    items: [{
      expr: {
        kind: "call",
        pos,
        name: "pg_array_agg",
        args: [{ kind: "column", pos, qualifier: "_array", name: column }],
        distinct: false,
        star: false,
      },
      alias: "array",
    }],
    from: { first: { kind: "subquerySource", pos, query, alias: "_array" }, joins: [] },
    windows: [],
  };
  return { kind: "subquery", pos, query: { kind: "query", pos, with: [], body: core, orderBy: [] } };
}

/** True for the subquery arraySubquery made: PostgreSQL names such a column `array`. */
export function isArraySubquery(e: Expr): boolean {
  if (e.kind !== "subquery" || e.query.body.kind !== "select") return false;
  const core = e.query.body;
  const call = core.items?.[0]?.expr;
  return core.from?.first.kind === "subquerySource" && core.from.first.alias === "_array" &&
    call?.kind === "call" && call.name === "pg_array_agg";
}
