/**
 * COPY data in both directions, in PostgreSQL's two text formats:
 * - text: one line per row, fields split by the delimiter (tab), `\N` for NULL and backslash
 *   escapes (`\t`, `\n`, `\\`, octal, `\x..`) for the characters that would break the layout;
 * - CSV: RFC 4180 quoting; an unquoted field equal to the NULL text (empty by default) is
 *   NULL, a quoted one (`""`) is that string — which is why this has its own CSV reader
 *   rather than /imp's, which cannot tell the two apart.
 * The reader takes CopyData chunks as they come (rows may be split anywhere, even inside a
 * UTF-8 sequence) and yields whole rows with their 1-based line numbers.
 */
import type { CopyFormat } from "./copy_statement.ts";

/** One row of COPY input: fields, `null` for NULL. */
export interface CopyRow {
  line: number;
  fields: (string | null)[];
}

export class CopyRowReader {
  readonly #format: CopyFormat;
  readonly #decoder = new TextDecoder("utf-8", { fatal: false });
  readonly #csv: CsvReader | undefined;
  #rest = "";
  #line = 1;
  /** `\.` was seen: the rest of the input is ignored. */
  #ended = false;

  constructor(format: CopyFormat) {
    this.#format = format;
    if (format.kind === "csv") this.#csv = new CsvReader(format);
  }

  /** The rows completed by `chunk`; with `final` (CopyDone) the unterminated last line too. */
  push(chunk: Uint8Array, final = false): CopyRow[] {
    const text = this.#decoder.decode(chunk, { stream: !final });
    if (this.#ended) return [];
    return this.#csv ? this.#csvRows(text, final) : this.#textRows(text, final);
  }

  #csvRows(text: string, final: boolean): CopyRow[] {
    const out: CopyRow[] = [];
    for (const r of this.#csv!.push(text, final)) {
      if (r.fields.length === 1 && r.fields[0] === "\\.") {
        this.#ended = true;
        break;
      }
      if (r.fields.length === 1 && r.fields[0] === null && this.#format.nullText === "") continue; // blank line
      out.push(r);
    }
    return out;
  }

  #textRows(text: string, final: boolean): CopyRow[] {
    const s = this.#rest + text;
    const out: CopyRow[] = [];
    let start = 0;
    while (start < s.length) {
      let nl = s.indexOf("\n", start);
      if (nl < 0) {
        if (!final) break;
        nl = s.length;
      }
      let line = s.slice(start, nl);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      start = nl + 1;
      const number = this.#line++;
      if (line === "\\.") {
        this.#ended = true;
        break;
      }
      if (line === "") continue;
      out.push({ line: number, fields: splitTextLine(line, this.#format) });
    }
    this.#rest = start < s.length ? s.slice(start) : "";
    return out;
  }
}

/**
 * Incremental CSV: text in chunk by chunk, complete records out with the line they start on.
 * Quoted fields may hold delimiters, doubled quotes and line ends.
 */
class CsvReader {
  readonly #format: CopyFormat;
  #rest = "";
  #line = 1;

  constructor(format: CopyFormat) {
    this.#format = format;
  }

  push(text: string, final: boolean): CopyRow[] {
    const s = this.#rest + text;
    const { delimiter: d, quote: q, nullText } = this.#format;
    const out: CopyRow[] = [];
    let i = 0, start = 0, line = this.#line, startLine = line;
    let fields: (string | null)[] = [];
    let field = "", quoted = false, wasQuoted = false, fieldStart = 0;
    const endField = () => {
      fields.push(!wasQuoted && field === nullText ? null : field);
      field = "";
      wasQuoted = false;
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
        endField();
        out.push({ line: startLine, fields });
        i += c === "\r" && s[i + 1] === "\n" ? 2 : 1;
        start = fieldStart = i;
        startLine = ++line;
        fields = [];
        continue;
      }
      field += c;
      i++;
    }
    if (final) {
      if (start < s.length) {
        endField();
        out.push({ line: startLine, fields });
      }
      this.#rest = "";
    } else this.#rest = s.slice(start);
    this.#line = startLine;
    return out;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** Splits one text-format line into fields, undoing backslash escapes; `\N` alone is NULL. */
export function splitTextLine(line: string, format: CopyFormat): (string | null)[] {
  const fields: (string | null)[] = [];
  const d = format.delimiter;
  let field = "";
  let raw = ""; // the field as written, to compare with the NULL text
  for (let i = 0; i <= line.length; i++) {
    const c = line[i];
    if (i === line.length || c === d) {
      fields.push(raw === format.nullText ? null : field);
      field = "";
      raw = "";
      continue;
    }
    if (c !== "\\" || i + 1 >= line.length) {
      field += c;
      raw += c;
      continue;
    }
    const e = line[++i];
    raw += "\\" + e;
    if (SIMPLE_ESCAPES[e] !== undefined) field += SIMPLE_ESCAPES[e];
    else if (e >= "0" && e <= "7") {
      let digits = e;
      while (digits.length < 3 && line[i + 1] >= "0" && line[i + 1] <= "7") digits += line[++i];
      raw += digits.slice(1);
      field += String.fromCharCode(parseInt(digits, 8));
    } else if (e === "x" && /[0-9a-fA-F]/.test(line[i + 1] ?? "")) {
      let digits = line[++i];
      if (/[0-9a-fA-F]/.test(line[i + 1] ?? "")) digits += line[++i];
      raw += digits;
      field += String.fromCharCode(parseInt(digits, 16));
    } else field += e; // `\\`, `\<delimiter>` and any other character stand for themselves
  }
  return fields;
}

/** Escapes a value for a text-format line. */
export function escapeText(s: string, delimiter: string): string {
  let out = "";
  for (const c of s) {
    if (c === "\\") out += "\\\\";
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (c === delimiter) out += "\\" + c;
    else out += c;
  }
  return out;
}

/** Quotes a value for CSV when it must be (delimiter, quote, line end, or an empty string vs NULL). */
export function quoteCsv(s: string, format: CopyFormat): string {
  const q = format.quote;
  if (
    s === "" || s.includes(format.delimiter) || s.includes(q) || s.includes("\n") || s.includes("\r") ||
    s === "\\."
  ) {
    return q + s.replaceAll(q, q + q) + q;
  }
  return s;
}

/** One output line (with its `\n`) for the given cell texts; null is NULL. */
export function formatRow(cells: (string | null)[], format: CopyFormat): string {
  if (format.kind === "csv") {
    return cells.map((c) => (c === null ? format.nullText : quoteCsv(c, format))).join(format.delimiter) +
      "\n";
  }
  return cells.map((c) => (c === null ? format.nullText : escapeText(c, format.delimiter))).join(
    format.delimiter,
  ) +
    "\n";
}
