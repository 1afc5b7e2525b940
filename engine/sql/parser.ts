/**
 * The parser's entry points: one or several `;`-separated statements from SQL text to the
 * AST of `ast.ts`, with the statement length limit checked before any work is done.
 */
import { SqlError, syntaxError } from "../base/errors.ts";
import { SQL_LENGTH_MAX } from "../base/limits.ts";
import type { Cte, Statement } from "./ast.ts";
import { tokenize } from "./lexer.ts";
import { substituteDeclared } from "./declare_vars.ts";
import { parseAlterTable } from "./parse_alter.ts";
import { parseCreateTable } from "./parse_create_table.ts";
import { parseDropTable, parseRenameTable, parseTruncateTable } from "./parse_ddl.ts";
import { parseDelete, parseInsert, parseUpdate } from "./parse_dml.ts";
import {
  aclVerbAhead,
  parseAcl,
  parseCopy,
  parseDeclare,
  parseExplain,
  parseNoop,
  parseReindex,
  parseSet,
  parseVacuum,
} from "./parse_misc.ts";
import { parseQuery, parseWith } from "./parse_query.ts";
import { SET_OPERATORS } from "./keywords.ts";
import { parseBackup, parseCancelQuery, parseCheckpoint } from "./parse_operations.ts";
import { parseShow } from "./parse_show.ts";
import { ParseState } from "./parse_state.ts";

/** Statements that pg drivers send and the engine accepts without effect. */
const NOOP_STARTS = new Set([
  "begin",
  "start",
  "commit",
  "end",
  "rollback",
  "abort",
  "savepoint",
  "release",
  "discard",
  "deallocate",
  "reset",
  "close",
]);

/**
 * Parses every statement of `sql`. Statements are separated by `;`; empty ones (and a
 * trailing `;`) are skipped.
 *
 * @throws SqlError of kind "syntax" at the offending token, or "limit" for text longer than
 * SQL_LENGTH_MAX or nesting deeper than NESTING_DEPTH_MAX.
 */
export function parseStatements(sql: string): Statement[] {
  const p = newState(sql);
  const statements: Statement[] = [];
  for (;;) {
    while (p.acceptOp(";"));
    if (p.peek().kind === "eof") return statements;
    statements.push(parseOne(p));
  }
}

/** Parses exactly one statement (an optional trailing `;` is fine); a second one is an error. */
export function parseStatement(sql: string): Statement {
  const p = newState(sql);
  while (p.acceptOp(";"));
  if (p.peek().kind === "eof") throw syntaxError("empty query", 0);
  const statement = parseOne(p);
  while (p.acceptOp(";"));
  if (p.peek().kind !== "eof") throw p.unexpected();
  return statement;
}

function newState(sql: string): ParseState {
  if (sql.length > SQL_LENGTH_MAX) {
    throw new SqlError(`query is too long [length=${sql.length}, max=${SQL_LENGTH_MAX}]`, 0, "limit");
  }
  return new ParseState(sql, tokenize(sql));
}

/** One statement, which must end at `;` or at the end of the text. */
function parseOne(p: ParseState): Statement {
  const statement = parseStatementBody(p);
  if (!p.atEnd()) throw p.unexpected();
  return statement;
}

/**
 * CREATE/ALTER/DROP/REFRESH of a view or materialized view (QuestDB 9's VIEW and MATERIALIZED
 * VIEW statements, spec/sql.md: "may reject as unsupported"): refused by name at the word that
 * names the kind, rather than the parser's "'table' expected" for a statement QuestDB knows.
 */
function refuseViews(p: ParseState, k: number): void {
  if (p.isWord("view", k)) throw syntaxError("views are not supported", p.peek(k).pos);
  if (p.isWord("materialized", k) && p.isWord("view", k + 1)) {
    throw syntaxError("materialized views are not supported", p.peek(k).pos);
  }
}

/** Dispatches on the first words of a statement. */
export function parseStatementBody(p: ParseState): Statement {
  const word = p.wordAt();
  const acl = aclVerbAhead(p);
  if (acl) return parseAcl(p, acl);
  if (word !== undefined && isCursorStatement(p, word)) return parseCursorStatement(p);
  switch (word) {
    case "with":
      return parseWithStatement(p);
    case "create": {
      // QuestDB's parser reads and drops OR REPLACE before the object kind (SqlParser.parseCreate);
      // CREATE OR REPLACE TABLE is then an ordinary CREATE TABLE.
      const k = p.isWord("or", 1) && p.isWord("replace", 2) ? 3 : 1;
      if (p.isWord("table", k) || p.isWord("atomic", k) || p.isWord("batch", k)) return parseCreateTable(p);
      refuseViews(p, k);
      throw p.expected("'table'", p.peek(k));
    }
    case "alter":
      if (p.isWord("table", 1)) return parseAlterTable(p);
      refuseViews(p, 1);
      // AlterTableDropColumnTest#testExpectTableKeyword: QuestDB's words for its ALTER forms.
      throw p.expected("'table' or 'materialized' or 'view'", p.peek(1));
    case "drop":
      if (p.isWord("table", 1) || p.isWord("all", 1)) return parseDropTable(p);
      refuseViews(p, 1);
      // QuestDB DropStatementTest#testDropTableMissingFrom.
      throw p.expected("'table' or 'view' or 'materialized view' or 'all'", p.peek(1));
    case "truncate":
      return parseTruncateTable(p);
    case "rename":
      return parseRenameTable(p);
    case "insert":
      return parseInsert(p);
    case "update":
      return parseUpdate(p);
    case "delete":
      return parseDelete(p);
    case "show": {
      // A SHOW that a set operator follows is the first operand of a query.
      const at = p.index;
      const show = parseShow(p);
      if (p.wordAt() === undefined || !SET_OPERATORS.has(p.wordAt()!)) return show;
      p.index = at;
      return parseQuery(p);
    }
    case "explain":
      return parseExplain(p, parseStatementBody);
    case "declare":
      // Resolved at parse time, as QuestDB does: what runs is the body with the values in.
      return substituteDeclared(parseDeclare(p, parseStatementBody));
    case "set":
      return parseSet(p);
    case "copy":
      return parseCopy(p);
    case "refresh":
      refuseViews(p, 1);
      break;
    case "cancel":
      if (p.isWord("query", 1)) return parseCancelQuery(p);
      break;
    case "checkpoint":
    case "snapshot":
      return parseCheckpoint(p);
    case "backup":
      if (p.peek(1).kind === "word") return parseBackup(p);
      break;
    case "reindex":
      if (p.peek(1).kind === "word") return parseReindex(p);
      break;
    case "vacuum":
      if (p.peek(1).kind === "word") return parseVacuum(p);
      break;
  }
  if (word !== undefined && NOOP_STARTS.has(word) && isNoopStart(p, word)) return parseNoop(p);
  if (word !== undefined && isSqlPrepare(p, word)) {
    // QuestDB has no SQL-level PREPARE/EXECUTE (its grammar knows neither keyword); clients
    // prepare through the Postgres protocol's Parse and Bind instead.
    throw syntaxError(`${word.toUpperCase()} statements are not supported`, p.peek().pos);
  }
  const t = p.peek();
  if (t.kind === "word" || t.kind === "quoted" || t.kind === "string" || p.isOp("(")) return parseQuery(p);
  throw p.unexpected();
}

/**
 * PostgreSQL's cursors: `DECLARE name [BINARY] [INSENSITIVE] [[NO] SCROLL] CURSOR ...` (QuestDB's
 * `DECLARE @v := ...` is a query's variables), `FETCH ...` and `MOVE ...` with more words (a
 * bare `fetch` is a table name). Parsed so that every listener refuses them the same way.
 */
function isCursorStatement(p: ParseState, word: string): boolean {
  if (word === "fetch" || word === "move") return p.peek(1).kind !== "eof" && !p.isOp(";", 1);
  if (word !== "declare" || (p.peek(1).kind !== "word" && p.peek(1).kind !== "quoted")) return false;
  for (let k = 2; k < 8; k++) if (p.isWord("cursor", k)) return true;
  return false;
}

function parseCursorStatement(p: ParseState): Statement {
  const kw = p.next();
  p.restText();
  return { kind: "noop", pos: kw.pos, what: "cursor" };
}

/**
 * `PREPARE name [(types)] AS ...` and `EXECUTE name (args)`: PostgreSQL's SQL-level prepared
 * statements. Both words can also be table names (`execute v1` is the table aliased), so only
 * those shapes count.
 */
function isSqlPrepare(p: ParseState, word: string): boolean {
  const named = p.peek(1).kind === "word" || p.peek(1).kind === "quoted";
  if (word === "prepare") return named && (p.isWord("as", 2) || p.isOp("(", 2));
  return word === "execute" && named && p.isOp("(", 2);
}

/** `begin`, `close` or `reset` could also be a table name; only statement shapes count here. */
function isNoopStart(p: ParseState, word: string): boolean {
  const endsAt = (k: number) => p.peek(k).kind === "eof" || p.isOp(";", k);
  const nameAt = (k: number) => p.peek(k).kind === "word" || p.peek(k).kind === "quoted";
  switch (word) {
    case "start":
      return p.isWord("transaction", 1);
    case "reset":
      return (nameAt(1) && endsAt(2)) || (p.isWord("time", 1) && p.isWord("zone", 2) && endsAt(3));
    case "discard":
    case "close":
    case "savepoint":
      return nameAt(1) && endsAt(2);
    case "release":
      return (nameAt(1) && endsAt(2)) || (p.isWord("savepoint", 1) && nameAt(2) && endsAt(3));
    case "deallocate":
      // A DEALLOCATE of nothing is QuestDB's `statement name expected` (SqlCompilerImplTest
      // #testDeallocateMissingStatementName), not a table named deallocate.
      return endsAt(1) || (nameAt(1) && endsAt(2)) || (p.isWord("prepare", 1) && nameAt(2) && endsAt(3));
    default:
      return endsAt(1) ||
        ["transaction", "work", "isolation", "read", "and", "to"].includes(p.wordAt(1) ?? "");
  }
}

/** WITH ... followed by a query, an INSERT or an UPDATE (spec/sql.md §6.1, §7.9). */
function parseWithStatement(p: ParseState): Statement {
  const pos = p.peek().pos;
  const ctes: Cte[] = parseWith(p);
  if (p.isWord("insert")) return parseInsert(p, { with: ctes, pos });
  if (p.isWord("update")) return parseUpdate(p, { with: ctes, pos });
  return parseQuery(p, { with: ctes, pos });
}
