/**
 * Incremental CSV records for `/imp`: text goes in chunk by chunk, complete records come out
 * with their 1-based line numbers. Fields may be double-quoted (`""` is a quote inside, line
 * ends inside quotes belong to the field); `\n`, `\r\n` and `\r` end records.
 */

export interface CsvRecord {
  line: number;
  fields: string[];
  /**
   * The input ended inside a quoted field that opened on `line`: its last field holds the rest
   * of the text, so the record is malformed (the importer rejects it with this line number).
   */
  unclosed?: boolean;
}

export class CsvRecords {
  readonly #delimiter: string;
  #rest = "";
  /** Line number where `#rest` starts. */
  #line = 1;

  constructor(delimiter: string) {
    this.#delimiter = delimiter;
  }

  /** Records completed by `text`; with `final`, the text after the last line end is one too. */
  push(text: string, final: boolean): CsvRecord[] {
    const s = this.#rest + text;
    const out: CsvRecord[] = [];
    const d = this.#delimiter;
    let i = 0;
    let line = this.#line;
    let start = 0;
    let startLine = line;
    let fields: string[] = [];
    let field = "";
    let quoted = false;
    let fieldStart = 0;
    while (i < s.length) {
      const c = s[i];
      if (quoted) {
        if (c === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          if (i + 1 >= s.length && !final) break; // a quote at the chunk end may start ""
          quoted = false;
          i++;
          continue;
        }
        if (c === "\n") line++;
        field += c;
        i++;
        continue;
      }
      if (c === '"' && i === fieldStart) {
        quoted = true;
        i++;
        continue;
      }
      if (c === d) {
        fields.push(field);
        field = "";
        i++;
        fieldStart = i;
        continue;
      }
      if (c === "\n" || c === "\r") {
        if (c === "\r" && i + 1 >= s.length && !final) break; // may be \r\n
        fields.push(field);
        out.push({ line: startLine, fields });
        i += c === "\r" && s[i + 1] === "\n" ? 2 : 1;
        line++;
        start = i;
        startLine = line;
        fields = [];
        field = "";
        fieldStart = i;
        continue;
      }
      field += c;
      i++;
    }
    if (final) {
      if (start < s.length && (fields.length > 0 || field !== "" || quoted)) {
        fields.push(field);
        out.push(quoted ? { line: startLine, fields, unclosed: true } : { line: startLine, fields });
      }
      this.#rest = "";
    } else {
      this.#rest = s.slice(start);
    }
    this.#line = startLine;
    return out;
  }
}

/** The delimiter of a CSV from its first line: the most frequent of `, ; \t |`. */
export function detectDelimiter(firstLine: string): string {
  let best = ",", bestCount = 0;
  for (const d of [",", ";", "\t", "|"]) {
    const n = firstLine.split(d).length - 1;
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  }
  return best;
}
