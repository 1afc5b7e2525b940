/**
 * The PostgreSQL types the catalog describes (pg_type rows, format_type names) and the wire
 * type of each column type (spec/protocols.md §12.7, the same mapping as server/pg/pg_types.ts).
 * GUI tools and drivers join pg_attribute.atttypid and pg_proc.prorettype against pg_type and
 * cache the whole table at connect time (pgjdbc's TypeInfoCache, psqlODBC), so the set covers
 * the base types they name, each with its array type, not only the types the server sends.
 */
import type { ColumnType } from "../base/types.ts";
import type { Value } from "../base/values.ts";

export const NAMESPACE_PG_CATALOG = 11;

/** A base or pseudo type: [oid, typname, typlen, typcategory, array oid, io prefix, align, preferred]. */
type TypeSpec = [number, string, number, string, number, string, string, boolean?];

/**
 * Base and pseudo types. The io prefix names the I/O functions (`bool` gives boolin/boolout,
 * `date_` gives date_in/date_out) as PostgreSQL spells them.
 */
const BASE_TYPES: TypeSpec[] = [
  [16, "bool", 1, "B", 1000, "bool", "c", true],
  [17, "bytea", -1, "U", 1001, "bytea", "i"],
  [18, "char", 1, "Z", 1002, "char", "c"],
  [19, "name", 64, "S", 1003, "name", "c"],
  [20, "int8", 8, "N", 1016, "int8", "d"],
  [21, "int2", 2, "N", 1005, "int2", "s"],
  [22, "int2vector", -1, "A", 1006, "int2vector", "i"],
  [23, "int4", 4, "N", 1007, "int4", "i"],
  [24, "regproc", 4, "N", 1008, "regproc", "i"],
  [25, "text", -1, "S", 1009, "text", "i", true],
  [26, "oid", 4, "N", 1028, "oid", "i", true],
  [27, "tid", 6, "U", 1010, "tid", "s"],
  [28, "xid", 4, "U", 1011, "xid", "i"],
  [29, "cid", 4, "U", 1012, "cid", "i"],
  [30, "oidvector", -1, "A", 1013, "oidvector", "i"],
  [114, "json", -1, "U", 199, "json_", "i"],
  [142, "xml", -1, "U", 143, "xml_", "i"],
  [600, "point", 16, "G", 1017, "point_", "d"],
  [700, "float4", 4, "N", 1021, "float4", "i"],
  [701, "float8", 8, "N", 1022, "float8", "d", true],
  [705, "unknown", -2, "X", 0, "unknown", "c"],
  [869, "inet", -1, "I", 1041, "inet_", "i", true],
  [1033, "aclitem", 12, "U", 1034, "aclitem", "i"],
  [1042, "bpchar", -1, "S", 1014, "bpchar", "i"],
  [1043, "varchar", -1, "S", 1015, "varchar", "i"],
  [1082, "date", 4, "D", 1182, "date_", "i"],
  [1083, "time", 8, "D", 1183, "time_", "d"],
  [1114, "timestamp", 8, "D", 1115, "timestamp_", "d"],
  [1184, "timestamptz", 8, "D", 1185, "timestamptz_", "d", true],
  [1186, "interval", 16, "T", 1187, "interval_", "d", true],
  [1266, "timetz", 12, "D", 1270, "timetz_", "d"],
  [1560, "bit", -1, "V", 1561, "bit_", "i"],
  [1562, "varbit", -1, "V", 1563, "varbit_", "i", true],
  [1700, "numeric", -1, "N", 1231, "numeric_", "i"],
  [2202, "regprocedure", 4, "N", 2207, "regprocedure", "i"],
  [2205, "regclass", 4, "N", 2210, "regclass", "i"],
  [2206, "regtype", 4, "N", 2211, "regtype", "i"],
  [2249, "record", -1, "P", 2287, "record_", "d"],
  [2275, "cstring", -2, "P", 1263, "cstring_", "c"],
  [2276, "any", 4, "P", 0, "any_", "i"],
  [2277, "anyarray", -1, "P", 0, "anyarray_", "d"],
  [2278, "void", 4, "P", 0, "void_", "i"],
  [2283, "anyelement", 4, "P", 0, "anyelement_", "i"],
  [2950, "uuid", 16, "U", 2951, "uuid_", "c"],
  [3802, "jsonb", -1, "U", 3807, "jsonb_", "i"],
  [4089, "regnamespace", 4, "N", 4090, "regnamespace", "i"],
  [4096, "regrole", 4, "N", 4097, "regrole", "i"],
];

/** One pg_type row's worth of facts. */
export interface PgTypeInfo {
  oid: number;
  name: string;
  len: number;
  category: string;
  /** 'b' base, 'p' pseudo. */
  kind: string;
  elem: number;
  array: number;
  io: string;
  align: string;
  preferred: boolean;
}

function buildTypes(): PgTypeInfo[] {
  const out: PgTypeInfo[] = [];
  for (const [oid, name, len, category, array, io, align, preferred = false] of BASE_TYPES) {
    out.push({
      oid,
      name,
      len,
      category,
      kind: category === "P" ? "p" : "b",
      elem: 0,
      array,
      io,
      align,
      preferred,
    });
  }
  for (const base of [...out]) {
    if (base.array === 0) continue;
    out.push({
      oid: base.array,
      name: "_" + base.name,
      len: -1,
      category: "A",
      kind: "b",
      elem: base.oid,
      array: 0,
      io: "array_",
      align: base.align === "d" ? "d" : "i",
      preferred: false,
    });
  }
  return out.sort((a, b) => a.oid - b.oid);
}

export const PG_TYPES: readonly PgTypeInfo[] = buildTypes();
const BY_OID = new Map(PG_TYPES.map((t) => [t.oid, t]));

export function pgTypeByOid(oid: number): PgTypeInfo | undefined {
  return BY_OID.get(oid);
}

/** Names format_type prints where they differ from typname. */
const SQL_NAMES: Record<string, string> = {
  bool: "boolean",
  int2: "smallint",
  int4: "integer",
  int8: "bigint",
  float4: "real",
  float8: "double precision",
  varchar: "character varying",
  bpchar: "character",
  char: '"char"',
  timestamp: "timestamp without time zone",
  timestamptz: "timestamp with time zone",
  time: "time without time zone",
  timetz: "time with time zone",
  varbit: "bit varying",
};

/** PostgreSQL's format_type(oid, typmod): the SQL name, with a length for char/varchar. */
export function formatType(oid: number, typmod: number): string {
  const t = BY_OID.get(oid);
  if (!t) return "???";
  if (t.elem !== 0) return formatType(t.elem, typmod) + "[]";
  const name = SQL_NAMES[t.name] ?? t.name;
  if ((t.name === "varchar" || t.name === "bpchar") && typmod > 4) return `${name}(${typmod - 4})`;
  return name;
}

/** A regtype as it prints: format_type's name, or the oid as text when no type has it. */
export function typeName(oid: number): string {
  return BY_OID.has(oid) ? formatType(oid, -1) : String(oid);
}

/** The oid of a type named as typname (`int4`) or as format_type prints it (`integer`). */
export function typeOidByName(name: string): number | null {
  const n = name.toLowerCase().replace(/^pg_catalog\./, "").trim();
  return PG_TYPES.find((t) => t.name === n || formatType(t.oid, -1) === n)?.oid ?? null;
}

/** Collation of text-like types (100 = default), 0 for the rest. */
export function typeCollation(t: PgTypeInfo): number {
  return t.category === "S" && t.name !== "char" ? (t.name === "name" ? 950 : 100) : 0;
}

/**
 * The pg_type rows: column order of PG_TYPE_COLUMNS in pg_catalog.ts. The I/O function
 * columns are regprocs: `procOid` gives each function's pg_proc oid (0 for none, printed `-`).
 */
export function pgTypeRows(procOid: (name: string) => number | undefined): Value[][] {
  const proc = (name: string) => procOid(name) ?? 0;
  return PG_TYPES.map((t) => {
    const byval = t.len === 1 || t.len === 2 || t.len === 4 || t.len === 8;
    const fixed = t.len > 0 || t.name === "name" || t.len === -2;
    return [
      t.oid,
      t.name,
      NAMESPACE_PG_CATALOG,
      10,
      t.len,
      byval,
      t.kind,
      t.category,
      t.preferred,
      true,
      ",",
      0,
      t.elem,
      t.array,
      proc(t.io + "in"),
      proc(t.io + "out"),
      proc(t.io + "recv"),
      proc(t.io + "send"),
      0,
      0,
      0,
      t.align,
      fixed ? "p" : "x",
      false,
      0,
      -1,
      0,
      typeCollation(t),
      null,
      null,
      null,
    ];
  });
}

/** The wire type of a column: [oid, typlen, typmod] (spec/protocols.md §12.7). */
export function columnPgType(t: ColumnType): [number, number, number] {
  switch (t.tag) {
    case "BOOLEAN":
      return [16, 1, -1];
    case "BYTE":
    case "SHORT":
      return [21, 2, -1];
    case "CHAR":
      return [1042, -1, 5];
    case "INT":
      return [23, 4, -1];
    case "LONG":
      return [20, 8, -1];
    case "FLOAT":
      return [700, 4, -1];
    case "DOUBLE":
      return [701, 8, -1];
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return [1114, 8, -1];
    case "UUID":
      return [2950, 16, -1];
    case "BINARY":
      return [17, -1, -1];
    default:
      return [1043, -1, -1];
  }
}
