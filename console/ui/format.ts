/** Text formatting shared by the grid, the log and the charts. */
import type { Cell, Column } from "../api/types.ts";

/** A duration in nanoseconds as QuestDB's console shows it: ns, µs, ms or s. */
export function formatNs(ns: number | undefined): string {
  if (ns === undefined || !Number.isFinite(ns)) return "–";
  if (ns < 1_000) return `${Math.round(ns)}ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(ns < 10_000 ? 1 : 0)}µs`;
  if (ns < 1_000_000_000) {
    return `${(ns / 1_000_000).toFixed(ns < 10_000_000 ? 2 : ns < 100_000_000 ? 1 : 0)}ms`;
  }
  return `${(ns / 1_000_000_000).toFixed(2)}s`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * A column's type as SQL spells it: REST sends arrays as `"type":"ARRAY"` with `dim` and
 * `elemType`, shown as `DOUBLE[][]` (what table_columns() and CREATE TABLE say).
 */
export function columnTypeName(column: Column): string {
  if (column.type.toUpperCase() !== "ARRAY" || !column.elemType) return column.type;
  return column.elemType + "[]".repeat(Math.max(1, column.dim ?? 1));
}

export function isArrayType(type: string): boolean {
  return /^ARRAY$|\[\]$/i.test(type);
}

/**
 * An array element as QuestDB writes a DOUBLE (Java's Double.toString, as `/exp` CSV has it):
 * `1.0`, `0.1`, `1.0E20`, `1.5E-7`. The JSON parse lost the server's spelling of `1.0`.
 */
function javaDouble(n: number): string {
  if (Object.is(n, -0)) return "-0.0";
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "NaN" : n > 0 ? "Infinity" : "-Infinity";
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e7) return Number.isInteger(n) ? `${n}.0` : String(n);
  const [mantissa, exp] = n.toExponential().split("e");
  return `${mantissa.includes(".") ? mantissa : mantissa + ".0"}E${Number(exp)}`;
}

/** A (nested) array as `[1.0,2.0]` / `[[1.0],[2.5]]`, the text `/exp` writes. */
function arrayText(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(arrayText).join(",")}]`;
  if (typeof v === "number") return javaDouble(v);
  return v === null || v === undefined ? "null" : String(v);
}

/** A cell as text: the server's exact text for strings (64-bit integers arrive quoted). */
export function cellText(v: Cell | undefined): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return arrayText(v);
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

const NUMERIC = new Set(["BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE", "LONG256", "DECIMAL"]);

export function isNumericType(type: string): boolean {
  return NUMERIC.has(type.toUpperCase().replace(/\(.*$/, ""));
}

export function isTemporalType(type: string): boolean {
  return /^(TIMESTAMP|TIMESTAMP_NS|DATE)$/i.test(type);
}

/** Rows as tab-separated text, the format spreadsheets paste best. */
export function toTsv(header: string[] | null, rows: (Cell | undefined)[][]): string {
  const clean = (s: string) => s.replace(/[\t\r\n]+/g, " ");
  const lines = rows.map((r) => r.map((c) => clean(cellText(c))).join("\t"));
  return (header ? [header.join("\t"), ...lines] : lines).join("\n");
}

export function toMarkdown(header: string[], rows: (Cell | undefined)[][]): string {
  const esc = (s: string) => s.replaceAll("|", "\\|").replace(/[\r\n]+/g, " ");
  const line = (cells: string[]) => `| ${cells.map(esc).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map((r) => line(r.map(cellText)))].join("\n");
}

/** Rows as CSV (RFC 4180): fields with a comma, quote or line break are quoted. */
export function toCsv(header: string[] | null, rows: (Cell | undefined)[][]): string {
  const field = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const line = (cells: string[]) => cells.map(field).join(",");
  const lines = rows.map((r) => line(r.map(cellText)));
  return (header ? [line(header), ...lines] : lines).join("\n");
}

/**
 * Rows as JSON: objects keyed by column name with headers, arrays without. Values stay as the
 * server sent them, so exact 64-bit integers (quoteLargeNum strings) keep every digit.
 */
export function toJson(header: string[] | null, rows: (Cell | undefined)[][]): string {
  const value = (c: Cell | undefined) => (c === undefined ? null : c);
  const out = header
    ? rows.map((r) => Object.fromEntries(header.map((h, i) => [h, value(r[i])])))
    : rows.map((r) => r.map(value));
  return JSON.stringify(out, null, 2);
}
