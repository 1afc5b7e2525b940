/**
 * Rewrites the PostgreSQL-only spellings of driver and psql catalog queries the engine's parser
 * does not read yet (spec/protocols.md §12.12): casts to regconfig and to arrays,
 * `array(select ...)`, queries over always-empty relations. The spellings the
 * engine reads itself are not rewritten (docs/pgwire.md lists them: engine/sql/pg_spellings.ts,
 * engine/plan/reg_types.ts (regrole too), comma joins, correlated subqueries, `(current_schemas(b))[n]`
 * and other text-array subscripts, `AS s(r)` column lists, vector subscripts in engine/plan/bind_array.ts,
 * `_pg_expandarray` in engine/functions/pg_expandarray.ts, `'t'`/`'f'` against booleans in
 * engine/functions/compare_domain.ts, parenthesised join groups in engine/sql/parse_from.ts).
 * Works on tokens, so string literals such as `'pg_catalog'` are never touched. Ordinary
 * queries pass through unchanged and cheaply. sql_rewrite_empty.ts holds the rule for queries
 * over always-empty relations.
 */
import { type SqlToken, tokenize } from "./sql_tokens.ts";
import {
  closingParen,
  emptyResult,
  emptySelect,
  isDerivedTable,
  selectsFromEmpty,
} from "./sql_rewrite_empty.ts";

const TRIGGER = /pg_|::\s*regconfig|\[\]/i;

/**
 * What a cast to a pseudo type becomes: a dialect type name, or "" to drop the cast. The
 * element types of array casts (`::oid[]`, `::text[]`, dropped) are listed too; casts to
 * oid, name, text, bpchar and "char" themselves are the parser's (pg_spellings.ts).
 */
const CAST_REPLACEMENTS: Record<string, string> = {
  regconfig: "",
};

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
    if (t.text === "(" && tokens[i + 1]?.lower === "select") {
      const close = closingParen(tokens, i);
      // `array(select ...)` builds an array the engine has no type for; the catalog columns
      // it feeds (role lists of policies) are empty here, so NULL is the same answer.
      if (close > 0 && tokens[i - 1]?.lower === "array") {
        replace(tokens[i - 1], tokens[close], "NULL");
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
