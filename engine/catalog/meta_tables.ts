/**
 * Meta functions and SHOW results over the catalog (spec/sql.md §17): tables(),
 * table_columns(), table_partitions(), SHOW TABLES, SHOW CREATE TABLE. Column lists are
 * known at plan time; rows are read from storage when the query runs.
 */
import { type ColumnType, T, typeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type { Storage, Table, TableMeta } from "../storage/api.ts";
import { sizePretty } from "../functions/numeric.ts";
import { hasBuiltIndex } from "./symbol_index.ts";
import { checkpointGate } from "../storage/checkpoint.ts";

type Col = { name: string; type: ColumnType };
const c = (name: string, type: ColumnType): Col => ({ name, type });

const TABLES: Col[] = [
  c("id", T.INT),
  c("table_name", T.STRING),
  c("designatedTimestamp", T.STRING),
  c("partitionBy", T.STRING),
  c("walEnabled", T.BOOLEAN),
  c("dedup", T.BOOLEAN),
  c("ttlValue", T.INT),
  c("ttlUnit", T.STRING),
  c("matView", T.BOOLEAN),
  c("directoryName", T.STRING),
  c("maxUncommittedRows", T.INT),
  c("o3MaxLag", T.LONG),
  c("table_suspended", T.BOOLEAN),
  c("table_type", T.CHAR),
  c("table_row_count", T.LONG),
  c("table_min_timestamp", T.TIMESTAMP),
  c("table_max_timestamp", T.TIMESTAMP),
  // QuestDB's write, WAL and replication metrics (TablesFunctionFactory); see tableRow.
  c("table_last_write_timestamp", T.TIMESTAMP),
  c("table_txn", T.LONG),
  c("table_memory_pressure_level", T.INT),
  c("table_write_amp_count", T.LONG),
  c("table_write_amp_p50", T.DOUBLE),
  c("table_write_amp_p90", T.DOUBLE),
  c("table_write_amp_p99", T.DOUBLE),
  c("table_write_amp_max", T.DOUBLE),
  c("table_merge_rate_count", T.LONG),
  c("table_merge_rate_p50", T.LONG),
  c("table_merge_rate_p90", T.LONG),
  c("table_merge_rate_p99", T.LONG),
  c("table_merge_rate_max", T.LONG),
  c("wal_pending_row_count", T.LONG),
  c("wal_dedup_row_count_since_start", T.LONG),
  c("wal_txn", T.LONG),
  c("wal_max_timestamp", T.TIMESTAMP),
  c("wal_tx_count", T.LONG),
  c("wal_tx_size_p50", T.LONG),
  c("wal_tx_size_p90", T.LONG),
  c("wal_tx_size_p99", T.LONG),
  c("wal_tx_size_max", T.LONG),
  c("replica_batch_count", T.LONG),
  c("replica_batch_size_p50", T.LONG),
  c("replica_batch_size_p90", T.LONG),
  c("replica_batch_size_p99", T.LONG),
  c("replica_batch_size_max", T.LONG),
  c("replica_more_pending", T.BOOLEAN),
];

const TABLE_COLUMNS: Col[] = [
  c("column", T.STRING),
  c("type", T.STRING),
  c("indexed", T.BOOLEAN),
  c("indexBlockCapacity", T.INT),
  c("symbolCached", T.BOOLEAN),
  c("symbolCapacity", T.INT),
  c("symbolTableSize", T.INT),
  c("designated", T.BOOLEAN),
  c("upsertKey", T.BOOLEAN),
  c("indexType", T.STRING),
  c("indexInclude", T.STRING),
  // QuestDB 9.x's NOT NULL flag (spec/sql.md §5.1; AlterTableAddColumnTest reads it); the
  // designated timestamp is never NULL and reports true.
  c("notNull", T.BOOLEAN),
];

const PARTITIONS: Col[] = [
  c("index", T.INT),
  c("partitionBy", T.STRING),
  c("name", T.STRING),
  c("minTimestamp", T.TIMESTAMP),
  c("maxTimestamp", T.TIMESTAMP),
  c("numRows", T.LONG),
  c("diskSize", T.LONG),
  c("diskSizeHuman", T.STRING),
  c("readOnly", T.BOOLEAN),
  c("active", T.BOOLEAN),
  c("attached", T.BOOLEAN),
  c("detached", T.BOOLEAN),
  c("attachable", T.BOOLEAN),
  c("isParquet", T.BOOLEAN),
  c("parquetFileSize", T.LONG),
  // Not a QuestDB column: the partition's Parquet file is in the cold store (docs/storage.md).
  c("isRemote", T.BOOLEAN),
];

/** table_storage(): one row per table (TableStorageRecordCursorFactory's columns). */
const TABLE_STORAGE: Col[] = [
  c("tableName", T.STRING),
  c("walEnabled", T.BOOLEAN),
  c("partitionBy", T.STRING),
  c("partitionCount", T.LONG),
  c("rowCount", T.LONG),
  c("diskSize", T.LONG),
];

/** wal_tables(): one row per WAL table (QuestDB's columns). */
const WAL_TABLES: Col[] = [
  c("name", T.STRING),
  c("suspended", T.BOOLEAN),
  c("writerTxn", T.LONG),
  c("bufferedTxnSize", T.LONG),
  c("sequencerTxn", T.LONG),
  c("errorTag", T.STRING),
  c("errorMessage", T.STRING),
  c("memoryPressure", T.INT),
];

const DEFINITIONS: Record<string, Col[]> = {
  "wal_tables": WAL_TABLES,
  // CheckpointTest#testCheckpointStatus: whether CHECKPOINT CREATE is in force, and since when.
  "checkpoint_status": [c("in_progress", T.BOOLEAN), c("started_at", T.TIMESTAMP)],
  "tables": TABLES,
  "all_tables": [c("table_name", T.STRING)],
  "show tables": [c("table_name", T.STRING)],
  "table_columns": TABLE_COLUMNS,
  "table_partitions": PARTITIONS,
  "table_storage": TABLE_STORAGE,
  // table_partitions() of every table, each row led by its table's name (AllTablesPartitionsFunctionFactoryTest).
  "all_tables_partitions": [c("tableName", T.STRING), ...PARTITIONS],
  "show create table": [c("ddl", T.STRING)],
  "show parameters": [
    c("property_path", T.STRING),
    c("env_var_name", T.STRING),
    c("value", T.STRING),
    c("value_source", T.STRING),
    c("sensitive", T.BOOLEAN),
    c("reloadable", T.BOOLEAN),
  ],
};

/** Extra generators registered by other layers (pg_catalog for the wire protocol, ...). */
const extra = new Map<
  string,
  { columns: Col[]; rows: (storage: Storage, args: Value[]) => Value[][] | Promise<Value[][]> }
>();

/** Registered generators that read no arguments (the pg_catalog relations). */
const noArgs = new Set<string>();

export function registerMetaTable(
  name: string,
  columns: Col[],
  rows: (storage: Storage, args: Value[]) => Value[][] | Promise<Value[][]>,
  opts: { noArgs?: boolean } = {},
): void {
  extra.set(name.toLowerCase(), { columns, rows });
  if (opts.noArgs) noArgs.add(name.toLowerCase());
}

/**
 * How many arguments a generator takes, where that is fixed: QuestDB refuses `pg_class(1)`,
 * `table_storage(1)` and `table_partitions()` (CatalogueQueryTest
 * #testFailedBindingClosesPreparationsAndRecovers). The SHOW forms are called by the engine.
 */
export function metaArity(name: string): number | undefined {
  if (name === "table_columns" || name === "table_partitions") return 1;
  if (name in DEFINITIONS && !name.startsWith("show ")) return 0;
  return noArgs.has(name) ? 0 : undefined;
}

/** Names of the registered generators (pg_catalog relations, keywords(), ...), lower case. */
export function metaTableNames(): string[] {
  return [...Object.keys(DEFINITIONS), ...extra.keys()];
}

export function metaColumns(name: string): Col[] | undefined {
  return DEFINITIONS[name] ?? extra.get(name)?.columns;
}

function tableRow(m: TableMeta, storage: Storage): Value[] {
  const snap = storage.table(m.name)!.snapshot();
  try {
    const parts = snap.partitions.filter((p) => p.rowCount > 0);
    const ts = m.timestampIndex >= 0;
    // The columns are TIMESTAMP (micros) whatever the designated column's precision: a
    // TIMESTAMP_NS table's bounds are converted (TablesFunctionFactoryTest#testTimestampColumnsWithTimestampNs).
    const micros = toMicros(m);
    const minTs = ts && parts.length ? micros(parts[0].minTs) : null;
    const maxTs = ts && parts.length ? micros(parts[parts.length - 1].maxTs) : null;
    const txn = BigInt(storage.table(m.name)!.txn);
    return [
      m.id,
      m.name,
      ts ? m.columns[m.timestampIndex].name : null,
      m.partitionBy,
      m.wal,
      m.dedupKeys.length > 0,
      m.ttl?.amount ?? 0,
      m.ttl?.unit ?? "HOUR",
      false,
      m.dirName,
      m.maxUncommittedRows,
      m.o3MaxLagMicros,
      m.suspended ?? false,
      "T",
      BigInt(snap.rowCount),
      minTs,
      maxTs,
      // A commit is applied as it is made (see walRow): no WAL lags, nothing is pending, no
      // memory pressure (0; QuestDB's NULL for a non-WAL table), the WAL transaction is the
      // table's, and the WAL's newest row is the table's. Write times and the amplification,
      // merge, WAL size and replication histograms are not kept: no write time (NULL), zero counts.
      null,
      txn,
      m.wal ? 0 : null,
      0n,
      0,
      0,
      0,
      0,
      0n,
      0n,
      0n,
      0n,
      0n,
      0n,
      0n,
      m.wal ? txn : null,
      m.wal ? maxTs : null,
      0n,
      0n,
      0n,
      0n,
      0n,
      0n,
      0n,
      0n,
      0n,
      0n,
      false,
    ];
  } finally {
    snap.release();
  }
}

/**
 * A commit is applied as it is made (there is no separate apply job), so the writer and the
 * sequencer are always at the same transaction and nothing lags; a suspended table refuses
 * writes instead of queueing them (docs/alter_table.md).
 */
function walRow(m: TableMeta, storage: Storage): Value[] {
  const txn = BigInt(storage.table(m.name)!.txn);
  const suspended = m.suspended ?? false;
  return [
    m.name,
    suspended,
    txn,
    0n,
    txn,
    null,
    suspended ? "suspended by ALTER TABLE SUSPEND WAL" : null,
    0,
  ];
}

function columnRows(m: TableMeta, storage: Storage): Value[][] {
  const snap = storage.table(m.name)!.snapshot();
  try {
    const dedup = new Set(m.dedupKeys.map((k) => k.toLowerCase()));
    return m.columns.map((col, i) => {
      const sym = col.type.tag === "SYMBOL";
      return [
        col.name,
        typeName(col.type),
        // No symbol index is built yet (symbol_index.ts): a declared INDEX is not reported.
        hasBuiltIndex(col),
        // QuestDB's metadata block size, kept whether or not the column is indexed.
        col.indexCapacity,
        sym ? col.symbolCache : false,
        sym ? col.symbolCapacity : 0,
        sym ? snap.symbols(i).size : 0,
        i === m.timestampIndex,
        dedup.has(col.name.toLowerCase()),
        hasBuiltIndex(col) ? "BITMAP" : "",
        "",
        col.notNull === true || i === m.timestampIndex,
      ];
    });
  } finally {
    snap.release();
  }
}

/** A designated timestamp value as the TIMESTAMP (micros) meta columns show it. */
function toMicros(m: TableMeta): (v: bigint) => bigint {
  const nanos = m.timestampIndex >= 0 && m.columns[m.timestampIndex].type.tag === "TIMESTAMP_NS";
  return (v) => (nanos ? v / 1000n : v);
}

/** table_partitions('t') and SHOW PARTITIONS FROM t: diskSize sums each partition's files. */
async function partitionRows(t: Table): Promise<Value[][]> {
  const snap = t.snapshot();
  try {
    const rows: Value[][] = [];
    const hasTs = t.meta.timestampIndex >= 0;
    const micros = toMicros(t.meta);
    for (const [i, p] of snap.partitions.entries()) {
      const bytes = BigInt(await snap.partitionByteSize(i));
      rows.push([
        i,
        t.meta.partitionBy,
        p.name,
        hasTs ? micros(p.minTs) : null,
        hasTs ? micros(p.maxTs) : null,
        BigInt(p.rowCount),
        bytes,
        sizePretty(bytes),
        false,
        i === snap.partitions.length - 1,
        true,
        false,
        false,
        p.parquetSize !== undefined,
        // QuestDB reports -1 for a native partition.
        BigInt(p.parquetSize ?? -1),
        p.remote === true,
      ]);
    }
    return rows;
  } finally {
    snap.release();
  }
}

/** table_storage(): each table's partitioning, partition and row counts, and partition bytes. */
async function storageRow(t: Table): Promise<Value[]> {
  const snap = t.snapshot();
  try {
    let bytes = 0;
    for (let i = 0; i < snap.partitions.length; i++) bytes += await snap.partitionByteSize(i);
    return [
      t.meta.name,
      t.meta.wal,
      t.meta.partitionBy,
      BigInt(snap.partitions.length),
      BigInt(snap.rowCount),
      BigInt(bytes),
    ];
  } finally {
    snap.release();
  }
}

/** SHOW CREATE TABLE text (spec/sql.md §17.3). */
export function createTableText(m: TableMeta): string {
  const cols = m.columns.map((col) => {
    let t = typeName(col.type);
    if (col.type.tag === "SYMBOL") {
      t += ` CAPACITY ${col.symbolCapacity} ${col.symbolCache ? "CACHE" : "NOCACHE"}`;
      if (col.indexed) t += ` INDEX CAPACITY ${col.indexCapacity}`;
    }
    if (col.notNull) t += " NOT NULL";
    if (col.parquet) t += ` PARQUET(${col.parquet})`;
    return `\t${col.name} ${t}`;
  });
  let s = `CREATE TABLE '${m.name}' ( \n${cols.join(",\n")}\n)`;
  // QuestDB names the partitioning only with a designated timestamp: `timestamp(ts) PARTITION BY
  // NONE BYPASS WAL`, and nothing for a table without one (CreateTableTest
  // #testCreateTableWithArrayColumn: `)` then `WITH ...`).
  // TTL sits between the partitioning and WAL (ShowCreateTableTest#testTtlOneDay:
  // `PARTITION BY HOUR TTL 1 DAY BYPASS WAL`).
  if (m.timestampIndex >= 0) {
    s += ` timestamp(${m.columns[m.timestampIndex].name}) PARTITION BY ${m.partitionBy}`;
    if (m.ttl) s += ` TTL ${m.ttl.amount} ${m.ttl.unit}${m.ttl.amount === 1 ? "" : "S"}`;
    s += m.wal ? " WAL" : " BYPASS WAL";
  }
  if (m.parquetFormat) s += `\nFORMAT PARQUET`;
  s += `\nWITH maxUncommittedRows=${m.maxUncommittedRows}, o3MaxLag=${m.o3MaxLagMicros}us`;
  if (m.dedupKeys.length) s += `\nDEDUP UPSERT KEYS(${m.dedupKeys.join(",")})`;
  return s + ";";
}

/** The rows of meta function or SHOW `name`; table_partitions() reads file sizes, so may be async. */
export function metaRows(
  storage: Storage,
  name: string,
  args: Value[],
  settings: () => Value[][],
): Value[][] | Promise<Value[][]> {
  const tables = storage.tables();
  switch (name) {
    case "tables":
      return tables.map((m) => tableRow(m, storage));
    case "wal_tables":
      return tables.filter((m) => m.wal).map((m) => walRow(m, storage));
    case "checkpoint_status": {
      const gate = checkpointGate(storage.root);
      return [[gate.checkpointOpen, gate.startedAt]];
    }
    case "all_tables":
    case "show tables":
      return tables.map((m) => [m.name]);
    case "table_columns": {
      const t = storage.table(String(args[0]));
      return t ? columnRows(t.meta, storage) : [];
    }
    case "show create table": {
      const t = storage.table(String(args[0]));
      return t ? [[createTableText(t.meta)]] : [];
    }
    case "table_partitions": {
      const t = storage.table(String(args[0]));
      return t ? partitionRows(t) : [];
    }
    case "table_storage":
      return Promise.all(
        tables.map((m) => storage.table(m.name)).filter((t) => t !== undefined).map(storageRow),
      );
    case "all_tables_partitions":
      return Promise.all(
        tables.map(async (m) => {
          const t = storage.table(m.name);
          return t ? (await partitionRows(t)).map((r) => [m.name, ...r]) : [];
        }),
      ).then((rows) => rows.flat());
    case "show parameters":
      return settings();
    default: {
      const e = extra.get(name);
      return e ? e.rows(storage, args) : [];
    }
  }
}
