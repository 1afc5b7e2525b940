/**
 * Splits editor text into statements on `;`, ignoring semicolons inside strings, quoted
 * identifiers and comments, and finds the statement at the cursor (spec/console.md §2.2).
 * Offsets are UTF-16 code units, the unit of CodeMirror, JavaScript and the server's
 * error `position`, so a server position maps back to the document by adding `from`.
 */

export interface Statement {
  /** Offset of the first character that is not whitespace or a leading comment. */
  from: number;
  /** Offset just past the last character of the statement text (before the `;`). */
  to: number;
  text: string;
}

/** Offset past the comment or quoted run starting at i, or i when there is none. */
function skipOpaque(src: string, i: number): number {
  const ch = src[i];
  if (ch === "-" && src[i + 1] === "-") {
    const nl = src.indexOf("\n", i);
    return nl < 0 ? src.length : nl + 1;
  }
  if (ch === "/" && src[i + 1] === "*") {
    const end = src.indexOf("*/", i + 2);
    return end < 0 ? src.length : end + 2;
  }
  if (ch === "'" || ch === '"') {
    let j = i + 1;
    while (j < src.length) {
      if (src[j] === ch) {
        if (src[j + 1] === ch) j += 2;
        else return j + 1;
      } else j++;
    }
    return src.length;
  }
  return i;
}

/** Start of real SQL in [from, to): skips whitespace and comments. */
function skipLeading(src: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    if (/\s/.test(src[i])) i++;
    else if ((src[i] === "-" && src[i + 1] === "-") || (src[i] === "/" && src[i + 1] === "*")) {
      i = skipOpaque(src, i);
    } else break;
  }
  return Math.min(i, to);
}

function trimEnd(src: string, from: number, to: number): number {
  while (to > from && /\s/.test(src[to - 1])) to--;
  return to;
}

export function splitStatements(src: string, base = 0): Statement[] {
  const out: Statement[] = [];
  let start = 0;
  let i = 0;
  const push = (end: number) => {
    const from = skipLeading(src, start, end);
    const to = trimEnd(src, from, end);
    if (to > from) out.push({ from: base + from, to: base + to, text: src.slice(from, to) });
  };
  while (i < src.length) {
    const next = skipOpaque(src, i);
    if (next !== i) {
      i = next;
      continue;
    }
    if (src[i] === ";") {
      push(i);
      start = i + 1;
    }
    i++;
  }
  push(src.length);
  return out;
}

function lineOf(src: string, offset: number): number {
  let n = 0;
  for (let i = 0; i < offset && i < src.length; i++) if (src.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * The statement the cursor is in; between statements, the one that ends on the cursor's
 * line, else the next one, else the last.
 */
export function statementAt(src: string, cursor: number): Statement | undefined {
  const all = splitStatements(src);
  if (all.length === 0) return undefined;
  const inside = all.find((s) => cursor >= s.from && cursor <= s.to + 1);
  if (inside) return inside;
  const line = lineOf(src, cursor);
  const before = all.filter((s) => s.to <= cursor);
  const prev = before[before.length - 1];
  if (prev && lineOf(src, prev.to) === line) return prev;
  return all.find((s) => s.from > cursor) ?? prev;
}
