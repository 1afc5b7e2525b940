/**
 * Which result columns of a query are timestamptz (issue #18). The engine has one TIMESTAMP
 * type (a `::timestamptz` cast yields TIMESTAMP), but a listener that keeps a session time
 * zone shows timestamptz values with the session's offset, as PostgreSQL does (pgwire's
 * `SET TIME ZONE`, server/pg/time_zone.ts). A column is one when its select item is a cast to
 * timestamptz (`x::timestamptz`, `CAST(x AS timestamp with time zone)`), read from the
 * statement's parse; only the plain shape is recognised, a SELECT whose items map one to one
 * onto the result columns (no `*`).
 */
import type * as A from "../sql/ast.ts";
import type { ColumnMeta } from "../prepared.ts";

const TIMESTAMPTZ = /^(pg_catalog\.)?timestamptz$|^timestamp\s+with\s+time\s+zone$/i;

function firstCore(body: A.QueryBody): A.SelectCore {
  if (body.kind === "select") return body;
  if (body.kind === "setop") return firstCore(body.left);
  return firstCore(body.body);
}

/** The columns with `timestamptz` set where the item is such a cast; the same array when none is. */
export function markTimestamptz(stmt: A.Statement, columns: ColumnMeta[]): ColumnMeta[] {
  if (stmt.kind !== "query") return columns;
  const items = firstCore(stmt.body).items;
  if (!items || items.length !== columns.length || items.some((i) => i.expr.kind === "star")) return columns;
  let out = columns;
  items.forEach((item, i) => {
    const e = item.expr;
    if (e.kind !== "cast" || !TIMESTAMPTZ.test(e.type.text.trim()) || columns[i].type.tag !== "TIMESTAMP") {
      return;
    }
    if (out === columns) out = columns.slice();
    out[i] = { ...columns[i], timestamptz: true };
  });
  return out;
}
