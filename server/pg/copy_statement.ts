/**
 * What a `COPY ... FROM STDIN` / `TO STDOUT` asks of the COPY sub-protocol: which table (or
 * query), which direction, and the data format. The statement is the engine's parse
 * (engine/sql/parse_copy_stdio.ts reads PostgreSQL's option list and the pre-9.0 words);
 * this gives its options their meaning. Only STDIN/STDOUT: the server never touches files a
 * client names (a file target is QuestDB's own COPY, which the engine runs).
 */
import type { ParsedStatement } from "../../engine/mod.ts";
import { PgError, SQLSTATE } from "./sqlstate.ts";

type CopyStmt = Extract<ParsedStatement, { kind: "copy" }>;

export interface CopyFormat {
  kind: "text" | "csv";
  delimiter: string;
  /** The text that stands for NULL: `\N` in text format, an unquoted empty field in CSV. */
  nullText: string;
  header: boolean;
  quote: string;
}

export type CopySpec =
  | { direction: "from"; table: string; columns: string[] | undefined; format: CopyFormat }
  | { direction: "to"; table: string; columns: string[] | undefined; format: CopyFormat }
  | { direction: "to"; query: string; format: CopyFormat };

function syntax(message: string, pos = -1): PgError {
  return new PgError(SQLSTATE.SYNTAX_ERROR, message, pos);
}

function booleanOf(text: string | undefined, pos: number | undefined): boolean {
  if (text === undefined) return true;
  const l = text.toLowerCase();
  if (["true", "on", "1", "yes"].includes(l)) return true;
  if (["false", "off", "0", "no"].includes(l)) return false;
  throw syntax(`${text} requires a Boolean value`, pos);
}

/** The COPY sub-protocol's spec of a parsed COPY; `text` is the statement's text (for a query's). */
export function copySpec(stmt: CopyStmt, text: string): CopySpec {
  const { direction, target } = stmt;
  if (target !== "stdin" && target !== "stdout") {
    throw new PgError(
      SQLSTATE.FEATURE_NOT_SUPPORTED,
      "COPY supports only STDIN and STDOUT here",
      stmt.targetPos,
    );
  }
  if (direction === "from" && target !== "stdin" || direction === "to" && target !== "stdout") {
    throw new PgError(
      SQLSTATE.FEATURE_NOT_SUPPORTED,
      `COPY ${direction === "from" ? "FROM" : "TO"} supports only ${
        direction === "from" ? "STDIN" : "STDOUT"
      }` +
        " (use psql's \\copy to read or write a client-side file)",
      stmt.targetPos,
    );
  }
  if (direction === "from" && stmt.query) throw syntax("COPY (query) FROM is not possible", stmt.pos);
  const format = formatOf(stmt.options);
  const columns = stmt.columns?.map((c) => c.name);
  if (stmt.query && stmt.queryEnd !== undefined) {
    return { direction: "to", query: text.slice(stmt.query.pos, stmt.queryEnd).trim(), format };
  }
  if (!stmt.table) throw syntax("table name expected after COPY", stmt.pos);
  const table = stmt.table.name;
  return direction === "from" ? { direction, table, columns, format } : { direction, table, columns, format };
}

function formatOf(options: CopyStmt["options"]): CopyFormat {
  let kind = "text" as "text" | "csv"; // widened: the loop below assigns it
  let delimiter: string | undefined;
  let nullText: string | undefined;
  let header = false;
  let quote = '"';
  const binary = (pos?: number) =>
    new PgError(SQLSTATE.FEATURE_NOT_SUPPORTED, "COPY BINARY is not supported; use text or csv", pos);
  for (const { name, value, pos, valuePos } of options) {
    switch (name) {
      case "format":
        if (value?.toLowerCase() === "csv") kind = "csv";
        else if (value?.toLowerCase() === "text") kind = "text";
        else if (value?.toLowerCase() === "binary") throw binary(pos);
        else throw syntax(`COPY format "${value}" not recognized`, valuePos ?? pos);
        break;
      case "csv":
        kind = "csv";
        break;
      case "binary":
        throw binary(pos);
      case "delimiter":
        if (value === undefined || value.length !== 1) {
          throw syntax("COPY delimiter must be a single one-byte character", pos);
        }
        delimiter = value;
        break;
      case "null":
        nullText = value ?? "";
        break;
      case "header":
        header = booleanOf(value, pos);
        break;
      case "quote":
        if (value === undefined || value.length !== 1) {
          throw syntax("COPY quote must be a single one-byte character", pos);
        }
        quote = value;
        break;
      case "escape":
      case "encoding":
      case "force_quote":
      case "force_not_null":
      case "force_null":
      case "freeze":
      case "oids":
        break; // accepted and ignored: UTF-8 only, defaults for the rest
      default:
        throw syntax(`option "${name}" not recognized`, pos);
    }
  }
  return {
    kind,
    delimiter: delimiter ?? (kind === "csv" ? "," : "\t"),
    nullText: nullText ?? (kind === "csv" ? "" : "\\N"),
    header,
    quote,
  };
}
