/**
 * The data root (api.ts `Storage`): the set of tables, table ids, and CREATE / DROP / RENAME
 * TABLE, each serialized by one mutex so that name checks and changes do not interleave.
 */
import { SqlError } from "../base/errors.ts";
import { assert } from "../base/assert.ts";
import { isTimestamp } from "../base/types.ts";
import type { Storage, Table, TableDefinition, TableMeta } from "./api.ts";
import { Mutex } from "./_mutex.ts";
import { joinPath, listDir, removePath, replaceFileAtomic, syncDir, writeFileSynced } from "./_fs.ts";
import { IDS_FILE, metaFileName, tableDirName, tableIdOfDir, TXN_FILE } from "./dir_name.ts";
import { encodeMeta, freezeMeta } from "./meta_file.ts";
import { encodeTxn, type TxnState } from "./txn_file.ts";
import { SymbolTable } from "./symbol_dict.ts";
import { makeState } from "./table_state.ts";
import { TableStore } from "./table_store.ts";
import { recoverTable } from "./recover_table.ts";
import { finishRestore, gated } from "./checkpoint.ts";
import { ColumnCache } from "./column_cache.ts";
import { acquireRootLock, type RootLock } from "./root_lock.ts";
import { ObjectStore, type ObjectStoreConfig } from "./object_store.ts";
import { collectDroppedOp } from "./table_cold.ts";
import { memoryBytesForCache, SCRATCH_RESERVE_BYTES, wasmMemory } from "../../engine-wasm/mod.ts";
import { closeDecodeWorkers } from "./parquet_decode_thread.ts";

/** QuestDB's defaults for the table parameters CREATE TABLE may leave out. */
const MAX_UNCOMMITTED_ROWS_DEFAULT = 500_000;
const O3_MAX_LAG_MICROS_DEFAULT = 600_000_000n;

export class FileStorage implements Storage {
  readonly root: string;
  readonly cache: ColumnCache;
  /** By lower-cased name (table names are case-insensitive). */
  readonly #tables = new Map<string, TableStore>();
  readonly #mutex = new Mutex();
  #tableIdNext: number;
  #closed = false;
  readonly #lock: RootLock;
  /** The cold store, when cold.storage.enabled (docs/storage.md "Cold storage"). */
  readonly objectStore?: ObjectStore;

  private constructor(
    root: string,
    cache: ColumnCache,
    tableIdNext: number,
    lock: RootLock,
    objectStore?: ObjectStore,
  ) {
    this.root = root;
    this.objectStore = objectStore;
    this.cache = cache;
    this.#tableIdNext = tableIdNext;
    this.#lock = lock;
  }

  /** Opens (creating when missing) the data root and recovers every table in it. */
  static async open(root: string, cacheBytes: number, objectStore?: ObjectStoreConfig): Promise<FileStorage> {
    await Deno.mkdir(root, { recursive: true });
    // Before anything is read: recovery truncates files to `_txn`, which a live server owns.
    const lock = await acquireRootLock(root);
    try {
      return await FileStorage.#openLocked(root, cacheBytes, lock, objectStore);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  static async #openLocked(
    root: string,
    cacheBytes: number,
    lock: RootLock,
    objectStore?: ObjectStoreConfig,
  ): Promise<FileStorage> {
    let idNext = 1;
    try {
      idNext = JSON.parse(await Deno.readTextFile(joinPath(root, IDS_FILE))).tableIdNext;
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    // The first storage opened in a process sizes the shared WASM memory to its budget.
    const memory = wasmMemory(memoryBytesForCache(cacheBytes));
    const budget = Math.min(cacheBytes, memory.buffer.byteLength - SCRATCH_RESERVE_BYTES);
    const storage = new FileStorage(
      root,
      new ColumnCache(budget, memory),
      idNext,
      lock,
      objectStore ? new ObjectStore(objectStore) : undefined,
    );
    await removePath(joinPath(root, IDS_FILE + ".tmp"));
    // A root copied during CHECKPOINT (with `_restore` touched) or left with one open.
    await finishRestore(root);
    for (const entry of await listDir(root)) {
      const id = tableIdOfDir(entry.name);
      if (!entry.isDirectory || id === undefined) continue; // not ours: the root may hold other files
      const path = joinPath(root, entry.name);
      const state = await recoverTable(path);
      if (!state) continue;
      storage.#tables.set(
        state.meta.name.toLowerCase(),
        new TableStore(path, state, storage.cache, storage.objectStore),
      );
      storage.#tableIdNext = Math.max(storage.#tableIdNext, id + 1);
    }
    return storage;
  }

  tables(): TableMeta[] {
    return [...this.#tables.values()].map((t) => t.meta).sort((a, b) => a.id - b.id);
  }

  table(name: string): Table | undefined {
    return this.#tables.get(name.toLowerCase());
  }

  createTable(def: TableDefinition): Promise<Table> {
    return this.#mutex.run(() => gated(this.root, () => this.#createTable(def)));
  }

  async #createTable(def: TableDefinition): Promise<Table> {
    this.#checkOpen();
    if (this.#tables.has(def.name.toLowerCase())) {
      throw new SqlError(`table already exists [table=${def.name}]`);
    }
    checkDefinition(def);
    const id = this.#tableIdNext++;
    await replaceFileAtomic(
      this.root,
      IDS_FILE,
      new TextEncoder().encode(JSON.stringify({ tableIdNext: this.#tableIdNext })),
    );
    const dirName = tableDirName(def.name, id);
    const path = joinPath(this.root, dirName);
    try {
      const table = await createTableFiles(path, def, id, dirName, this.cache, this.objectStore);
      await syncDir(this.root);
      this.#tables.set(def.name.toLowerCase(), table);
      return table;
    } catch (e) {
      await removePath(path).catch(() => {});
      throw e;
    }
  }

  dropTable(name: string): Promise<void> {
    return this.#mutex.run(async () => {
      this.#checkOpen();
      const table = this.#tables.get(name.toLowerCase());
      if (!table) throw new SqlError(`table does not exist [table=${name}]`);
      await table.drop();
      this.#tables.delete(name.toLowerCase());
    });
  }

  renameTable(from: string, to: string): Promise<void> {
    return this.#mutex.run(async () => {
      this.#checkOpen();
      const table = this.#tables.get(from.toLowerCase());
      if (!table) throw new SqlError(`table does not exist [table=${from}]`);
      const clash = this.#tables.get(to.toLowerCase());
      if (clash && clash !== table) throw new SqlError(`table already exists [table=${to}]`);
      await table.rename(to);
      this.#tables.delete(from.toLowerCase());
      this.#tables.set(to.toLowerCase(), table);
    });
  }

  close(): Promise<void> {
    return this.#mutex.run(async () => {
      if (this.#closed) return;
      this.#closed = true;
      for (const t of this.#tables.values()) await t.close();
      this.cache.clear();
      closeDecodeWorkers();
      this.#lock.release();
    });
  }

  collectDroppedRemote(): Promise<number> {
    const store = this.objectStore;
    if (!store) return Promise.resolve(0);
    // Under the mutex: CREATE TABLE makes folders, DROP TABLE removes them.
    return this.#mutex.run(() => collectDroppedOp(this.root, store));
  }

  #checkOpen(): void {
    if (this.#closed) throw new SqlError("storage is closed", -1, "internal");
  }
}

/** Our own invariants of a definition the engine has already validated. */
function checkDefinition(def: TableDefinition): void {
  const ts = def.timestampIndex;
  assert(
    ts === -1 || (ts >= 0 && ts < def.columns.length && isTimestamp(def.columns[ts].type)),
    "createTable: bad timestampIndex",
  );
  assert(ts >= 0 || def.partitionBy === "NONE", "createTable: PARTITION BY needs a designated timestamp");
}

/** Writes the metadata and the first transaction file of a new table; the rename of `_txn` creates it. */
async function createTableFiles(
  path: string,
  def: TableDefinition,
  id: number,
  dirName: string,
  cache: ColumnCache,
  objectStore: ObjectStore | undefined,
): Promise<TableStore> {
  await Deno.mkdir(path);
  const meta = freezeMeta({
    id,
    name: def.name,
    dirName,
    columns: def.columns.map((c, i) => ({ ...c, id: i })),
    timestampIndex: def.timestampIndex,
    partitionBy: def.partitionBy,
    wal: def.wal,
    dedupKeys: [...def.dedupKeys],
    maxUncommittedRows: def.maxUncommittedRows ?? MAX_UNCOMMITTED_ROWS_DEFAULT,
    o3MaxLagMicros: def.o3MaxLagMicros ?? O3_MAX_LAG_MICROS_DEFAULT,
    ttl: def.ttl ? { ...def.ttl } : undefined,
    parquetFormat: def.parquetFormat ? {} : undefined,
    version: 0,
  });
  const columnIdNext = meta.columns.length;
  await writeFileSynced(joinPath(path, metaFileName(0)), encodeMeta({ meta, columnIdNext }));
  const symbols = meta.columns.filter((c) => c.type.tag === "SYMBOL");
  const txn: TxnState = {
    txn: 0,
    metaVersion: 0,
    versionNext: 1,
    partitions: [],
    symbolCounts: Object.fromEntries(symbols.map((c) => [c.id, 0])),
  };
  await replaceFileAtomic(path, TXN_FILE, encodeTxn(txn));
  const dicts = new Map(symbols.map((c) => [c.id, new SymbolTable()]));
  return new TableStore(path, makeState(meta, columnIdNext, txn, dicts), cache, objectStore);
}
