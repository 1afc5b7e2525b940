/**
 * @module
 * The SQL front end: lexer, parser and AST printer for the dialect of spec/sql.md.
 *
 * Entry points: `parseStatements` / `parseStatement` turn SQL text into the AST of `ast.ts`
 * (every node keeps the offset of the text it came from); `exprToText` gives the canonical
 * expression text used for result column names; `statementToText` prints a statement back to
 * SQL. This folder builds on `engine/base` only: it knows no catalog, types of columns or
 * storage, and must not import `plan/`, `exec/` or anything above them.
 */
export type * from "./ast.ts";
export { parseStatement, parseStatements } from "./parser.ts";
export { exprToText, identToText } from "./printer.ts";
export { statementToText } from "./print_statement.ts";
export { type Token, tokenize, type TokenKind } from "./lexer.ts";
