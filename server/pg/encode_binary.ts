/**
 * Result values in binary format (format code 1) as DataRow cells (spec/protocols.md §12.8):
 * big-endian integers and floats, timestamps as int64 µs since 2000-01-01, UUIDs as 16 bytes.
 * Types reported as varchar send their text bytes, which is what binary varchar is.
 */
import type { ColumnType, DoubleArray, Value } from "../../engine/mod.ts";
import { writeBinaryArray, writeBinaryNumeric } from "./pg_arrays_numeric.ts";
import type { BufferWriter } from "./buffer_writer.ts";
import { writeTextCell } from "./encode_text.ts";
import { PG_EPOCH_MICROS } from "./pg_time.ts";

/** Writes the 16 bytes of a canonical UUID string. */
function writeUuid(w: BufferWriter, uuid: string): void {
  const hex = uuid.replaceAll("-", "");
  for (let i = 0; i < 32; i += 2) w.byte(parseInt(hex.slice(i, i + 2), 16));
}

/** Writes one DataRow cell in binary format. */
export function writeBinaryCell(w: BufferWriter, v: Value, t: ColumnType): void {
  if (v === null) {
    w.int32(-1);
    return;
  }
  switch (t.tag) {
    case "BOOLEAN":
      w.int32(1).byte(v ? 1 : 0);
      return;
    case "BYTE":
    case "SHORT":
      w.int32(2).int16(v as number);
      return;
    case "INT":
      w.int32(4).int32(v as number);
      return;
    case "LONG":
      w.int32(8).int64(v as bigint);
      return;
    case "FLOAT":
      w.int32(4).float32(v as number);
      return;
    case "DOUBLE":
      w.int32(8).float64(v as number);
      return;
    case "TIMESTAMP":
      w.int32(8).int64((v as bigint) - PG_EPOCH_MICROS);
      return;
    case "TIMESTAMP_NS":
      // Floored to µs like the text form (§12.8): BigInt division truncates toward zero.
      w.int32(8).int64((v as bigint) / 1000n - ((v as bigint) % 1000n < 0n ? 1n : 0n) - PG_EPOCH_MICROS);
      return;
    case "DATE":
      w.int32(8).int64((v as bigint) * 1000n - PG_EPOCH_MICROS);
      return;
    case "UUID":
      w.int32(16);
      writeUuid(w, v as string);
      return;
    case "ARRAY":
      writeBinaryArray(w, v as DoubleArray);
      return;
    case "DECIMAL":
      writeBinaryNumeric(w, v as bigint, t.scale ?? 0);
      return;
    case "BINARY":
      w.int32((v as Uint8Array).length).bytes(v as Uint8Array);
      return;
    default:
      writeTextCell(w, v, t);
  }
}
