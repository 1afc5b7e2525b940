/**
 * Rewrites the PostgreSQL-only spellings that driver and psql catalog queries use into the
 * dialect the engine parses (spec/protocols.md §12.12 "casts such as ::regclass, ::oid"):
 * `pg_catalog.` qualifiers, `OPERATOR(pg_catalog.~)`, `COLLATE pg_catalog.default`, and casts
 * to the pseudo types regclass/regtype/oid/name. Works on tokens, so string literals such as
 * `'pg_catalog'` are never touched. Ordinary queries pass through unchanged and cheaply.
 */
import { type SqlToken, tokenize } from "./sql_tokens.ts";

const TRIGGER = /pg_catalog|operator\s*\(|collate|::\s*(reg|oid|name|bpchar|"char")|\[\]/i;

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

/** Returns the text the engine should run for `sql`. */
export function rewriteForEngine(sql: string): string {
  if (!TRIGGER.test(sql)) return sql;
  const tokens = tokenize(sql);
  const parts: string[] = [];
  let copied = 0;
  const replace = (from: SqlToken, to: SqlToken, text: string) => {
    parts.push(sql.slice(copied, from.pos), text);
    copied = to.pos + to.text.length;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const lower = t.kind === "word" ? t.lower : "";
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
