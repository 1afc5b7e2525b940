/**
 * Which result columns of a query are timestamptz. The engine has one TIMESTAMP type (a
 * `::timestamptz` cast yields TIMESTAMP), so the wire layer reads the select list itself:
 * an item whose outermost expression is a cast to timestamptz (`x::timestamptz`,
 * `CAST(x AS timestamptz)`, `timestamp with time zone` spelled out) is one. Only the plain
 * shape is recognised — a top-level SELECT whose items map one to one onto the result
 * columns (no `*`); anything else keeps every column as QuestDB types it.
 */
import type { ColumnMeta } from "../../engine/mod.ts";
import type { SqlToken } from "./sql_tokens.ts";
import { timestamptzType } from "./time_zone.ts";

const OPEN = new Set(["(", "["]);
const CLOSE = new Set([")", "]"]);
/** Words that end a select list at depth 0. */
const LIST_END = new Set([
  "from",
  "where",
  "union",
  "except",
  "intersect",
  "order",
  "limit",
  "group",
  "sample",
  "latest",
  "into",
]);

/** The items of the main SELECT's list, or undefined when there is none to read. */
function selectItems(tokens: SqlToken[]): SqlToken[][] | undefined {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (OPEN.has(t.text)) depth++;
    else if (CLOSE.has(t.text)) depth--;
    else if (t.kind === "word" && t.lower === "select" && depth <= (tokens[0].text === "(" ? 1 : 0)) {
      start = i + 1;
      break;
    }
  }
  if (start < 0) return undefined;
  if (tokens[start]?.lower === "distinct" || tokens[start]?.lower === "all") start++;
  const items: SqlToken[][] = [];
  let item: SqlToken[] = [];
  depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i];
    if (OPEN.has(t.text)) depth++;
    else if (CLOSE.has(t.text)) {
      if (depth === 0) break; // the end of a parenthesised query
      depth--;
    } else if (depth === 0 && t.kind === "word" && LIST_END.has(t.lower)) break;
    else if (depth === 0 && t.text === ",") {
      items.push(item);
      item = [];
      continue;
    } else if (depth === 0 && t.text === ";") break;
    item.push(t);
  }
  items.push(item);
  return items;
}

const isName = (t: SqlToken | undefined) => t !== undefined && (t.kind === "word" || t.kind === "quoted");

/** The item without its alias (`AS name` or a bare trailing name). */
function withoutAlias(item: SqlToken[]): SqlToken[] {
  const n = item.length;
  if (n >= 3 && item[n - 2].lower === "as" && item[n - 2].kind === "word" && isName(item[n - 1])) {
    return item.slice(0, -2);
  }
  // `x::timestamptz ts`: a name after a complete expression (a name, a number or a `)`).
  if (n >= 2 && isName(item[n - 1]) && item[n - 1].lower !== "zone" && item[n - 1].lower !== "timestamptz") {
    const before = item[n - 2];
    if (isName(before) || before.kind === "number" || before.text === ")" || before.kind === "string") {
      return item.slice(0, -1);
    }
  }
  return item;
}

/** True when the token list ends with a timestamptz type name (after `::` or `AS`). */
function endsWithTimestamptz(t: SqlToken[], lead: string): boolean {
  const n = t.length;
  if (n >= 2 && t[n - 1].lower === "timestamptz" && t[n - 2].text.toLowerCase() === lead) return true;
  return n >= 5 && t[n - 1].lower === "zone" && t[n - 2].lower === "time" && t[n - 3].lower === "with" &&
    t[n - 4].lower === "timestamp" && t[n - 5].text.toLowerCase() === lead;
}

function isTimestamptz(item: SqlToken[]): boolean {
  const e = withoutAlias(item);
  if (endsWithTimestamptz(e, "::")) return true;
  // CAST(x AS timestamptz): the whole item is the call.
  if (e.length >= 5 && e[0].lower === "cast" && e[1].text === "(" && e[e.length - 1].text === ")") {
    return endsWithTimestamptz(e.slice(0, -1), "as");
  }
  return false;
}

/**
 * The columns with timestamptz ones retyped for the session zone (see time_zone.ts); the
 * same array when the query has none.
 */
export function withSessionZone(columns: ColumnMeta[], tokens: SqlToken[], zone: string): ColumnMeta[] {
  if (!tokens.some((t) => t.lower === "timestamptz" || t.lower === "zone")) return columns;
  const items = selectItems(tokens);
  if (!items || items.length !== columns.length) return columns;
  if (items.some((it) => it.length === 0 || it[it.length - 1].text === "*")) return columns;
  let out = columns;
  items.forEach((item, i) => {
    if (columns[i].type.tag !== "TIMESTAMP" || !isTimestamptz(item)) return;
    if (out === columns) out = columns.slice();
    out[i] = { ...columns[i], type: timestamptzType(zone) };
  });
  return out;
}
