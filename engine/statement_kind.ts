/**
 * What kind of statement a parsed statement is, for listeners that answer part of a
 * statement's work themselves (issue #18): pgwire's command tags (spec/protocols.md §12.6),
 * the session statements it answers (SET, DEALLOCATE, DISCARD/RESET, SHOW of a setting,
 * COPY STDIN/STDOUT; §12.10, §12.12), and whether a result is rows. Read from the engine's
 * own parse (Engine.prepare's PreparedStatement.kind, or classifyStatement for text), so the
 * wire no longer guesses from first words.
 */
import type * as A from "./sql/ast.ts";
import { parseStatement } from "./sql/parser.ts";

export type StatementKind =
  | "query" // SELECT, WITH, VALUES, TABLE, a parenthesised query, a bare table name, PIVOT, DECLARE @v
  | "show"
  | "explain"
  | "insert"
  | "insertReturning" // INSERT ... RETURNING: rows with an INSERT command tag
  | "update"
  | "create"
  | "ddl" // DROP, ALTER, TRUNCATE, RENAME, GRANT, REVOKE, ...
  | "set"
  | "begin"
  | "commit"
  | "rollback" // ROLLBACK and ROLLBACK TO SAVEPOINT: both run in a failed block
  | "deallocate"
  | "discard" // DISCARD and RESET
  | "cursor" // DECLARE name CURSOR, FETCH, MOVE, CLOSE: not supported
  | "copy" // COPY ... FROM STDIN / TO STDOUT (COPY ... TO 'dir' is a query: it answers a row)
  | "other";

/** Why cursor statements fail, whichever listener runs them. */
export const CURSOR_MESSAGE = "cursors are not supported (DECLARE CURSOR, FETCH, MOVE, CLOSE); " +
  "use LIMIT, or the row limit of the extended protocol's Execute";

/** The kind of a parsed statement. */
export function statementKindOf(stmt: A.Statement): StatementKind {
  switch (stmt.kind) {
    case "query":
    case "declare":
      return "query";
    case "show":
      return "show";
    case "explain":
      return "explain";
    case "insert":
      return stmt.returning ? "insertReturning" : "insert";
    case "update":
      return "update";
    case "createTable":
      return "create";
    case "dropTable":
    case "truncateTable":
    case "renameTable":
    case "alterTable":
    case "acl":
      return "ddl";
    case "copy":
      return typeof stmt.target === "string" ? "copy" : "query";
    case "noop":
      return NOOP_KINDS[stmt.what];
    default:
      return "other";
  }
}

const NOOP_KINDS: Record<A.NoopStmt["what"], StatementKind> = {
  set: "set",
  begin: "begin",
  commit: "commit",
  rollback: "rollback",
  rollbackTo: "rollback",
  savepoint: "other",
  release: "other",
  discard: "discard",
  reset: "discard",
  deallocate: "deallocate",
  close: "cursor",
  cursor: "cursor",
  other: "other",
};

/** A statement's kind, with its parse when the text parses (undefined: kind "other"). */
export interface ClassifiedStatement {
  kind: StatementKind;
  statement?: A.Statement;
}

/** Texts classified lately: drivers send the same few statements again and again. */
const CACHE_CAPACITY = 256;
const cache = new Map<string, ClassifiedStatement>();

/**
 * Parses one statement's text and tells its kind; text that does not parse is "other" (running
 * it reports the parse error). The parse is shared and must not be changed by the caller.
 */
export function classifyStatement(sql: string): ClassifiedStatement {
  const hit = cache.get(sql);
  if (hit) return hit;
  let out: ClassifiedStatement;
  try {
    const statement = parseStatement(sql);
    out = { kind: statementKindOf(statement), statement };
  } catch {
    out = { kind: "other" };
  }
  if (cache.size >= CACHE_CAPACITY) cache.delete(cache.keys().next().value!);
  cache.set(sql, out);
  return out;
}

/** True for statements whose result is rows (RowDescription + DataRows). */
export function returnsRows(kind: StatementKind): boolean {
  return kind === "query" || kind === "show" || kind === "explain" || kind === "insertReturning";
}

/**
 * The setting a SHOW asks for when it names one (`SHOW extra_float_digits`, `SHOW TIME ZONE`,
 * `SHOW server_version`): what a listener keeping session settings may answer itself.
 * Undefined for the engine's SHOWs of objects (tables, columns, partitions, users, ...).
 */
export function showSettingName(stmt: A.ShowStmt): string | undefined {
  if (stmt.what === "other") {
    const text = stmt.text?.trim().toLowerCase() ?? "";
    return /^[a-z_][a-z0-9_.]*$/.test(text) ? text : undefined;
  }
  return SETTING_SHOWS[stmt.what];
}

const SETTING_SHOWS: Partial<Record<A.ShowWhat, string>> = {
  serverVersion: "server_version",
  timeZone: "timezone",
  transactionIsolation: "transaction_isolation",
  maxIdentifierLength: "max_identifier_length",
  standardConformingStrings: "standard_conforming_strings",
  searchPath: "search_path",
  dateStyle: "datestyle",
};
