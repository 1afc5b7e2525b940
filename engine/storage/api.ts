/**
 * The contract between the executor and storage: tables, snapshots for reading, and
 * atomic, durable writes. Implemented by `engine/storage/mod.ts` (`openStorage`).
 *
 * Reads see a snapshot: the committed state at the moment `snapshot()` was called; writes
 * committed later are invisible to it. A snapshot pins the column memory it hands out until
 * `release()`.
 */
import type { ColumnType } from "../base/types.ts";
import type { SymbolDict, Value, Vector, VectorData } from "../base/values.ts";
import type { PartitionUnit } from "../sql/ast.ts";

export interface StoredColumn {
  /** Stable id: files are named by it, so RENAME COLUMN touches metadata only. */
  id: number;
  name: string;
  type: ColumnType;
  symbolCapacity: number;
  symbolCache: boolean;
  indexed: boolean;
  indexCapacity: number;
  /** Declared NOT NULL: an append or update writing NULL into it is rejected. Absent = nullable. */
  notNull?: boolean;
  /**
   * Made NOT NULL after rows existed (`ALTER COLUMN ... SET NOT NULL`, `ADD COLUMN ... NOT NULL`):
   * those rows may hold the NULL sentinel, which then reads as the number stored (spec/sql.md
   * §5.1; QuestDB's AlterTableAddColumnTest#testAddColumnWithQuotedColumnName). A column declared
   * NOT NULL at CREATE TABLE never stored one.
   */
  nullsStored?: boolean;
  /**
   * Per-column Parquet options as written (`rle_dictionary, zstd(3)`; spec/sql.md §26.5), shown
   * by SHOW CREATE TABLE. Absent = the defaults (`PARQUET(default)` resets).
   */
  parquet?: string;
}

export interface TableMeta {
  /** Positive, increasing in creation order (tables().id). */
  id: number;
  name: string;
  /** Folder name under the root (stable across RENAME TABLE). */
  dirName: string;
  columns: StoredColumn[];
  /** Index into `columns` of the designated timestamp, or -1. */
  timestampIndex: number;
  partitionBy: PartitionUnit;
  wal: boolean;
  /** Column names of DEDUP UPSERT KEYS (includes the designated timestamp), empty when off. */
  dedupKeys: string[];
  maxUncommittedRows: number;
  o3MaxLagMicros: bigint;
  ttl?: { amount: number; unit: string };
  /**
   * QuestDB Enterprise's storage policy (ALTER TABLE SET STORAGE POLICY), run by the cold-storage
   * task (engine/cold_storage.ts; docs/storage.md "Cold storage").
   */
  storagePolicy?: StoragePolicy;
  /**
   * FORMAT PARQUET (CREATE TABLE ... FORMAT PARQUET, ALTER TABLE SET FORMAT PARQUET): partitions
   * written since are converted to Parquet when they stop being the active (newest) one
   * (docs/storage.md "FORMAT PARQUET tables"). `fromTs` (designated timestamp units, decimal
   * text) is the first row of the partition that was active when SET FORMAT PARQUET ran: older
   * partitions existed before and keep their format. Absent: NATIVE, the default.
   */
  parquetFormat?: { fromTs?: string };
  /**
   * ALTER TABLE SUSPEND WAL: while true, writes of rows (append, update, delete, truncate) fail
   * with `table is suspended`; RESUME WAL clears it (docs/alter_table.md).
   */
  suspended?: boolean;
  /**
   * Metadata version: increases with every schema or parameter change (ALTER, RENAME), so a
   * prepared plan can tell that the table changed under it. Set by storage.
   */
  version?: number;
}

/** TTLs of the stages of a storage policy (units HOUR, DAY, WEEK, MONTH, YEAR), and whether it runs. */
export interface StoragePolicy {
  toParquet?: { amount: number; unit: string };
  dropNative?: { amount: number; unit: string };
  dropLocal?: { amount: number; unit: string };
  enabled: boolean;
}

/** The definition CREATE TABLE hands to storage (validated by the engine before). */
export interface TableDefinition {
  name: string;
  columns: Omit<StoredColumn, "id">[];
  timestampIndex: number;
  partitionBy: PartitionUnit;
  wal: boolean;
  dedupKeys: string[];
  maxUncommittedRows?: number;
  o3MaxLagMicros?: bigint;
  ttl?: { amount: number; unit: string };
  /** FORMAT PARQUET: every partition becomes Parquet once no longer active (TableMeta.parquetFormat). */
  parquetFormat?: boolean;
}

export interface PartitionInfo {
  /** `2024-01-15` for DAY, `default` for NONE (ARCHITECTURE.md "Storage"). */
  name: string;
  rowCount: number;
  /** Designated timestamp range of the rows (µs or ns per the column type); 0n when none. */
  minTs: bigint;
  maxTs: bigint;
  /** Partition range [lo, hi) by the partition unit; NONE: the whole time line. */
  lo: bigint;
  hi: bigint;
  /** Bytes of `data.parquet` when the partition is in Parquet format (table_partitions()). */
  parquetSize?: number;
  /** True when the Parquet file lives in the cold store (docs/storage.md "Cold storage"). */
  remote?: boolean;
}

/**
 * Rows to append: one entry per table column, in table column order. Each is `null`
 * (the column's NULL for every row) or vector data of `rowCount` rows in the vector layout
 * of `engine/base/values.ts`, except SYMBOL columns, which take `Value[]` of strings (storage
 * interns them). Rows need not be sorted; storage sorts them by the designated timestamp,
 * merges out-of-order rows, and applies DEDUP UPSERT KEYS.
 */
export interface RowsToWrite {
  rowCount: number;
  columns: (VectorData | null)[];
}

/**
 * INSERT ... ON CONFLICT on the DEDUP UPSERT KEYS (issue 10). Without it a dedup table
 * upserts (the new row wins). `nothing`: a row whose keys match an existing row, or an
 * earlier row of the same batch, is dropped. `update`: the existing (or earlier) row stays
 * and takes the new row's values in `columns` (table column indexes, never key columns).
 */
export type OnConflict = { action: "nothing" } | { action: "update"; columns: number[] };

export interface AppendOptions {
  onConflict?: OnConflict;
  /** When given (one entry per input row), storage sets 1 for each row dropped by DO NOTHING. */
  skipped?: Uint8Array;
  /**
   * Awaited between the columns of a large append while they are encoded (symbols interned,
   * values checked): a turn of the event loop for other statements (issue #17). It may throw
   * (a cancelled statement); nothing is written then.
   */
  yieldTurn?: () => Promise<void>;
}

/** New values for some rows of one column of one partition (UPDATE). */
export interface ColumnUpdate {
  partition: string;
  column: number;
  /** Row indexes inside the partition, ascending. */
  rows: Int32Array;
  /** Values in vector layout (SYMBOL: Value[] strings), one per entry of `rows`. */
  values: VectorData;
}

/** Rows to remove from one partition (DELETE). */
export interface RowDelete {
  partition: string;
  /** Row indexes inside the partition, ascending, each once. */
  rows: Int32Array;
}

/** See TableSnapshot.factMemo. */
export interface FactMemo {
  get(tag: string): unknown;
  set(tag: string, value: unknown): void;
}

export interface TableSnapshot {
  readonly meta: TableMeta;
  readonly partitions: readonly PartitionInfo[];
  readonly rowCount: number;
  /**
   * Rows [from, to) of column `column` in partition `partition` (indexes into `partitions`
   * and `meta.columns`) as a vector. Fixed-width data is a zero-copy view of cached memory,
   * valid until `release()`; var-size data is decoded. A column added after the partition
   * was written reads as NULL.
   */
  read(partition: number, column: number, from: number, to: number): Promise<Vector>;
  /**
   * The whole fixed-width column of a partition as a region of WASM memory, for kernels:
   * byte offset into the WASM memory and row count. Undefined for var-size columns and
   * columns the partition does not have.
   */
  region(partition: number, column: number): Promise<{ ptr: number; rowCount: number } | undefined>;
  /**
   * Unpins what this snapshot holds of one partition: a reader done with it (a fast path that
   * has folded the partition into its partial results) lets a table larger than the cache
   * budget stream through the cache. Views and regions of that partition are invalid after.
   */
  releasePartition?(partition: number): void;
  /**
   * Drops what this snapshot holds of one partition in JavaScript memory: the copies made when
   * the cache budget could not take a column, and decoded Parquet columns. A scan done with the
   * partition calls it, so a table larger than the cache streams through it instead of piling
   * up in the heap. Unlike `releasePartition` it is safe while views are alive: a view keeps
   * its own buffer, and cached WASM blocks stay pinned.
   */
  releaseCopies?(partition: number): void;
  /**
   * The bytes of column regions this snapshot's cache can hold at once: a streaming reader
   * checks each partition's regions fit before it emits anything it could not take back.
   */
  readonly regionBudgetBytes?: number;
  symbols(column: number): SymbolDict;
  /**
   * A memo of facts about the committed bytes of one column of one partition as this snapshot
   * sees them (its row count included), kept beside the column cache and forgotten with it;
   * undefined when the snapshot keeps none.
   */
  factMemo?(partition: number, column: number): FactMemo | undefined;
  /**
   * A memo of facts about complete row blocks [lo, hi) of partition `partition` over the given
   * columns (indexes into `meta.columns`): valid for any later snapshot of the same partition
   * version, whose committed rows stay as they are while appends add rows after them. The
   * caller puts the block's bounds in the tag; undefined when the snapshot keeps none.
   */
  blockMemo?(partition: number, columns: readonly number[]): FactMemo | undefined;
  /**
   * Bytes on disk of the files of partition `partition` (an index into `partitions`) as this
   * snapshot sees it: table_partitions().diskSize.
   */
  partitionByteSize(partition: number): Promise<number>;
  release(): void;
}

export interface Table {
  readonly meta: TableMeta;
  /** Number of the last committed transaction (+1 per commit); wal_tables() shows it. */
  readonly txn: number;
  snapshot(): TableSnapshot;
  /** Appends rows in one atomic, durable commit. Returns rows written after dedup. */
  append(rows: RowsToWrite, options?: AppendOptions): Promise<number>;
  /** Applies column updates in one atomic, durable commit. */
  update(changes: ColumnUpdate[]): Promise<void>;
  /**
   * UPDATE: `update` of the changes `pick` chooses from a snapshot taken under the table's
   * write lock, so that no other write can move rows between choosing and rewriting them.
   */
  updateRows(pick: (snapshot: TableSnapshot) => Promise<ColumnUpdate[]>): Promise<void>;
  /**
   * Removes rows in one atomic, durable commit; partitions left empty are dropped. `pick`
   * chooses the rows from a snapshot taken under the table's write lock, so no other write
   * can move rows between choosing and removing them. Returns rows removed.
   */
  deleteRows(pick: (snapshot: TableSnapshot) => Promise<RowDelete[]>): Promise<number>;
  truncate(): Promise<void>;
  addColumn(column: Omit<StoredColumn, "id">): Promise<void>;
  dropColumn(name: string): Promise<void>;
  renameColumn(from: string, to: string): Promise<void>;
  /** Replaces a column's type, rewriting its data with the converted values (ALTER COLUMN TYPE). */
  convertColumn(name: string, column: Omit<StoredColumn, "id">, convert: (v: Value) => Value): Promise<void>;
  dropPartitions(names: string[]): Promise<void>;
  /**
   * ALTER TABLE CONVERT PARTITION TO PARQUET | NATIVE: rewrites each named partition (already
   * in that format: left alone) as a new version in the other format, in one commit.
   */
  convertPartitions(names: string[], format: "parquet" | "native"): Promise<void>;
  /**
   * Cold storage (docs/storage.md "Cold storage"): uploads the named Parquet partitions to the
   * object store and commits them as remote; returns the names moved.
   */
  movePartitionsRemote(names: string[]): Promise<string[]>;
  /** Deletes the table's objects in the cold store that no committed or live state names. */
  collectRemote(): Promise<number>;
  /** Metadata-only changes: index flags, symbol cache, dedup keys, params, TTL, WAL flag. */
  alterMeta(change: (meta: TableMeta) => void): Promise<void>;
}

export interface Storage {
  readonly root: string;
  /** Tables in creation order. */
  tables(): TableMeta[];
  /** Case-insensitive lookup; undefined when absent. */
  table(name: string): Table | undefined;
  createTable(def: TableDefinition): Promise<Table>;
  dropTable(name: string): Promise<void>;
  renameTable(from: string, to: string): Promise<void>;
  /**
   * Deletes the cold store's objects of tables no longer on disk (docs/storage.md "Cold
   * storage"); 0 without a cold store.
   */
  collectDroppedRemote?(): Promise<number>;
  close(): Promise<void>;
}
