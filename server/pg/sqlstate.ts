/**
 * Engine errors as ErrorResponse fields with real SQLSTATE codes (issue 4; spec/protocols.md
 * §12.9 leaves QuestDB's `00000` as a decision point: drivers such as pgjdbc and psycopg map
 * real codes to useful exception classes, so we send them). Positions become 1-based code
 * point offsets into the text the client sent, which is what psql's caret counts.
 */
import { SqlError } from "../../engine/mod.ts";
import { ProtocolError } from "./buffer_reader.ts";
import type { ErrorFields } from "./backend_messages.ts";

export const SQLSTATE = {
  SYNTAX_ERROR: "42601",
  UNDEFINED_TABLE: "42P01",
  UNDEFINED_COLUMN: "42703",
  UNDEFINED_FUNCTION: "42883",
  DUPLICATE_TABLE: "42P07",
  INSUFFICIENT_PRIVILEGE: "42501",
  INVALID_PASSWORD: "28P01",
  QUERY_CANCELED: "57014",
  FEATURE_NOT_SUPPORTED: "0A000",
  PROTOCOL_VIOLATION: "08P01",
  INVALID_TEXT_REPRESENTATION: "22P02",
  PROGRAM_LIMIT_EXCEEDED: "54000",
  INTERNAL_ERROR: "XX000",
  IO_ERROR: "58030",
  IN_FAILED_TRANSACTION: "25P02",
  NO_ACTIVE_TRANSACTION: "25P01",
  INVALID_SAVEPOINT: "3B001",
  INVALID_CURSOR_NAME: "34000",
  DUPLICATE_PREPARED_STATEMENT: "42P05",
  UNDEFINED_PREPARED_STATEMENT: "26000",
  SYNTAX_OR_ACCESS_RULE: "42000",
  TOO_MANY_CONNECTIONS: "53300",
} as const;

/** An error the pg layer raises itself with a chosen SQLSTATE. */
export class PgError extends Error {
  constructor(readonly code: string, message: string, readonly position = -1) {
    super(message);
    this.name = "PgError";
  }
}

function codeOf(e: SqlError): string {
  const m = e.message;
  if (/not supported|unsupported/i.test(m)) return SQLSTATE.FEATURE_NOT_SUPPORTED;
  switch (e.kind) {
    case "syntax":
      return SQLSTATE.SYNTAX_ERROR;
    case "permission":
      return SQLSTATE.INSUFFICIENT_PRIVILEGE;
    case "cancelled":
      return SQLSTATE.QUERY_CANCELED;
    case "limit":
      return SQLSTATE.PROGRAM_LIMIT_EXCEEDED;
    case "io":
      return SQLSTATE.IO_ERROR;
    case "transaction":
      if (/^savepoint .* does not exist/.test(m)) return SQLSTATE.INVALID_SAVEPOINT;
      if (/can only be used in transaction blocks/.test(m)) return SQLSTATE.NO_ACTIVE_TRANSACTION;
      return SQLSTATE.IN_FAILED_TRANSACTION;
    case "internal":
      return SQLSTATE.INTERNAL_ERROR;
    default:
      if (/^table does not exist/i.test(m)) return SQLSTATE.UNDEFINED_TABLE;
      if (/^invalid column/i.test(m)) return SQLSTATE.UNDEFINED_COLUMN;
      if (/^unknown function/i.test(m)) return SQLSTATE.UNDEFINED_FUNCTION;
      if (/table already exists/i.test(m)) return SQLSTATE.DUPLICATE_TABLE;
      if (/^inconvertible value/i.test(m)) return SQLSTATE.INVALID_TEXT_REPRESENTATION;
      return SQLSTATE.SYNTAX_OR_ACCESS_RULE;
  }
}

/** 1-based code point position of a 0-based UTF-16 offset in `text`. */
export function clientPosition(text: string, offset: number): number {
  let n = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) continue; // second half of a pair counts once
    }
    n++;
  }
  return n + 1;
}

/**
 * The ErrorResponse for anything thrown while serving a statement. `text` is what the
 * client sent and `offset` where the failing statement starts in it.
 */
export function errorFieldsOf(err: unknown, text = "", offset = 0): ErrorFields {
  if (err instanceof PgError) {
    const f: ErrorFields = { severity: "ERROR", code: err.code, message: err.message };
    if (err.position >= 0) f.position = clientPosition(text, offset + err.position);
    return f;
  }
  if (err instanceof ProtocolError) {
    return { severity: "ERROR", code: SQLSTATE.PROTOCOL_VIOLATION, message: err.message };
  }
  if (err instanceof SqlError) {
    // The engine's deadline (Session.timeoutMs) fired: PostgreSQL's code and wording for
    // statement_timeout, so drivers raise their "query canceled" error (issue 9).
    const timeout = /^timeout, query aborted (\[.*\])?/.exec(err.message);
    if (timeout) {
      const message = `canceling statement due to statement timeout${timeout[1] ? " " + timeout[1] : ""}`;
      return { severity: "ERROR", code: SQLSTATE.QUERY_CANCELED, message };
    }
    const f: ErrorFields = { severity: "ERROR", code: codeOf(err), message: err.message };
    if (err.position >= 0) f.position = clientPosition(text, offset + err.position);
    return f;
  }
  const message = err instanceof Error ? err.message : String(err);
  return { severity: "ERROR", code: SQLSTATE.INTERNAL_ERROR, message: message || "internal error" };
}
