/**
 * The cursor every parse function shares: the token list, the position in it, the nesting
 * depth and the bind-variable numbering, with the small helpers that read keywords and
 * punctuation and build syntax errors pointing at the offending token.
 */
import { SqlError, syntaxError } from "../base/errors.ts";
import { NESTING_DEPTH_MAX } from "../base/limits.ts";
import { QUOTE_REQUIRED, RESERVED } from "./keywords.ts";
import type { Token } from "./lexer.ts";

/** A name read from the text with where it was. */
export interface NamePos {
  name: string;
  pos: number;
}

/**
 * The parser's cursor over the tokens of one text. Parse functions take it as their first
 * argument, read with `peek`/`next`/`accept*`/`expect*`, and report errors through
 * `expected`/`unexpected` so that every message points at a token.
 */
export class ParseState {
  readonly sql: string;
  readonly tokens: Token[];
  index = 0;
  /** Current syntactic nesting (expressions, subqueries); bounded by NESTING_DEPTH_MAX. */
  depth = 0;
  /** `?` placeholders seen so far: each one takes the next index. */
  positionalCount = 0;
  /** `:name` placeholders: one index per distinct name, in order of appearance. */
  readonly namedParams = new Map<string, number>();

  constructor(sql: string, tokens: Token[]) {
    this.sql = sql;
    this.tokens = tokens;
  }

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
  }

  next(): Token {
    const t = this.peek();
    if (t.kind !== "eof") this.index++;
    return t;
  }

  /** True when the token `ahead` is the unquoted word `word` (any case). */
  isWord(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === "word" && t.text.toLowerCase() === word;
  }

  /** The lower-case text of an unquoted word token, or undefined. */
  wordAt(ahead = 0): string | undefined {
    const t = this.peek(ahead);
    return t.kind === "word" ? t.text.toLowerCase() : undefined;
  }

  acceptWord(word: string): Token | undefined {
    return this.isWord(word) ? this.next() : undefined;
  }

  expectWord(word: string): Token {
    if (!this.isWord(word)) throw this.expected(`'${word}'`);
    return this.next();
  }

  /** Accepts a sequence of words only if all of them are next. */
  acceptWords(...words: string[]): boolean {
    for (let k = 0; k < words.length; k++) if (!this.isWord(words[k], k)) return false;
    this.index += words.length;
    return true;
  }

  isOp(op: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === "op" && t.text === op;
  }

  acceptOp(op: string): Token | undefined {
    return this.isOp(op) ? this.next() : undefined;
  }

  expectOp(op: string): Token {
    if (!this.isOp(op)) throw this.expected(`'${op}'`);
    return this.next();
  }

  /** Consumes the `)` matching `open`; an early end of text reports the opening parenthesis. */
  closeParen(open: Token): Token {
    if (this.isOp(")")) return this.next();
    if (this.atEnd()) throw syntaxError("missing closing ')'", open.pos);
    throw this.expected("')'");
  }

  /** End of the statement: end of text or `;`. */
  atEnd(): boolean {
    const t = this.peek();
    return t.kind === "eof" || (t.kind === "op" && t.text === ";");
  }

  /** An error for the current token: `x expected`, or `unexpected end of input` at the end. */
  expected(what: string, t: Token = this.peek()): SqlError {
    return syntaxError(`${what} expected`, t.pos);
  }

  unexpected(t: Token = this.peek()): SqlError {
    if (t.kind === "eof") return syntaxError("unexpected end of input", t.pos);
    // `delcare @v := ...`: a variable assignment no DECLARE opened (DeclareTest
    // #testDeclareGivesMoreUsefulErrorWhenMispellingDeclare reports it at the `:=`).
    const i = this.tokens.indexOf(t);
    const next = i >= 0 ? this.tokens[i + 1] : undefined;
    if (t.kind === "variable" && next?.kind === "op" && next.text === ":=") {
      return syntaxError("perhaps `DECLARE` was misspelled?", next.pos);
    }
    return syntaxError(`unexpected token [${t.text}]`, t.pos);
  }

  /** Enters one level of nesting; crossing the limit is a "limit" error, not a stack overflow. */
  enter(at: Token = this.peek()): void {
    if (++this.depth > NESTING_DEPTH_MAX) {
      throw new SqlError(`too many nested expressions [max=${NESTING_DEPTH_MAX}]`, at.pos, "limit");
    }
  }

  leave(): void {
    this.depth--;
  }

  /**
   * Checks a left-deep chain (`a + b + c`, `x::a::b`, `q UNION q UNION q`) of `length` nodes
   * built at the current depth: the tree is that much deeper even though the parser loops.
   */
  checkChain(length: number, at: Token): void {
    if (this.depth + length > NESTING_DEPTH_MAX) {
      throw new SqlError(`too many nested expressions [max=${NESTING_DEPTH_MAX}]`, at.pos, "limit");
    }
  }

  /** True when the current token can be read as a name: a quoted or non-reserved word. */
  atName(ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === "quoted" || (t.kind === "word" && !RESERVED.has(t.text.toLowerCase()));
  }

  /**
   * Refuses an unquoted QuestDB keyword where a table name, a new column's name or an AS alias
   * stands (QUOTE_REQUIRED; KeywordAsTableNameTest): `alter table table ...` fails at `table`.
   */
  refuseKeyword(t: Token = this.peek()): void {
    if (t.kind === "word" && QUOTE_REQUIRED.has(t.text.toLowerCase())) {
      throw syntaxError(
        `table and column names that are SQL keywords have to be enclosed in double quotes, such as "${t.text}"`,
        t.pos,
      );
    }
  }

  /** Reads a column-like name (unquoted non-reserved word or quoted identifier). */
  name(what: string): NamePos {
    if (!this.atName()) throw this.expected(what);
    const t = this.next();
    return { name: t.value, pos: t.pos };
  }

  /** Reads any word or quoted identifier, reserved or not (column definitions, options). */
  anyName(what: string): NamePos {
    const t = this.peek();
    if (t.kind !== "word" && t.kind !== "quoted") throw this.expected(what);
    this.next();
    return { name: t.value, pos: t.pos };
  }

  /**
   * Reads a table name: an identifier, a quoted identifier or a 'single quoted' string
   * (spec/sql.md §1.2), with dotted parts kept as one name (`pg_catalog.pg_class`).
   */
  tableName(what = "table name"): NamePos {
    const t = this.peek();
    if (t.kind === "string") {
      this.next();
      return { name: t.value, pos: t.pos };
    }
    this.refuseKeyword();
    let name = this.name(what).name;
    while (this.isOp(".") && (this.peek(1).kind === "word" || this.peek(1).kind === "quoted")) {
      this.next();
      const part = this.anyName(what).name;
      // `public` is the schema every user table is in (pgwire catalog, spec/protocols.md §12.12):
      // `public.t` names `t`, as GUI tools and ORMs qualify it.
      name = name.toLowerCase() === "public" ? part : name + "." + part;
    }
    return { name, pos: t.pos };
  }

  /** The source text from token `from` up to the end of the token before the cursor. */
  textFrom(from: Token): string {
    const last = this.tokens[Math.max(this.index - 1, 0)];
    return this.sql.slice(from.pos, Math.max(last.end, from.pos));
  }

  /** Consumes the rest of the statement and returns its text as written (trimmed). */
  restText(): string {
    const first = this.peek();
    while (!this.atEnd()) this.next();
    return this.peek() === first ? "" : this.textFrom(first).trim();
  }

  /** An unsigned integer literal such as a capacity or a count. */
  integer(what: string): { value: number; pos: number } {
    const t = this.peek();
    if (t.kind !== "number" || !/^\d[\d_]*$/.test(t.text)) throw this.expected(what);
    this.next();
    return { value: Number(t.text.replaceAll("_", "")), pos: t.pos };
  }
}
