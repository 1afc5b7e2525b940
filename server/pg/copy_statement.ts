/**
 * Reads a `COPY` statement from its tokens: which table (or query), which direction, and the
 * data format. Both the options list (`WITH (FORMAT csv, HEADER true, DELIMITER ',')`) and the
 * pre-9.0 words psql and older drivers still send (`WITH CSV HEADER DELIMITER ','`) are
 * accepted. Only STDIN/STDOUT: the server never touches files a client names.
 */
import type { SqlToken } from "./sql_tokens.ts";
import { PgError, SQLSTATE } from "./sqlstate.ts";

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

function syntax(message: string, token?: SqlToken): PgError {
  return new PgError(SQLSTATE.SYNTAX_ERROR, message, token?.pos ?? -1);
}

/** An identifier token's name: quoted keeps its case, words as written (tables match case-insensitively). */
function nameOf(t: SqlToken | undefined): string | undefined {
  if (!t) return undefined;
  if (t.kind === "quoted") return t.lower;
  if (t.kind === "word") return t.text;
  return undefined;
}

/** A string literal or a bare word (`FORMAT csv`, `DELIMITER ','`, `HEADER true`). */
function optionValue(t: SqlToken | undefined): string | undefined {
  if (!t) return undefined;
  // E'\t': the tokenizer keeps escapes as written; the usual ones matter for delimiters.
  if (t.kind === "string" && /^[eE]'/.test(t.text)) {
    return t.lower.replace(/\\(.)/g, (_, c: string) => ({ t: "\t", n: "\n", r: "\r" })[c] ?? c);
  }
  if (t.kind === "string" || t.kind === "quoted") return t.lower;
  if (t.kind === "word" || t.kind === "number") return t.text;
  return undefined;
}

function booleanOf(text: string | undefined, token: SqlToken | undefined): boolean {
  if (text === undefined) return true;
  const l = text.toLowerCase();
  if (["true", "on", "1", "yes"].includes(l)) return true;
  if (["false", "off", "0", "no"].includes(l)) return false;
  throw syntax(`${text} requires a Boolean value`, token);
}

/** Parses `COPY ...`; `text` is the statement text the tokens came from. */
export function parseCopy(tokens: SqlToken[], text: string): CopySpec {
  let i = 1;
  let table: string | undefined;
  let query: string | undefined;
  let columns: string[] | undefined;
  if (tokens[i]?.text === "(") {
    // COPY (query) TO: the query is the text between the parenthesis and its match.
    let depth = 0;
    let end = i;
    for (; end < tokens.length; end++) {
      if (tokens[end].text === "(") depth++;
      else if (tokens[end].text === ")" && --depth === 0) break;
    }
    if (end >= tokens.length) throw syntax("unterminated query in COPY", tokens[i]);
    query = text.slice(tokens[i].pos + 1, tokens[end].pos).trim();
    i = end + 1;
  } else {
    table = nameOf(tokens[i]);
    if (!table) throw syntax("table name expected after COPY", tokens[i] ?? tokens[0]);
    i++;
    // `public.t` / `qdb.t`: there is one schema.
    if (tokens[i]?.text === "." && nameOf(tokens[i + 1])) {
      table = nameOf(tokens[i + 1])!;
      i += 2;
    }
    if (tokens[i]?.text === "(") {
      columns = [];
      i++;
      while (i < tokens.length && tokens[i].text !== ")") {
        const c = nameOf(tokens[i]);
        if (!c) throw syntax("column name expected", tokens[i]);
        columns.push(c);
        i++;
        if (tokens[i]?.text === ",") i++;
      }
      i++;
    }
  }
  const dir = tokens[i]?.lower;
  if (dir !== "from" && dir !== "to") throw syntax("FROM or TO expected in COPY", tokens[i] ?? tokens[0]);
  if (dir === "from" && query !== undefined) throw syntax("COPY (query) FROM is not possible", tokens[i]);
  i++;
  const where = tokens[i];
  const target = where?.lower;
  if (dir === "from" ? target !== "stdin" : target !== "stdout") {
    throw new PgError(
      SQLSTATE.FEATURE_NOT_SUPPORTED,
      `COPY ${dir === "from" ? "FROM" : "TO"} supports only ${dir === "from" ? "STDIN" : "STDOUT"}` +
        " (use psql's \\copy to read or write a client-side file)",
      where?.pos ?? -1,
    );
  }
  const format = parseFormat(tokens, i + 1);
  if (dir === "from") return { direction: "from", table: table!, columns, format };
  if (query !== undefined) return { direction: "to", query, format };
  return { direction: "to", table: table!, columns, format };
}

function parseFormat(tokens: SqlToken[], start: number): CopyFormat {
  let kind = "text" as "text" | "csv"; // widened: the closure below assigns it
  let delimiter: string | undefined;
  let nullText: string | undefined;
  let header = false;
  let quote = '"';
  let i = start;
  if (tokens[i]?.lower === "with") i++;
  const set = (name: string, value: string | undefined, token: SqlToken | undefined) => {
    switch (name) {
      case "format":
        if (value?.toLowerCase() === "csv") kind = "csv";
        else if (value?.toLowerCase() === "text") kind = "text";
        else if (value?.toLowerCase() === "binary") {
          throw new PgError(
            SQLSTATE.FEATURE_NOT_SUPPORTED,
            "COPY BINARY is not supported; use text or csv",
            token?.pos,
          );
        } else throw syntax(`COPY format "${value}" not recognized`, token);
        return;
      case "csv":
        kind = "csv";
        return;
      case "binary":
        throw new PgError(
          SQLSTATE.FEATURE_NOT_SUPPORTED,
          "COPY BINARY is not supported; use text or csv",
          token?.pos,
        );
      case "delimiter":
        if (value === undefined || value.length !== 1) {
          throw syntax("COPY delimiter must be a single one-byte character", token);
        }
        delimiter = value;
        return;
      case "null":
        nullText = value ?? "";
        return;
      case "header":
        header = booleanOf(value, token);
        return;
      case "quote":
        if (value === undefined || value.length !== 1) {
          throw syntax("COPY quote must be a single one-byte character", token);
        }
        quote = value;
        return;
      case "escape":
      case "encoding":
      case "force_quote":
      case "force_not_null":
      case "force_null":
      case "freeze":
      case "oids":
        return; // accepted and ignored: UTF-8 only, defaults for the rest
      default:
        throw syntax(`option "${name}" not recognized`, token);
    }
  };
  if (tokens[i]?.text === "(") {
    i++;
    while (i < tokens.length && tokens[i].text !== ")") {
      const nameToken = tokens[i];
      const name = nameToken.lower;
      i++;
      let value: string | undefined;
      if (tokens[i] && tokens[i].text !== "," && tokens[i].text !== ")") {
        value = optionValue(tokens[i]);
        i++;
      }
      set(name, value, nameToken);
      if (tokens[i]?.text === ",") i++;
    }
  } else {
    // Legacy words: [BINARY] [DELIMITER [AS] 'c'] [NULL [AS] 'n'] [CSV [HEADER] [QUOTE [AS] 'q'] ...]
    while (i < tokens.length && tokens[i].text !== ";") {
      const t = tokens[i];
      const name = t.lower;
      i++;
      if (
        name === "delimiter" || name === "null" || name === "quote" || name === "escape" ||
        name === "encoding"
      ) {
        if (tokens[i]?.lower === "as") i++;
        set(name, optionValue(tokens[i]), t);
        i++;
      } else if (name === "force") {
        // FORCE QUOTE cols / FORCE NOT NULL cols: ignored with their column list.
        while (
          i < tokens.length && !["csv", "header", "delimiter", "null", "quote"].includes(tokens[i].lower)
        ) i++;
      } else set(name, undefined, t);
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
