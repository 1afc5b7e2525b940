/** Result values as JSON (/exec, spec/protocols.md §2.3) and CSV (/exp, §3.2) text. */
import { type ColumnType, formatDouble, formatFloat, formatValue, type Value } from "../../engine/mod.ts";

export function jsonCell(v: Value, t: ColumnType, quoteLargeNum: boolean): string {
  if (v === null) return t.tag === "CHAR" ? '""' : "null";
  switch (t.tag) {
    case "BOOLEAN":
      return v ? "true" : "false";
    case "BYTE":
    case "SHORT":
    case "INT":
      return String(v);
    case "LONG":
      return quoteLargeNum ? `"${v}"` : String(v);
    case "FLOAT":
      return formatFloat(v as number);
    case "DOUBLE":
      return formatDouble(v as number);
    case "BINARY":
      return "[]";
    case "STRING":
    case "VARCHAR":
    case "SYMBOL":
    case "CHAR":
      return JSON.stringify(v);
    default: {
      const s = formatValue(v, t);
      return s === null ? "null" : JSON.stringify(s);
    }
  }
}

function quote(s: string): string {
  return '"' + s.replaceAll('"', '""') + '"';
}

export function csvCell(v: Value, t: ColumnType): string {
  if (v === null) return "";
  switch (t.tag) {
    case "BOOLEAN":
      return v ? "true" : "false";
    case "BYTE":
    case "SHORT":
    case "INT":
    case "LONG":
      return String(v);
    case "FLOAT":
      return formatFloat(v as number);
    case "DOUBLE":
      return formatDouble(v as number);
    case "STRING":
    case "VARCHAR":
    case "SYMBOL":
      return quote(v as string);
    case "CHAR":
      return v as string;
    case "BINARY":
      return "";
    case "UUID":
    case "IPV4":
    case "LONG256":
      return formatValue(v, t) ?? "";
    default:
      return quote(formatValue(v, t) ?? "");
  }
}

export function csvHeader(names: string[], delimiter: string): string {
  return names.map(quote).join(delimiter) + "\r\n";
}
