/**
 * The array spellings of driver catalog queries over pg_index, for sql_rewrite.ts. The engine
 * has no int2vector values: catalog vectors are text (`'2 3'`, `'{1,2}'`) and
 * engine/functions/pg_functions.ts reads them with pg_any_equal and pg_array_element.
 * (`x = ANY (v)` is the engine parser's: engine/sql/pg_spellings.ts.)
 *
 * - `v[n]` on a catalog vector column (pgjdbc's getIndexInfo reads `I_INDOPTION[pos - 1]`)
 *   becomes `pg_array_element(v, n)`;
 * - `(information_schema._pg_expandarray(v)).n` (pgjdbc's key position in getIndexInfo)
 *   becomes `1`: that set-returning function yields one row per element, and every index
 *   here has exactly one key column.
 */
import type { SqlToken } from "./sql_tokens.ts";

/** A replacement of tokens [start, end] by `text`. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** Catalog columns (and the aliases drivers give them) holding int2vector/oidvector/array text. */
const VECTOR_COLUMNS = new Set([
  "indkey",
  "indoption",
  "indclass",
  "indcollation",
  "i_indoption",
  "conkey",
  "confkey",
  "proargtypes",
  "proallargtypes",
  "stxkeys",
]);

function closing(tokens: SqlToken[], open: number, opener: string, closer: string): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (tokens[j].text === opener) depth++;
    else if (tokens[j].text === closer && --depth === 0) return j;
  }
  return -1;
}

/**
 * Index of the first token of the operand ending just before `at`: a (qualified) name,
 * literal, number or parameter, a parenthesised expression or call, and any `::type` casts
 * applied to it; -1 when there is none.
 */
export function operandStart(tokens: SqlToken[], at: number): number {
  let k = at - 1;
  if (k < 0) return -1;
  if (tokens[k].text === ")") {
    let depth = 0;
    for (; k >= 0; k--) {
      if (tokens[k].text === ")") depth++;
      else if (tokens[k].text === "(" && --depth === 0) break;
    }
    if (k < 0) return -1;
    if (tokens[k - 1]?.kind !== "word") return k;
    k--;
  } else if (!["word", "quoted", "string", "number", "param"].includes(tokens[k].kind)) return -1;
  while (
    tokens[k - 1]?.text === "." && (tokens[k - 2]?.kind === "word" || tokens[k - 2]?.kind === "quoted")
  ) k -= 2;
  // `a.attnum::int = ANY(...)`: the cast belongs to the operand.
  if (tokens[k - 1]?.text === "::") return operandStart(tokens, k - 1);
  return k;
}

/**
 * `v[n]` whose base ends at `i` with a vector column name: the `[` becomes the argument
 * separator of pg_array_element and the `]` its closing parenthesis (the index expression in
 * between is rewritten as usual). Returns the base's first token and the `]` index.
 */
export function vectorSubscript(tokens: SqlToken[], i: number): { start: number; close: number } | undefined {
  const t = tokens[i];
  if (t.kind !== "word" && t.kind !== "quoted") return undefined;
  if (!VECTOR_COLUMNS.has(t.lower.toLowerCase()) || tokens[i + 1]?.text !== "[") return undefined;
  const close = closing(tokens, i + 1, "[", "]");
  if (close < 0) return undefined;
  let start = i;
  while (
    tokens[start - 1]?.text === "." &&
    (tokens[start - 2]?.kind === "word" || tokens[start - 2]?.kind === "quoted")
  ) start -= 2;
  return { start, close };
}

/** `( [information_schema.]_pg_expandarray(v) ).n` opening at `i`. */
export function expandArrayField(tokens: SqlToken[], i: number): Splice | undefined {
  if (tokens[i].text !== "(") return undefined;
  let fn = i + 1;
  if (tokens[fn]?.lower === "information_schema" && tokens[fn + 1]?.text === ".") fn += 2;
  if (tokens[fn]?.lower !== "_pg_expandarray" || tokens[fn + 1]?.text !== "(") return undefined;
  const inner = closing(tokens, fn + 1, "(", ")");
  if (inner < 0 || tokens[inner + 1]?.text !== ")" || tokens[inner + 2]?.text !== ".") return undefined;
  if (tokens[inner + 3]?.lower !== "n") return undefined;
  return { start: i, end: inner + 3, text: "1" };
}
