/**
 * The lexer of the dialect (spec/sql.md §1): turns SQL text into tokens that keep their
 * 0-based UTF-16 offsets, so every later error can point into the submitted text.
 *
 * It knows no keywords: every unquoted word is a `word` token and the parser decides from
 * context whether it is a keyword, because QuestDB lets most keywords be column names
 * (`by`, `timestamp`, `date`). Numbers keep their trailing letters (`15m`, `123L`, `3d`) in
 * one token so that `SAMPLE BY 15m`, `TOLERANCE 2s` and `TTL 3H` can read a stride and a unit
 * while expressions read a suffixed literal.
 */
import { syntaxError } from "../base/errors.ts";

/** What a token is; keywords are words, told apart by the parser. */
export type TokenKind =
  | "word" // unquoted identifier or keyword
  | "quoted" // "double quoted" identifier; value is unescaped
  | "string" // 'single quoted', E'...' or $$dollar quoted$$ literal; value is unescaped
  | "number" // digits with any trailing letters, or 0x hex
  | "geohash" // #u33d8, #u33d/18, ##0101
  | "param" // $1, ?, :name
  | "variable" // @name (DECLARE)
  | "op" // punctuation and operators, also any stray character
  | "eof";

/** One token with its text and where it was. */
export interface Token {
  kind: TokenKind;
  /** The token exactly as written in the SQL text. */
  text: string;
  /** Unescaped content for strings and quoted identifiers; `text` for every other kind. */
  value: string;
  /** 0-based UTF-16 offset of the first character. */
  pos: number;
  /** Offset just past the last character. */
  end: number;
}

/** Multi-character operators, longest first so that `<<=` wins over `<<` and `<=`. */
const OPERATORS = ["<<=", ">>=", "::", ":=", "||", "<=", ">=", "<>", "!=", "<<", ">>", "!~"];
const MULTI_OP_STARTS = "<>:|!";

function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

function isAsciiLetter(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
}

function isSpace(c: string): boolean {
  if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f") return true;
  return c > "\x7f" && /\s/.test(c);
}

/** Non-ASCII characters other than white space count as letters (Unicode column names). */
function isIdentStart(c: string): boolean {
  return isAsciiLetter(c) || c === "_" || (c > "\x7f" && !isSpace(c));
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || isDigit(c);
}

/**
 * Splits `sql` into tokens, ending with one `eof` token.
 *
 * Comments (`--`, `/* *\/`, and `/*+ hints *\/`) are skipped. An unterminated string, quoted
 * identifier or block comment is a syntax error at its start.
 */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  const n = sql.length;
  let i = 0;
  const push = (kind: TokenKind, start: number, end: number, value?: string) => {
    const text = sql.slice(start, end);
    tokens.push({ kind, text, value: value ?? text, pos: start, end });
  };
  while (i < n) {
    const c = sql[i];
    if (isSpace(c)) {
      i++;
    } else if (c === "-" && sql[i + 1] === "-") {
      while (i < n && sql[i] !== "\n") i++;
    } else if (c === "/" && sql[i + 1] === "*") {
      const close = sql.indexOf("*/", i + 2);
      if (close < 0) throw syntaxError("unclosed comment", i);
      i = close + 2;
    } else if (c === "'") {
      const [end, value] = readQuoted(sql, i, "'");
      push("string", i, end, value);
      i = end;
    } else if (c === '"' || c === "`") {
      // QuestDB quotes identifiers with backticks too (Chars.isQuote; `column` in its docs).
      const [end, value] = readQuoted(sql, i, c);
      push("quoted", i, end, value);
      i = end;
    } else if ((c === "E" || c === "e") && sql[i + 1] === "'") {
      // E'text' is accepted as a plain string (spec/sql.md §1.3).
      const [end, value] = readQuoted(sql, i + 1, "'");
      push("string", i, end, value);
      i = end;
    } else if (isDigit(c) || (c === "." && isDigit(sql[i + 1] ?? "") && !followsOperand(sql, i))) {
      const end = readNumber(sql, i);
      push("number", i, end);
      i = end;
    } else if (isIdentStart(c)) {
      let end = i + 1;
      // `$` may follow the first character (QuestDB SqlParserTest#testGoodNonQuotedAlias: `a1$_`),
      // as in PostgreSQL; it never starts a word, so `$1` and `$$..$$` are unchanged.
      while (end < n && (isIdentPart(sql[end]) || sql[end] === "$")) end++;
      push("word", i, end);
      i = end;
    } else if (c === "#") {
      const end = readGeohash(sql, i);
      push("geohash", i, end);
      i = end;
    } else if (c === "$" && isDigit(sql[i + 1] ?? "")) {
      let end = i + 1;
      while (end < n && isDigit(sql[end])) end++;
      push("param", i, end);
      i = end;
    } else if (c === "$" && dollarTag(sql, i) !== undefined) {
      const [end, value] = readDollarQuoted(sql, i);
      push("string", i, end, value);
      i = end;
    } else if (c === "?") {
      push("param", i, i + 1);
      i++;
    } else if (
      c === ":" && sql[i + 1] !== ":" && isIdentStart(sql[i + 1] ?? "") && !endsOperand(sql[i - 1] ?? "")
    ) {
      let end = i + 2;
      while (end < n && isIdentPart(sql[end])) end++;
      push("param", i, end);
      i = end;
    } else if (c === "@" && isIdentStart(sql[i + 1] ?? "")) {
      let end = i + 2;
      while (end < n && isIdentPart(sql[end])) end++;
      push("variable", i, end);
      i = end;
    } else {
      const op = (MULTI_OP_STARTS.includes(c) && OPERATORS.find((o) => sql.startsWith(o, i))) || c;
      push("op", i, i + op.length);
      i += op.length;
    }
  }
  tokens.push({ kind: "eof", text: "", value: "", pos: n, end: n });
  return tokens;
}

/** Reads a quoted run starting at `start` (the opening quote); a doubled quote escapes itself. */
function readQuoted(sql: string, start: number, quote: string): [number, string] {
  let i = start + 1;
  let value = "";
  for (;;) {
    const close = sql.indexOf(quote, i);
    if (close < 0) {
      throw syntaxError(quote === "'" ? "unclosed quoted string" : "unclosed quoted identifier", start);
    }
    value += sql.slice(i, close);
    if (sql[close + 1] === quote) {
      value += quote;
      i = close + 2;
    } else {
      return [close + 1, value];
    }
  }
}

/**
 * The opening delimiter of a PostgreSQL dollar-quoted string at `start` (`$$` or `$tag$`, the
 * tag an identifier without `$`), or undefined. BI tools and ORMs send function bodies and
 * literals so; QuestDB has no other use for a bare `$` outside strings (`$1` is a parameter).
 */
export function dollarTag(sql: string, start: number): string | undefined {
  return /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(start, start + 66))?.[0];
}

/** Reads a dollar-quoted string from `start`; its content is taken verbatim, no escapes. */
function readDollarQuoted(sql: string, start: number): [number, string] {
  const tag = dollarTag(sql, start)!;
  const close = sql.indexOf(tag, start + tag.length);
  if (close < 0) throw syntaxError("unterminated dollar-quoted string", start);
  return [close + tag.length, sql.slice(start + tag.length, close)];
}

/** True when the character before `i` ends an operand, so a `.` there qualifies a name. */
function followsOperand(sql: string, i: number): boolean {
  const prev = sql[i - 1] ?? " ";
  return isIdentPart(prev) || prev === '"' || prev === "`" || prev === ")" || prev === "]";
}

/**
 * Reads a number: hex `0x...`, or digits with `_`, an optional fraction and exponent, then any
 * trailing identifier characters (the suffix: `L`, `f`, `d`, `m`, or a unit letter).
 */
function readNumber(sql: string, start: number): number {
  const n = sql.length;
  let i = start;
  if (sql[i] === "0" && (sql[i + 1] === "x" || sql[i + 1] === "X")) {
    i += 2;
    while (i < n && isIdentPart(sql[i])) i++;
    return i;
  }
  while (i < n && (isDigit(sql[i]) || sql[i] === "_")) i++;
  if (sql[i] === "." && sql[i + 1] !== ".") {
    i++;
    while (i < n && (isDigit(sql[i]) || sql[i] === "_")) i++;
  }
  if ((sql[i] === "e" || sql[i] === "E")) {
    const sign = sql[i + 1] === "+" || sql[i + 1] === "-" ? 1 : 0;
    if (isDigit(sql[i + 1 + sign] ?? "")) {
      i += 1 + sign;
      while (i < n && isDigit(sql[i])) i++;
    }
  }
  while (i < n && isIdentPart(sql[i])) i++;
  return i;
}

/**
 * Reads `#chars` or `##bits` up to the next space or separator, as QuestDB's lexer does (`#sp@in`
 * is one token, an invalid constant); validation happens when the literal is built, and a
 * `/bits` suffix is parsed as its own tokens (parse_primary.ts).
 */
function readGeohash(sql: string, start: number): number {
  const n = sql.length;
  let i = start + 1;
  if (sql[i] === "#") i++;
  while (i < n && !GEOHASH_END.test(sql[i])) i++;
  return i;
}

const GEOHASH_END = /[\s()[\]{},;'"+\-*/%<>=!~|&^:]/;

/**
 * Whether `c`, right before a `:`, ends an operand: then `i:j` is an array slice (QuestDB's
 * ArrayTest#testAccessWithNonConstants, `arr[i:j]`), not `i` and the bind variable `:j`.
 */
function endsOperand(c: string): boolean {
  return c === ")" || c === "]" || (c !== "" && isIdentPart(c));
}
