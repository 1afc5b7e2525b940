/**
 * COPY data in both directions, in PostgreSQL's two text formats:
 * - text: one line per row, fields split by the delimiter (tab), `\N` for NULL and backslash
 *   escapes (`\t`, `\n`, `\\`, octal, `\x..`) for the characters that would break the layout;
 * - CSV: RFC 4180 quoting, read by the engine's CSV reader (the one /imp uses); an unquoted
 *   field equal to the NULL text (empty by default) is NULL, a quoted one (`""`) is that
 *   string, which the reader tells apart by reporting which fields were quoted.
 * The reader takes CopyData chunks as they come (rows may be split anywhere, even inside a
 * UTF-8 sequence) and yields whole rows with their 1-based line numbers.
 */
import { CsvReader } from "../../engine/mod.ts";
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
    if (format.kind === "csv") {
      this.#csv = new CsvReader({ delimiter: format.delimiter, quote: format.quote });
    }
  }

  /** The rows completed by `chunk`; with `final` (CopyDone) the unterminated last line too. */
  push(chunk: Uint8Array, final = false): CopyRow[] {
    const text = this.#decoder.decode(chunk, { stream: !final });
    if (this.#ended) return [];
    return this.#csv ? this.#csvRows(text, final) : this.#textRows(text, final);
  }

  #csvRows(text: string, final: boolean): CopyRow[] {
    const out: CopyRow[] = [];
    const nullText = this.#format.nullText;
    for (const r of this.#csv!.push(text, final)) {
      const fields = r.fields.map((f, i) => (!r.quoted?.[i] && f === nullText ? null : f));
      if (fields.length === 1 && fields[0] === "\\.") {
        this.#ended = true;
        break;
      }
      if (fields.length === 1 && fields[0] === null && nullText === "") continue; // blank line
      out.push({ line: r.line, fields });
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
