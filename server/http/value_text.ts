/**
 * Result values as JSON (/exec, spec/protocols.md §2.3) and CSV (/exp, §3.2) text. The text
 * of a value is always the engine's `formatValue` (§18.3); the formats differ only in which
 * types are written bare and which quoted.
 */
import { type ColumnType, formatValue, typeName, type TypeTag, type Value } from "../../engine/mod.ts";

/** Types JSON carries as bare literals (numbers and booleans); the rest are JSON strings. */
const JSON_BARE = new Set<TypeTag>(["BOOLEAN", "BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE", "ARRAY"]);
/** Types CSV writes unquoted (§3.2); the rest are quoted with `"` doubled. */
const CSV_BARE = new Set<TypeTag>([
  "BOOLEAN",
  "BYTE",
  "SHORT",
  "INT",
  "LONG",
  "FLOAT",
  "DOUBLE",
  "CHAR",
  "UUID",
  "IPV4",
  "LONG256",
]);

export function jsonCell(v: Value, t: ColumnType, quoteLargeNum: boolean): string {
  if (v === null) return t.tag === "CHAR" ? '""' : "null";
  if (t.tag === "BINARY") return "[]";
  const s = formatValue(v, t);
  if (s === null) return "null";
  if (t.tag === "LONG" && quoteLargeNum) return `"${s}"`;
  return JSON_BARE.has(t.tag) ? s : JSON.stringify(s);
}

/** A column of /exec metadata; arrays say `"type":"ARRAY","dim":n,"elemType":"DOUBLE"` (§2.2). */
export function jsonColumn(name: string, t: ColumnType): string {
  if (t.tag === "ARRAY") {
    return `{"name":${JSON.stringify(name)},"type":"ARRAY","dim":${t.dims},"elemType":"DOUBLE"}`;
  }
  return `{"name":${JSON.stringify(name)},"type":"${typeName(t)}"}`;
}

function quote(s: string): string {
  return '"' + s.replaceAll('"', '""') + '"';
}

export function csvCell(v: Value, t: ColumnType): string {
  if (v === null || t.tag === "BINARY") return "";
  const s = formatValue(v, t) ?? "";
  return CSV_BARE.has(t.tag) ? s : quote(s);
}

export function csvHeader(names: string[], delimiter: string): string {
  return names.map(quote).join(delimiter) + "\r\n";
}
