/**
 * PostgreSQL type OIDs and how the dialect's column types map onto them (spec/protocols.md
 * §12.7), in both directions: result columns (RowDescription) and declared parameter types
 * (Parse, ParameterDescription).
 */
import { arrayType, catalogTypeOid, type ColumnType, decimalType, T } from "../../engine/mod.ts";
import { zoneOfType } from "./time_zone.ts";

export const OID = {
  BOOL: 16,
  BYTEA: 17,
  CHAR: 18,
  NAME: 19,
  INT8: 20,
  INT2: 21,
  INT4: 23,
  TEXT: 25,
  OID: 26,
  JSON: 114,
  FLOAT4: 700,
  FLOAT8: 701,
  UNKNOWN: 705,
  INT8_ARRAY: 1016,
  FLOAT8_ARRAY: 1022,
  BPCHAR: 1042,
  VARCHAR: 1043,
  DATE: 1082,
  TIME: 1083,
  TIMESTAMP: 1114,
  TIMESTAMPTZ: 1184,
  INTERVAL: 1186,
  NUMERIC: 1700,
  UUID: 2950,
} as const;

/** What RowDescription says about a column. */
export interface PgColumnType {
  oid: number;
  /** typlen: fixed byte size or -1 for variable width. */
  size: number;
  modifier: number;
}

const VARCHAR: PgColumnType = { oid: OID.VARCHAR, size: -1, modifier: -1 };

/** The PostgreSQL type a result column is reported as (§12.7 table). */
export function pgTypeOf(t: ColumnType): PgColumnType {
  const declared = catalogTypeOid(t); // int2vector/oidvector catalog columns, text to the engine
  if (declared !== undefined) return { oid: declared, size: -1, modifier: -1 };
  switch (t.tag) {
    case "BOOLEAN":
      return { oid: OID.BOOL, size: 1, modifier: -1 };
    case "BYTE":
    case "SHORT":
      return { oid: OID.INT2, size: 2, modifier: -1 };
    case "CHAR":
      return { oid: OID.BPCHAR, size: -1, modifier: 5 };
    case "INT":
      return { oid: OID.INT4, size: 4, modifier: -1 };
    case "LONG":
      return { oid: OID.INT8, size: 8, modifier: -1 };
    case "FLOAT":
      return { oid: OID.FLOAT4, size: 4, modifier: -1 };
    case "DOUBLE":
      return { oid: OID.FLOAT8, size: 8, modifier: -1 };
    case "TIMESTAMP":
      // A timestamptz result in the session zone (time_zone.ts withSessionZone); TIMESTAMP columns stay 1114.
      if (zoneOfType(t) !== undefined) return { oid: OID.TIMESTAMPTZ, size: 8, modifier: -1 };
      return { oid: OID.TIMESTAMP, size: 8, modifier: -1 };
    case "DATE":
    case "TIMESTAMP_NS":
      return { oid: OID.TIMESTAMP, size: 8, modifier: -1 };
    case "UUID":
      return { oid: OID.UUID, size: 16, modifier: -1 };
    case "BINARY":
      return { oid: OID.BYTEA, size: -1, modifier: -1 };
    case "ARRAY":
      // Any dimensionality: the OID does not carry it (§12.7).
      return { oid: OID.FLOAT8_ARRAY, size: -1, modifier: -1 };
    case "DECIMAL":
      return { oid: OID.NUMERIC, size: -1, modifier: -1 };
    default:
      return VARCHAR;
  }
}

/**
 * The dialect type a declared parameter OID stands for, or undefined when the OID says
 * nothing useful (0, unknown, text-like types all bind as strings).
 */
export function columnTypeOfOid(oid: number): ColumnType | undefined {
  switch (oid) {
    case OID.BOOL:
      return T.BOOLEAN;
    case OID.INT2:
      return T.SHORT;
    case OID.INT4:
    case OID.OID:
      return T.INT;
    case OID.INT8:
      return T.LONG;
    case OID.FLOAT4:
      return T.FLOAT;
    case OID.FLOAT8:
      return T.DOUBLE;
    case OID.NUMERIC:
      return decimalType(38, 10);
    case OID.FLOAT8_ARRAY:
      return arrayType(1);
    case OID.TIMESTAMP:
    case OID.TIMESTAMPTZ:
      return T.TIMESTAMP;
    case OID.DATE:
      return T.DATE;
    case OID.UUID:
      return T.UUID;
    case OID.BYTEA:
      return T.BINARY;
    case OID.BPCHAR:
    case OID.CHAR:
      return T.CHAR;
    case OID.VARCHAR:
    case OID.TEXT:
    case OID.NAME:
      return T.VARCHAR;
    default:
      return undefined;
  }
}

/** The OID a ParameterDescription reports for a parameter of dialect type `t`. */
export function paramOidOf(t: ColumnType): number {
  switch (t.tag) {
    case "DATE":
      return OID.TIMESTAMP;
    case "BINARY":
      return OID.BYTEA;
    default:
      return pgTypeOf(t).oid;
  }
}
