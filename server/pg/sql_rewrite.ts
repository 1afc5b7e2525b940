/**
 * Rewrites the PostgreSQL-only spellings that driver and psql catalog queries use into the
 * dialect the engine parses (spec/protocols.md §12.12 "casts such as ::regclass, ::oid"):
 * `pg_catalog.` qualifiers, `OPERATOR(pg_catalog.~)`, `COLLATE pg_catalog.default`, and casts
 * to the pseudo types regclass/regtype/oid/name. Works on tokens, so string literals such as
 * `'pg_catalog'` are never touched. Ordinary queries pass through unchanged and cheaply.
 */
import { type SqlToken, tokenize } from "./sql_tokens.ts";

const TRIGGER = /pg_|operator\s*\(|collate|::\s*(reg|oid|name|bpchar|"char")|\[\]|substring\s*\(|current_|session_user/i;

/**
 * SQL's parameterless functions, written without parentheses (`SELECT session_user`): the
 * engine knows them as calls. `user` is left alone: it is a common column name here.
 */
const BARE_FUNCTIONS = new Set(["current_user", "session_user", "current_schema", "current_catalog", "current_database"]);

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
function closingParen(tokens: SqlToken[], open: number): number {
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
function selectsFromEmpty(tokens: SqlToken[], from: number, to: number): boolean {
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
    } else if (["where", "group", "order", "having", "limit", "window"].includes(t.lower)) inFrom = false;
  }
  return empty;
}

/** True when the `(` at `open` starts a derived table (in a FROM list), not a scalar subquery. */
function isDerivedTable(tokens: SqlToken[], open: number): boolean {
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
 * The output name of the select item tokens [from, to): its alias (`expr AS x`, `expr x`),
 * the last part of a column reference (`ix.indkey` gives indkey), else `c<n>`.
 */
function itemName(tokens: SqlToken[], from: number, to: number, n: number): string {
  const last = tokens[to - 1], before = tokens[to - 2];
  const isName = (t: SqlToken | undefined) =>
    t !== undefined && (t.kind === "quoted" || (t.kind === "word" && !NOT_ALIASES.has(t.lower)));
  if (to - from >= 2 && before.lower === "as") return last.text;
  if (isName(last) && (to - from === 1 || before.text === "." || before.text === ")" || isName(before))) return last.text;
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
function emptySelect(tokens: SqlToken[], from: number, to: number): string | undefined {
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

function emptyResult(tokens: SqlToken[]): string | undefined {
  return emptySelect(tokens, 0, tokens.length);
}

/**
 * How many `(` open at `at` left-deep join groups, `FROM ((a JOIN b ON ..) JOIN c ON ..)` as
 * psqlODBC writes them; the engine reads a parenthesised FROM item as a subquery, hiding the
 * aliases inside. Left-deep groups mean the same without their parentheses.
 */
function joinGroupParens(tokens: SqlToken[], at: number): number {
  let opens = 0;
  while (tokens[at + opens]?.text === "(") opens++;
  const first = tokens[at + opens];
  if (!first || first.kind !== "word" || ["select", "with", "show", "values"].includes(first.lower)) return 0;
  for (let k = 0; k < opens; k++) {
    const close = closingParen(tokens, at + k);
    if (close < 0) return 0;
    let depth = 0, joins = false;
    for (let j = at + k + 1; j < close; j++) {
      if (tokens[j].text === "(") depth++;
      else if (tokens[j].text === ")") depth--;
      else if (depth === opens - k - 1 && tokens[j].lower === "join") joins = true;
    }
    if (!joins) return 0;
  }
  return opens;
}

/**
 * Correlated scalar subqueries of driver catalog queries (the engine has none) whose answer
 * is the same for every row here, by the lower-case token text they start with.
 */
const KNOWN_SUBQUERIES: [string, string][] = [
  // pgjdbc's type cache and getTypeInfo: is the type's relation a composite type? There are none.
  ["select c . relkind = 'c' from pg_class", "false"],
  ["select c . relkind = 'c' from pg_catalog . pg_class", "false"],
  // pgjdbc's getTypeInfo numbers the schemas of the search path (public only) with an array.
  ["select s . r , ( current_schemas ( false ) ) [ s . r ] as nspname", "(select 1 r, 'public' nspname from long_sequence(1))"],
];

/** The constant answer of the subquery in tokens [from, to), when KNOWN_SUBQUERIES has it. */
function knownSubquery(tokens: SqlToken[], from: number, to: number): string | undefined {
  const text = tokens.slice(from, Math.min(to, from + 24)).map((t) => t.kind === "word" ? t.lower : t.text).join(" ");
  return KNOWN_SUBQUERIES.find(([prefix]) => text.startsWith(prefix))?.[1];
}

/** What current_schemas(true) answers: the implicit pg_catalog, then the search path. */
const CURRENT_SCHEMAS = ["pg_catalog", "public"];

/**
 * `(current_schemas(b))[n]` at `at` (pgjdbc's getSchemas asks for the temp schema that way):
 * the engine has no arrays, so the element becomes a string literal (NULL past the end).
 */
function currentSchemasElement(tokens: SqlToken[], at: number): { end: number; text: string } | undefined {
  if (tokens[at].text !== "(") return undefined;
  const fn = tokens[at + 1]?.lower === "pg_catalog" && tokens[at + 2]?.text === "." ? at + 3 : at + 1;
  if (tokens[fn]?.lower !== "current_schemas" || tokens[fn + 1]?.text !== "(") return undefined;
  const inner = closingParen(tokens, fn + 1);
  if (inner < 0 || tokens[inner + 1]?.text !== ")" || tokens[inner + 2]?.text !== "[") return undefined;
  const n = tokens[inner + 3], close = tokens[inner + 4];
  if (n?.kind !== "number" || close?.text !== "]") return undefined;
  const schema = CURRENT_SCHEMAS[Number(n.text) - 1];
  return { end: inner + 4, text: schema === undefined ? "NULL" : `'${schema}'` };
}

/**
 * SQL-standard `substring(s FROM a FOR b)` (pgjdbc's getFunctions) is `substring(s, a, b)`:
 * marks the FROM and FOR at depth 1 of the call opening at `open` to become commas.
 */
function substringCommas(tokens: SqlToken[], open: number, marks: Set<number>): void {
  const close = closingParen(tokens, open);
  let depth = 0;
  for (let j = open + 1; j < close; j++) {
    if (tokens[j].text === "(") depth++;
    else if (tokens[j].text === ")") depth--;
    else if (depth === 0 && (tokens[j].lower === "from" || tokens[j].lower === "for")) marks.add(j);
  }
}

/**
 * Index of the first token of the operand of the `::` at `at`: a (qualified) name, literal or
 * number, a parenthesised expression, or a call `f(...)`; -1 when there is none.
 */
function castOperandStart(tokens: SqlToken[], at: number): number {
  let k = at - 1;
  if (k < 0) return -1;
  if (tokens[k].text === ")") {
    let depth = 0;
    for (; k >= 0; k--) {
      if (tokens[k].text === ")") depth++;
      else if (tokens[k].text === "(" && --depth === 0) break;
    }
    if (k < 0) return -1;
    if (tokens[k - 1]?.kind !== "word") return k;
    k--;
  } else if (!["word", "quoted", "string", "number", "param"].includes(tokens[k].kind)) return -1;
  while (tokens[k - 1]?.text === "." && (tokens[k - 2]?.kind === "word" || tokens[k - 2]?.kind === "quoted")) k -= 2;
  return k;
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
  // Tokens marked when their construct starts, replaced when reached: the `)` of a flattened
  // join group (dropped), FROM/FOR inside substring(...) (commas).
  const dropped = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const lower = t.kind === "word" ? t.lower : "";
    if (dropped.has(i)) {
      replace(t, t, t.text === ")" ? "" : ",");
      continue;
    }
    if (lower === "substring" && tokens[i + 1]?.text === "(") substringCommas(tokens, i + 1, dropped);
    if (BARE_FUNCTIONS.has(lower) && tokens[i + 1]?.text !== "(" && tokens[i - 1]?.text !== "." && tokens[i - 1]?.lower !== "as") {
      replace(t, t, (lower === "current_catalog" ? "current_database" : lower) + "()");
      continue;
    }
    if (lower === "from" && tokens[i + 1]?.text === "(") {
      const opens = joinGroupParens(tokens, i + 1);
      if (opens > 0) {
        for (let k = 0; k < opens; k++) dropped.add(closingParen(tokens, i + 1 + k));
        parts.push(sql.slice(copied, tokens[i + 1].pos));
        copied = tokens[i + opens].pos + 1;
        i += opens;
        continue;
      }
    }
    const subscript = currentSchemasElement(tokens, i);
    if (subscript) {
      replace(t, tokens[subscript.end], subscript.text);
      i = subscript.end;
      continue;
    }
    if (t.text === "(" && tokens[i + 1]?.lower === "select") {
      const close = closingParen(tokens, i);
      // `array(select ...)` builds an array the engine has no type for; the catalog columns
      // it feeds (role lists of policies) are empty here, so NULL is the same answer.
      if (close > 0 && tokens[i - 1]?.lower === "array") {
        replace(tokens[i - 1], tokens[close], "NULL");
        i = close;
        continue;
      }
      const known = close > 0 ? knownSubquery(tokens, i + 1, close) : undefined;
      if (known) {
        replace(t, tokens[close], known);
        i = close;
        continue;
      }
      const derivedEmpty = close > 0 && isDerivedTable(tokens, i) ? emptySelect(tokens, i + 1, close) : undefined;
      if (derivedEmpty) {
        replace(t, tokens[close], `(${derivedEmpty})`);
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
      } else if (name === "regclass" && tokens[i - 1]?.kind === "string") {
        // Any other relation name: its oid from pg_class (NULL when there is no such relation).
        const rel = tokens[i - 1].lower.replace(/^(public|pg_catalog|information_schema)\./, "").replaceAll('"', "");
        replace(tokens[i - 1], tokens[j], `(select oid from pg_class where relname = '${rel.replaceAll("'", "''")}')`);
        i = j;
      } else if (name === "regtype" && tokens[i - 1]?.kind === "string") {
        replace(tokens[i - 1], tokens[j], `to_regtype(${tokens[i - 1].text})`);
        i = j;
      } else if (name === "regtype" && (tokens[castOperandStart(tokens, i)]?.pos ?? -1) >= copied) {
        // A type oid shown as a regtype prints as format_type does without a modifier.
        const start = tokens[castOperandStart(tokens, i)];
        parts.push(sql.slice(copied, start.pos), "format_type(", sql.slice(start.pos, t.pos), ", NULL)");
        copied = tokens[j].pos + tokens[j].text.length;
        i = j;
      } else if (name === "regproc" && tokens[i - 1]?.kind === "string") {
        // A regproc prints without its schema, so `'pg_catalog.array_in'::regproc` compares as 'array_in'.
        replace(tokens[i - 1], tokens[j], `'${tokens[i - 1].lower.replace(/^pg_catalog\./, "").replaceAll("'", "''")}'`);
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
