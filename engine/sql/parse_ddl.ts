/**
 * DROP TABLE, DROP ALL TABLES, TRUNCATE TABLE and RENAME TABLE (spec/sql.md §5.4).
 */
import type { DropTableStmt, RenameTableStmt, TruncateTableStmt } from "./ast.ts";
import { syntaxError } from "../base/errors.ts";
import type { ParseState } from "./parse_state.ts";
import type { Token } from "./lexer.ts";

/** The cursor on DROP; the next word is TABLE or ALL. */
export function parseDropTable(p: ParseState): DropTableStmt {
  const kw = p.next();
  if (p.acceptWord("all")) {
    p.acceptWord("tables");
    return { kind: "dropTable", pos: kw.pos, names: [], ifExists: false, all: true };
  }
  p.expectWord("table");
  const ifExists = p.acceptWords("if", "exists");
  // `DROP TABLE x.csv` is "unexpected token [.]" (QuestDB DropStatementTest#testDropTableWithDotFailure);
  // `public.t` still names `t`.
  if (p.peek().kind === "word" && p.isOp(".", 1) && p.peek().text.toLowerCase() !== "public") {
    throw p.unexpected(p.peek(1));
  }
  // One table: `DROP TABLE a, b` stops at the comma (SqlParserTest#testDropTablesTableIsSingular).
  const name = p.tableName();
  return {
    kind: "dropTable",
    pos: kw.pos,
    names: [{ name: name.name, pos: name.pos }],
    ifExists,
    all: false,
  };
}

/** `TRUNCATE TABLE [IF EXISTS] t [, ...] [KEEP SYMBOL MAPS]`. */
export function parseTruncateTable(p: ParseState): TruncateTableStmt {
  const kw = p.next();
  // QuestDB TruncateTest#testExpectTableKeyword*, #testKeepSymbolTablesExpect*.
  if (!p.acceptWord("table")) throw syntaxError("TABLE expected", p.peek().pos);
  // `TRUNCATE TABLE ONLY t` (TruncateTest#testTableOnly): ONLY is accepted and ignored.
  p.acceptWord("only");
  let ifExists = false;
  if (p.acceptWord("if")) {
    // TruncateTest#testTruncateIfExistsSyntaxError: `truncate table if` is not a table named `if`.
    if (!p.acceptWord("exists")) throw syntaxError("expected EXISTS table-name", p.peek().pos);
    ifExists = true;
  }
  const names = [p.tableName()];
  // After each name: `,` and another name, KEEP, or the end. QuestDB reports the errors at its
  // lexer's position, just past the offending token and one following blank
  // (TruncateTest#testExpectTableName4: `truncate table x, keep` at 22; #testExpectTableName5:
  // `truncate table x y z` at 19).
  while (!p.atEnd() && !p.isWord("keep")) {
    const t = p.next();
    if (t.kind !== "op" || t.text !== ",") {
      throw syntaxError("',' or 'keep' expected", lexerPosAfter(p, t));
    }
    if (p.isWord("keep")) throw syntaxError("table name expected", lexerPosAfter(p, p.peek()));
    if (p.atEnd()) throw syntaxError("table name expected", t.end);
    names.push(p.tableName());
  }
  if (p.acceptWord("keep")) {
    if (!p.acceptWord("symbol")) throw syntaxError("SYMBOL expected", p.peek().pos);
    if (!p.acceptWord("maps")) throw syntaxError("MAPS expected", p.peek().pos);
  }
  return { kind: "truncateTable", pos: kw.pos, names, ifExists };
}

/** `RENAME TABLE old TO new`; either name may be quoted with '...' or "...". */
export function parseRenameTable(p: ParseState): RenameTableStmt {
  const kw = p.next();
  p.expectWord("table");
  const from = p.tableName();
  p.expectWord("to");
  const to = p.tableName("new table name");
  return { kind: "renameTable", pos: kw.pos, from, to };
}

/** Where QuestDB's lexer stands after reading `t`: past it and one whitespace character. */
function lexerPosAfter(p: ParseState, t: Token): number {
  return /\s/.test(p.sql.charAt(t.end)) ? t.end + 1 : t.end;
}
