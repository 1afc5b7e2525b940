/**
 * The options of `COPY ... FROM STDIN` / `TO STDOUT` as PostgreSQL writes them (pgwire's COPY
 * sub-protocol, issue #18): the list form `(FORMAT csv, HEADER true, DELIMITER ',',
 * FORCE_QUOTE (a, b))` and the pre-9.0 words psql and older drivers still send
 * (`WITH CSV HEADER DELIMITER AS ';' NULL AS '' FORCE QUOTE *`). Values of `E'...'` strings
 * take PostgreSQL's backslash escapes (`DELIMITER E'\t'`). What the options mean is the
 * listener's (server/pg/copy_statement.ts); names are lower case, flags have no value.
 */
import type { CopyStmt } from "./ast.ts";
import type { Token } from "./lexer.ts";
import type { ParseState } from "./parse_state.ts";

type Options = CopyStmt["options"];

/** The value a token gives: strings unescaped (E'' with backslash escapes), words as written. */
function valueOf(t: Token): string {
  if (t.kind === "string" && /^[eE]'/.test(t.text)) {
    return t.value.replace(
      /\\(.)/g,
      (_, c: string) => ({ t: "\t", n: "\n", r: "\r", b: "\b", f: "\f" })[c] ?? c,
    );
  }
  return t.value;
}

/** A column list after FORCE_QUOTE and friends: `*`, `(a, b)` or `a, b`; read and kept as text. */
function columnList(p: ParseState, parenthesised: boolean): string {
  if (p.isOp("*")) return p.next().text;
  const open = parenthesised && p.isOp("(") ? p.next() : undefined;
  const names = [p.anyName("column name").name];
  while (p.isOp(",") && (open || p.peek(1).kind === "word" || p.peek(1).kind === "quoted")) {
    if (!open && isLegacyWord(p.wordAt(1))) break;
    p.next();
    names.push(p.anyName("column name").name);
  }
  if (open) p.closeParen(open);
  return names.join(",");
}

/** `(name [value], ...)`. */
function listOptions(p: ParseState): Options {
  const open = p.next();
  const options: Options = [];
  do {
    const n = p.anyName("option name");
    const name = n.name.toLowerCase();
    if (p.isOp(",") || p.isOp(")")) options.push({ name, pos: n.pos });
    else if (p.isOp("(") || p.isOp("*")) {
      const valuePos = p.peek().pos;
      options.push({ name, value: columnList(p, true), pos: n.pos, valuePos });
    } else {
      const v = p.next();
      options.push({ name, value: valueOf(v), pos: n.pos, valuePos: v.pos });
    }
  } while (p.acceptOp(","));
  p.closeParen(open);
  return options;
}

/** Legacy options taking a value, `[AS]` before it. */
const VALUED = new Set(["delimiter", "null", "quote", "escape", "encoding"]);
const LEGACY_WORDS = new Set([...VALUED, "csv", "binary", "header", "oids", "freeze", "force"]);

function isLegacyWord(w: string | undefined): boolean {
  return w !== undefined && LEGACY_WORDS.has(w);
}

/** The pre-9.0 words: `BINARY`, `CSV`, `HEADER`, `DELIMITER [AS] 'c'`, `FORCE QUOTE cols`, ... */
function legacyOptions(p: ParseState): Options {
  const options: Options = [];
  while (!p.atEnd()) {
    const t = p.peek();
    const word = t.kind === "string" ? undefined : p.wordAt();
    if (word === undefined) throw p.expected("COPY option");
    p.next();
    if (VALUED.has(word)) {
      p.acceptWord("as");
      const v = p.next();
      if (v.kind === "eof") throw p.expected(`value of ${word.toUpperCase()}`, v);
      options.push({ name: word, value: valueOf(v), pos: t.pos, valuePos: v.pos });
    } else if (word === "force") {
      // FORCE QUOTE cols, FORCE NOT NULL cols, FORCE NULL cols.
      const parts = ["force"];
      if (p.acceptWord("not")) parts.push("not");
      const what = p.wordAt();
      if (what !== "quote" && what !== "null") throw p.expected("QUOTE, NOT NULL or NULL after FORCE");
      parts.push(p.next().text.toLowerCase());
      const valuePos = p.peek().pos;
      options.push({ name: parts.join("_"), value: columnList(p, false), pos: t.pos, valuePos });
    } else if (word === "header" && (p.isWord("true") || p.isWord("false"))) {
      const v = p.next();
      options.push({ name: word, value: v.text, pos: t.pos, valuePos: v.pos });
    } else options.push({ name: word, pos: t.pos });
  }
  return options;
}

/** The options after `STDIN` / `STDOUT` (and an optional WITH). */
export function stdioCopyOptions(p: ParseState): Options {
  p.acceptWord("with");
  return p.isOp("(") ? listOptions(p) : legacyOptions(p);
}
