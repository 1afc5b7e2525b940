/**
 * LIKE / ILIKE matching without a regex engine (spec/sql.md §7.12: `%` any run, `_` one
 * character, `\` escapes the next one, the whole value must match). A pattern translated to a
 * backtracking RegExp took time exponential in its number of `%` on a hostile value (issue
 * #24); here the pattern splits at `%` into fixed-length pieces, and since a `%` absorbs
 * anything, placing each middle piece at its leftmost occurrence is always right: the work is
 * at most value length × pattern length, and a plain piece is found with `indexOf`.
 */

/** One run of the pattern between `%` signs; `any[i]` marks a `_` at offset i. */
interface Piece {
  text: string;
  any: boolean[] | undefined;
}

/** Compiles a LIKE pattern into a whole-value matcher (UTF-16 code units, like String indexing). */
export function likeMatcher(pattern: string, caseInsensitive: boolean): (value: string) => boolean {
  const pieces = splitPattern(caseInsensitive ? pattern.toLowerCase() : pattern);
  const fold = caseInsensitive ? (v: string) => v.toLowerCase() : (v: string) => v;
  if (pieces.length === 1) {
    const only = pieces[0];
    return (v) => {
      const s = fold(v);
      return s.length === only.text.length && pieceAt(s, only, 0);
    };
  }
  const first = pieces[0], last = pieces[pieces.length - 1];
  const middle = pieces.slice(1, -1).filter((p) => p.text.length > 0);
  const fixedLength = pieces.reduce((n, p) => n + p.text.length, 0);
  return (v) => {
    const s = fold(v);
    if (s.length < fixedLength || !pieceAt(s, first, 0)) return false;
    const tailAt = s.length - last.text.length;
    if (!pieceAt(s, last, tailAt)) return false;
    let at = first.text.length;
    for (const p of middle) {
      const found = findPiece(s, p, at, tailAt);
      if (found < 0) return false;
      at = found + p.text.length;
    }
    return true;
  };
}

function splitPattern(pattern: string): Piece[] {
  const pieces: Piece[] = [];
  let text = "", any: boolean[] | undefined;
  for (let i = 0; i < pattern.length; i++) {
    let c = pattern[i];
    if (c === "\\" && i + 1 < pattern.length) c = pattern[++i];
    else if (c === "%") {
      pieces.push({ text, any });
      text = "";
      any = undefined;
      continue;
    } else if (c === "_") (any ??= [])[text.length] = true;
    text += c;
  }
  pieces.push({ text, any });
  return pieces;
}

function pieceAt(s: string, p: Piece, at: number): boolean {
  if (!p.any) return s.startsWith(p.text, at);
  const t = p.text;
  for (let k = 0; k < t.length; k++) if (!p.any[k] && s.charCodeAt(at + k) !== t.charCodeAt(k)) return false;
  return true;
}

/** Leftmost offset >= `from` where `p` lies wholly before `end`, or -1. */
function findPiece(s: string, p: Piece, from: number, end: number): number {
  const lastStart = end - p.text.length;
  if (!p.any) {
    const found = s.indexOf(p.text, from);
    return found >= 0 && found <= lastStart ? found : -1;
  }
  for (let at = from; at <= lastStart; at++) if (pieceAt(s, p, at)) return at;
  return -1;
}
