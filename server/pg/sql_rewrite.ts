/**
 * Rewrites the PostgreSQL-only spellings of driver and psql catalog queries the engine's parser
 * does not read yet (spec/protocols.md §12.12): casts to regrole/regconfig and to arrays,
 * catalog subqueries answered as constants. The spellings the engine reads itself
 * (engine/sql/pg_spellings.ts: `pg_catalog.` qualifiers of relations, functions and types,
 * OPERATOR(...), COLLATE, ::oid/::name, bare current_user, `= ANY (array)`, substring/trim
 * FROM; engine/plan/reg_types.ts: regclass/regtype/regproc; engine/plan/comma_joins.ts: comma
 * joins planned as equi-joins) are not rewritten.
 * Works on tokens, so string literals such as `'pg_catalog'` are never touched. Ordinary
 * queries pass through unchanged and cheaply. Helpers, one concern each:
 * sql_rewrite_empty.ts (queries over always-empty relations), sql_rewrite_arrays.ts (vector subscripts, `_pg_expandarray`).
 */
import { type SqlToken, tokenize } from "./sql_tokens.ts";
import { expandArrayField, vectorSubscript } from "./sql_rewrite_arrays.ts";
import {
  closingParen,
  emptyResult,
  emptySelect,
  isDerivedTable,
  selectsFromEmpty,
} from "./sql_rewrite_empty.ts";

const TRIGGER = /pg_|::\s*reg(role|config)|\[\]|current_/i;

/**
 * What a cast to a pseudo type becomes: a dialect type name, or "" to drop the cast. The
 * element types of array casts (`::oid[]`, `::text[]`, dropped) are listed too; casts to
 * oid, name, text, bpchar and "char" themselves are the parser's (pg_spellings.ts).
 */
const CAST_REPLACEMENTS: Record<string, string> = {
  regrole: "",
  regconfig: "",
};

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
  [
    "select s . r , ( current_schemas ( false ) ) [ s . r ] as nspname",
    "(select 1 r, 'public' nspname from long_sequence(1))",
  ],
];

/** The constant answer of the subquery in tokens [from, to), when KNOWN_SUBQUERIES has it. */
function knownSubquery(tokens: SqlToken[], from: number, to: number): string | undefined {
  const text = tokens.slice(from, Math.min(to, from + 24)).map((t) => t.kind === "word" ? t.lower : t.text)
    .join(" ");
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
 * Boolean catalog columns compared with PostgreSQL's `'t'`/`'f'` (SQLAlchemy's
 * `ix.indisprimary = 'f'`): the engine reads only `true`/`false` as booleans.
 */
const BOOLEAN_COLUMN =
  /^(indis|indimmediate|indcheckxmin|relis|relhas|relforce|relrowsecurity|attis|atthas|attnotnull|typis|typnotnull|typbyval|prois|proret|rol(super|inherit|create|can|replication|bypass)|datis|datallow|con(deferrable|deferred|validated|islocal|noinherit))/;

function booleanLiteral(tokens: SqlToken[], i: number): string | undefined {
  const t = tokens[i];
  if (t.kind !== "string" || (t.lower !== "t" && t.lower !== "f")) return undefined;
  if (!["=", "<>", "!="].includes(tokens[i - 1]?.text) || !BOOLEAN_COLUMN.test(tokens[i - 2]?.lower ?? "")) {
    return undefined;
  }
  return t.lower === "t" ? "true" : "false";
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
  // join group (dropped), the `]` of a vector subscript (the `)` of pg_array_element).
  const marks = new Map<number, string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const lower = t.kind === "word" ? t.lower : "";
    const mark = marks.get(i);
    if (mark !== undefined) {
      replace(t, t, mark);
      continue;
    }
    // Array spellings (sql_rewrite_arrays.ts); the spliced text is rewritten in turn.
    const splice = expandArrayField(tokens, i);
    if (splice && tokens[splice.start].pos >= copied) {
      parts.push(sql.slice(copied, tokens[splice.start].pos), rewriteForEngine(splice.text));
      copied = tokens[splice.end].pos + tokens[splice.end].text.length;
      i = splice.end;
      continue;
    }
    const bool = booleanLiteral(tokens, i);
    if (bool) {
      replace(t, t, bool);
      continue;
    }
    const element = vectorSubscript(tokens, i);
    if (element && tokens[element.start].pos >= copied) {
      const base = sql.slice(tokens[element.start].pos, t.pos + t.text.length);
      parts.push(sql.slice(copied, tokens[element.start].pos), `pg_array_element(${base}, `);
      copied = tokens[i + 1].pos + 1;
      marks.set(element.close, ")");
      i++;
      continue;
    }
    if (lower === "from" && tokens[i + 1]?.text === "(") {
      const opens = joinGroupParens(tokens, i + 1);
      if (opens > 0) {
        for (let k = 0; k < opens; k++) marks.set(closingParen(tokens, i + 1 + k), "");
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
      const derivedEmpty = close > 0 && isDerivedTable(tokens, i)
        ? emptySelect(tokens, i + 1, close)
        : undefined;
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
    if (t.text === "::" && tokens[i + 1]) {
      let j = i + 1;
      if (tokens[j].lower === "pg_catalog" && tokens[j + 1]?.text === ".") j += 2;
      const name = tokens[j]?.lower ?? "";
      const arrayEnd = tokens[j + 1]?.text === "[" && tokens[j + 2]?.text === "]" ? j + 2 : j;
      if (name in CAST_REPLACEMENTS || arrayEnd !== j) {
        const to = CAST_REPLACEMENTS[name] ?? "";
        replace(t, tokens[arrayEnd], to === "" ? "" : "::" + to);
        i = arrayEnd;
      }
    }
  }
  parts.push(sql.slice(copied));
  return parts.join("");
}
