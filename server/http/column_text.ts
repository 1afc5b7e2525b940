/**
 * A slice of one result column as /exec JSON or /exp CSV cell text, column by column: the same
 * text `jsonCell` / `csvCell` (value_text.ts) give one value at a time, from loops specialized
 * per layout (doubles, ints, longs, timestamps, symbols with their dictionary) that read the
 * vector directly instead of boxing each value. A symbol's text is quoted once per dictionary
 * key, not once per row. Other types go through the one-value functions.
 */
import {
  type ColumnType,
  formatDouble,
  formatFloat,
  formatTicks,
  INT_NULL,
  LONG_NULL,
  readValue,
  type Vector,
} from "../../engine/mod.ts";
import { csvCell, jsonCell } from "./value_text.ts";

export type CellFormat = { kind: "json"; quoteLargeNum: boolean } | { kind: "csv" };

const TICK_UNITS = { DATE: "ms", TIMESTAMP: "us", TIMESTAMP_NS: "ns" } as const;

/** Quoted symbol texts per dictionary and format (`undefined`: not computed yet). */
const symbolTexts = new WeakMap<object, Map<string, (string | undefined)[]>>();

function quoted(s: string, f: CellFormat): string {
  return f.kind === "json" ? JSON.stringify(s) : '"' + s.replaceAll('"', '""') + '"';
}

/** The cell text of rows [from, to) of `v`, appended to `out`. */
export function columnCells(
  v: Vector,
  t: ColumnType,
  from: number,
  to: number,
  f: CellFormat,
  out: string[],
): void {
  const nul = f.kind === "csv" ? "" : t.tag === "CHAR" ? '""' : "null";
  const d = v.data;
  if (t.tag === "DOUBLE" && d instanceof Float64Array) {
    for (let i = from; i < to; i++) {
      const x = d[i];
      out.push(x - x === 0 ? formatDouble(x) : nul);
    }
    return;
  }
  if (t.tag === "FLOAT" && (d instanceof Float32Array || d instanceof Float64Array)) {
    for (let i = from; i < to; i++) {
      const x = d[i];
      out.push(x - x === 0 ? formatFloat(x) : nul);
    }
    return;
  }
  // A NOT NULL column's sentinel is a number (Vector.notNull).
  if (t.tag === "INT" && d instanceof Int32Array) {
    const sentinel = v.notNull ? undefined : INT_NULL;
    for (let i = from; i < to; i++) out.push(d[i] === sentinel ? nul : String(d[i]));
    return;
  }
  if (t.tag === "LONG" && d instanceof BigInt64Array) {
    const q = f.kind === "json" && f.quoteLargeNum;
    const sentinel = v.notNull ? undefined : LONG_NULL;
    for (let i = from; i < to; i++) {
      const x = d[i];
      out.push(x === sentinel ? nul : q ? `"${x}"` : String(x));
    }
    return;
  }
  if ((t.tag === "TIMESTAMP" || t.tag === "DATE" || t.tag === "TIMESTAMP_NS") && d instanceof BigInt64Array) {
    const unit = TICK_UNITS[t.tag];
    // ISO text holds no character either format escapes. Equal neighbours (a SAMPLE BY
    // bucket's keys, a batch of one second) reuse the text just made.
    let prev: bigint | undefined, text = "";
    for (let i = from; i < to; i++) {
      const x = d[i];
      if (x !== prev) {
        prev = x;
        text = x === LONG_NULL ? nul : '"' + formatTicks(x, unit) + '"';
      }
      out.push(text);
    }
    return;
  }
  if (t.tag === "SYMBOL" && v.dict && d instanceof Int32Array) {
    const dict = v.dict;
    let byFormat = symbolTexts.get(dict);
    if (!byFormat) symbolTexts.set(dict, byFormat = new Map());
    let texts = byFormat.get(f.kind);
    if (!texts) byFormat.set(f.kind, texts = []);
    for (let i = from; i < to; i++) {
      const k = d[i];
      if (k < 0) {
        out.push(nul);
        continue;
      }
      let s = texts[k];
      if (s === undefined) {
        const text = dict.valueOf(k);
        s = texts[k] = text === null ? nul : quoted(text, f);
      }
      out.push(s);
    }
    return;
  }
  for (let i = from; i < to; i++) {
    const x = readValue(v, i);
    out.push(f.kind === "json" ? jsonCell(x, t, f.quoteLargeNum) : csvCell(x, t));
  }
}
