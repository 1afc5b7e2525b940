/**
 * SHOW statements (spec/sql.md §17.3), also used as a source: `(SHOW TABLES) WHERE ...`.
 * Anything not recognised becomes `what: "other"` with its words as written, so that pgwire
 * can answer the settings drivers ask for (`SHOW transaction_read_only`).
 */
import type { ShowStmt, ShowWhat } from "./ast.ts";
import type { ParseState } from "./parse_state.ts";
import { syntaxError } from "../base/errors.ts";

/** Single-word settings, by their lower-case name. */
const SETTINGS: Record<string, ShowWhat> = {
  tables: "tables",
  server_version: "serverVersion",
  parameters: "parameters",
  timezone: "timeZone",
  transaction_isolation: "transactionIsolation",
  max_identifier_length: "maxIdentifierLength",
  standard_conforming_strings: "standardConformingStrings",
  search_path: "searchPath",
  datestyle: "dateStyle",
  users: "users",
};

/** QuestDB's error for a SHOW of nothing it knows (SqlParser). */
export const SHOW_EXPECTED = "expected 'TABLES', 'COLUMNS FROM <tab>', 'PARTITIONS FROM <tab>', " +
  "'TRANSACTION ISOLATION LEVEL', 'transaction_isolation', 'max_identifier_length', " +
  "'standard_conforming_strings', 'parameters', 'server_version', 'server_version_num', " +
  "'search_path', 'datestyle', or 'time zone'";

/** The cursor on SHOW. */
export function parseShow(p: ParseState): ShowStmt {
  const kw = p.expectWord("show");
  const show = (what: ShowWhat, target?: { name: string; pos: number }): ShowStmt =>
    target ? { kind: "show", pos: kw.pos, what, target } : { kind: "show", pos: kw.pos, what };
  const optionalTarget = () => (atShowEnd(p) ? undefined : p.tableName("name"));
  const word = p.wordAt();
  if (word !== undefined && SETTINGS[word] && atShowEnd(p, 1)) {
    p.next();
    return show(SETTINGS[word]);
  }
  if (p.acceptWords("columns", "from")) return show("columns", p.tableName());
  if (p.acceptWords("partitions", "from")) return show("partitions", p.tableName());
  if (p.acceptWords("create", "table")) return show("createTable", p.tableName());
  if (p.acceptWords("time", "zone")) return show("timeZone");
  if (p.acceptWords("transaction", "isolation", "level")) return show("transactionIsolation");
  if (p.acceptWords("service", "accounts")) return show("serviceAccounts", optionalTarget());
  if (p.acceptWords("service", "account")) return show("serviceAccount", p.tableName("name"));
  if (p.acceptWord("groups")) return show("groups", optionalTarget());
  if (p.acceptWord("permissions")) return show("permissions", optionalTarget());
  if (p.acceptWord("user")) return show("user", optionalTarget());
  if (p.acceptWord("group")) return show("group", p.tableName("name"));
  const first = p.peek();
  if (atShowEnd(p)) throw syntaxError(SHOW_EXPECTED, first.pos);
  // QuestDB's parser takes COLUMNS and PARTITIONS as a SHOW of a table: FROM must follow.
  if (word === "columns" || word === "partitions") throw syntaxError("expected 'from'", p.peek(1).pos);
  let depth = 0;
  while (!p.atEnd() && !(depth === 0 && p.isOp(")"))) {
    if (p.isOp("(")) depth++;
    else if (p.isOp(")")) depth--;
    p.next();
  }
  const errorPos = first.pos + first.text.length;
  return { kind: "show", pos: kw.pos, what: "other", text: p.textFrom(first), errorPos };
}

/** End of a SHOW: end of statement, or the `)` closing `(SHOW ...)`. */
function atShowEnd(p: ParseState, ahead = 0): boolean {
  const t = p.peek(ahead);
  return t.kind === "eof" || (t.kind === "op" && (t.text === ";" || t.text === ")"));
}
