/**
 * Text forms of DOUBLE arrays (spec/sql.md §22.2, §22.8): QuestDB's JSON-style text
 * (`[[1.0,2.0],[3.0,4.0]]`, REST, CSV, `::varchar`) and PostgreSQL's array literal
 * (`{{1.0,2.0},{3.0,4.0}}`, pgwire text), both ways.
 */
import { DoubleArray } from "../base/double_array.ts";
import { formatDouble } from "./double_format.ts";

/** Renders `a` with the given brackets and NULL spelling; elements in the DOUBLE text form. */
function render(a: DoubleArray, open: string, close: string, nullText: string): string {
  // QuestDB prints any array without elements as one pair of brackets, whatever its shape
  // (ArrayTypeDriver.arrayToText: a (2, 0) array is `[]`, not `[[],[]]`).
  if (a.data.length === 0) return open + close;
  const parts: string[] = [];
  let at = 0;
  const walk = (d: number) => {
    parts.push(open);
    const n = a.shape[d];
    for (let i = 0; i < n; i++) {
      if (i > 0) parts.push(",");
      if (d === a.shape.length - 1) {
        const x = a.data[at++];
        parts.push(Number.isFinite(x) ? formatDouble(x) : nullText);
      } else walk(d + 1);
    }
    parts.push(close);
  };
  walk(0);
  return parts.join("");
}

/** `[[1.0,2.0],[3.0,4.0]]`; NULL elements `null`, empty `[]`. */
export function formatArrayJson(a: DoubleArray): string {
  return render(a, "[", "]", "null");
}

/** `{{1.0,2.0},{3.0,4.0}}`; NULL elements `NULL`, empty `{}`. */
export function formatArrayPg(a: DoubleArray): string {
  return render(a, "{", "}", "NULL");
}

/**
 * Parses `[…]` (JSON style) or `{…}` (PostgreSQL style, elements may be double-quoted) into an
 * array. `dims`, when given, is the nesting the caller needs: a literal of another depth gives
 * `null` (QuestDB's documented behaviour); `{}` and `[]` are an empty array of any depth.
 * Undefined when the text is malformed or ragged.
 */
export function parseArrayText(text: string, dims?: number): DoubleArray | null | undefined {
  const s = text.trim();
  const open = s[0];
  if (open !== "[" && open !== "{") return undefined;
  const close = open === "[" ? "]" : "}";
  let i = 0;
  const values: number[] = [];
  const shape: number[] = [];
  let ok = true;
  let leaf = -1; // the depth elements sit at, once one was seen
  const ws = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  const element = (): boolean => {
    ws();
    let tok: string;
    if (s[i] === '"') {
      const end = s.indexOf('"', i + 1);
      if (end < 0) return false;
      tok = s.slice(i + 1, end);
      i = end + 1;
    } else {
      const m = /^[^,\]}\s]+/.exec(s.slice(i));
      if (!m) return false;
      tok = m[0];
      i += tok.length;
    }
    if (/^null$/i.test(tok) || /^nan$/i.test(tok)) {
      values.push(NaN);
      return true;
    }
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(tok) && !/^[+-]?Infinity$/.test(tok)) return false;
    values.push(Number(tok));
    return true;
  };
  const level = (d: number): boolean => {
    ws();
    if (s[i] !== open) return false;
    i++;
    ws();
    let n = 0;
    if (s[i] === close) {
      i++;
    } else {
      for (;;) {
        ws();
        if (s[i] === open) {
          if (leaf !== -1 && d + 1 > leaf) return false; // a sub-array where scalars were
          if (!level(d + 1)) return false;
        } else {
          if (leaf === -1) leaf = d;
          else if (leaf !== d) return false; // ragged nesting
          if (!element()) return false;
        }
        n++;
        ws();
        if (s[i] === ",") {
          i++;
          continue;
        }
        if (s[i] === close) {
          i++;
          break;
        }
        return false;
      }
    }
    if (shape[d] === undefined) shape[d] = n;
    else if (shape[d] !== n) return false;
    return true;
  };
  ok = level(0);
  ws();
  if (!ok || i !== s.length) return undefined;
  for (let d = 0; d < shape.length; d++) if (shape[d] === undefined) return undefined;
  if (values.length === 0) return DoubleArray.empty(dims ?? Math.max(1, shape.length));
  if (dims !== undefined && shape.length !== dims) return null;
  return new DoubleArray(shape, Float64Array.from(values));
}
