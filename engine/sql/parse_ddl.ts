/**
 * DROP TABLE, DROP ALL TABLES, TRUNCATE TABLE and RENAME TABLE (spec/sql.md §5.4).
 */
import type { DropTableStmt, RenameTableStmt, TruncateTableStmt } from "./ast.ts";
import { syntaxError } from "../base/errors.ts";
import type { NamePos, ParseState } from "./parse_state.ts";

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
  const ifExists = p.acceptWords("if", "exists");
  const names = tableNames(p);
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

function tableNames(p: ParseState): NamePos[] {
  const names = [p.tableName()];
  while (p.acceptOp(",")) names.push(p.tableName());
  return names;
}
