/**
 * Syntax highlighting for the QuestDB SQL dialect as a CodeMirror stream language: keywords
 * (SAMPLE BY, LATEST ON, ASOF JOIN ...), types, functions (a word followed by `(`), strings,
 * quoted identifiers, comments, numbers with duration units (`1h`, `100ms`), `@variables`,
 * `$n` parameters and `::` casts (spec/console.md §2.2).
 */
import { HighlightStyle, StreamLanguage, type StringStream, syntaxHighlighting } from "@codemirror/language";
import type { Extension } from "@codemirror/state";
import { tags as t } from "@lezer/highlight";
import { CONSTANT_SET, KEYWORD_SET, TYPE_SET } from "./sql_words.ts";

interface TokenState {
  inBlockComment: boolean;
  inString: "'" | '"' | null;
}

const NUMBER = /^(?:0x[0-9a-f]+|\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?(?:us|ms|ns|[utsmhdwyMnL])?)(?![\w])/i;
const WORD = /^[A-Za-z_\u00c0-\uffff][\w$\u00c0-\uffff]*/;
const OPERATOR = /^(?:::|<=|>=|<>|!=|\|\||[-+*\/%<>=~!&|^])/;

function readQuoted(stream: StringStream, state: TokenState, quote: "'" | '"'): string {
  while (!stream.eol()) {
    const ch = stream.next();
    if (ch === quote) {
      if (stream.peek() === quote) {
        stream.next();
        continue;
      }
      state.inString = null;
      return quote === "'" ? "string" : "variableName.special";
    }
  }
  state.inString = quote;
  return quote === "'" ? "string" : "variableName.special";
}

function readWord(stream: StringStream): string {
  const word = stream.current().toLowerCase();
  if (/^\s*\(/.test(stream.string.slice(stream.pos))) return "variableName.function";
  if (CONSTANT_SET.has(word)) return "atom";
  if (TYPE_SET.has(word)) return "typeName";
  if (KEYWORD_SET.has(word)) return "keyword";
  return "variableName";
}

function token(stream: StringStream, state: TokenState): string | null {
  if (state.inBlockComment) {
    if (stream.skipTo("*/")) {
      stream.pos += 2;
      state.inBlockComment = false;
    } else stream.skipToEnd();
    return "comment";
  }
  if (state.inString) return readQuoted(stream, state, state.inString);
  if (stream.eatSpace()) return null;
  if (stream.match("--")) {
    stream.skipToEnd();
    return "comment";
  }
  if (stream.match("/*")) {
    state.inBlockComment = true;
    return token(stream, state) ?? "comment";
  }
  const ch = stream.peek();
  if (ch === "'" || ch === '"') {
    stream.next();
    return readQuoted(stream, state, ch);
  }
  if (stream.match(NUMBER)) return "number";
  if (stream.match(/^@[A-Za-z_]\w*/)) return "variableName.special";
  if (stream.match(/^\$\d+/)) return "variableName.special";
  if (stream.match(WORD)) return readWord(stream);
  if (stream.match(OPERATOR)) return "operator";
  stream.next();
  return "punctuation";
}

export const questdbSql = StreamLanguage.define<TokenState>({
  name: "questdb-sql",
  startState: () => ({ inBlockComment: false, inString: null }),
  copyState: (s) => ({ ...s }),
  token,
  languageData: { commentTokens: { line: "--", block: { open: "/*", close: "*/" } } },
});

const highlight = HighlightStyle.define([
  { tag: t.keyword, color: "var(--syn-keyword)", fontWeight: "600" },
  { tag: t.typeName, color: "var(--syn-type)", fontStyle: "italic" },
  { tag: t.function(t.variableName), color: "var(--syn-function)" },
  { tag: t.special(t.variableName), color: "var(--syn-special)" },
  { tag: t.variableName, color: "var(--syn-name)" },
  { tag: t.string, color: "var(--syn-string)" },
  { tag: t.number, color: "var(--syn-number)" },
  { tag: t.atom, color: "var(--syn-number)" },
  { tag: t.comment, color: "var(--syn-comment)", fontStyle: "italic" },
  { tag: t.operator, color: "var(--syn-operator)" },
  { tag: t.punctuation, color: "var(--syn-punctuation)" },
]);

export function questdbSqlSupport(): Extension {
  return [questdbSql, syntaxHighlighting(highlight)];
}
