/**
 * The pg_catalog relations PostgreSQL drivers, psql and GUI/BI tools read (spec/protocols.md
 * §12.12): pg_class, pg_namespace, pg_attribute, pg_type, pg_proc, pg_database, pg_roles,
 * pg_settings, the pg_tables/pg_user views, symbol indexes (pg_catalog_index.ts), and the
 * relations that are empty here (constraints, comments, defaults, inheritance) with the columns tools join on. Each is
 * registered as `pg_catalog.name` and `name`; information_schema lives in
 * information_schema.ts. User tables are in schema `public` (oid 2200) with oid 16384 + table
 * id; their columns use the OIDs of the wire type mapping (§12.7).
 */
import type { Value } from "../base/values.ts";
import type { Storage, TableMeta } from "../storage/api.ts";
import { isNotNull, registerInformationSchema } from "./information_schema.ts";
import {
  CATALOG_RELATIONS,
  catalogStorage,
  type Col,
  cols,
  defineRelation,
  type Rows,
} from "./pg_catalog_define.ts";
import {
  allIndexes,
  BITMAP_AM_OID,
  PG_INDEX_COLUMNS,
  pgIndexesRows,
  pgIndexRows,
  TABLE_OID_BASE,
} from "./pg_catalog_index.ts";
import { PG_PROC_COLUMNS, pgProcRows, procOid } from "./pg_catalog_proc.ts";
import { hasBuiltIndex } from "./symbol_index.ts";
import { registerZoneRelations } from "./pg_catalog_zones.ts";
import { registerKeywordFunctions } from "./keywords.ts";
import { registerTouch } from "./touch.ts";
import { registerServerMeta } from "./server_meta.ts";
import {
  columnPgType,
  NAMESPACE_PG_CATALOG,
  pgTypeByOid,
  pgTypeRows,
  typeCollation,
} from "./pg_catalog_types.ts";

export { NAMESPACE_PG_CATALOG, TABLE_OID_BASE };
export const NAMESPACE_PUBLIC = 2200;
export const NAMESPACE_INFORMATION_SCHEMA = 13000;
/** Oids of the catalog's own relations (views here) start here, below the user range. */
const CATALOG_RELATION_OID_BASE = 12000;

/**
 * PostgreSQL's fixed oids for the relations drivers name with `'pg_class'::regclass` (as
 * pg_description.classoid); engine/plan/reg_types.ts reads those casts as the same numbers.
 */
const FIXED_RELATION_OIDS: Record<string, number> = {
  pg_class: 1259,
  pg_type: 1247,
  pg_attribute: 1249,
  pg_proc: 1255,
  pg_namespace: 2615,
  pg_database: 1262,
  pg_description: 2609,
  pg_constraint: 2606,
  pg_index: 2610,
};

const tableOid = (m: TableMeta) => TABLE_OID_BASE + m.id;

/** The schemas and their oids (pg_namespace; `::regnamespace` reads them too). */
export const NAMESPACES: Record<string, number> = {
  pg_catalog: NAMESPACE_PG_CATALOG,
  public: NAMESPACE_PUBLIC,
  information_schema: NAMESPACE_INFORMATION_SCHEMA,
};

const PG_CLASS = cols(`oid:INT relname relnamespace:INT reltype:INT reloftype:INT relowner:INT relam:INT
  relfilenode:INT reltablespace:INT relpages:INT reltuples:FLOAT relallvisible:INT reltoastrelid:INT
  relhasindex:BOOLEAN relisshared:BOOLEAN relpersistence:CHAR relkind:CHAR relnatts:SHORT relchecks:SHORT
  relhasrules:BOOLEAN relhastriggers:BOOLEAN relhassubclass:BOOLEAN relhasoids:BOOLEAN relrowsecurity:BOOLEAN
  relforcerowsecurity:BOOLEAN relispopulated:BOOLEAN relreplident:CHAR relispartition:BOOLEAN relrewrite:INT
  relfrozenxid:INT relminmxid:INT relacl reloptions relpartbound`);

function classRow(
  oid: number,
  name: string,
  namespace: number,
  kind: string,
  natts: number,
  am: number,
  hasIndex = false,
): Value[] {
  return [
    oid,
    name,
    namespace,
    0,
    0,
    10,
    am,
    oid,
    0,
    0,
    -1,
    0,
    0,
    hasIndex,
    false,
    "p",
    kind,
    natts,
    0,
    false,
    false,
    false,
    false,
    false,
    false,
    true,
    "d",
    false,
    0,
    0,
    0,
    null,
    null,
    null,
  ];
}

/** The oid pg_class gives catalog relation number `i` (in registration order). */
function catalogRelationOid(i: number): number {
  return FIXED_RELATION_OIDS[CATALOG_RELATIONS[i].name] ?? CATALOG_RELATION_OID_BASE + i;
}

/**
 * User tables (relkind r, heap am 2), their symbol indexes (relkind i, bitmap am), then the
 * catalog's relations as views (relkind v).
 */
function pgClassRows(storage: Storage): Value[][] {
  const tables = storage.tables().map((m) =>
    classRow(
      tableOid(m),
      m.name,
      NAMESPACE_PUBLIC,
      "r",
      m.columns.length,
      2,
      m.columns.some(hasBuiltIndex),
    )
  );
  const indexes = allIndexes(storage).map((ix) =>
    classRow(ix.oid, ix.name, NAMESPACE_PUBLIC, "i", 1, BITMAP_AM_OID)
  );
  const catalog = CATALOG_RELATIONS.map((r, i) =>
    classRow(catalogRelationOid(i), r.name, NAMESPACES[r.schema], "v", r.columns.length, 0)
  );
  return [...tables, ...indexes, ...catalog];
}

/**
 * The name a regclass prints as (regclassout): the relation's name, or the oid as text when no
 * relation has it (as PostgreSQL prints a dangling regclass).
 */
export function relationName(oid: number, from?: Storage): string {
  const catalog = CATALOG_RELATIONS.findIndex((_, i) => catalogRelationOid(i) === oid);
  if (catalog >= 0) return CATALOG_RELATIONS[catalog].name;
  const storage = from ?? catalogStorage();
  const row = storage ? pgClassRows(storage).find((r) => r[0] === oid) : undefined;
  return row ? String(row[1]) : String(oid);
}

/**
 * The oid of the relation a regclass input names (`'t'::regclass`, `'public."My T"'`,
 * `'pg_catalog.pg_class'`), or undefined when none has that name. Unquoted names match
 * case-insensitively (table names are case-insensitive here); a schema, when given, must match.
 */
export function relationOid(text: string, from?: Storage): number | undefined {
  const parts = [...text.trim().matchAll(/"((?:[^"]|"")*)"|([^."]+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2].trim()
  );
  if (parts.length === 0 || parts.length > 2) return undefined;
  const name = parts[parts.length - 1].toLowerCase();
  const schema = parts.length === 2 ? NAMESPACES[parts[0].toLowerCase()] : undefined;
  if (parts.length === 2 && schema === undefined) return undefined;
  const catalog = CATALOG_RELATIONS.findIndex((r) =>
    r.name === name && (schema === undefined || NAMESPACES[r.schema] === schema)
  );
  if (catalog >= 0) return catalogRelationOid(catalog);
  const storage = from ?? catalogStorage();
  const row = storage
    ? pgClassRows(storage).find((r) =>
      String(r[1]).toLowerCase() === name && (schema === undefined || r[2] === schema)
    )
    : undefined;
  return row ? Number(row[0]) : undefined;
}

const PG_ATTRIBUTE = cols(`attrelid:INT attname atttypid:INT attstattarget:INT attlen:SHORT attnum:SHORT
  attndims:INT attcacheoff:INT atttypmod:INT attbyval:BOOLEAN attstorage:CHAR attalign:CHAR attnotnull:BOOLEAN
  atthasdef:BOOLEAN atthasmissing:BOOLEAN attidentity attgenerated attisdropped:BOOLEAN
  attislocal:BOOLEAN attinhcount:INT attcollation:INT attacl attoptions attfdwoptions attmissingval`);

function attributeRow(
  relid: number,
  name: string,
  num: number,
  oid: number,
  mod: number,
  notNull: boolean,
): Value[] {
  const t = pgTypeByOid(oid);
  const len = t?.len ?? -1;
  return [
    relid,
    name,
    oid,
    -1,
    len,
    num,
    0,
    -1,
    mod,
    len === 1 || len === 2 || len === 4 || len === 8,
    len > 0 ? "p" : "x",
    t?.align ?? "i",
    notNull,
    // attidentity/attgenerated are '' (not NULL) for plain columns: psqlODBC's SQLColumns fails on NULL.
    false,
    false,
    "",
    "",
    false,
    true,
    0,
    t ? typeCollation(t) : 0,
    null,
    null,
    null,
    null,
  ];
}

function pgAttributeRows(storage: Storage): Value[][] {
  const user = storage.tables().flatMap((m) =>
    m.columns.map((c, i) => {
      const [oid, , mod] = columnPgType(c.type);
      return attributeRow(tableOid(m), c.name, i + 1, oid, mod, isNotNull(m, i));
    })
  );
  // An index has one attribute per key column, named and typed as the table's column.
  const indexes = allIndexes(storage).map((ix) => {
    const [oid, , mod] = columnPgType(ix.table.columns[ix.attnum - 1].type);
    return attributeRow(ix.oid, ix.column, 1, oid, mod, false);
  });
  const catalog = CATALOG_RELATIONS.flatMap((r, i) =>
    r.columns.map((c, k) => {
      const [oid, , mod] = columnPgType(c.type);
      return attributeRow(catalogRelationOid(i), c.name, k + 1, oid, mod, false);
    })
  );
  return [...user, ...indexes, ...catalog];
}

const PG_TYPE = cols(`oid:INT typname typnamespace:INT typowner:INT typlen:SHORT typbyval:BOOLEAN typtype:CHAR
  typcategory:CHAR typispreferred:BOOLEAN typisdefined:BOOLEAN typdelim:CHAR typrelid:INT typelem:INT
  typarray:INT typinput:REGPROC typoutput:REGPROC typreceive:REGPROC typsend:REGPROC
  typmodin:REGPROC typmodout:REGPROC typanalyze:REGPROC typalign:CHAR
  typstorage:CHAR typnotnull:BOOLEAN typbasetype:INT typtypmod:INT typndims:INT typcollation:INT
  typdefaultbin typdefault typacl`);

const SETTINGS: [string, string][] = [
  ["DateStyle", "ISO, MDY"],
  ["TimeZone", "UTC"],
  ["client_encoding", "UTF8"],
  ["server_encoding", "UTF8"],
  ["integer_datetimes", "on"],
  ["standard_conforming_strings", "on"],
  ["max_identifier_length", "63"],
  ["max_index_keys", "32"],
  ["search_path", '"$user", public'],
  ["server_version", "12.3 (questdb)"],
  ["server_version_num", "120003"],
  ["transaction_isolation", "read committed"],
  ["default_transaction_isolation", "read committed"],
  ["default_transaction_read_only", "off"],
  ["lc_collate", "C"],
  ["lc_ctype", "C"],
];

const empty: Rows = () => [];

function registerAll(): void {
  const pg = (name: string, columns: Col[], rows: Rows) => defineRelation("pg_catalog", name, columns, rows);
  pg("pg_class", PG_CLASS, pgClassRows);
  pg("pg_attribute", PG_ATTRIBUTE, pgAttributeRows);
  pg("pg_type", PG_TYPE, () => pgTypeRows(procOid));
  pg(
    "pg_namespace",
    cols("oid:INT nspname nspowner:INT nspacl"),
    () => Object.entries(NAMESPACES).map(([name, oid]) => [oid, name, 10, null]),
  );
  pg(
    "pg_database",
    cols(`oid:INT datname datdba:INT encoding:INT datcollate datctype datistemplate:BOOLEAN
      datallowconn:BOOLEAN datconnlimit:INT datlastsysoid:INT datfrozenxid:INT datminmxid:INT
      dattablespace:INT datacl`),
    () => [[1, "qdb", 10, 6, "C", "C", false, true, -1, 0, 0, 0, 1663, null]],
  );
  pg(
    "pg_roles",
    // PostgreSQL's column order, oid last, which QuestDB keeps (CatalogueQueryTest
    // #testEmptyCataloguesPreserveAllColumnMetadata).
    cols(`rolname rolsuper:BOOLEAN rolinherit:BOOLEAN rolcreaterole:BOOLEAN rolcreatedb:BOOLEAN
      rolcanlogin:BOOLEAN rolreplication:BOOLEAN rolconnlimit:INT rolpassword rolvaliduntil:TIMESTAMP
      rolbypassrls:BOOLEAN rolconfig oid:INT`),
    () => [["admin", true, true, true, true, true, false, -1, "********", null, true, null, 10]],
  );
  pg(
    "pg_user",
    cols(`usename usesysid:INT usecreatedb:BOOLEAN usesuper:BOOLEAN userepl:BOOLEAN usebypassrls:BOOLEAN
      passwd valuntil:TIMESTAMP useconfig`),
    () => [["admin", 10, true, true, true, true, "********", null, null]],
  );
  pg("pg_auth_members", cols("roleid:INT member:INT grantor:INT admin_option:BOOLEAN"), empty);
  pg("pg_am", cols("oid:INT amname amhandler amtype:CHAR"), () => [
    [2, "heap", "heap_tableam_handler", "t"],
    [403, "btree", "bthandler", "i"],
    [BITMAP_AM_OID, "bitmap", "bthandler", "i"],
  ]);
  pg(
    "pg_settings",
    cols(`name setting unit category short_desc extra_desc context vartype source min_val max_val enumvals
      boot_val reset_val sourcefile sourceline:INT pending_restart:BOOLEAN`),
    () =>
      SETTINGS.map((
        [n, v],
      ) => [
        n,
        v,
        null,
        "",
        "",
        null,
        "user",
        "string",
        "default",
        null,
        null,
        null,
        v,
        v,
        null,
        null,
        false,
      ]),
  );
  pg("pg_proc", cols(PG_PROC_COLUMNS), pgProcRows);
  pg("pg_language", cols("oid:INT lanname lanowner:INT lanispl:BOOLEAN lanpltrusted:BOOLEAN"), () => [
    [12, "internal", 10, false, false],
    [13, "c", 10, false, false],
    [14, "sql", 10, false, true],
  ]);
  pg(
    "pg_tables",
    cols(
      "schemaname tablename tableowner tablespace hasindexes:BOOLEAN hasrules:BOOLEAN hastriggers:BOOLEAN rowsecurity:BOOLEAN",
    ),
    (storage) =>
      storage.tables().map((
        m,
      ) => ["public", m.name, "admin", null, m.columns.some(hasBuiltIndex), false, false, false]),
  );
  pg("pg_views", cols("schemaname viewname viewowner definition"), empty);
  pg(
    "pg_matviews",
    cols("schemaname matviewname matviewowner tablespace hasindexes:BOOLEAN ispopulated:BOOLEAN definition"),
    empty,
  );
  // Symbol column indexes (pg_catalog_index.ts): bitmap indexes of one column each.
  pg("pg_indexes", cols("schemaname tablename indexname tablespace indexdef"), pgIndexesRows);
  pg("pg_index", cols(PG_INDEX_COLUMNS), pgIndexRows);
  pg("pg_tablespace", cols("oid:INT spcname spcowner:INT spcacl spcoptions"), () => [
    [1663, "pg_default", 10, null, null],
    [1664, "pg_global", 10, null, null],
  ]);
  pg(
    "pg_collation",
    cols(`oid:INT collname collnamespace:INT collowner:INT collprovider:CHAR
    collisdeterministic:BOOLEAN collencoding:INT collcollate collctype collversion`),
    () => [
      [100, "default", NAMESPACE_PG_CATALOG, 10, "d", true, -1, "", "", null],
      [950, "C", NAMESPACE_PG_CATALOG, 10, "c", true, -1, "C", "C", null],
      [951, "POSIX", NAMESPACE_PG_CATALOG, 10, "c", true, -1, "POSIX", "POSIX", null],
    ],
  );
  pg(
    "pg_stat_activity",
    cols(`datid:INT datname pid:INT usesysid:INT usename application_name client_addr
    backend_start:TIMESTAMP state query`),
    empty,
  );
  registerEmptyRelations(pg);
  registerInformationSchema();
}

/**
 * Relations with no rows here: tables have no constraints,
 * comments, column defaults, inheritance, triggers, rules, policies or sequences. Queries
 * over them run like any other (issue #18: correlated subqueries, ARRAY(subquery), unnest and
 * the other set-returning functions of driver catalog queries are the engine's), and so
 * answer nothing.
 */
function registerEmptyRelations(pg: (name: string, columns: Col[], rows: Rows) => void): void {
  pg("pg_description", cols("objoid:INT classoid:INT objsubid:INT description"), empty);
  pg("pg_shdescription", cols("objoid:INT classoid:INT description"), empty);
  pg("pg_attrdef", cols("oid:INT adrelid:INT adnum:SHORT adbin adsrc"), empty);
  // QuestDB's columns for these two (CatalogueQueryTest#testEmptyCataloguesPreserveAllColumnMetadata).
  pg("pg_inherits", cols("inhrelid:INT inhparent:INT inhseqno:INT"), empty);
  pg(
    "pg_constraint",
    cols(`oid:INT conname connamespace:INT contype:CHAR condeferrable:BOOLEAN condeferred:BOOLEAN
      convalidated:BOOLEAN conrelid:INT contypid:INT conindid:INT conparentid:INT confrelid:INT
      confupdtype:CHAR confdeltype:CHAR confmatchtype:CHAR conislocal:BOOLEAN coninhcount:INT
      connoinherit:BOOLEAN conkey confkey conpfeqop conppeqop conffeqop conexclop conbin`),
    empty,
  );
  pg(
    "pg_depend",
    cols("classid:INT objid:INT objsubid:INT refclassid:INT refobjid:INT refobjsubid:INT deptype:CHAR"),
    empty,
  );
  // QuestDB lists itself (PgExtensionFunctionFactoryTest).
  pg(
    "pg_extension",
    cols(
      "oid:INT extname extowner:INT extnamespace:INT extrelocatable:BOOLEAN extversion extconfig extcondition",
    ),
    () => [[1, "questdb", 1, 1, false, "[DEVELOPMENT]", null, null]],
  );
  pg("pg_enum", cols("oid:INT enumtypid:INT enumsortorder:FLOAT enumlabel"), empty);
  pg(
    "pg_range",
    cols("rngtypid:INT rngsubtype:INT rngcollation:INT rngsubopc:INT rngcanonical:INT rngsubdiff:INT"),
    empty,
  );
  pg(
    "pg_sequence",
    cols(`seqrelid:INT seqtypid:INT seqstart:LONG seqincrement:LONG seqmax:LONG seqmin:LONG
    seqcache:LONG seqcycle:BOOLEAN`),
    empty,
  );
  pg("pg_trigger", cols("oid:INT tgrelid:INT tgname tgenabled:CHAR tgisinternal:BOOLEAN"), empty);
  pg("pg_rewrite", cols("oid:INT rulename ev_class:INT ev_type:CHAR"), empty);
  pg(
    "pg_policy",
    cols("oid:INT polname polrelid:INT polcmd:CHAR polpermissive:BOOLEAN polroles polqual polwithcheck"),
    empty,
  );
  pg(
    "pg_statistic_ext",
    cols("oid:INT stxrelid:INT stxname stxnamespace:INT stxowner:INT stxkeys stxkind"),
    empty,
  );
  pg("pg_publication", cols("oid:INT pubname pubowner:INT puballtables:BOOLEAN pubinsert:BOOLEAN"), empty);
  pg("pg_publication_rel", cols("oid:INT prpubid:INT prrelid:INT"), empty);
  pg("pg_partitioned_table", cols("partrelid:INT partstrat:CHAR partnatts:SHORT"), empty);
  pg("pg_foreign_table", cols("ftrelid:INT ftserver:INT ftoptions"), empty);
  pg("pg_foreign_data_wrapper", cols("oid:INT fdwname fdwowner:INT"), empty);
  pg("pg_foreign_server", cols("oid:INT srvname srvowner:INT srvfdw:INT"), empty);
  pg("pg_event_trigger", cols("oid:INT evtname evtevent evtowner:INT evtfoid:INT evtenabled:CHAR"), empty);
  pg(
    "pg_cast",
    cols("oid:INT castsource:INT casttarget:INT castfunc:INT castcontext:CHAR castmethod:CHAR"),
    empty,
  );
  pg(
    "pg_operator",
    cols("oid:INT oprname oprnamespace:INT oprowner:INT oprkind:CHAR oprleft:INT oprright:INT oprresult:INT"),
    empty,
  );
  pg(
    "pg_opclass",
    cols(
      "oid:INT opcmethod:INT opcname opcnamespace:INT opcowner:INT opcfamily:INT opcintype:INT opcdefault:BOOLEAN",
    ),
    empty,
  );
  pg("pg_aggregate", cols("aggfnoid:INT aggkind:CHAR aggnumdirectargs:SHORT aggtransfn aggfinalfn"), empty);
  pg(
    "pg_conversion",
    cols(
      "oid:INT conname connamespace:INT conowner:INT conforencoding:INT contoencoding:INT conproc condefault:BOOLEAN",
    ),
    empty,
  );
  pg("pg_ts_config", cols("oid:INT cfgname cfgnamespace:INT cfgowner:INT cfgparser:INT"), empty);
  pg("pg_db_role_setting", cols("setdatabase:INT setrole:INT setconfig"), empty);
  // Metabase's table sync LEFT JOINs it for an estimated row count; none is kept (NULL there).
  pg(
    "pg_stat_user_tables",
    cols("relid:INT schemaname relname seq_scan:LONG idx_scan:LONG n_live_tup:LONG n_dead_tup:LONG"),
    empty,
  );
  // transactionid: DataGrip reads the oldest open transaction from it (none here).
  pg(
    "pg_locks",
    // PostgreSQL's columns in its order, as QuestDB's (PgLocksFunctionFactoryTest).
    cols(`locktype database:INT relation:INT page:INT tuple:SHORT virtualxid transactionid:INT classid:INT
      objid:INT objsubid:SHORT virtualtransaction pid:INT mode granted:BOOLEAN fastpath:BOOLEAN waitstart:TIMESTAMP`),
    empty,
  );
  pg("pg_prepared_xacts", cols("transaction:INT gid prepared:TIMESTAMP owner database"), empty);
  pg(
    "pg_sequences",
    cols("schemaname sequencename sequenceowner data_type start_value:LONG increment_by:LONG"),
    empty,
  );
  registerZoneRelations();
  registerKeywordFunctions();
  registerTouch();
  registerServerMeta();
}

registerAll();
