/**
 * Where a `::regclass`/`::regtype` cast is shown rather than compared, for sql_rewrite.ts.
 * The engine has no reg* types: a cast to one is an oid (an INT) so that joins and
 * comparisons (`attrelid = 't'::regclass`) work, but a select item PostgreSQL prints as a
 * name (`SELECT 'int4'::regtype` shows `integer`, `SELECT 16385::regclass` the table name),
 * and so does a cast of one to text (psql sorts by `c.oid::regclass::text`), so there the
 * rewrite wraps the oid in regtypeout()/regclassout().
 */
import type { SqlToken } from "./sql_tokens.ts";

/** Words that may follow a whole select item. */
const ITEM_END = new Set([
  "from",
  "as",
  "into",
  "where",
  "group",
  "order",
  "limit",
  "union",
  "except",
  "intersect",
]);
/** Words after which an expression continues (so what follows a cast is not an alias). */
const NOT_ALIAS = new Set([
  "and",
  "or",
  "is",
  "not",
  "in",
  "like",
  "ilike",
  "between",
  "collate",
  "then",
  "else",
  "end",
  "when",
]);
/** Words between a select item and its SELECT that show it is not one (a clause, a CASE). */
const NOT_ITEM = new Set([
  "from",
  "where",
  "on",
  "when",
  "then",
  "else",
  "by",
  "having",
  "and",
  "or",
  "join",
  "in",
  "case",
]);

/** True when tokens[at] names the select item it follows: `AS x`, a bare alias, a quoted name. */
export function hasAlias(tokens: SqlToken[], at: number): boolean {
  const t = tokens[at];
  if (!t) return false;
  return t.lower === "as" || t.kind === "quoted" ||
    (t.kind === "word" && !NOT_ALIAS.has(t.lower) && !ITEM_END.has(t.lower));
}

/**
 * True when tokens [start, end] (a cast's operand through its type name) are a whole item of
 * a select list: after SELECT, DISTINCT or a comma of that list, before a comma, FROM, AS, an
 * alias or the end.
 */
export function isSelectItem(tokens: SqlToken[], start: number, end: number): boolean {
  const prev = tokens[start - 1], next = tokens[end + 1];
  if (!prev || !["select", "distinct", ","].includes(prev.lower)) return false;
  if (next && ![",", ";", ")"].includes(next.text)) {
    const alias = (next.kind === "word" && !NOT_ALIAS.has(next.lower)) || next.kind === "quoted";
    if (!ITEM_END.has(next.lower) && !alias) return false;
  }
  let depth = 0;
  for (let j = start - 1; j >= 0; j--) {
    const t = tokens[j];
    if (t.text === ")") depth++;
    else if (t.text === "(" && --depth < 0) return false; // an argument of a call
    else if (depth === 0 && t.kind === "word") {
      if (t.lower === "select") return true;
      if (NOT_ITEM.has(t.lower)) return false;
    }
  }
  return false;
}

/** True when tokens[at] starts a further cast to text: `::text`, `::pg_catalog.text`, `::varchar`, `::name`. */
export function castToText(tokens: SqlToken[], at: number): boolean {
  if (tokens[at]?.text !== "::") return false;
  const k = tokens[at + 1]?.lower === "pg_catalog" && tokens[at + 2]?.text === "." ? at + 3 : at + 1;
  return ["text", "varchar", "name"].includes(tokens[k]?.lower) && tokens[k + 1]?.text !== "[";
}
