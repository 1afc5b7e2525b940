/**
 * Result values in text format (format code 0) as DataRow cells (spec/protocols.md §12.8):
 * `t`/`f`, decimal integers, shortest round-trip floats, timestamps with a space and six
 * fraction digits, raw UTF-8 strings. NULL is a length of -1.
 */
import {
  type ColumnType,
  type DoubleArray,
  formatArrayPg,
  formatValue,
  type Value,
} from "../../engine/mod.ts";
import type { BufferWriter } from "./buffer_writer.ts";
import { formatDateText, formatTimestampText } from "./pg_time.ts";
import { formatTimestamptzText, zoneOfType } from "./time_zone.ts";

/** The text of a non-null value, or null when the type has no text (BINARY). */
export function textOf(v: Value, t: ColumnType): string | null {
  switch (t.tag) {
    case "BOOLEAN":
      return v ? "t" : "f";
    case "TIMESTAMP": {
      const zone = zoneOfType(t);
      return zone === undefined ? formatTimestampText(v as bigint) : formatTimestamptzText(v as bigint, zone);
    }
    case "TIMESTAMP_NS":
      // Truncated to µs on purpose: psycopg2 cannot parse nine fraction digits (§12.8).
      return formatTimestampText((v as bigint) / 1000n - ((v as bigint) % 1000n < 0n ? 1n : 0n));
    case "DATE":
      return formatDateText(v as bigint);
    case "ARRAY":
      return formatArrayPg(v as DoubleArray); // `{1.0,2.0}`, PostgreSQL's literal (§12.8)
    default:
      // Numbers, strings, UUID, IPv4 ... read the same in Postgres text as in QuestDB's (§18.3).
      return formatValue(v, t);
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** `\x0001fe`: bytea in text format. */
export function byteaHex(bytes: Uint8Array): string {
  let s = "\\x";
  for (const b of bytes) s += HEX[b];
  return s;
}

/** Writes one DataRow cell in text format. */
export function writeTextCell(w: BufferWriter, v: Value, t: ColumnType): void {
  if (v === null) {
    w.int32(-1);
    return;
  }
  if (v instanceof Uint8Array) {
    // bytea's text form (PostgreSQL's default bytea_output=hex): `\x` and two hex digits a byte.
    w.lengthPrefixedString(byteaHex(v));
    return;
  }
  const s = textOf(v, t);
  if (s === null) w.int32(-1);
  else w.lengthPrefixedString(s);
}
