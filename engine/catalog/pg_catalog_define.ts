/**
 * How the pg_catalog and information_schema relations are declared: columns from a compact
 * `name:TYPE` list, and registration as meta tables under `schema.name`, and for pg_catalog
 * (always on PostgreSQL's search path) under the bare name too. information_schema is not on
 * the search path, so its `tables`, `columns`, `views` do not shadow missing user tables.
 */
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type { Storage } from "../storage/api.ts";
import { registerMetaTable } from "./meta_tables.ts";

export type Col = { name: string; type: ColumnType };
export type Rows = (storage: Storage) => Value[][];

/** Columns from `name:TYPE` specs separated by white space; a bare name is STRING. */
export function cols(spec: string): Col[] {
  return spec.trim().split(/\s+/).map((s) => {
    const [name, t = "STRING"] = s.split(":");
    return { name, type: T[t as keyof typeof T] };
  });
}

/** Names registered so far, by schema: lets pg_class list the catalog's own relations. */
export const CATALOG_RELATIONS: { schema: string; name: string; columns: Col[] }[] = [];

export function defineRelation(schema: string, name: string, columns: Col[], rows: Rows): void {
  if (schema === "pg_catalog") registerMetaTable(name, columns, (storage) => rows(storage));
  registerMetaTable(`${schema}.${name}`, columns, (storage) => rows(storage));
  CATALOG_RELATIONS.push({ schema, name, columns });
}
