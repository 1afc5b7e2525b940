/**
 * A small tolerant tokenizer for the SQL text clients send, used only for what the wire
 * layer must know before (or without) asking the engine: where statements end in a simple
 * query, what kind a statement is (for command tags and the session statements of
 * spec/protocols.md §12.12), and which `$n` placeholders it holds. It never fails: text
 * it does not understand becomes `op` tokens, and the engine reports real syntax errors.
 */

export type TokenKind = "word" | "quoted" | "string" | "number" | "param" | "op";

export interface SqlToken {
  kind: TokenKind;
  /** The source text (for `word`, as written; compare with `lower`). */
  text: string;
  /** Lower-case text for words, unquoted text for quoted identifiers and strings. */
  lower: string;
  /** 0-based UTF-16 offset in the scanned text. */
  pos: number;
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const OPERATOR_CHARS = "+-*/<>=~!@#%^&|`?:";
/** The opening of a dollar-quoted string: `$$` or `$tag$`. */
const DOLLAR_TAG = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

/** The content of a dollar-quoted string token (an unterminated one runs to the end). */
function dollarContent(text: string): string {
  const tag = DOLLAR_TAG.exec(text)![0];
  return text.length >= 2 * tag.length && text.endsWith(tag)
    ? text.slice(tag.length, -tag.length)
    : text.slice(tag.length);
}

function skipQuoted(sql: string, i: number, quote: string, backslashes: boolean): number {
  i++;
  while (i < sql.length) {
    const c = sql[i];
    if (backslashes && c === "\\") {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return i;
}

/** Skips whitespace and comments from `i`; returns the next significant offset. */
function skipSpace(sql: string, i: number): number {
  while (i < sql.length) {
    const c = sql[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f") i++;
    else if (c === "-" && sql[i + 1] === "-") {
      const nl = sql.indexOf("\n", i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else break;
  }
  return i;
}

/** Scans `sql` into tokens; `;` is an `op` token of its own. */
export function tokenize(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  let i = skipSpace(sql, 0);
  while (i < sql.length) {
    const start = i;
    const c = sql[i];
    let kind: TokenKind;
    if ((c === "E" || c === "e") && sql[i + 1] === "'") {
      i = skipQuoted(sql, i + 1, "'", true);
      kind = "string";
    } else if (c === "'") {
      i = skipQuoted(sql, i, "'", false);
      kind = "string";
    } else if (c === '"') {
      i = skipQuoted(sql, i, '"', false);
      kind = "quoted";
    } else if (c === "$" && /[0-9]/.test(sql[i + 1] ?? "")) {
      i++;
      while (/[0-9]/.test(sql[i] ?? "")) i++;
      kind = "param";
    } else if (c === "$" && DOLLAR_TAG.test(sql.slice(i, i + 66))) {
      // $$text$$ or $tag$text$tag$: a string whose `;` and `pg_` must stay as written.
      const tag = DOLLAR_TAG.exec(sql.slice(i, i + 66))![0];
      const close = sql.indexOf(tag, i + tag.length);
      i = close < 0 ? sql.length : close + tag.length;
      kind = "string";
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(sql[i + 1] ?? ""))) {
      while (i < sql.length && /[0-9a-zA-Z_.]/.test(sql[i])) i++;
      kind = "number";
    } else if (WORD_START.test(c)) {
      while (i < sql.length && WORD_PART.test(sql[i])) i++;
      kind = "word";
    } else if (OPERATOR_CHARS.includes(c)) {
      while (i < sql.length && OPERATOR_CHARS.includes(sql[i]) && !(sql[i] === "-" && sql[i + 1] === "-")) {
        i++;
      }
      kind = "op";
    } else {
      i++;
      kind = "op";
    }
    const text = sql.slice(start, i);
    let lower = text.toLowerCase();
    if (kind === "string" && text[0] === "$") lower = dollarContent(text);
    else if (kind === "string") lower = text.slice(text[0] === "'" ? 1 : 2, -1).replaceAll("''", "'");
    if (kind === "quoted") lower = text.slice(1, -1).replaceAll('""', '"');
    out.push({ kind, text, lower, pos: start });
    i = skipSpace(sql, i);
  }
  return out;
}

/** One statement of a simple query: its text and where it starts in the whole text. */
export interface StatementText {
  text: string;
  offset: number;
  tokens: SqlToken[];
}

/** Splits a simple query's text at top-level `;`; statements with no tokens are dropped. */
export function splitStatements(sql: string): StatementText[] {
  const tokens = tokenize(sql);
  const out: StatementText[] = [];
  let from = 0;
  const flush = (end: number, endPos: number) => {
    const part = tokens.slice(from, end);
    if (part.length > 0) {
      const offset = part[0].pos;
      const text = sql.slice(offset, endPos);
      out.push({ text, offset, tokens: part.map((t) => ({ ...t, pos: t.pos - offset })) });
    }
    from = end + 1;
  };
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].kind === "op" && tokens[i].text === ";") flush(i, tokens[i].pos);
  }
  flush(tokens.length, sql.length);
  return out;
}

/** The highest `$n` placeholder index in the tokens (0 when there is none). */
export function paramCount(tokens: SqlToken[]): number {
  let n = 0;
  for (const t of tokens) {
    if (t.kind === "param") n = Math.max(n, Number(t.text.slice(1)));
  }
  return n;
}
