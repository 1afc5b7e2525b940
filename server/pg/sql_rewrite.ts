/**
 * Rewrites the PostgreSQL-only spellings that driver and psql catalog queries use into the
 * dialect the engine parses (spec/protocols.md §12.12 "casts such as ::regclass, ::oid"):
 * `pg_catalog.` qualifiers, `OPERATOR(pg_catalog.~)`, `COLLATE pg_catalog.default`, and casts
 * to the pseudo types regclass/regtype/oid/name. Works on tokens, so string literals such as
 * `'pg_catalog'` are never touched. Ordinary queries pass through unchanged and cheaply.
 */
import { type SqlToken, tokenize } from "./sql_tokens.ts";

const TRIGGER = /pg_|operator\s*\(|collate|::\s*(reg|oid|name|bpchar|"char")|\[\]/i;

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
  "pg_index",
  "pg_trigger",
  "pg_rewrite",
  "pg_policy",
  "pg_statistic_ext",
  "pg_publication",
  "pg_publication_rel",
  "pg_partitioned_table",
  "pg_foreign_table",
  "pg_depend",
  "pg_proc",
  "pg_enum",
  "pg_range",
  "pg_extension",
]);

/** Index of the `)` closing the `(` at `open`, or -1. */
function closingParen(tokens: SqlToken[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (tokens[j].text === "(") depth++;
    else if (tokens[j].text === ")" && --depth === 0) return j;
  }
  return -1;
}

/**
 * True when the SELECT in tokens [from, to) has no rows because the first relation of its
 * top-level FROM is always empty (inner and left joins keep it empty; right/full joins and
 * set operations do not).
 */
function selectsFromEmpty(tokens: SqlToken[], from: number, to: number): boolean {
  let depth = 0, at = -1;
  for (let j = from; j < to && at < 0; j++) {
    const t = tokens[j];
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    else if (depth === 0 && t.kind === "word" && t.lower === "from") at = j;
  }
  if (at < 0) return false;
  let j = at + 1;
  if (tokens[j]?.lower === "pg_catalog" && tokens[j + 1]?.text === ".") j += 2;
  if (j >= to || tokens[j].kind !== "word" || !EMPTY_RELATIONS.has(tokens[j].lower)) return false;
  for (let k = j + 1; k < to; k++) {
    const w = tokens[k].lower;
    if (tokens[k].kind === "word" && (w === "right" || w === "full" || w === "union" || w === "except")) return false;
  }
  return true;
}

/** True when the `(` at `open` starts a derived table (in a FROM list), not a scalar subquery. */
function isDerivedTable(tokens: SqlToken[], open: number): boolean {
  let depth = 0;
  for (let j = open - 1; j >= 0; j--) {
    const t = tokens[j];
    if (t.text === ")") depth++;
    else if (t.text === "(" && depth-- === 0) return false;
    else if (depth === 0 && t.kind === "word") {
      if (t.lower === "from" || t.lower === "join") return true;
      if (["select", "where", "on", "and", "or", "when", "then", "else", "by", "having", "in", "exists"].includes(t.lower)) {
        return false;
      }
    }
  }
  return false;
}

/** OIDs of the catalog relations `'name'::regclass` may name (pg_catalog.ts uses the same). */
const CATALOG_OIDS: Record<string, number> = {
  pg_class: 1259,
  pg_type: 1247,
  pg_attribute: 1249,
  pg_proc: 1255,
  pg_namespace: 2615,
  pg_database: 1262,
  pg_description: 2609,
  pg_constraint: 2606,
  pg_index: 2610,
};

/** What a cast to a pseudo type becomes: a dialect type name, or "" to drop the cast. */
const CAST_REPLACEMENTS: Record<string, string> = {
  regclass: "",
  regtype: "",
  regproc: "",
  regprocedure: "",
  regnamespace: "",
  regrole: "",
  regconfig: "",
  oid: "int",
  name: "varchar",
  bpchar: "varchar",
  char: "varchar",
  text: "varchar",
  int2vector: "",
  oidvector: "",
};

/**
 * `SELECT a, b FROM <empty relation> ...` (joins, filters and all) has no rows: it becomes
 * `SELECT NULL a, NULL b FROM long_sequence(0)` with the same number of columns. psql's `\d`
 * asks pg_policy and pg_statistic_ext with syntax (unnest ... s(attnum), any()) the engine
 * does not have, for answers that are empty anyway.
 */
function emptyResult(tokens: SqlToken[]): string | undefined {
  if (tokens[0]?.lower !== "select" || !selectsFromEmpty(tokens, 1, tokens.length)) return undefined;
  let depth = 0, columns = 1;
  for (let j = 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    else if (depth === 0 && t.text === ",") columns++;
    else if (depth === 0 && t.kind === "word" && t.lower === "from") break;
  }
  const list = Array.from({ length: columns }, (_, i) => `NULL c${i + 1}`);
  return `SELECT ${list.join(", ")} FROM long_sequence(0)`;
}

/** Returns the text the engine should run for `sql`. */
export function rewriteForEngine(sql: string): string {
  if (!TRIGGER.test(sql)) return sql;
  const tokens = tokenize(sql);
  const empty = emptyResult(tokens);
  if (empty) return empty;
  const parts: string[] = [];
  let copied = 0;
  const replace = (from: SqlToken, to: SqlToken, text: string) => {
    parts.push(sql.slice(copied, from.pos), text);
    copied = to.pos + to.text.length;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const lower = t.kind === "word" ? t.lower : "";
    if (t.text === "(" && tokens[i + 1]?.lower === "select") {
      const close = closingParen(tokens, i);
      // `array(select ...)` builds an array the engine has no type for; the catalog columns
      // it feeds (role lists of policies) are empty here, so NULL is the same answer.
      if (close > 0 && tokens[i - 1]?.lower === "array") {
        replace(tokens[i - 1], tokens[close], "NULL");
        i = close;
        continue;
      }
      if (close > 0 && !isDerivedTable(tokens, i) && selectsFromEmpty(tokens, i + 2, close)) {
        const exists = tokens[i - 1]?.lower === "exists";
        if (exists) {
          parts.push(sql.slice(copied, tokens[i - 1].pos));
          copied = t.pos;
        }
        replace(t, tokens[close], exists ? "false" : "NULL");
        i = close;
        continue;
      }
    }
    if (lower === "pg_catalog" && tokens[i + 1]?.text === ".") {
      replace(t, tokens[i + 1], "");
      i++;
    } else if (lower === "operator" && tokens[i + 1]?.text === "(") {
      let j = i + 2;
      while (j < tokens.length && tokens[j].text !== ")") j++;
      const op = tokens[j - 1];
      if (j < tokens.length && op) {
        replace(t, tokens[j], op.text);
        i = j;
      }
    } else if (lower === "collate" && tokens[i + 1]) {
      let j = i + 1;
      if (tokens[j].lower === "pg_catalog" && tokens[j + 1]?.text === ".") j += 2;
      replace(t, tokens[j], "");
      i = j;
    } else if (t.text === "::" && tokens[i + 1]) {
      let j = i + 1;
      if (tokens[j].lower === "pg_catalog" && tokens[j + 1]?.text === ".") j += 2;
      const name = tokens[j]?.lower ?? "";
      const arrayEnd = tokens[j + 1]?.text === "[" && tokens[j + 2]?.text === "]" ? j + 2 : j;
      if (name === "regclass" && tokens[i - 1]?.kind === "string" && CATALOG_OIDS[tokens[i - 1].lower] !== undefined) {
        replace(tokens[i - 1], tokens[j], String(CATALOG_OIDS[tokens[i - 1].lower]));
        i = j;
      } else if (name in CAST_REPLACEMENTS || arrayEnd !== j) {
        const to = CAST_REPLACEMENTS[name] ?? "";
        replace(t, tokens[arrayEnd], to === "" ? "" : "::" + to);
        i = arrayEnd;
      }
    }
  }
  parts.push(sql.slice(copied));
  return parts.join("");
}
