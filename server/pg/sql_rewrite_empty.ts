/**
 * The empty-relation rule of sql_rewrite.ts: catalog relations with no rows here, and the
 * SELECTs, derived tables, scalar subqueries and EXISTS over them, which are answered as
 * empty (or NULL, or false) without the engine reading constructs it lacks (correlated
 * subqueries, unnest, ANY over arrays).
 */
import type { SqlToken } from "./sql_tokens.ts";

/**
 * Catalog relations that are always empty here (engine/catalog/pg_catalog.ts registers them
 * without rows). A scalar subquery over one of them is NULL and EXISTS over one is false,
 * which lets psql's correlated subqueries (`\d t` reads pg_attrdef and pg_collation that way)
 * run on an engine without correlated subqueries.
 */
const EMPTY_RELATIONS = new Set([
  "pg_attrdef",
  "pg_collation",
  "pg_description",
  "pg_shdescription",
  "pg_constraint",
  "pg_inherits",
  "pg_trigger",
  "pg_rewrite",
  "pg_policy",
  "pg_statistic_ext",
  "pg_publication",
  "pg_publication_rel",
  "pg_partitioned_table",
  "pg_foreign_table",
  "pg_depend",
  "pg_enum",
  "pg_range",
  "pg_extension",
  "pg_sequence",
  "pg_auth_members",
  "pg_operator",
  "pg_opclass",
  "pg_conversion",
  "pg_ts_config",
  "pg_db_role_setting",
  "pg_cast",
  "pg_aggregate",
  "pg_event_trigger",
  "pg_foreign_data_wrapper",
  "pg_foreign_server",
]);

/** Index of the `)` closing the `(` at `open`, or -1. */
export function closingParen(tokens: SqlToken[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (tokens[j].text === "(") depth++;
    else if (tokens[j].text === ")" && --depth === 0) return j;
  }
  return -1;
}

/**
 * True when tokens[j] (after an optional `pg_catalog.`) names an always-empty relation, or
 * opens a derived table that selects from one (pgjdbc's getPrimaryKeys wraps pg_index so).
 */
function isEmptyRelation(tokens: SqlToken[], j: number, to: number): boolean {
  // `((a JOIN b ...) JOIN c ...)`: a left-deep join group is empty when its first relation is.
  while (tokens[j]?.text === "(" && tokens[j + 1]?.text === "(") j++;
  if (tokens[j]?.text === "(" && tokens[j + 1]?.lower === "select") {
    const close = closingParen(tokens, j);
    return close > 0 && close < to && selectsFromEmpty(tokens, j + 2, close);
  }
  if (tokens[j]?.lower === "pg_catalog" && tokens[j + 1]?.text === ".") j += 2;
  return j < to && tokens[j].kind === "word" && EMPTY_RELATIONS.has(tokens[j].lower);
}

/**
 * True when the SELECT in tokens [from, to) has no rows because the first relation of its
 * top-level FROM, or one it inner-joins, is always empty (inner and left joins keep it empty;
 * right/full joins and set operations do not).
 */
export function selectsFromEmpty(tokens: SqlToken[], from: number, to: number): boolean {
  let depth = 0, at = -1, empty = false, inFrom = false;
  for (let j = from; j < to; j++) {
    const t = tokens[j];
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    else if (t.kind === "word" && (t.lower === "right" || t.lower === "full")) return false;
    else if (depth !== 0) continue;
    else if (t.text === "," && inFrom) empty ||= isEmptyRelation(tokens, j + 1, to); // `FROM a, b`: a cross join
    else if (t.kind !== "word") continue;
    else if (at < 0 && t.lower === "from") {
      at = j;
      inFrom = true;
      empty = isEmptyRelation(tokens, j + 1, to);
    } else if (t.lower === "union" || t.lower === "except") return false;
    else if (at >= 0 && t.lower === "join" && !["left", "outer"].includes(tokens[j - 1].lower)) {
      empty ||= isEmptyRelation(tokens, j + 1, to);
    } else if (t.lower === "indisprimary" && at >= 0 && !inFrom && requiresPrimary(tokens, j, to)) {
      empty = true;
    } else if (["where", "group", "order", "having", "limit", "window"].includes(t.lower)) inFrom = false;
  }
  return empty;
}

/**
 * True when the `indisprimary` at `j` is a WHERE conjunct requiring it (`AND i.indisprimary`,
 * `ix.indisprimary = 't'`): no index here is a primary key, so primary-key lookups (pgjdbc's
 * getPrimaryKeys, SQLAlchemy's get_pk_constraint, over unnest and _pg_expandarray) are empty.
 */
function requiresPrimary(tokens: SqlToken[], j: number, to: number): boolean {
  const first = tokens[j - 1]?.text === "." ? j - 2 : j;
  if (!["where", "and"].includes(tokens[first - 1]?.lower)) return false;
  let next = j + 1;
  if (
    tokens[next]?.text === "=" && ["'t'", "'true'", "true"].includes(tokens[next + 1]?.text.toLowerCase())
  ) next += 2;
  return next >= to ||
    ["and", "order", "group", "limit", ")"].includes(tokens[next].lower ?? tokens[next].text);
}

/** True when the `(` at `open` starts a derived table (in a FROM list), not a scalar subquery. */
export function isDerivedTable(tokens: SqlToken[], open: number): boolean {
  let depth = 0, start = open;
  // Join-group parentheses may come between FROM and the subquery: `FROM ((select ...) r JOIN ...)`.
  while (tokens[start - 1]?.text === "(") start--;
  if (start < open && ["from", "join"].includes(tokens[start - 1]?.lower)) return true;
  for (let j = open - 1; j >= 0; j--) {
    const t = tokens[j];
    if (t.text === ")") depth++;
    else if (t.text === "(" && depth-- === 0) return false;
    else if (depth === 0 && t.kind === "word") {
      if (t.lower === "from" || t.lower === "join") return true;
      if (
        ["select", "where", "on", "and", "or", "when", "then", "else", "by", "having", "in", "exists"]
          .includes(t.lower)
      ) {
        return false;
      }
    }
  }
  return false;
}

/**
 * The output name of the select item tokens [from, to): its alias (`expr AS x`, `expr x`),
 * the last part of a column reference (`ix.indkey` gives indkey), else `c<n>`.
 */
function itemName(tokens: SqlToken[], from: number, to: number, n: number): string {
  const last = tokens[to - 1], before = tokens[to - 2];
  const isName = (t: SqlToken | undefined) =>
    t !== undefined && (t.kind === "quoted" || (t.kind === "word" && !NOT_ALIASES.has(t.lower)));
  if (to - from >= 2 && before.lower === "as") return last.text;
  if (isName(last) && (to - from === 1 || before.text === "." || before.text === ")" || isName(before))) {
    return last.text;
  }
  return `c${n}`;
}

/** Words that end a select item without naming it (`CASE ... END`, `x IS NULL`). */
const NOT_ALIASES = new Set(["end", "null", "true", "false", "and", "or", "not", "asc", "desc"]);

/**
 * `SELECT a, b FROM <empty relation> ...` (joins, filters and all) in tokens [from, to) has
 * no rows: it becomes `SELECT NULL a, NULL b FROM long_sequence(0)` with the same column names.
 * psql's `\d` asks pg_policy and pg_statistic_ext with syntax (unnest ... s(attnum), any()) the
 * engine does not have, and SQLAlchemy joins `(SELECT unnest(indkey) ... FROM pg_index)`, for
 * answers that are empty anyway.
 */
export function emptySelect(tokens: SqlToken[], from: number, to: number): string | undefined {
  if (tokens[from]?.lower !== "select" || !selectsFromEmpty(tokens, from + 1, to)) return undefined;
  let depth = 0, start = from + 1;
  if (tokens[start]?.lower === "distinct") start++;
  const names: string[] = [];
  for (let j = start; j < to; j++) {
    const t = tokens[j];
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    else if (depth === 0 && t.text === "*") return undefined; // `*` keeps the relation's own columns
    else if (depth === 0 && (t.text === "," || (t.kind === "word" && t.lower === "from"))) {
      names.push(itemName(tokens, start, j, names.length + 1));
      start = j + 1;
      if (t.text !== ",") break;
    }
  }
  const list = names.map((n) => `NULL ${n}`);
  return `SELECT ${list.join(", ")} FROM long_sequence(0)`;
}

export function emptyResult(tokens: SqlToken[]): string | undefined {
  return emptySelect(tokens, 0, tokens.length);
}
