/**
 * Search across tabs (spec/console.md §2.3): finds text in every open tab, and in closed ones
 * on request, with case, whole-word and regular-expression options. Pure functions, so the
 * panel only renders.
 */
export interface SearchOptions {
  caseSensitive: boolean;
  wholeWord: boolean;
  regex: boolean;
}

export interface SearchHit {
  /** 1-based line, and the match's document offsets. */
  line: number;
  from: number;
  to: number;
  /** The matched line, for display. */
  lineText: string;
}

const MAX_HITS_PER_TAB = 100;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The pattern for a query, or an error message for a bad regular expression. */
export function searchPattern(query: string, o: SearchOptions): RegExp | string | null {
  if (!query) return null;
  let source = o.regex ? query : escape(query);
  if (o.wholeWord) source = `\\b(?:${source})\\b`;
  try {
    return new RegExp(source, o.caseSensitive ? "g" : "gi");
  } catch (err) {
    return (err as Error).message;
  }
}

export function findInText(text: string, pattern: RegExp): SearchHit[] {
  const hits: SearchHit[] = [];
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  pattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = pattern.exec(text)) && hits.length < MAX_HITS_PER_TAB) {
    if (m[0].length === 0) {
      pattern.lastIndex++; // an empty match (e.g. `a*`) would loop forever
      continue;
    }
    let line = lineStarts.length - 1;
    while (lineStarts[line] > m.index) line--;
    const end = text.indexOf("\n", lineStarts[line]);
    hits.push({
      line: line + 1,
      from: m.index,
      to: m.index + m[0].length,
      lineText: text.slice(lineStarts[line], end < 0 ? text.length : end),
    });
  }
  return hits;
}
