/**
 * INSERT (spec/sql.md §6.1, with ON CONFLICT and RETURNING), UPDATE (§6.2) and DELETE.
 * A WITH prefix is read by the statement dispatcher and handed in.
 */
import { SqlError, syntaxError } from "../base/errors.ts";
import { INSERT_VALUES_ROWS_MAX } from "../base/limits.ts";
import type { DeleteStmt, Expr, InsertStmt, Query, UpdateStmt } from "./ast.ts";
import { JOIN_STARTS, SOURCE_ALIAS_STOP } from "./keywords.ts";
import { parseExpr } from "./parse_expr.ts";
import { parseFromClause, parseSource } from "./parse_from.ts";
import { parseQuery, parseSelectItems, type WithPrefix } from "./parse_query.ts";
import type { ParseState } from "./parse_state.ts";
import { expectMicros } from "./interval_qualifier.ts";

type Assignment = { column: string; pos: number; expr: Expr };

/** The cursor on INSERT. */
export function parseInsert(p: ParseState, prefix?: WithPrefix): InsertStmt {
  const kw = p.next();
  const ctes = prefix?.with ?? [];
  const pos = prefix?.pos;
  if (!p.acceptWord("atomic") && p.acceptWord("batch")) {
    // SqlParserTest#testInsertAsSelectNegativeBatchSize: reported at the number after `-`.
    if (p.isOp("-") && p.peek(1).kind === "number") {
      throw syntaxError("batch size must be positive", p.peek(1).pos);
    }
    p.integer("batch size");
    if (p.acceptWord("o3maxlag")) {
      // The lag is read as QuestDB's SqlUtil.expectMicros, errors placed from its first token
      // (SqlParserTest#testInsertAsSelectNegativeLag: `-4s` fails at the 4); quotes are dropped.
      const lag = p.next();
      expectMicros(lag.value, lag.pos);
    }
  }
  p.expectWord("into");
  const stmt: InsertStmt = { kind: "insert", pos: pos ?? kw.pos, with: ctes, table: p.tableName() };
  if (p.isOp("(") && !p.isWord("select", 1) && !p.isWord("with", 1)) {
    const open = p.next();
    p.refuseKeyword();
    stmt.columns = [p.anyName("column name")];
    while (p.acceptOp(",")) {
      p.refuseKeyword();
      stmt.columns.push(p.anyName("column name"));
    }
    p.closeParen(open);
  }
  if (p.acceptWord("values")) stmt.values = parseRows(p, stmt);
  else stmt.query = unwrap(parseQuery(p));
  if (p.isWord("on") && p.isWord("conflict", 1)) parseOnConflict(p, stmt);
  if (p.acceptWord("returning")) stmt.returning = parseSelectItems(p);
  return stmt;
}

/** `INSERT INTO t (SELECT ...)` reads as the inner query: the parentheses add nothing. */
function unwrap(q: Query): Query {
  while (q.body.kind === "query" && q.with.length === 0 && q.orderBy.length === 0 && q.limit === undefined) {
    q = q.body;
  }
  return q;
}

function parseRows(p: ParseState, stmt: InsertStmt): Expr[][] {
  const rows: Expr[][] = [];
  stmt.valuesEndPos = [];
  do {
    const open = p.expectOp("(");
    if (rows.length === INSERT_VALUES_ROWS_MAX) {
      throw new SqlError(`too many rows in VALUES [max=${INSERT_VALUES_ROWS_MAX}]`, open.pos, "limit");
    }
    // QuestDB's words for an empty row or value (`()`, `(,)`, `(3,)`): InsertTest.
    const row: Expr[] = [];
    do {
      if (p.isOp(")") || p.isOp(",")) throw new SqlError("Expression expected", p.peek().pos);
      // A bare query as a value (InsertTest#testInsertValuesAsLambda); `((SELECT ...))` is a value.
      if (p.isWord("select") || p.isWord("with")) {
        throw new SqlError("query is not allowed here", p.peek().pos);
      }
      row.push(parseExpr(p));
    } while (p.acceptOp(","));
    // SqlParserTest#testInsertMissingClosingBracket: a row cut short by the end of the text is
    // reported at the end.
    if (p.peek().kind === "eof") throw new SqlError("',' expected", p.peek().pos);
    rows.push(row);
    stmt.valuesEndPos.push(p.closeParen(open).pos);
    if (p.isOp("(")) throw new SqlError("',' expected", p.peek().pos);
  } while (p.acceptOp(","));
  return rows;
}

/** `ON CONFLICT [(cols)] DO NOTHING | DO UPDATE SET c = e, ...`. */
function parseOnConflict(p: ParseState, stmt: InsertStmt): void {
  const on = p.next();
  p.next();
  const target = [];
  if (p.isOp("(")) {
    const open = p.next();
    do target.push(p.anyName("column name")); while (p.acceptOp(","));
    p.closeParen(open);
  }
  p.expectWord("do");
  if (p.acceptWord("nothing")) {
    stmt.onConflict = { pos: on.pos, target, action: "nothing", set: [] };
    return;
  }
  p.expectWord("update");
  p.expectWord("set");
  stmt.onConflict = { pos: on.pos, target, action: "update", set: parseAssignments(p) };
}

/** `c = expr [, ...]`; a qualified target (`t.c`) keeps only the column. */
function parseAssignments(p: ParseState): Assignment[] {
  const list: Assignment[] = [];
  do {
    let column = p.anyName("column name");
    while (p.acceptOp(".")) column = p.anyName("column name");
    p.expectOp("=");
    list.push({ column: column.name, pos: column.pos, expr: parseExpr(p) });
  } while (p.acceptOp(","));
  return list;
}

/** The cursor on UPDATE. */
export function parseUpdate(p: ParseState, prefix?: WithPrefix): UpdateStmt {
  const kw = p.next();
  const ctes = prefix?.with ?? [];
  const pos = prefix?.pos;
  const table = p.tableName();
  const stmt: UpdateStmt = { kind: "update", pos: pos ?? kw.pos, with: ctes, table, set: [] };
  stmt.alias = readAlias(p, true);
  if (stmt.alias === undefined) delete stmt.alias;
  p.expectWord("set");
  stmt.set = parseAssignments(p);
  for (const a of stmt.set) refuseSubquery(a.expr);
  // QuestDB's wording for anything else after SET (a JOIN, LATEST ON, ...).
  if (!p.atEnd() && !p.isOp(";") && !p.isWord("from") && !p.isWord("where")) {
    throw p.expected("FROM, WHERE or EOF");
  }
  if (p.acceptWord("from")) {
    const first = parseSource(p);
    // QuestDB takes one FROM source (or a comma list); a JOIN keyword is refused where it stands.
    const word = p.wordAt();
    if (word !== undefined && JOIN_STARTS.has(word)) {
      throw syntaxError("JOIN is not supported on UPDATE statement", p.peek().pos);
    }
    stmt.from = parseFromClause(p, first);
  }
  if (p.acceptWord("where")) stmt.where = parseExpr(p);
  return stmt;
}

/** A subquery in a SET value: QuestDB refuses it at the query's first word. */
function refuseSubquery(e: unknown): void {
  if (e === null || typeof e !== "object") return;
  if (Array.isArray(e)) return e.forEach(refuseSubquery);
  const node = e as { kind?: string; pos?: number; query?: { pos?: number } };
  if (node.kind === "subquery" || node.kind === "exists") {
    throw syntaxError("query is not allowed here", node.query?.pos ?? node.pos ?? 0);
  }
  for (const v of Object.values(node)) refuseSubquery(v);
}

/** `DELETE FROM t [alias] [WHERE ...]`. */
export function parseDelete(p: ParseState): DeleteStmt {
  const kw = p.next();
  p.expectWord("from");
  const stmt: DeleteStmt = { kind: "delete", pos: kw.pos, table: p.tableName() };
  const alias = readAlias(p);
  if (alias !== undefined) stmt.alias = alias;
  if (p.acceptWord("where")) stmt.where = parseExpr(p);
  return stmt;
}

function readAlias(p: ParseState, update = false): string | undefined {
  if (p.acceptWord("as")) {
    if (update) p.refuseKeyword();
    return p.anyName("alias").name;
  }
  const t = p.peek();
  // UPDATE: any word but SET here is the alias, and a keyword must be quoted
  // (KeywordAsTableNameTest#testUpdate). DELETE (ours) keeps its WHERE.
  if (update && t.kind === "word" && t.text.toLowerCase() !== "set") p.refuseKeyword(t);
  if (t.kind === "quoted" || (t.kind === "word" && !SOURCE_ALIAS_STOP.has(t.text.toLowerCase()))) {
    p.next();
    return t.value;
  }
  return undefined;
}
