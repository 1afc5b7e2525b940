/**
 * pg_proc: one row per callable function of the registry, in schema pg_catalog, so psql's
 * `\df` and JDBC DatabaseMetaData.getFunctions list what the server can run. Functions here
 * resolve overloads inside their bind rule and declare no signatures, so a row carries no
 * argument types; the result type is known for functions that bind without arguments (now(),
 * pi()) and is `anyelement` for the rest.
 */
import type { Value } from "../base/values.ts";
import { functionNames, isAggregateName, lookupScalar } from "../functions/registry.ts";
import { columnPgType, formatType, NAMESPACE_PG_CATALOG } from "./pg_catalog_types.ts";

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

/** The rows; computed once, since the registry is complete once the server has started. */
export function pgProcRows(): Value[][] {
  cache ??= functionNames().filter((n) => !n.includes(".")).map((name, i) => {
    const aggregate = isAggregateName(name) && !lookupScalar(name);
    const rettype = aggregate ? ANYELEMENT : resultOid(name);
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
  return cache;
}

/** Result type name for pg_get_function_result(oid), or null for an unknown oid. */
export function functionResult(oid: number): string | null {
  const row = pgProcRows()[oid - PROC_OID_BASE];
  return row ? formatType(Number(row[18]), -1) : null;
}
