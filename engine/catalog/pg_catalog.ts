/**
 * The pg_catalog and information_schema relations PostgreSQL drivers and tools read
 * (spec/protocols.md §12.12): pg_class, pg_namespace, pg_attribute, pg_type, pg_database,
 * pg_index, pg_proc, pg_settings, pg_description, pg_roles and the empty relations psql's
 * `\d` joins against, plus information_schema.tables/columns/schemata. Each is registered
 * with and without its schema prefix. User tables live in schema `public` (oid 2200) with
 * oid 16384 + table id; their columns use the OIDs of the wire type mapping (§12.7).
 */
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type { Storage, TableMeta } from "../storage/api.ts";
import { registerMetaTable } from "./meta_tables.ts";

type Col = { name: string; type: ColumnType };
type Rows = (storage: Storage) => Value[][];

/** First oid of user tables (PostgreSQL's FirstNormalObjectId). */
export const TABLE_OID_BASE = 16384;
export const NAMESPACE_PG_CATALOG = 11;
export const NAMESPACE_PUBLIC = 2200;
export const NAMESPACE_INFORMATION_SCHEMA = 13000;

/** Columns from `name:TYPE` specs; a bare name is STRING. */
function cols(spec: string): Col[] {
  return spec.trim().split(/\s+/).map((s) => {
    const [name, t = "STRING"] = s.split(":");
    return { name, type: T[t as keyof typeof T] };
  });
}

function define(schema: string, name: string, columns: Col[], rows: Rows): void {
  registerMetaTable(name, columns, (storage) => rows(storage));
  registerMetaTable(`${schema}.${name}`, columns, (storage) => rows(storage));
}

/** The wire type of a column: [oid, typlen, typmod, type name] (spec/protocols.md §12.7). */
function pgType(t: ColumnType): [number, number, number, string] {
  switch (t.tag) {
    case "BOOLEAN":
      return [16, 1, -1, "boolean"];
    case "BYTE":
    case "SHORT":
      return [21, 2, -1, "smallint"];
    case "CHAR":
      return [1042, -1, 5, "character"];
    case "INT":
      return [23, 4, -1, "integer"];
    case "LONG":
      return [20, 8, -1, "bigint"];
    case "FLOAT":
      return [700, 4, -1, "real"];
    case "DOUBLE":
      return [701, 8, -1, "double precision"];
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return [1114, 8, -1, "timestamp without time zone"];
    case "UUID":
      return [2950, 16, -1, "uuid"];
    case "BINARY":
      return [17, -1, -1, "bytea"];
    default:
      return [1043, -1, -1, "character varying"];
  }
}

const tableOid = (m: TableMeta) => TABLE_OID_BASE + m.id;

const PG_CLASS = cols(`oid:INT relname relnamespace:INT reltype:INT reloftype:INT relowner:INT relam:INT
  relfilenode:INT reltablespace:INT relpages:INT reltuples:FLOAT relallvisible:INT reltoastrelid:INT
  relhasindex:BOOLEAN relisshared:BOOLEAN relpersistence:CHAR relkind:CHAR relnatts:SHORT relchecks:SHORT
  relhasrules:BOOLEAN relhastriggers:BOOLEAN relhassubclass:BOOLEAN relhasoids:BOOLEAN relrowsecurity:BOOLEAN
  relforcerowsecurity:BOOLEAN relispopulated:BOOLEAN relreplident:CHAR relispartition:BOOLEAN relrewrite:INT
  relfrozenxid:INT relminmxid:INT relacl reloptions relpartbound`);

function pgClassRows(storage: Storage): Value[][] {
  return storage.tables().map((m) => [
    tableOid(m), m.name, NAMESPACE_PUBLIC, 0, 0, 10, 2, tableOid(m), 0, 0, -1, 0, 0,
    false, false, "p", "r", m.columns.length, 0,
    false, false, false, false, false,
    false, true, "d", false, 0,
    0, 0, null, null, null,
  ]);
}

const PG_ATTRIBUTE = cols(`attrelid:INT attname atttypid:INT attstattarget:INT attlen:SHORT attnum:SHORT
  attndims:INT attcacheoff:INT atttypmod:INT attbyval:BOOLEAN attstorage:CHAR attalign:CHAR attnotnull:BOOLEAN
  atthasdef:BOOLEAN atthasmissing:BOOLEAN attidentity:CHAR attgenerated:CHAR attisdropped:BOOLEAN
  attislocal:BOOLEAN attinhcount:INT attcollation:INT attacl attoptions attfdwoptions attmissingval`);

function pgAttributeRows(storage: Storage): Value[][] {
  return storage.tables().flatMap((m) =>
    m.columns.map((c, i) => {
      const [oid, len, mod] = pgType(c.type);
      return [
        tableOid(m), c.name, oid, -1, len, i + 1,
        0, -1, mod, len > 0, len > 0 ? "p" : "x", len === 8 ? "d" : "i", false,
        false, false, null, null, false,
        true, 0, 0, null, null, null, null,
      ];
    })
  );
}

const PG_TYPE = cols(`oid:INT typname typnamespace:INT typowner:INT typlen:SHORT typbyval:BOOLEAN typtype:CHAR
  typcategory:CHAR typispreferred:BOOLEAN typisdefined:BOOLEAN typdelim:CHAR typrelid:INT typelem:INT
  typarray:INT typinput typoutput typreceive typsend typmodin typmodout typanalyze typalign:CHAR
  typstorage:CHAR typnotnull:BOOLEAN typbasetype:INT typtypmod:INT typndims:INT typcollation:INT
  typdefaultbin typdefault typacl`);

/** [oid, name, len, category, element oid, array oid] of the types the server speaks. */
const TYPES: [number, string, number, string, number, number][] = [
  [16, "bool", 1, "B", 0, 1000],
  [17, "bytea", -1, "U", 0, 1001],
  [18, "char", 1, "S", 0, 1002],
  [19, "name", 64, "S", 0, 1003],
  [20, "int8", 8, "N", 0, 1016],
  [21, "int2", 2, "N", 0, 1005],
  [23, "int4", 4, "N", 0, 1007],
  [25, "text", -1, "S", 0, 1009],
  [26, "oid", 4, "N", 0, 1028],
  [700, "float4", 4, "N", 0, 1021],
  [701, "float8", 8, "N", 0, 1022],
  [705, "unknown", -2, "X", 0, 0],
  [1007, "_int4", -1, "A", 23, 0],
  [1009, "_text", -1, "A", 25, 0],
  [1016, "_int8", -1, "A", 20, 0],
  [1022, "_float8", -1, "A", 701, 0],
  [1042, "bpchar", -1, "S", 0, 1014],
  [1043, "varchar", -1, "S", 0, 1015],
  [1082, "date", 4, "D", 0, 1182],
  [1114, "timestamp", 8, "D", 0, 1115],
  [1184, "timestamptz", 8, "D", 0, 1185],
  [1186, "interval", 16, "T", 0, 1187],
  [1700, "numeric", -1, "N", 0, 1231],
  [2950, "uuid", 16, "U", 0, 2951],
];

function pgTypeRows(): Value[][] {
  return TYPES.map(([oid, name, len, category, elem, array]) => {
    const byval = len > 0 && len <= 8;
    const io = category === "A" ? "array" : name;
    return [
      oid, name, NAMESPACE_PG_CATALOG, 10, len, byval, category === "A" ? "b" : "b",
      category, false, true, ",", 0, elem,
      array, io + "_in", io + "_out", io + "_recv", io + "_send", "-", "-", "-", len === 8 ? "d" : "i",
      len > 0 ? "p" : "x", false, 0, -1, 0, 0,
      null, null, null,
    ];
  });
}

const INFO_TABLES = cols(`table_catalog table_schema table_name table_type self_referencing_column_name
  reference_generation user_defined_type_catalog user_defined_type_schema user_defined_type_name
  is_insertable_into is_typed commit_action`);

const INFO_COLUMNS = cols(`table_catalog table_schema table_name column_name ordinal_position:INT
  column_default is_nullable data_type character_maximum_length:INT character_octet_length:INT
  numeric_precision:INT numeric_precision_radix:INT numeric_scale:INT datetime_precision:INT
  udt_catalog udt_schema udt_name is_identity is_generated is_updatable`);

function infoColumnRows(storage: Storage): Value[][] {
  return storage.tables().flatMap((m) =>
    m.columns.map((c, i) => {
      const [oid, , , typeName] = pgType(c.type);
      const udt = TYPES.find((t) => t[0] === oid)?.[1] ?? "varchar";
      return [
        "qdb", "public", m.name, c.name, i + 1,
        null, "YES", typeName, null, null,
        null, null, null, null,
        "qdb", "pg_catalog", udt, "NO", "NEVER", "YES",
      ];
    })
  );
}

const SETTINGS: [string, string][] = [
  ["DateStyle", "ISO, MDY"],
  ["TimeZone", "UTC"],
  ["client_encoding", "UTF8"],
  ["server_encoding", "UTF8"],
  ["integer_datetimes", "on"],
  ["standard_conforming_strings", "on"],
  ["max_identifier_length", "63"],
  ["search_path", '"$user", public'],
  ["server_version", "12.3 (questdb)"],
  ["server_version_num", "120003"],
  ["transaction_isolation", "read committed"],
  ["default_transaction_isolation", "read committed"],
];

const empty: Rows = () => [];

function registerAll(): void {
  const pg = (name: string, columns: Col[], rows: Rows) => define("pg_catalog", name, columns, rows);
  pg("pg_class", PG_CLASS, pgClassRows);
  pg("pg_attribute", PG_ATTRIBUTE, pgAttributeRows);
  pg("pg_type", PG_TYPE, pgTypeRows);
  pg("pg_namespace", cols("oid:INT nspname nspowner:INT nspacl"), () => [
    [NAMESPACE_PG_CATALOG, "pg_catalog", 10, null],
    [NAMESPACE_PUBLIC, "public", 10, null],
    [NAMESPACE_INFORMATION_SCHEMA, "information_schema", 10, null],
  ]);
  pg(
    "pg_database",
    cols(`oid:INT datname datdba:INT encoding:INT datcollate datctype datistemplate:BOOLEAN
      datallowconn:BOOLEAN datconnlimit:INT datlastsysoid:INT dattablespace:INT datacl`),
    () => [[1, "qdb", 10, 6, "C", "C", false, true, -1, 0, 1663, null]],
  );
  pg(
    "pg_roles",
    cols(`oid:INT rolname rolsuper:BOOLEAN rolinherit:BOOLEAN rolcreaterole:BOOLEAN rolcreatedb:BOOLEAN
      rolcanlogin:BOOLEAN rolreplication:BOOLEAN rolconnlimit:INT rolpassword rolvaliduntil:TIMESTAMP
      rolbypassrls:BOOLEAN rolconfig`),
    () => [[10, "admin", true, true, true, true, true, false, -1, "********", null, true, null]],
  );
  pg("pg_am", cols("oid:INT amname amhandler amtype:CHAR"), () => [[2, "heap", "heap_tableam_handler", "t"]]);
  pg(
    "pg_settings",
    cols(`name setting unit category short_desc extra_desc context vartype source min_val max_val enumvals
      boot_val reset_val sourcefile sourceline:INT pending_restart:BOOLEAN`),
    () => SETTINGS.map(([n, v]) => [n, v, null, "", "", null, "user", "string", "default", null, null, null, v, v, null, null, false]),
  );
  pg("pg_description", cols("objoid:INT classoid:INT objsubid:INT description"), empty);
  pg("pg_shdescription", cols("objoid:INT classoid:INT description"), empty);
  pg(
    "pg_index",
    cols(`indexrelid:INT indrelid:INT indnatts:SHORT indnkeyatts:SHORT indisunique:BOOLEAN
      indisprimary:BOOLEAN indisexclusion:BOOLEAN indimmediate:BOOLEAN indisclustered:BOOLEAN
      indisvalid:BOOLEAN indcheckxmin:BOOLEAN indisready:BOOLEAN indislive:BOOLEAN indisreplident:BOOLEAN
      indkey indcollation indclass indoption indexprs indpred`),
    empty,
  );
  pg(
    "pg_proc",
    cols(`oid:INT proname pronamespace:INT proowner:INT prolang:INT procost:FLOAT prorows:FLOAT
      provariadic:INT prokind:CHAR prosecdef:BOOLEAN proleakproof:BOOLEAN proisstrict:BOOLEAN
      proretset:BOOLEAN provolatile:CHAR proparallel:CHAR pronargs:SHORT pronargdefaults:SHORT
      prorettype:INT proargtypes proallargtypes proargmodes proargnames prosrc probin proacl`),
    empty,
  );
  pg("pg_attrdef", cols("oid:INT adrelid:INT adnum:SHORT adbin"), empty);
  pg("pg_inherits", cols("inhrelid:INT inhparent:INT inhseqno:INT inhdetachpending:BOOLEAN"), empty);
  pg(
    "pg_constraint",
    cols(`oid:INT conname connamespace:INT contype:CHAR condeferrable:BOOLEAN condeferred:BOOLEAN
      convalidated:BOOLEAN conrelid:INT contypid:INT conindid:INT confrelid:INT conkey confkey conbin`),
    empty,
  );
  pg("pg_collation", cols("oid:INT collname collnamespace:INT collprovider:CHAR collcollate collctype"), empty);
  pg("pg_extension", cols("oid:INT extname extowner:INT extnamespace:INT extrelocatable:BOOLEAN extversion"), empty);
  pg("pg_enum", cols("oid:INT enumtypid:INT enumsortorder:FLOAT enumlabel"), empty);
  pg("pg_range", cols("rngtypid:INT rngsubtype:INT rngcollation:INT"), empty);
  pg("pg_trigger", cols("oid:INT tgrelid:INT tgname tgenabled:CHAR tgisinternal:BOOLEAN"), empty);
  pg("pg_rewrite", cols("oid:INT rulename ev_class:INT ev_type:CHAR"), empty);
  pg("pg_policy", cols("oid:INT polname polrelid:INT polcmd:CHAR polpermissive:BOOLEAN polroles polqual polwithcheck"), empty);
  pg("pg_statistic_ext", cols("oid:INT stxrelid:INT stxname stxnamespace:INT stxowner:INT stxkeys stxkind"), empty);
  pg("pg_publication", cols("oid:INT pubname pubowner:INT puballtables:BOOLEAN pubinsert:BOOLEAN"), empty);
  pg("pg_publication_rel", cols("oid:INT prpubid:INT prrelid:INT"), empty);
  pg("pg_partitioned_table", cols("partrelid:INT partstrat:CHAR partnatts:SHORT"), empty);
  pg("pg_foreign_table", cols("ftrelid:INT ftserver:INT ftoptions"), empty);
  pg("pg_tablespace", cols("oid:INT spcname spcowner:INT spcacl spcoptions"), () => [[1663, "pg_default", 10, null, null]]);
  pg("pg_locks", cols("locktype database:INT relation:INT pid:INT mode granted:BOOLEAN"), empty);
  const info = (name: string, columns: Col[], rows: Rows) => define("information_schema", name, columns, rows);
  info("tables", INFO_TABLES, (storage) =>
    storage.tables().map((m) => ["qdb", "public", m.name, "BASE TABLE", null, null, null, null, null, "YES", "NO", null]));
  info("columns", INFO_COLUMNS, infoColumnRows);
  info("schemata", cols("catalog_name schema_name schema_owner"), () => [
    ["qdb", "public", "admin"],
    ["qdb", "pg_catalog", "admin"],
    ["qdb", "information_schema", "admin"],
  ]);
  info("character_sets", cols("character_set_catalog character_set_schema character_set_name character_repertoire"), () => [
    [null, null, "UTF8", "UCS"],
  ]);
  info("key_column_usage", cols("constraint_catalog constraint_schema constraint_name table_catalog table_schema table_name column_name ordinal_position:INT"), empty);
}

registerAll();
