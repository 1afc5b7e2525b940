/**
 * A script's statements as the engine's lexer splits it (issue #18): pgwire's simple query
 * runs several statements separated by `;`, and a Parse may carry several too. Each comes with
 * where it starts, its highest `$n` placeholder and its kind and parse (statement_kind.ts), so
 * a listener reads no SQL text itself. The split is at every `;` token: strings, quoted names,
 * dollar quotes and comments are the lexer's. Text the lexer cannot read (an unterminated
 * string) ends the script as one last statement, whose error is reported when it runs, after
 * the statements before it ran.
 */
import { SqlError } from "./base/errors.ts";
import { type Token, tokenize } from "./sql/lexer.ts";
import { type ClassifiedStatement, classifyStatement } from "./statement_kind.ts";

export interface ScriptStatement extends ClassifiedStatement {
  /** The statement's text, from its first token to the end of its last. */
  text: string;
  /** Where `text` starts in the script (UTF-16 offset). */
  offset: number;
  /** The highest `$n` placeholder (0 when there is none). */
  paramCount: number;
}

/** The script's tokens; past text the lexer cannot read, one token standing for the rest. */
function tokensOf(sql: string): Token[] {
  try {
    return tokenize(sql);
  } catch (err) {
    if (!(err instanceof SqlError) || err.position < 0) throw err;
    const before = tokenize(sql.slice(0, err.position)).filter((t) => t.kind !== "eof");
    const rest: Token = {
      kind: "op",
      text: sql.slice(err.position),
      value: "",
      pos: err.position,
      end: sql.length,
    };
    return [...before, rest];
  }
}

/** The statements of `sql` in order; empty ones (`;;`, a comment alone) are left out. */
export function splitScript(sql: string): ScriptStatement[] {
  const tokens = tokensOf(sql).filter((t) => t.kind !== "eof");
  const out: ScriptStatement[] = [];
  let from = 0;
  const flush = (to: number) => {
    if (to > from) {
      const offset = tokens[from].pos;
      const text = sql.slice(offset, tokens[to - 1].end);
      let paramCount = 0;
      for (let i = from; i < to; i++) {
        const t = tokens[i];
        if (t.kind === "param" && /^\$\d+$/.test(t.text)) {
          paramCount = Math.max(paramCount, Number(t.text.slice(1)));
        }
      }
      out.push({ ...classifyStatement(text), text, offset, paramCount });
    }
    from = to + 1;
  };
  tokens.forEach((t, i) => {
    if (t.kind === "op" && t.text === ";") flush(i);
  });
  flush(tokens.length);
  return out;
}
