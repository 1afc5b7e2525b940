/**
 * The engine's one CSV reader, for CSV import (/imp) and pgwire `COPY ... FROM STDIN (FORMAT
 * csv)`: text goes in chunk by chunk (a chunk may end anywhere, even between the two quotes of
 * a doubled one or between `\r` and `\n`), complete records come out with the 1-based line
 * they start on. RFC 4180 quoting: a field that starts with the quote may hold delimiters,
 * doubled quotes and line ends; `\n`, `\r\n` and `\r` end records. Each record says which
 * fields were quoted, because COPY's NULL rule needs it: an unquoted field equal to the NULL
 * text is NULL, a quoted one (`""`) is that string.
 */

export interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  fields: string[];
  /** Per field, whether it was quoted; absent when no field of the record was. */
  quoted?: boolean[];
  /**
   * The input ended inside a quoted field that opened on `line`: its last field holds the rest
   * of the text, so the record is malformed.
   */
  unclosed?: boolean;
}

export interface CsvReaderOptions {
  delimiter: string;
  /** One character; `"` by default. */
  quote?: string;
}

export class CsvReader {
  readonly #delimiter: string;
  readonly #quote: string;
  /** Text of the record not yet complete. */
  #rest = "";
  /** Line number where `#rest` starts. */
  #line = 1;

  constructor(options: CsvReaderOptions) {
    this.#delimiter = options.delimiter;
    this.#quote = options.quote ?? '"';
  }

  /** Records completed by `text`; with `final`, the text after the last line end is one too. */
  push(text: string, final: boolean): CsvRecord[] {
    const s = this.#rest + text;
    const d = this.#delimiter, q = this.#quote;
    const out: CsvRecord[] = [];
    let i = 0, start = 0, line = this.#line, startLine = line;
    let fields: string[] = [];
    let quotedFlags: boolean[] | undefined;
    let field = "", quoted = false, wasQuoted = false, fieldStart = 0;
    const endField = () => {
      if (wasQuoted && !quotedFlags) quotedFlags = fields.map(() => false);
      quotedFlags?.push(wasQuoted);
      fields.push(field);
      field = "";
      wasQuoted = false;
    };
    const endRecord = (unclosed: boolean) => {
      endField();
      const r: CsvRecord = { line: startLine, fields };
      if (quotedFlags) r.quoted = quotedFlags;
      if (unclosed) r.unclosed = true;
      out.push(r);
      fields = [];
      quotedFlags = undefined;
    };
    while (i < s.length) {
      const c = s[i];
      if (quoted) {
        if (c === q) {
          if (i + 1 >= s.length && !final) break; // a quote at the chunk end may start a doubled one
          if (s[i + 1] === q) {
            field += q;
            i += 2;
            continue;
          }
          quoted = false;
          i++;
          continue;
        }
        if (c === "\n") line++;
        field += c;
        i++;
        continue;
      }
      if (c === q && i === fieldStart) {
        quoted = wasQuoted = true;
        i++;
        continue;
      }
      if (c === d) {
        endField();
        fieldStart = ++i;
        continue;
      }
      if (c === "\n" || c === "\r") {
        if (c === "\r" && i + 1 >= s.length && !final) break; // may be \r\n
        endRecord(false);
        i += c === "\r" && s[i + 1] === "\n" ? 2 : 1;
        start = fieldStart = i;
        startLine = ++line;
        continue;
      }
      field += c;
      i++;
    }
    if (final) {
      if (start < s.length) endRecord(quoted);
      this.#rest = "";
    } else this.#rest = s.slice(start);
    this.#line = startLine;
    return out;
  }
}

/** The delimiter of a CSV from its first line: the most frequent of `, ; \t |` (`,` if none). */
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
