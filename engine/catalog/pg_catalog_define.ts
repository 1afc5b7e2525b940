/**
 * How the pg_catalog and information_schema relations are declared: columns from a compact
 * `name:TYPE` list, and registration as meta tables under `schema.name`, and for pg_catalog
 * (always on PostgreSQL's search path) under the bare name too. information_schema is not on
 * the search path, so its `tables`, `columns`, `views` do not shadow missing user tables.
 */
import { type ColumnType, regType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type { Storage } from "../storage/api.ts";
import { registerMetaTable } from "./meta_tables.ts";

export type Col = { name: string; type: ColumnType };
export type Rows = (storage: Storage) => Value[][];

/**
 * PostgreSQL's vector types, which the engine holds as text (`'2 3'`): STRING to the engine,
 * but a distinct ColumnType object each, which catalogTypeOid() maps back to the PostgreSQL
 * type oid. psqlODBC's SQLStatistics parses pg_index.indkey only when the wire says int2vector.
 */
const VECTOR_TYPES: Record<string, ColumnType> = {
  INT2VECTOR: Object.freeze({ ...T.STRING }),
  OIDVECTOR: Object.freeze({ ...T.STRING }),
  // pg_type's typinput/typreceive/...: oids of pg_proc rows that print as the function's name.
  REGPROC: regType("regproc"),
};
const VECTOR_OIDS = new Map<ColumnType, number>([[VECTOR_TYPES.INT2VECTOR, 22], [
  VECTOR_TYPES.OIDVECTOR,
  30,
]]);

/** The PostgreSQL type oid a catalog column declares beyond its engine type (int2vector), if any. */
export function catalogTypeOid(t: ColumnType): number | undefined {
  return VECTOR_OIDS.get(t);
}

/** Columns from `name:TYPE` specs separated by white space; a bare name is STRING. */
export function cols(spec: string): Col[] {
  return spec.trim().split(/\s+/).map((s) => {
    const [name, t = "STRING"] = s.split(":");
    return { name, type: VECTOR_TYPES[t] ?? T[t as keyof typeof T] };
  });
}

/** Names registered so far, by schema: lets pg_class list the catalog's own relations. */
export const CATALOG_RELATIONS: { schema: string; name: string; columns: Col[] }[] = [];

/**
 * The storage a catalog relation was last read from. Scalar functions have no storage, yet
 * pg_get_indexdef(oid) and regclassout(oid) name relations by oid: a query passing them an
 * oid has read it from pg_class or pg_index first (psql and drivers always do), which records
 * the storage here. Undefined until the first catalog read.
 */
let lastStorage: Storage | undefined;

export function catalogStorage(): Storage | undefined {
  return lastStorage;
}

export function defineRelation(schema: string, name: string, columns: Col[], rows: Rows): void {
  const read = (storage: Storage) => {
    lastStorage = storage;
    return rows(storage);
  };
  if (schema === "pg_catalog") registerMetaTable(name, columns, read, { noArgs: true });
  registerMetaTable(`${schema}.${name}`, columns, read, { noArgs: true });
  CATALOG_RELATIONS.push({ schema, name, columns });
}
