/**
 * QuestDB column types ↔ Parquet schema elements, as QuestDB's own encoder maps them
 * (docs/parquet.md "Types"): fixed-width non-nullable types are REQUIRED, the rest OPTIONAL
 * with NULL as a definition level.
 */
import type { SchemaElement } from "hyparquet";
import { SqlError } from "../base/errors.ts";
import type { ColumnType } from "../base/types.ts";

/**
 * The integer annotation as a converted type only: hyparquet-writer serialises the INTEGER
 * logical type's bitWidth as i32 where the Thrift IDL says i8, which strict readers (DuckDB)
 * refuse; every reader maps INT_8…UINT_16 to the same logical integer.
 */
function int(bitWidth: number, isSigned: boolean) {
  return { converted_type: `${isSigned ? "INT" : "UINT"}_${bitWidth}` as SchemaElement["converted_type"] };
}

/** The Parquet physical width a GEOHASH of `bits` is stored in (QuestDB's GeoByte…GeoLong). */
export function geohashWidth(bits: number): 8 | 16 | 32 | 64 {
  return bits <= 7 ? 8 : bits <= 15 ? 16 : bits <= 31 ? 32 : 64;
}

/** The schema element of one result column; `designated` makes a timestamp REQUIRED. */
export function schemaElementOf(name: string, t: ColumnType, designated: boolean): SchemaElement {
  const opt = { name, repetition_type: "OPTIONAL" as const };
  const req = { name, repetition_type: "REQUIRED" as const };
  switch (t.tag) {
    case "BOOLEAN":
      return { ...req, type: "BOOLEAN" };
    case "BYTE":
      return { ...req, type: "INT32", ...int(8, true) };
    case "SHORT":
      return { ...req, type: "INT32", ...int(16, true) };
    case "CHAR":
      return { ...req, type: "INT32", ...int(16, false) };
    case "INT":
    case "IPV4":
      return { ...opt, type: "INT32" };
    case "LONG":
      return { ...opt, type: "INT64" };
    case "FLOAT":
      return { ...opt, type: "FLOAT" };
    case "DOUBLE":
      return { ...opt, type: "DOUBLE" };
    case "DATE":
      return {
        ...opt,
        type: "INT64",
        converted_type: "TIMESTAMP_MILLIS",
        logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
      };
    case "TIMESTAMP":
      return {
        ...(designated ? req : opt),
        type: "INT64",
        converted_type: "TIMESTAMP_MICROS",
        logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MICROS" },
      };
    case "TIMESTAMP_NS":
      return {
        ...(designated ? req : opt),
        type: "INT64",
        logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "NANOS" },
      };
    case "SYMBOL":
    case "STRING":
    case "VARCHAR":
    case "NULL":
      return { ...opt, type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } };
    case "UUID":
      return { ...opt, type: "FIXED_LEN_BYTE_ARRAY", type_length: 16, logical_type: { type: "UUID" } };
    case "LONG256":
      return { ...opt, type: "FIXED_LEN_BYTE_ARRAY", type_length: 32 };
    case "BINARY":
      return { ...opt, type: "BYTE_ARRAY" };
    case "GEOHASH": {
      const w = geohashWidth(t.geoBits);
      return { ...opt, type: w === 64 ? "INT64" : "INT32", ...int(w, true) };
    }
    default:
      throw new SqlError(`parquet export does not support column type ${t.tag} [column=${name}]`, 0);
  }
}
