/**
 * What kind of statement a text is, from its first words: the wire layer needs this for
 * command tags (spec/protocols.md §12.6), for the session statements it answers itself
 * (§12.10, §12.12) and to know whether Describe of a portal may run the statement early.
 */
import type { SqlToken } from "./sql_tokens.ts";

export type StatementKind =
  | "query" // SELECT, WITH, VALUES, TABLE, a parenthesised query, or a bare table name
  | "show"
  | "explain"
  | "insert"
  | "insertReturning" // INSERT ... RETURNING: rows with an INSERT command tag
  | "update"
  | "create"
  | "ddl" // DROP, ALTER, TRUNCATE, RENAME, ...
  | "set"
  | "begin"
  | "commit"
  | "rollback"
  | "deallocate"
  | "discard"
  | "cursor" // DECLARE name CURSOR, FETCH, MOVE, CLOSE: not supported (0A000)
  | "copy" // COPY ... FROM STDIN / TO STDOUT (copy_in.ts, copy_out.ts)
  | "other";

/** Classifies a statement by its leading tokens. */
export function statementKind(tokens: SqlToken[]): StatementKind {
  const w = (i: number) => (tokens[i]?.kind === "word" ? tokens[i].lower : tokens[i]?.text ?? "");
  let first = w(0);
  let i = 0;
  while (first === "(") first = w(++i);
  switch (first) {
    case "select":
    case "with":
    case "values":
    case "table":
    case "from":
      return "query";
    case "show":
      return "show";
    case "explain":
      return "explain";
    case "insert":
      return tokens.some((t) => t.kind === "word" && t.lower === "returning") ? "insertReturning" : "insert";
    case "update":
      return "update";
    case "create":
      return "create";
    case "drop":
    case "alter":
    case "truncate":
    case "rename":
    case "vacuum":
    case "reindex":
    case "grant":
    case "revoke":
      return "ddl";
    case "set":
      return "set";
    case "begin":
    case "start":
      return "begin";
    case "commit":
    case "end":
      return "commit";
    case "rollback":
    case "abort":
      return "rollback";
    case "deallocate":
      return "deallocate";
    case "copy":
      // COPY ... TO 'dir' (a Parquet export) is QuestDB's SQL statement: the engine runs it and
      // answers with a row (the export id), as over REST. STDIN/STDOUT are the wire's own.
      return copyTargetIsFile(tokens) ? "query" : "copy";
    case "discard":
    case "reset":
      return "discard";
    case "fetch":
    case "move":
    case "close":
      return "cursor";
    case "declare": {
      // `DECLARE name [BINARY] [INSENSITIVE] [[NO] SCROLL] CURSOR ...` is a Postgres cursor;
      // QuestDB's `DECLARE @v := ...` is a query for the engine.
      if (tokens[1]?.kind === "word" || tokens[1]?.kind === "quoted") {
        for (let j = 2; j < Math.min(tokens.length, 8); j++) if (w(j) === "cursor") return "cursor";
      }
      return "query";
    }
    default:
      if (tokens.length === 1 && (tokens[0].kind === "word" || tokens[0].kind === "quoted")) return "query";
      // `t PIVOT (...)`, `(q) UNPIVOT (...)`: QuestDB's PIVOT queries need no SELECT.
      return tokens.some((t, j) =>
          t.kind === "word" && (t.lower === "pivot" || t.lower === "unpivot") && tokens[j + 1]?.text === "("
        )
        ? "query"
        : "other";
  }
}

/** True when the word after COPY's top-level FROM/TO is a quoted file name. */
function copyTargetIsFile(tokens: SqlToken[]): boolean {
  let depth = 0;
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    else if (depth === 0 && t.kind === "word" && (t.lower === "to" || t.lower === "from")) {
      return tokens[i + 1]?.kind === "string";
    }
  }
  return false;
}

/** True for statements whose result is rows (RowDescription + DataRows). */
export function returnsRows(kind: StatementKind): boolean {
  return kind === "query" || kind === "show" || kind === "explain" || kind === "insertReturning";
}
