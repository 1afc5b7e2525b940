/**
 * The PostgreSQL catalog functions drivers and psql call (spec/protocols.md §12.12):
 * format_type, pg_get_expr, pg_get_indexdef, pg_table_is_visible, has_*_privilege,
 * obj/col_description, pg_get_userbyid, current_setting, quote_ident, pg_encoding_to_char,
 * pg_get_function_result, to_regtype, btrim and friends, and pg_any_equal/pg_array_element, which
 * read catalog vectors (`v = ANY(vector)`, `v[n]` on int2vector/oidvector columns). They
 * answer for a database with one user schema (`public`), no comments, no column defaults and
 * no constraints; type facts come from engine/catalog/pg_catalog_types.ts, function facts
 * from pg_catalog_proc.ts, index facts from pg_catalog_index.ts. Each is registered both
 * plain and with the `pg_catalog.` prefix. Registered by engine/engine.ts, whichever listener asks.
 */
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { DoubleArray } from "../base/double_array.ts";
import { indexDefinitionByOid } from "../catalog/pg_catalog_index.ts";
import { NAMESPACES, relationName } from "../catalog/pg_catalog.ts";
import { functionResult } from "../catalog/pg_catalog_proc.ts";
import { formatType, typeName, typeOidByName } from "../catalog/pg_catalog_types.ts";
import { toBigInt } from "./_util.ts";
import { quoteIdent } from "./text_format.ts";
import { registerScalar } from "./registry.ts";
import type { BoundArg, ScalarBinding } from "./registry_types.ts";
import { parseTextArray } from "./pg_text_arrays.ts";
import "./pg_format.ts";

/** Values current_setting() answers (lower-case names). */
const SETTINGS: Record<string, string> = {
  search_path: '"$user", public',
  server_version: "12.3 (questdb)",
  // QuestDB's Constants.PG_COMPATIBLE_VERSION_NUM (CurrentSettingFunctionFactoryTest); the
  // wire layer's ParameterStatus and SHOW keep PostgreSQL's 120003 (spec/protocols.md).
  server_version_num: "123000",
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
  define(
    name,
    (args) =>
      args.length < min || args.length > max
        ? `wrong number of arguments for ${name}`
        : { returns, eval: () => value },
  );
}

function registerAll(): void {
  define("format_type", (args) => {
    if (args.length !== 2) return "format_type expects (type oid, typmod)";
    return {
      returns: T.STRING,
      eval: (
        [oid, mod],
      ) => (oid === null
        ? null
        : formatType(Number(toBigInt(oid)), mod === null ? -1 : Number(toBigInt(mod)))),
    };
  });
  define("current_setting", (args) => {
    if (args.length < 1 || args.length > 2) return "current_setting expects (name [, missing_ok])";
    return {
      returns: T.STRING,
      eval: ([n], ctx) => {
        if (n === null) return null;
        const key = String(n).toLowerCase();
        return key === "timezone" ? ctx.timeZone : SETTINGS[key] ?? null; // the session's (pgwire SET TIME ZONE)
      },
    };
  });
  define("quote_ident", (args) => {
    if (args.length !== 1) return "quote_ident expects one argument";
    return {
      // QuoteIdentVarcharFunctionFactory: VARCHAR in, VARCHAR out
      returns: args[0].type.tag === "VARCHAR" ? T.VARCHAR : T.STRING,
      eval: ([v]) => {
        if (v === null) return null;
        return quoteIdent(String(v));
      },
    };
  });
  define("array_to_string", (args) => {
    if (args.length < 2 || args.length > 3) {
      return "array_to_string expects (array, delimiter [, null string])";
    }
    // A text array (`{a,b}`, pg_text_arrays.ts) joins its elements, skipping NULLs unless a
    // null string is given; a catalog vector's text (`'2 3'`) is answered as it is.
    return {
      returns: T.STRING,
      eval: ([a, d, n]) => {
        if (a === null) return null;
        const s = String(a);
        if (!s.startsWith("{") || d === null) return s;
        return parseTextArray(s).flatMap((e) => e !== null ? [e] : n == null ? [] : [String(n)]).join(
          String(d),
        );
      },
    };
  });
  define("pg_any_equal", (args) => {
    if (args.length !== 2) return "pg_any_equal expects (value, array)";
    return {
      returns: T.BOOLEAN,
      // A catalog vector (text, `'1 2'`) or a DOUBLE[] (`x = ANY(ARRAY[1.0, 2.0])`).
      eval: ([v, a]) => (v === null || a === null ? null : inArray(v, a)),
    };
  });
  define("pg_all_not_equal", (args) => {
    if (args.length !== 2) return "pg_all_not_equal expects (value, array)";
    return {
      returns: T.BOOLEAN,
      // NULL differs from nothing: `NULL <> ALL ('{a}'::text[])` is false (AllNotEqStrFunctionFactoryTest
      // #testNull, #testNullConstant); an empty array holds nothing equal, so any value passes.
      eval: ([v, a]) => v !== null && a !== null && !inArray(v, a),
    };
  });
  define("pg_array_element", (args) => {
    if (args.length !== 2) return "pg_array_element expects (array, subscript)";
    return {
      returns: T.INT,
      eval: ([a, n]) => (a === null || n === null ? null : arrayElement(String(a), Number(toBigInt(n)))),
    };
  });
  define("btrim", (args) => {
    if (args.length < 1 || args.length > 2) return "btrim expects (string [, characters])";
    return {
      returns: T.STRING,
      eval: (
        [v, chars],
      ) => (v === null || chars === null
        ? null
        : trimChars(String(v), chars === undefined ? " " : String(chars))),
    };
  });
  constant("pg_get_expr", 2, 3, T.STRING, null);
  define("pg_get_indexdef", (args) => {
    if (args.length < 1 || args.length > 3) return "pg_get_indexdef expects (index oid [, column, pretty])";
    return {
      returns: T.STRING,
      eval: ([oid, col]) =>
        oid === null ? null : indexDefinitionByOid(
          Number(toBigInt(oid)),
          col === null || col === undefined ? 0 : Number(toBigInt(col)),
        ),
    };
  });
  constant("pg_get_constraintdef", 1, 2, T.STRING, null);
  constant("pg_get_partkeydef", 1, 1, T.STRING, null);
  constant("pg_get_viewdef", 1, 2, T.STRING, null);
  constant("pg_table_is_visible", 1, 1, T.BOOLEAN, true);
  constant("pg_type_is_visible", 1, 1, T.BOOLEAN, true);
  constant("pg_function_is_visible", 1, 1, T.BOOLEAN, true);
  for (
    const kind of [
      "operator",
      "opclass",
      "opfamily",
      "collation",
      "conversion",
      "ts_config",
      "ts_dict",
      "ts_parser",
      "ts_template",
      "statistics_obj",
    ]
  ) {
    constant(`pg_${kind}_is_visible`, 1, 1, T.BOOLEAN, true);
  }
  define("pg_size_pretty", (args) => {
    if (args.length !== 1) return "pg_size_pretty expects (bytes)";
    return { returns: T.STRING, eval: ([n]) => (n === null ? null : sizePretty(Number(toBigInt(n)))) };
  });
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
  define("current_schemas", (args) => {
    if (args.length !== 1) return "current_schemas expects (include_implicit boolean)";
    // Arrays print as `{a,b}`. QuestDB answers `{public}` whatever the argument
    // (CurrentSchemasFunctionFactoryTest: `current_schemas(true)[1] = 'public'`).
    return { returns: T.STRING, eval: () => "{public}" };
  });
  define("pg_get_function_result", (args) => {
    if (args.length !== 1) return "pg_get_function_result expects (function oid)";
    return {
      returns: T.STRING,
      eval: ([oid]) => (oid === null ? null : functionResult(Number(toBigInt(oid)))),
    };
  });
  // How regclass and regtype values print: the relation's name, the type as format_type says.
  define("regclassout", (args) => {
    if (args.length !== 1) return "regclassout expects (relation oid)";
    return {
      returns: T.STRING,
      eval: ([oid]) => (oid === null ? null : relationName(Number(toBigInt(oid)))),
    };
  });
  define("regtypeout", (args) => {
    if (args.length !== 1) return "regtypeout expects (type oid)";
    return { returns: T.STRING, eval: ([oid]) => (oid === null ? null : typeName(Number(toBigInt(oid)))) };
  });
  // `'public'::regnamespace` and `oid::regnamespace` (engine/sql/pg_reg_casts.ts): a schema's oid
  // by name (NULL for none, as to_regnamespace answers), a schema's name by oid (the oid as text for none).
  define("to_regnamespace", (args) => {
    if (args.length !== 1) return "to_regnamespace expects (schema name)";
    return {
      returns: T.INT,
      eval: ([name]) => (name === null ? null : NAMESPACES[String(name).replace(/^"(.*)"$/, "$1")] ?? null),
    };
  });
  define("regnamespaceout", (args) => {
    if (args.length !== 1) return "regnamespaceout expects (schema oid)";
    return {
      returns: T.STRING,
      eval: ([oid]) => {
        if (oid === null) return null;
        const n = Number(toBigInt(oid));
        return Object.entries(NAMESPACES).find(([, o]) => o === n)?.[0] ?? String(n);
      },
    };
  });
  define("to_regtype", (args) => {
    if (args.length !== 1) return "to_regtype expects (type name)";
    return { returns: T.INT, eval: ([name]) => (name === null ? null : typeOidByName(String(name))) };
  });
  constant("pg_get_function_arguments", 1, 1, T.STRING, "");
  constant("pg_get_function_identity_arguments", 1, 1, T.STRING, "");
  constant("pg_get_function_sqlbody", 1, 1, T.STRING, null);
  constant("pg_get_functiondef", 1, 1, T.STRING, null);
  constant("pg_get_triggerdef", 1, 2, T.STRING, null);
  constant("pg_get_ruledef", 1, 2, T.STRING, null);
  constant("pg_get_serial_sequence", 2, 2, T.STRING, null);
  constant("pg_get_statisticsobjdef_columns", 1, 1, T.STRING, null);
  constant("pg_tablespace_location", 1, 1, T.STRING, "");
  // When this process loaded the engine (DataGrip reads it as the server's startup time).
  constant("pg_postmaster_start_time", 0, 0, T.TIMESTAMP, BigInt(Date.now()) * 1000n);
  constant("pg_conf_load_time", 0, 0, T.TIMESTAMP, null);
  constant("has_function_privilege", 2, 3, T.BOOLEAN, true);
  constant("has_sequence_privilege", 2, 3, T.BOOLEAN, true);
  constant("has_any_column_privilege", 2, 3, T.BOOLEAN, true);
  constant("pg_has_role", 2, 3, T.BOOLEAN, true);
  constant("pg_is_other_temp_schema", 1, 1, T.BOOLEAN, false);
  constant("pg_my_temp_schema", 0, 0, T.INT, 0);
  constant("pg_database_size", 1, 1, T.LONG, 0n);
  constant("pg_table_size", 1, 1, T.LONG, 0n);
  constant("pg_indexes_size", 1, 1, T.LONG, 0n);
  constant("txid_current", 0, 0, T.LONG, 1n);
  // psqlODBC asks on connect; the wire speaks UTF8 only.
  constant("pg_client_encoding", 0, 0, T.STRING, "UTF8");
  define("age", (args) => {
    // age(xid): transactions since xid, against txid_current() (1); catalog rows' xmin is 1
    // (engine/plan/system_columns.ts). age(timestamp) answers an interval, which is no value here.
    if (args.length !== 1 || !["BYTE", "SHORT", "INT", "LONG"].includes(args[0].type.tag)) {
      return "age expects (xid): age of a timestamp is an interval, which is not supported";
    }
    return { returns: T.INT, eval: ([xid]) => (xid === null ? null : 1 - Number(xid)) };
  });
  constant("inet_server_port", 0, 0, T.INT, 8812);
}

/** PostgreSQL's pg_size_pretty: bytes up to 10 kB, then kB, MB, GB, TB rounded half up. */
function sizePretty(bytes: number): string {
  let n = bytes;
  for (const unit of ["bytes", "kB", "MB", "GB", "TB"]) {
    if (Math.abs(n) < 10 * 1024 || unit === "TB") return `${unit === "bytes" ? n : Math.round(n)} ${unit}`;
    n = n / 1024;
  }
  return `${bytes} bytes`;
}

/**
 * The elements of a catalog vector or array as text: int2vector/oidvector text is separated by
 * spaces (`'2 3'`, subscripts from 0), array text is braced (`'{1,2}'`, subscripts from 1).
 */
export function arrayElements(text: string): { items: string[]; lower: number } {
  const t = text.trim();
  if (!t.startsWith("{")) return { items: t === "" ? [] : t.split(/\s+/), lower: 0 };
  const body = t.slice(1, -1);
  return {
    items: body === "" ? [] : body.split(",").map((e) => e.trim().replace(/^"(.*)"$/, "$1")),
    lower: 1,
  };
}

/** PostgreSQL's btrim: `s` without any of `chars` at either end. */
function trimChars(s: string, chars: string): string {
  let from = 0, to = s.length;
  while (from < to && chars.includes(s[from])) from++;
  while (to > from && chars.includes(s[to - 1])) to--;
  return s.slice(from, to);
}

/** `v = ANY(array)` over a catalog vector (engine/sql/pg_spellings.ts): numbers compare by value. */
/** Whether `array` (a catalog vector's text or a DOUBLE[]) holds `v`. */
function inArray(v: Value, array: Value): boolean {
  return array instanceof DoubleArray ? array.data.some((e) => e === Number(v)) : anyEqual(v, String(array));
}

function anyEqual(v: Value, array: string): boolean {
  const { items } = arrayElements(array);
  if (typeof v === "number" || typeof v === "bigint") {
    return items.some((e) => e !== "" && Number(e) === Number(v));
  }
  return items.includes(String(v));
}

/**
 * `array[n]` of an integer vector or array; NULL out of range or when not a number. Also the
 * engine's `v[n]` on a catalog vector column (engine/plan/bind_array.ts).
 */
export function arrayElement(array: string, n: number): number | null {
  const { items, lower } = arrayElements(array);
  const e = items[n - lower];
  return e === undefined || !/^-?\d+$/.test(e) ? null : Number(e);
}

registerAll();
