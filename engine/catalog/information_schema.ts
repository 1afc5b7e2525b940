/**
 * information_schema views (SQL standard, as PostgreSQL fills them) that BI tools and ODBC/JDBC
 * layers read instead of pg_catalog: tables, columns, schemata, routines, and the constraint
 * views, which are empty because tables here have no primary, unique or foreign keys.
 * User tables are in schema `public` of catalog `qdb`.
 */
import { type ColumnType, typeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type { Storage, TableMeta } from "../storage/api.ts";
import { type Col, cols, defineRelation, type Rows } from "./pg_catalog_define.ts";
import { pgProcRows } from "./pg_catalog_proc.ts";
import { registerMetaTable } from "./meta_tables.ts";
import { columnPgType, formatType, pgTypeByOid } from "./pg_catalog_types.ts";

export const CATALOG_NAME = "qdb";

const TABLES = cols(`table_catalog table_schema table_name table_type self_referencing_column_name
  reference_generation user_defined_type_catalog user_defined_type_schema user_defined_type_name
  is_insertable_into is_typed commit_action`);

const COLUMNS = cols(`table_catalog table_schema table_name column_name ordinal_position:INT
  column_default is_nullable data_type character_maximum_length:INT character_octet_length:INT
  numeric_precision:INT numeric_precision_radix:INT numeric_scale:INT datetime_precision:INT
  interval_type interval_precision:INT character_set_catalog character_set_schema character_set_name
  collation_catalog collation_schema collation_name domain_catalog domain_schema domain_name
  udt_catalog udt_schema udt_name scope_catalog scope_schema scope_name maximum_cardinality:INT
  dtd_identifier is_self_referencing is_identity identity_generation identity_start identity_increment
  identity_maximum identity_minimum identity_cycle is_generated generation_expression is_updatable`);

/** Binary precision of the numeric types, as information_schema.columns reports it. */
const PRECISION: Record<string, number> = { int2: 16, int4: 32, int8: 64, float4: 24, float8: 53 };

/** The designated timestamp is the one column that cannot hold NULL. */
export function isNotNull(m: TableMeta, column: number): boolean {
  return column === m.timestampIndex || m.columns[column]?.notNull === true;
}

function columnRows(storage: Storage): Value[][] {
  return storage.tables().flatMap((m) =>
    m.columns.map((c, i) => {
      const [oid, , typmod] = columnPgType(c.type);
      const udt = pgTypeByOid(oid)?.name ?? "varchar";
      const precision = PRECISION[udt] ?? null;
      const text = udt === "varchar" || udt === "bpchar";
      return [
        CATALOG_NAME,
        "public",
        m.name,
        c.name,
        i + 1,
        null,
        isNotNull(m, i) ? "NO" : "YES",
        formatType(oid, -1),
        udt === "bpchar" ? typmod - 4 : null,
        text ? 1073741824 : null,
        precision,
        precision === null ? null : 2,
        udt.startsWith("int") ? 0 : null,
        udt === "timestamp" ? 6 : null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        CATALOG_NAME,
        "pg_catalog",
        udt,
        null,
        null,
        null,
        null,
        String(i + 1),
        "NO",
        "NO",
        null,
        null,
        null,
        null,
        null,
        "NO",
        "NEVER",
        null,
        "YES",
      ];
    })
  );
}

/**
 * QuestDB's own `information_schema.tables()` and `information_schema.columns()`: called as
 * functions they answer in QuestDB's shape (BOOLEAN is_insertable_into / is_typed; eight column
 * columns, 0-based ordinal_position, is_nullable `yes`), while the relations without parentheses
 * keep the standard's, which PostgreSQL tools read (InformationSchemaTablesFunctionFactoryTest,
 * InformationSchemaColumnsFunctionFactoryTest).
 */
function registerQuestDbForms(): void {
  const tables = cols(`table_catalog table_schema table_name table_type self_referencing_column_name
    reference_generation user_defined_type_catalog user_defined_type_schema user_defined_type_name
    is_insertable_into:BOOLEAN is_typed:BOOLEAN commit_action`);
  registerMetaTable(
    "information_schema.tables()",
    tables,
    (storage) =>
      storage.tables().map((
        m,
      ) => [CATALOG_NAME, "public", m.name, "BASE TABLE", null, null, null, null, null, true, false, null]),
  );
  const columns = cols(
    "table_catalog table_schema table_name column_name ordinal_position:INT column_default is_nullable data_type",
  );
  const columnRowsAs = (dataType: (t: ColumnType) => string) => (storage: Storage) =>
    storage.tables().flatMap((m) =>
      m.columns.map((c, i) => [CATALOG_NAME, "public", m.name, c.name, i, null, "yes", dataType(c.type)])
    );
  registerMetaTable(
    "information_schema.columns()",
    columns,
    columnRowsAs((t) => formatType(columnPgType(t)[0], -1)),
  );
  // The same rows with QuestDB's type names (InformationSchemaQuestDBColumnsFunctionFactoryTest).
  registerMetaTable("information_schema.questdb_columns", columns, columnRowsAs(typeName));
}

const ROUTINES = cols(`specific_catalog specific_schema specific_name routine_catalog routine_schema
  routine_name routine_type module_catalog module_schema module_name udt_catalog udt_schema udt_name
  data_type type_udt_catalog type_udt_schema type_udt_name routine_body routine_definition external_name
  external_language parameter_style is_deterministic sql_data_access is_null_call`);

function routineRows(): Value[][] {
  return pgProcRows().filter((p) => p[9] === "f").map((p) => {
    const ret = Number(p[18]);
    return [
      CATALOG_NAME,
      "pg_catalog",
      `${p[1]}_${p[0]}`,
      CATALOG_NAME,
      "pg_catalog",
      p[1],
      "FUNCTION",
      null,
      null,
      null,
      null,
      null,
      null,
      formatType(ret, -1),
      CATALOG_NAME,
      "pg_catalog",
      pgTypeByOid(ret)?.name ?? null,
      "EXTERNAL",
      p[1],
      p[1],
      "C",
      "GENERAL",
      "NO",
      "MODIFIES",
      "NO",
    ];
  });
}

const empty: Rows = () => [];

export function registerInformationSchema(): void {
  const info = (name: string, columns: Col[], rows: Rows) =>
    defineRelation("information_schema", name, columns, rows);
  info(
    "tables",
    TABLES,
    (storage) =>
      storage.tables().map((
        m,
      ) => [CATALOG_NAME, "public", m.name, "BASE TABLE", null, null, null, null, null, "YES", "NO", null]),
  );
  info("columns", COLUMNS, columnRows);
  registerQuestDbForms();
  info(
    "schemata",
    cols(`catalog_name schema_name schema_owner default_character_set_catalog
    default_character_set_schema default_character_set_name sql_path`),
    () =>
      ["public", "pg_catalog", "information_schema"].map((
        s,
      ) => [CATALOG_NAME, s, "admin", null, null, null, null]),
  );
  info("routines", ROUTINES, routineRows);
  info(
    "character_sets",
    cols("character_set_catalog character_set_schema character_set_name character_repertoire"),
    () => [
      [null, null, "UTF8", "UCS"],
    ],
  );
  info("enabled_roles", cols("role_name"), () => [["admin"]]);
  info(
    "table_constraints",
    cols(`constraint_catalog constraint_schema constraint_name table_catalog table_schema table_name
      constraint_type is_deferrable initially_deferred enforced nulls_distinct`),
    empty,
  );
  info(
    "key_column_usage",
    cols(`constraint_catalog constraint_schema constraint_name table_catalog table_schema table_name
      column_name ordinal_position:INT position_in_unique_constraint:INT`),
    empty,
  );
  info(
    "referential_constraints",
    cols(`constraint_catalog constraint_schema constraint_name unique_constraint_catalog
      unique_constraint_schema unique_constraint_name match_option update_rule delete_rule`),
    empty,
  );
  info(
    "constraint_column_usage",
    cols(
      "table_catalog table_schema table_name column_name constraint_catalog constraint_schema constraint_name",
    ),
    empty,
  );
  info("check_constraints", cols("constraint_catalog constraint_schema constraint_name check_clause"), empty);
  info(
    "views",
    cols(`table_catalog table_schema table_name view_definition check_option is_updatable is_insertable_into
      is_trigger_updatable is_trigger_deletable is_trigger_insertable_into`),
    empty,
  );
  info(
    "parameters",
    cols(`specific_catalog specific_schema specific_name ordinal_position:INT parameter_mode parameter_name
      data_type udt_name`),
    empty,
  );
  info(
    "sequences",
    cols("sequence_catalog sequence_schema sequence_name data_type start_value increment"),
    empty,
  );
  info(
    "triggers",
    cols("trigger_catalog trigger_schema trigger_name event_manipulation event_object_table"),
    empty,
  );
}
