/**
 * pg_proc: one row per callable function of the registry, in schema pg_catalog, so psql's
 * `\df` and JDBC DatabaseMetaData.getFunctions list what the server can run. Functions here
 * resolve overloads inside their bind rule and declare no signatures, so a row carries no
 * argument types; the result type is known for functions that bind without arguments (now(),
 * pi()) and is `anyelement` for the rest.
 */
import type { Value } from "../base/values.ts";
import { functionNames, isAggregateName, lookupScalar } from "../functions/registry.ts";
import { columnPgType, formatType, NAMESPACE_PG_CATALOG, PG_TYPES } from "./pg_catalog_types.ts";

/** First oid of the function rows: above the table oids' usual range, so the two never meet. */
export const PROC_OID_BASE = 1_000_000;
const ANYELEMENT = 2283;

export const PG_PROC_COLUMNS = `oid:INT proname pronamespace:INT proowner:INT prolang:INT procost:FLOAT
  prorows:FLOAT provariadic:INT prosupport prokind:CHAR prosecdef:BOOLEAN proleakproof:BOOLEAN
  proisstrict:BOOLEAN proretset:BOOLEAN provolatile:CHAR proparallel:CHAR pronargs:SHORT
  pronargdefaults:SHORT prorettype:INT proargtypes proallargtypes proargmodes proargnames
  proargdefaults protrftypes prosrc probin proconfig proacl proisagg:BOOLEAN proiswindow:BOOLEAN`;

/** The result type oid of a function that binds with no arguments, else anyelement. */
function resultOid(name: string): number {
  const fn = lookupScalar(name);
  if (!fn) return ANYELEMENT;
  try {
    const bound = fn.bind([]);
    return typeof bound === "string" ? ANYELEMENT : columnPgType(bound.returns)[0];
  } catch {
    return ANYELEMENT;
  }
}

let cache: Value[][] | undefined;
let byName: Map<string, number> | undefined;

/**
 * The types' I/O functions pg_type names (array_recv, int4in, ...) that are not functions of
 * the registry: rows of their own, so that npgsql's `pg_proc.oid = typreceive` join finds
 * `array_recv` for the array types. Each returns its type (in, recv), cstring (out) or bytea (send).
 */
function ioFunctions(registry: Set<string>): [string, number][] {
  const out = new Map<string, number>();
  for (const t of PG_TYPES) {
    for (
      const [suffix, ret] of [["in", t.oid], ["out", CSTRING], ["recv", t.oid], ["send", BYTEA]] as const
    ) {
      const name = t.io + suffix;
      if (!registry.has(name) && !out.has(name)) out.set(name, ret);
    }
  }
  return [...out];
}
const CSTRING = 2275, BYTEA = 17;

/** The rows; computed once, since the registry is complete once the server has started. */
export function pgProcRows(): Value[][] {
  if (cache) return cache;
  const names = functionNames().filter((n) => !n.includes("."));
  const io = ioFunctions(new Set(names));
  cache = [
    ...names.map((name) => [name, isAggregateName(name) && !lookupScalar(name)] as const),
    ...io.map(([name]) => [name, false] as const),
  ].map(([name, aggregate], i) => {
    const rettype = i >= names.length ? io[i - names.length][1] : aggregate ? ANYELEMENT : resultOid(name);
    return [
      PROC_OID_BASE + i,
      name,
      NAMESPACE_PG_CATALOG,
      10,
      12,
      1,
      0,
      0,
      "-",
      aggregate ? "a" : "f",
      false,
      false,
      false,
      false,
      "v",
      "s",
      0,
      0,
      rettype,
      "",
      null,
      null,
      null,
      null,
      null,
      name,
      null,
      null,
      null,
      aggregate,
      false,
    ];
  });
  byName = new Map(cache.map((r) => [String(r[1]), Number(r[0])]));
  return cache;
}

/** The oid of the function a regproc input names (`'array_recv'`, `'pg_catalog.int4in'`), or undefined. */
export function procOid(name: string): number | undefined {
  pgProcRows();
  return byName!.get(name.trim().replace(/^pg_catalog\./i, "").replaceAll('"', ""));
}

/** How a regproc prints: the function's name, `-` for 0 (no function), the oid as text for an unknown one. */
export function procName(oid: number): string {
  if (oid === 0) return "-";
  const row = pgProcRows()[oid - PROC_OID_BASE];
  return row ? String(row[1]) : String(oid);
}

/** Result type name for pg_get_function_result(oid), or null for an unknown oid. */
export function functionResult(oid: number): string | null {
  const row = pgProcRows()[oid - PROC_OID_BASE];
  return row ? formatType(Number(row[18]), -1) : null;
}
