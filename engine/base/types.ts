/**
 * Column and expression types of the dialect (spec/sql.md §2) and their reported names.
 *
 * A type is a small immutable object; compare with `sameType` or by `tag` for the
 * parameterless ones. The tag order is the implicit numeric widening order where it matters.
 */

export type TypeTag =
  | "BOOLEAN"
  | "BYTE"
  | "SHORT"
  | "CHAR"
  | "INT"
  | "LONG"
  | "FLOAT"
  | "DOUBLE"
  | "DATE"
  | "TIMESTAMP"
  | "TIMESTAMP_NS"
  | "SYMBOL"
  | "STRING"
  | "VARCHAR"
  | "UUID"
  | "IPV4"
  | "LONG256"
  | "BINARY"
  | "GEOHASH"
  | "INTERVAL"
  | "ARRAY" // N-dimensional DOUBLE array (§22); `dims` says how many dimensions
  | "DECIMAL" // exact fixed point (§23); `precision` and `scale`
  | "NULL"
  | "CURSOR"; // a table-valued argument, never a column

export interface ColumnType {
  readonly tag: TypeTag;
  /** GEOHASH precision in bits (1..60); 0 for every other type. */
  readonly geoBits: number;
  /** ARRAY: number of dimensions (1..32). */
  readonly dims?: number;
  /** DECIMAL: precision (1..76) and scale (0..precision). */
  readonly precision?: number;
  readonly scale?: number;
  /**
   * INT only: a PostgreSQL object identifier type (regclass, regtype, regproc, regrole). It is an INT
   * everywhere (comparisons, joins, arithmetic: sameType ignores it); where PostgreSQL prints
   * it (a result column, a cast to text) the engine prints the object's name (engine/plan/reg_types.ts).
   */
  readonly reg?: RegKind;
}

/** The reg* types the engine reads as INT oids that print as names. */
export type RegKind = "regclass" | "regtype" | "regproc" | "regrole";

/** Most dimensions an array type may have (§22.1). */
export const ARRAY_DIMS_MAX = 32;
/** Largest DECIMAL precision (§23.1). */
export const DECIMAL_PRECISION_MAX = 76;

const arrayTypes = new Map<number, ColumnType>();
const decimalTypes = new Map<number, ColumnType>();

/** The shared instance of `DOUBLE` with `dims` pairs of brackets. */
export function arrayType(dims: number): ColumnType {
  let t = arrayTypes.get(dims);
  if (!t) {
    t = Object.freeze({ tag: "ARRAY", geoBits: 0, dims });
    arrayTypes.set(dims, t);
  }
  return t;
}

/** The shared instance of `DECIMAL(precision, scale)`. */
export function decimalType(precision: number, scale: number): ColumnType {
  const key = precision * 100 + scale;
  let t = decimalTypes.get(key);
  if (!t) {
    t = Object.freeze({ tag: "DECIMAL", geoBits: 0, precision, scale });
    decimalTypes.set(key, t);
  }
  return t;
}

const cache = new Map<TypeTag, ColumnType>();

/** The shared instance of a parameterless type. */
export function typeOf(tag: TypeTag): ColumnType {
  let t = cache.get(tag);
  if (!t) {
    t = Object.freeze({ tag, geoBits: 0 });
    cache.set(tag, t);
  }
  return t;
}

const regTypes = new Map<RegKind, ColumnType>();

/** The shared instance of the INT that is a regclass/regtype/regproc. */
export function regType(kind: RegKind): ColumnType {
  let t = regTypes.get(kind);
  if (!t) {
    t = Object.freeze({ tag: "INT", geoBits: 0, reg: kind });
    regTypes.set(kind, t);
  }
  return t;
}

export function geohashType(bits: number): ColumnType {
  return Object.freeze({ tag: "GEOHASH", geoBits: bits });
}

export const T = {
  BOOLEAN: typeOf("BOOLEAN"),
  BYTE: typeOf("BYTE"),
  SHORT: typeOf("SHORT"),
  CHAR: typeOf("CHAR"),
  INT: typeOf("INT"),
  LONG: typeOf("LONG"),
  FLOAT: typeOf("FLOAT"),
  DOUBLE: typeOf("DOUBLE"),
  DATE: typeOf("DATE"),
  TIMESTAMP: typeOf("TIMESTAMP"),
  TIMESTAMP_NS: typeOf("TIMESTAMP_NS"),
  SYMBOL: typeOf("SYMBOL"),
  STRING: typeOf("STRING"),
  VARCHAR: typeOf("VARCHAR"),
  UUID: typeOf("UUID"),
  IPV4: typeOf("IPV4"),
  LONG256: typeOf("LONG256"),
  BINARY: typeOf("BINARY"),
  INTERVAL: typeOf("INTERVAL"),
  NULL: typeOf("NULL"),
  CURSOR: typeOf("CURSOR"),
} as const;

export function sameType(a: ColumnType, b: ColumnType): boolean {
  return a.tag === b.tag && a.geoBits === b.geoBits && a.dims === b.dims && a.precision === b.precision &&
    a.scale === b.scale;
}

/** The name clients see (spec/sql.md §2.2): REST `columns[].type`, table_columns(), errors. */
export function typeName(t: ColumnType): string {
  switch (t.tag) {
    case "IPV4":
      return "IPv4";
    case "GEOHASH":
      return t.geoBits % 5 === 0 ? `GEOHASH(${t.geoBits / 5}c)` : `GEOHASH(${t.geoBits}b)`;
    case "NULL":
      return "STRING"; // an untyped NULL result column is reported as STRING (§2.2)
    case "ARRAY":
      return "DOUBLE" + "[]".repeat(t.dims ?? 1);
    case "DECIMAL":
      return `DECIMAL(${t.precision},${t.scale})`;
    default:
      return t.tag;
  }
}

/** Parses a SQL type name (case-insensitive, with aliases); undefined when unknown. */
export function parseTypeName(name: string): ColumnType | undefined {
  const n = name.toLowerCase();
  // The reported names of the parameterised types read back (`DOUBLE[][]`, `DECIMAL(18,3)`).
  const arr = /^(?:double|float8)((?:\[\])+)$/.exec(n);
  if (arr) return arrayType(arr[1].length / 2);
  const dec = /^(?:decimal|numeric)\((\d+),\s*(\d+)\)$/.exec(n);
  if (dec) return decimalType(Number(dec[1]), Number(dec[2]));
  switch (n) {
    case "boolean":
    case "bool":
      return T.BOOLEAN;
    case "byte":
    case "tinyint":
      return T.BYTE;
    case "short":
    case "smallint":
    case "int2":
      return T.SHORT;
    case "char":
      return T.CHAR;
    case "int":
    case "integer":
    case "int4":
      return T.INT;
    case "long":
    case "bigint":
    case "int8":
      return T.LONG;
    case "float":
    case "real":
    case "float4":
      return T.FLOAT;
    case "double":
    case "float8":
      return T.DOUBLE;
    case "date":
      return T.DATE;
    case "timestamp":
    case "timestamptz":
      return T.TIMESTAMP;
    case "timestamp_ns":
      return T.TIMESTAMP_NS;
    case "symbol":
      return T.SYMBOL;
    case "string":
    case "text":
      return T.STRING;
    case "varchar":
      return T.VARCHAR;
    case "uuid":
      return T.UUID;
    case "ipv4":
      return T.IPV4;
    case "long256":
      return T.LONG256;
    case "binary":
      return T.BINARY;
    case "interval":
      return T.INTERVAL;
    default:
      return undefined;
  }
}

/** Bytes per value in fixed-width storage; 0 for variable-width types. */
export function fixedSize(t: ColumnType): number {
  switch (t.tag) {
    case "BOOLEAN":
    case "BYTE":
      return 1;
    case "SHORT":
    case "CHAR":
      return 2;
    case "INT":
    case "FLOAT":
    case "IPV4":
    case "SYMBOL":
      return 4;
    case "LONG":
    case "DOUBLE":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return 8;
    case "UUID":
      return 16;
    case "LONG256":
      return 32;
    case "GEOHASH":
      return t.geoBits <= 7 ? 1 : t.geoBits <= 15 ? 2 : t.geoBits <= 31 ? 4 : 8;
    case "DECIMAL":
      return decimalSize(t.precision ?? 18);
    default:
      return 0;
  }
}

/** Storage bytes of a DECIMAL by precision (§23.1): 1, 2, 4, 8, 16 or 32. */
export function decimalSize(precision: number): number {
  return precision <= 2
    ? 1
    : precision <= 4
    ? 2
    : precision <= 9
    ? 4
    : precision <= 18
    ? 8
    : precision <= 38
    ? 16
    : 32;
}

export function isVarSize(t: ColumnType): boolean {
  return t.tag === "STRING" || t.tag === "VARCHAR" || t.tag === "BINARY" || t.tag === "ARRAY";
}

export function isStringLike(t: ColumnType): boolean {
  return t.tag === "STRING" || t.tag === "VARCHAR" || t.tag === "SYMBOL" || t.tag === "CHAR";
}

export function isTimestamp(t: ColumnType): boolean {
  return t.tag === "TIMESTAMP" || t.tag === "TIMESTAMP_NS";
}

const NUMERIC_RANK: Partial<Record<TypeTag, number>> = {
  BYTE: 1,
  SHORT: 2,
  INT: 3,
  LONG: 4,
  FLOAT: 5,
  DOUBLE: 6,
};

/** Rank in BYTE → SHORT → INT → LONG → FLOAT → DOUBLE; 0 when not numeric. */
export function numericRank(t: ColumnType): number {
  return NUMERIC_RANK[t.tag] ?? 0;
}

export function isNumeric(t: ColumnType): boolean {
  return numericRank(t) > 0;
}

export function isIntegral(t: ColumnType): boolean {
  const r = numericRank(t);
  return r >= 1 && r <= 4;
}

/** Types whose values are JS bigint in scalar form (64-bit integers and times). */
export function isBigIntType(t: ColumnType): boolean {
  return t.tag === "LONG" || t.tag === "DATE" || t.tag === "TIMESTAMP" || t.tag === "TIMESTAMP_NS";
}

/** BOOLEAN, BYTE and SHORT have no NULL (§2.1): NULL stores false/0. */
export function isNullable(t: ColumnType): boolean {
  return !(t.tag === "BOOLEAN" || t.tag === "BYTE" || t.tag === "SHORT");
}
