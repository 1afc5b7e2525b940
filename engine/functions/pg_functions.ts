/**
 * The PostgreSQL catalog functions drivers and psql call (spec/protocols.md §12.12):
 * format_type, pg_get_expr, pg_table_is_visible, has_*_privilege, obj/col_description,
 * pg_get_userbyid, current_setting, quote_ident, pg_encoding_to_char and friends. They answer
 * for a database with one schema, no comments and no constraints. Each is registered both
 * plain and with the `pg_catalog.` prefix. Registered when server/pg loads this module.
 */
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { toBigInt } from "./_util.ts";
import { registerScalar } from "./registry.ts";
import type { BoundArg, ScalarBinding } from "./registry_types.ts";

/** Type names by OID, as PostgreSQL's format_type prints them. */
const TYPE_NAMES: Record<number, string> = {
  16: "boolean",
  17: "bytea",
  18: '"char"',
  19: "name",
  20: "bigint",
  21: "smallint",
  23: "integer",
  25: "text",
  26: "oid",
  114: "json",
  700: "real",
  701: "double precision",
  705: "unknown",
  1007: "integer[]",
  1009: "text[]",
  1016: "bigint[]",
  1022: "double precision[]",
  1042: "character",
  1043: "character varying",
  1082: "date",
  1083: "time without time zone",
  1114: "timestamp without time zone",
  1184: "timestamp with time zone",
  1186: "interval",
  1700: "numeric",
  2950: "uuid",
};

/** Values current_setting() answers (lower-case names). */
const SETTINGS: Record<string, string> = {
  search_path: '"$user", public',
  server_version: "12.3 (questdb)",
  server_version_num: "120003",
  client_encoding: "UTF8",
  server_encoding: "UTF8",
  datestyle: "ISO, MDY",
  timezone: "UTC",
  integer_datetimes: "on",
  standard_conforming_strings: "on",
  max_identifier_length: "63",
  transaction_isolation: "read committed",
  default_transaction_isolation: "read committed",
  transaction_read_only: "off",
  lc_collate: "C",
  lc_ctype: "C",
  is_superuser: "on",
  application_name: "QuestDB",
  statement_timeout: "0",
  extra_float_digits: "3",
  intervalstyle: "postgres",
  bytea_output: "hex",
};

/** Registers `name` and `pg_catalog.name` with the same binding rule. */
function define(name: string, bind: (args: BoundArg[]) => ScalarBinding | string): void {
  registerScalar({ name, bind });
  registerScalar({ name: "pg_catalog." + name, bind });
}

/** A function of `min`..`max` arguments of any type answering a constant. */
function constant(name: string, min: number, max: number, returns: ColumnType, value: Value): void {
  define(name, (args) =>
    args.length < min || args.length > max ? `wrong number of arguments for ${name}` : { returns, eval: () => value }
  );
}

function needsQuotes(s: string): boolean {
  return !/^[a-z_][a-z0-9_$]*$/.test(s);
}

function registerAll(): void {
  define("format_type", (args) => {
    if (args.length !== 2) return "format_type expects (type oid, typmod)";
    return {
      returns: T.STRING,
      eval: ([oid, mod]) => {
        if (oid === null) return null;
        const name = TYPE_NAMES[Number(toBigInt(oid))] ?? "???";
        const m = mod === null ? -1 : Number(toBigInt(mod));
        if (name === "character" && m > 4) return `character(${m - 4})`;
        if (name === "character varying" && m > 4) return `character varying(${m - 4})`;
        return name;
      },
    };
  });
  define("current_setting", (args) => {
    if (args.length < 1 || args.length > 2) return "current_setting expects (name [, missing_ok])";
    return { returns: T.STRING, eval: ([n]) => (n === null ? null : SETTINGS[String(n).toLowerCase()] ?? null) };
  });
  define("quote_ident", (args) => {
    if (args.length !== 1) return "quote_ident expects one argument";
    return {
      returns: T.STRING,
      eval: ([v]) => {
        if (v === null) return null;
        const s = String(v);
        return needsQuotes(s) ? '"' + s.replaceAll('"', '""') + '"' : s;
      },
    };
  });
  define("array_to_string", (args) => {
    if (args.length < 2 || args.length > 3) return "array_to_string expects (array, delimiter [, null string])";
    return { returns: T.STRING, eval: ([a]) => (a === null ? null : String(a)) };
  });
  constant("pg_get_expr", 2, 3, T.STRING, null);
  constant("pg_get_indexdef", 1, 3, T.STRING, null);
  constant("pg_get_constraintdef", 1, 2, T.STRING, null);
  constant("pg_get_partkeydef", 1, 1, T.STRING, null);
  constant("pg_get_viewdef", 1, 2, T.STRING, null);
  constant("pg_table_is_visible", 1, 1, T.BOOLEAN, true);
  constant("pg_type_is_visible", 1, 1, T.BOOLEAN, true);
  constant("pg_function_is_visible", 1, 1, T.BOOLEAN, true);
  constant("has_table_privilege", 2, 3, T.BOOLEAN, true);
  constant("has_schema_privilege", 2, 3, T.BOOLEAN, true);
  constant("has_database_privilege", 2, 3, T.BOOLEAN, true);
  constant("has_column_privilege", 3, 4, T.BOOLEAN, true);
  constant("obj_description", 1, 2, T.STRING, null);
  constant("col_description", 2, 2, T.STRING, null);
  constant("shobj_description", 2, 2, T.STRING, null);
  constant("pg_get_userbyid", 1, 1, T.STRING, "admin");
  constant("pg_encoding_to_char", 1, 1, T.STRING, "UTF8");
  constant("pg_is_in_recovery", 0, 0, T.BOOLEAN, false);
  constant("pg_relation_is_publishable", 1, 1, T.BOOLEAN, false);
  constant("pg_backend_pid", 0, 0, T.INT, 1);
  constant("pg_relation_size", 1, 2, T.LONG, 0n);
  constant("pg_total_relation_size", 1, 1, T.LONG, 0n);
  constant("current_schemas", 1, 1, T.STRING, "{public}");
  constant("txid_current", 0, 0, T.LONG, 1n);
  constant("inet_server_port", 0, 0, T.INT, 8812);
}

registerAll();
