/**
 * The Ingestor turns blocks of parsed rows (ILP lines, CSV records) into appends: it finds or
 * creates the table (spec/protocols.md §10.5: designated timestamp `timestamp`, the default
 * partitioning of `line.default.partition.by`), adds the columns it has not seen, checks and
 * converts every cell to its column's type, and appends the good rows in one atomic commit.
 *
 * Work is split in two so that a caller holding blocks for several tables can check them all
 * before committing any: `prepare` (synchronous, touches nothing) and `commit`.
 */
import { TABLE_COLUMNS_MAX } from "../base/limits.ts";
import { arrayType, type ColumnType, decimalType, T } from "../base/types.ts";
import type { DoubleArray, Value, VectorData } from "../base/values.ts";
import type { PartitionUnit } from "../sql/ast.ts";
import type { Storage, StoredColumn, Table, TableMeta } from "../storage/api.ts";
import { Mutex } from "../storage/_mutex.ts";
import { engineStats } from "../base/counters.ts";
import { type BlockColumn, type IngestBlock, K, type ValueKind } from "./block.ts";
import { convertColumn, type TextParser, timestampsToInt64 } from "./convert.ts";
import { checkIlpColumnName, checkIlpTableName } from "./names.ts";

export interface IngestorOptions {
  /** PARTITION BY of tables created on first sight (`line.default.partition.by`). */
  partitionBy?: PartitionUnit;
  /** `line.auto.create.new.tables` */
  autoCreateTables?: boolean;
  /** `line.auto.create.new.columns` */
  autoCreateColumns?: boolean;
  /** Server time for rows without a timestamp, in microseconds. */
  nowMicros?: () => number;
}

/** How a caller wants a new table or new columns made, and how bad cells are handled. */
export interface PrepareOptions {
  /** Column types for new columns by lower-case name (CSV schema); otherwise from the first value. */
  types?: Map<string, ColumnType>;
  /** Text parsers by lower-case column name (CSV timestamp patterns). */
  parsers?: Map<string, TextParser>;
  /**
   * The designated timestamp of a new table: `{ name, fromColumn: false }` takes the rows'
   * timestamps (ILP), `fromColumn: true` a block column of that name (CSV). Default: ILP's
   * `timestamp` column.
   */
  timestamp?: { name: string; fromColumn: boolean } | null;
  partitionBy?: PartitionUnit;
  /**
   * What a cell that does not fit does: "stop" (the default) makes its row the block's error
   * and only the rows before it commit; "null" stores NULL and counts it; "skipRow" drops the row.
   */
  onBad?: "stop" | "null" | "skipRow";
}

export interface IngestError {
  /** Index of the first bad row in the block. */
  row: number;
  /** Its source line. */
  line: number;
  message: string;
}

/** Per block column: the type it goes to and how many of its cells did not fit. */
export interface ColumnOutcome {
  name: string;
  type: ColumnType;
  errors: number;
}

/** The checked, converted content of one block, ready to commit. */
export interface Prepared {
  readonly block: IngestBlock;
  readonly options: PrepareOptions;
  /** The table as it was when prepared (undefined: it will be created). */
  readonly meta: TableMeta | undefined;
  readonly error: IngestError | undefined;
  readonly columns: ColumnOutcome[];
  /** Rows that commit (all rows before the first error for "stop"). */
  readonly rowCount: number;
  /** For "skipRow": 1 for each row to drop. */
  readonly drop: Uint8Array | undefined;
  readonly tableName: string;
  /** Definition of the table to create, or columns to add, in order. */
  readonly create: Omit<StoredColumn, "id">[] | undefined;
  readonly timestampIndex: number;
  readonly partitionBy: PartitionUnit;
  readonly add: Omit<StoredColumn, "id">[];
  /** Converted vectors by lower-case column name (the designated timestamp included). */
  readonly vectors: Map<string, VectorData>;
}

const ILP_TIMESTAMP = { name: "timestamp", fromColumn: false };

/**
 * The column type a value kind creates (spec/protocols.md §10.5): an array column has as many
 * dimensions as the column's first array; a DECIMAL column is DECIMAL(18,3) (§10.4).
 */
function typeForKind(kind: ValueKind, col: BlockColumn, n: number): ColumnType | undefined {
  switch (kind) {
    case K.ARRAY: {
      for (let i = 0; i < n; i++) {
        if (col.kinds[i] === K.ARRAY) return arrayType((col.refs[i] as DoubleArray).dims);
      }
      return undefined;
    }
    case K.DECIMAL:
      return decimalType(18, 3);
    case K.SYMBOL:
      return T.SYMBOL;
    case K.STRING:
    case K.TEXT:
      return T.VARCHAR;
    case K.LONG:
    case K.LONG_BIG:
      return T.LONG;
    case K.DOUBLE:
      return T.DOUBLE;
    case K.BOOLEAN:
      return T.BOOLEAN;
    case K.TIMESTAMP:
      return T.TIMESTAMP;
    case K.LONG256:
      return T.LONG256;
    default:
      return undefined;
  }
}

function storedColumn(name: string, type: ColumnType): Omit<StoredColumn, "id"> {
  return { name, type, symbolCapacity: 256, symbolCache: true, indexed: false, indexCapacity: 0 };
}

function firstRowOf(col: BlockColumn, n: number): number {
  for (let i = 0; i < n; i++) if (col.kinds[i] !== K.NONE) return i;
  return 0;
}

/**
 * Per storage, one lock per table name: every Ingestor on the same storage (Engine.ingest makes
 * one per request or connection) serializes the create-or-extend-then-append of a table through it.
 */
const LOCKS = new WeakMap<Storage, Map<string, Mutex>>();

export class Ingestor {
  readonly #storage: Storage;
  readonly #options: Required<IngestorOptions>;
  readonly #locks: Map<string, Mutex>;

  /** Columns of the block the existing table lacks (a write would add them: ADD COLUMN is checked). */
  newColumns(block: IngestBlock): string[] {
    const meta = this.#storage.table(block.table)?.meta;
    if (!meta) return [];
    const have = new Set(meta.columns.map((c) => c.name.toLowerCase()));
    return block.columns.map((c) => c.name).filter((n) => !have.has(n.toLowerCase()));
  }

  constructor(storage: Storage, options: IngestorOptions = {}) {
    this.#storage = storage;
    this.#options = {
      partitionBy: options.partitionBy ?? "DAY",
      autoCreateTables: options.autoCreateTables ?? true,
      autoCreateColumns: options.autoCreateColumns ?? true,
      nowMicros: options.nowMicros ?? (() => Date.now() * 1000),
    };
    let locks = LOCKS.get(storage);
    if (!locks) LOCKS.set(storage, locks = new Map());
    this.#locks = locks;
  }

  /** Checks and converts a block against the table as it is now; changes nothing. */
  prepare(block: IngestBlock, options: PrepareOptions = {}): Prepared {
    const table = this.#storage.table(block.table);
    return new Preparation(block, options, table?.meta, this.#options).run();
  }

  /**
   * Creates the table or columns the block needs and appends its good rows (the first
   * `rowLimit` rows at most) in one commit. If the table changed since `prepare`, the block is
   * prepared again first. Returns the rows written.
   */
  commit(prepared: Prepared, rowLimit = prepared.rowCount): Promise<number> {
    const key = prepared.tableName.toLowerCase();
    let lock = this.#locks.get(key);
    if (!lock) this.#locks.set(key, lock = new Mutex());
    return lock.run(() => this.#commitLocked(prepared, rowLimit));
  }

  /** prepare + commit when the block has no error; returns the error or the rows written. */
  async ingest(block: IngestBlock, options: PrepareOptions = {}): Promise<IngestError | number> {
    const p = this.prepare(block, options);
    if (p.error) return p.error;
    return await this.commit(p);
  }

  async #commitLocked(prepared: Prepared, rowLimit: number): Promise<number> {
    let table = this.#storage.table(prepared.tableName);
    let p = prepared;
    if (table?.meta !== p.meta) {
      p = new Preparation(p.block, p.options, table?.meta, this.#options).run();
      if (p.error && p.error.row < rowLimit) rowLimit = p.error.row;
    }
    const n = Math.min(rowLimit, p.rowCount);
    if (n === 0) return 0;
    if (!table) {
      table = await this.#createTable(p);
    }
    for (const c of p.add) {
      if (!table.meta.columns.some((x) => x.name.toLowerCase() === c.name.toLowerCase())) {
        await table.addColumn(c);
      }
    }
    const written = await table.append(rowsFor(table, p, n));
    engineStats.ingestedRows += written;
    return written;
  }

  async #createTable(p: Prepared): Promise<Table> {
    try {
      return await this.#storage.createTable({
        name: p.tableName,
        columns: p.create!,
        timestampIndex: p.timestampIndex,
        partitionBy: p.partitionBy,
        wal: p.partitionBy !== "NONE",
        dedupKeys: [],
      });
    } catch (err) {
      // Created by SQL in the meantime: append to it as it is.
      const t = this.#storage.table(p.tableName);
      if (t) return t;
      throw err;
    }
  }
}

/** The vectors of the first `n` rows in the table's column order (dropped rows left out). */
function rowsFor(table: Table, p: Prepared, n: number) {
  const keep = p.drop ? keptRows(p.drop, n) : undefined;
  const rowCount = keep ? keep.length : n;
  const columns = table.meta.columns.map((c) => {
    const v = p.vectors.get(c.name.toLowerCase());
    if (!v) return null;
    if (keep) return gather(v, keep);
    return v.length === n ? v : v.slice(0, n);
  });
  return { rowCount, columns };
}

function keptRows(drop: Uint8Array, n: number): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (!drop[i]) out.push(i);
  return Int32Array.from(out);
}

function gather(v: VectorData, rows: Int32Array): VectorData {
  if (Array.isArray(v)) return Array.from(rows, (r) => v[r]) as Value[];
  const out = new (v.constructor as new (n: number) => typeof v)(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = v[rows[i]] as never;
  return out;
}

/** One run of prepare: the state of checking a block against one version of the table. */
class Preparation {
  readonly block: IngestBlock;
  readonly options: PrepareOptions;
  readonly meta: TableMeta | undefined;
  readonly config: Required<IngestorOptions>;
  error: IngestError | undefined;
  readonly columns: ColumnOutcome[] = [];
  readonly vectors = new Map<string, VectorData>();
  readonly add: Omit<StoredColumn, "id">[] = [];
  create: Omit<StoredColumn, "id">[] | undefined;
  timestampIndex = -1;
  drop: Uint8Array | undefined;
  readonly tableName: string;
  readonly partitionBy: PartitionUnit;

  constructor(
    block: IngestBlock,
    options: PrepareOptions,
    meta: TableMeta | undefined,
    config: Required<IngestorOptions>,
  ) {
    this.block = block;
    this.options = options;
    this.meta = meta;
    this.config = config;
    this.tableName = meta?.name ?? block.table;
    this.partitionBy = options.partitionBy ?? config.partitionBy;
  }

  run(): Prepared {
    const n = this.block.rowCount;
    if (n > 0) {
      if (!this.meta) this.#planCreate();
      if (!this.error || this.error.row > 0) this.#convertAll();
    }
    const rowCount = (this.options.onBad ?? "stop") === "stop" && this.error ? this.error.row : n;
    return {
      block: this.block,
      options: this.options,
      meta: this.meta,
      error: this.error,
      columns: this.columns,
      rowCount,
      drop: this.drop,
      tableName: this.tableName,
      create: this.create,
      timestampIndex: this.timestampIndex,
      partitionBy: this.partitionBy,
      add: this.add,
      vectors: this.vectors,
    };
  }

  /** Records an error at `row` if it is the first so far. */
  fail(row: number, message: string): void {
    if (!this.error || row < this.error.row) this.error = { row, line: this.block.lines[row], message };
  }

  #planCreate(): void {
    if (!this.config.autoCreateTables) {
      this.fail(0, `table does not exist, creation of new tables is disabled [table=${this.tableName}]`);
      return;
    }
    const bad = checkIlpTableName(this.tableName);
    if (bad) this.fail(0, `table: ${this.tableName}; ${bad}`);
    this.create = [];
  }

  #timestampSpec(): { name: string; fromColumn: boolean } | null {
    if (this.meta) {
      const i = this.meta.timestampIndex;
      return i < 0
        ? null
        : { name: this.meta.columns[i].name, fromColumn: this.options.timestamp?.fromColumn ?? false };
    }
    return this.options.timestamp === undefined ? ILP_TIMESTAMP : this.options.timestamp;
  }

  #convertAll(): void {
    const block = this.block;
    const n = block.rowCount;
    const onBad = this.options.onBad ?? "stop";
    const ts = this.#timestampSpec();
    const tsLower = ts?.name.toLowerCase();
    const existing = new Map((this.meta?.columns ?? []).map((c) => [c.name.toLowerCase(), c]));
    let columnCount = existing.size;
    let tsColumn: BlockColumn | undefined;
    for (const col of block.columns) {
      if (col.count === 0) continue;
      const lower = col.name.toLowerCase();
      if (lower === tsLower) {
        tsColumn = col;
        if (this.create && ts!.fromColumn) {
          this.timestampIndex = this.create.length;
          this.create.push(storedColumn(col.name, T.TIMESTAMP));
        }
        continue;
      }
      let type = existing.get(lower)?.type;
      if (!type) {
        const made = this.#newColumn(col, lower, ++columnCount);
        if (!made) continue;
        type = made;
      }
      const out = convertColumn(col, n, type, this.options.parsers?.get(lower));
      this.vectors.set(lower, out.data);
      this.columns.push({ name: existing.get(lower)?.name ?? col.name, type, errors: out.errors });
      if (out.errors > 0) {
        this.#bad(
          out.firstBad,
          `table: ${this.tableName}, column: ${col.name}; ${out.message}`,
          out.bad!,
          onBad,
        );
      }
    }
    if (ts) this.#designated(ts, tsColumn, onBad);
    if (this.create && ts && this.timestampIndex < 0) {
      this.timestampIndex = this.create.length;
      this.create.push(storedColumn(ts.name, T.TIMESTAMP));
    }
  }

  /** Plans a column the table lacks; undefined (and an error) when it cannot be made. */
  #newColumn(col: BlockColumn, lower: string, columnCount: number): ColumnType | undefined {
    const n = this.block.rowCount;
    const row = firstRowOf(col, n);
    const type = this.options.types?.get(lower) ?? typeForKind(col.firstKind(n), col, n);
    const reason = !type
      ? undefined
      : this.meta && !this.config.autoCreateColumns
      ? `column does not exist, creation of new columns is disabled [column=${col.name}]`
      : checkIlpColumnName(col.name)
      ? `invalid column name: ${col.name}`
      : columnCount > TABLE_COLUMNS_MAX
      ? `too many columns [max=${TABLE_COLUMNS_MAX}]`
      : undefined;
    if (!type) return undefined; // only NULLs so far: nothing to make the column from
    if (reason) {
      this.fail(row, `table: ${this.tableName}; ${reason}`);
      return undefined;
    }
    (this.create ?? this.add).push(storedColumn(col.name, type));
    return type;
  }

  #bad(firstBad: number, message: string, bad: Uint8Array, onBad: "stop" | "null" | "skipRow"): void {
    if (onBad === "stop") this.fail(firstBad, message);
    else if (onBad === "skipRow") {
      this.drop ??= new Uint8Array(this.block.rowCount);
      for (let i = 0; i < bad.length; i++) if (bad[i]) this.drop[i] = 1;
    }
  }

  /** The designated timestamp vector: the rows' timestamps (NaN: now) or a column's values. */
  #designated(
    ts: { name: string; fromColumn: boolean },
    col: BlockColumn | undefined,
    onBad: "stop" | "null" | "skipRow",
  ): void {
    const block = this.block;
    const n = block.rowCount;
    const type = this.meta ? this.meta.columns[this.meta.timestampIndex].type : T.TIMESTAMP;
    let data: BigInt64Array;
    if (ts.fromColumn) {
      if (!col) {
        this.fail(0, `designated timestamp column is missing [column=${ts.name}]`);
        return;
      }
      const out = convertColumn(col, n, type, this.options.parsers?.get(ts.name.toLowerCase()));
      data = out.data as BigInt64Array;
      if (out.errors > 0) {
        this.#bad(
          out.firstBad,
          `table: ${this.tableName}, column: ${col.name}; ${out.message}`,
          out.bad!,
          onBad === "null" ? "skipRow" : onBad,
        );
      }
    } else {
      const times = block.timestamps;
      let now = NaN;
      if (col) {
        // A field named like the designated column sets the timestamp of rows that lack one.
        for (let i = 0; i < n; i++) {
          if (col.kinds[i] === K.TIMESTAMP && Number.isNaN(times[i])) times[i] = col.nums[i];
        }
      }
      for (let i = 0; i < n; i++) {
        if (Number.isNaN(times[i])) times[i] = Number.isNaN(now) ? (now = this.config.nowMicros()) : now;
      }
      data = timestampsToInt64(times, n, type.tag === "TIMESTAMP_NS" ? 1000 : 1);
    }
    // Storage rejects a whole batch for one NULL or negative designated timestamp: find them here.
    const words = new Int32Array(data.buffer, data.byteOffset, n * 2);
    for (let i = 0; i < n; i++) {
      if (words[2 * i + 1] >= 0) continue;
      const message = data[i] === -9223372036854775808n
        ? `designated timestamp column cannot be NULL [column=${ts.name}]`
        : `designated timestamp before 1970-01-01 is not allowed [value=${data[i]}]`;
      if (onBad === "stop") {
        this.fail(i, `table: ${this.tableName}; ${message}`);
        break;
      }
      this.drop ??= new Uint8Array(n);
      this.drop[i] = 1;
    }
    this.vectors.set(ts.name.toLowerCase(), data);
  }
}
