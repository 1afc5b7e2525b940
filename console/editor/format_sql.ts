/**
 * A small SQL formatter for Alt+Shift+F (whole tab) and Alt+F (selection) (spec/console.md
 * §2.2 "Format"). Deliberately conservative: it never touches strings, quoted identifiers or
 * comments, uppercases keywords, collapses whitespace, puts one space after commas, and starts
 * each top-level clause (FROM, WHERE, GROUP BY, SAMPLE BY, joins…) on its own line.
 * Subqueries (inside parentheses) stay on their line, so nothing is ever reordered.
 */
import { KEYWORD_SET } from "./sql_words.ts";

type Kind = "ws" | "comment" | "string" | "word" | "other";

interface Token {
  kind: Kind;
  text: string;
}

function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (kind: Kind, end: number) => {
    out.push({ kind, text: sql.slice(i, end) });
    i = end;
  };
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      let j = i;
      while (j < sql.length && /\s/.test(sql[j])) j++;
      push("ws", j);
    } else if (c === "-" && sql[i + 1] === "-") {
      const nl = sql.indexOf("\n", i);
      push("comment", nl < 0 ? sql.length : nl);
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      push("comment", end < 0 ? sql.length : end + 2);
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === c && sql[j + 1] === c) j += 2; // '' or "" escape
        else if (sql[j] === c) break;
        else j++;
      }
      push("string", Math.min(j + 1, sql.length));
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < sql.length && /[\w$]/.test(sql[j])) j++;
      push("word", j);
    } else {
      push("other", i + 1);
    }
  }
  return out;
}

/** Words that start a clause on a new line (at the top level of a statement). */
const CLAUSE = new Set([
  "select",
  "from",
  "where",
  "having",
  "limit",
  "union",
  "except",
  "intersect",
  "join",
  "values",
]);
/** Words that start a clause only together with the next word. */
const PAIR: Record<string, string[]> = {
  group: ["by"],
  order: ["by"],
  sample: ["by"],
  partition: ["by"],
  latest: ["on", "by"],
  left: ["join", "outer"],
  right: ["join", "outer"],
  inner: ["join"],
  cross: ["join"],
  full: ["join", "outer"],
  asof: ["join"],
  lt: ["join"],
  splice: ["join"],
  window: ["join"],
};
const JOIN_PREFIX = new Set([
  "left",
  "right",
  "inner",
  "cross",
  "full",
  "asof",
  "lt",
  "splice",
  "window",
  "outer",
]);

export function formatSql(sql: string): string {
  const tokens = tokenize(sql);
  const nextWord = (from: number) => {
    for (let k = from; k < tokens.length; k++) {
      if (tokens[k].kind === "word") return tokens[k].text.toLowerCase();
      if (tokens[k].kind !== "ws" && tokens[k].kind !== "comment") return "";
    }
    return "";
  };
  let out = "";
  let depth = 0;
  let prevWord = "";
  let atStatementStart = true;
  const trimEnd = () => (out = out.replace(/[ \t]+$/, ""));
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === "ws") {
      // A line comment must keep its line break; otherwise one space.
      if (out.endsWith("\n") || out === "") continue;
      out += /\n/.test(t.text) && tokens[k - 1]?.kind === "comment" ? "\n" : " ";
      continue;
    }
    if (t.kind === "word") {
      const lower = t.text.toLowerCase();
      const clause = depth === 0 && !atStatementStart &&
        (CLAUSE.has(lower) && !(lower === "join" && JOIN_PREFIX.has(prevWord)) ||
          (PAIR[lower]?.includes(nextWord(k + 1)) ?? false));
      if (clause) {
        trimEnd();
        if (!out.endsWith("\n")) out += "\n";
      }
      out += KEYWORD_SET.has(lower) ? t.text.toUpperCase() : t.text;
      prevWord = lower;
      atStatementStart = false;
      continue;
    }
    if (t.kind === "other") {
      if (t.text === "(") depth++;
      if (t.text === ")") depth = Math.max(0, depth - 1);
      if (t.text === ",") {
        trimEnd();
        out += ", ";
        // The whitespace that follows is already written.
        while (tokens[k + 1]?.kind === "ws" && !/\n/.test(tokens[k + 1].text)) k++;
        continue;
      }
      if (t.text === ";") {
        trimEnd();
        out += ";\n\n";
        while (tokens[k + 1]?.kind === "ws") k++;
        depth = 0;
        atStatementStart = true;
        prevWord = "";
        continue;
      }
    }
    out += t.text;
    if (t.kind !== "comment") atStatementStart = false;
  }
  return out.replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trimEnd() +
    (sql.endsWith("\n") ? "\n" : "");
}
