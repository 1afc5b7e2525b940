/**
 * One table on disk (api.ts `Table`): its committed state, the mutex that serializes its
 * writes, the commit protocol, live snapshots, and deferred deletion of files that old
 * snapshots may still read (docs/storage.md "Commit" and "Concurrency").
 */
import { SqlError } from "../base/errors.ts";
import type { Value } from "../base/values.ts";
import type {
  AppendOptions,
  ColumnUpdate,
  RowDelete,
  RowsToWrite,
  StoredColumn,
  Table,
  TableMeta,
  TableSnapshot,
} from "./api.ts";
import { Mutex } from "./_mutex.ts";
import { joinPath, removePath, syncDir, truncateTo, writeAtSynced, writeFileSynced } from "./_fs.ts";
import { metaFileName, symbolFileName, TXN_FILE } from "./dir_name.ts";
import { encodeMeta, freezeMeta } from "./meta_file.ts";
import { encodeTxn, type PartitionState, type TxnState } from "./txn_file.ts";
import { makeState, type TableState } from "./table_state.ts";
import { Snapshot, type SnapshotHost } from "./snapshot.ts";
import type { ColumnCache } from "./column_cache.ts";
import { WriteSet } from "./write_set.ts";
import type { NextState, TableWriter } from "./table_writer.ts";
import { appendRows } from "./append.ts";
import {
  addColumnOp,
  alterMetaOp,
  convertColumnOp,
  dropColumnOp,
  dropPartitionsOp,
  renameColumnOp,
  truncateOp,
} from "./table_alter.ts";
import { updateOp } from "./table_update.ts";
import { deleteOp } from "./table_delete.ts";
import { convertPartitionsOp } from "./table_convert.ts";
import { repackParquet, unpackParquet } from "./parquet_merge.ts";
import { ParquetWriteError } from "./parquet_partition.ts";
import { partitionsDueForParquet } from "./parquet_format.ts";
import { log } from "../base/log.ts";
import { collectRemoteOp, movePartitionsOp } from "./table_cold.ts";
import type { ObjectStore } from "./object_store.ts";
import type { SymbolTable } from "./symbol_dict.ts";
import { engineStats } from "../base/counters.ts";
import { type CheckpointGate, checkpointGate } from "./checkpoint.ts";

/** A path that becomes garbage once no snapshot older than `afterTxn` is live. */
interface Obsolete {
  path: string;
  afterTxn: number;
}

export class TableStore implements Table, SnapshotHost, TableWriter {
  readonly tablePath: string;
  readonly cache: ColumnCache;
  /** The cold store (cold.storage.enabled), where remote Parquet partitions are read from. */
  readonly objectStore?: ObjectStore;
  #state: TableState;
  readonly #mutex = new Mutex();
  /** Live snapshots per transaction number. */
  readonly #live = new Map<number, number>();
  readonly #obsolete: Obsolete[] = [];
  /** Partition versions handed out by failed writes are not reused either. */
  #versionFloor = 0;
  #dropped = false;
  #closed = false;
  /** CHECKPOINT CREATE holds this table's writes and file deletions (checkpoint.ts). */
  readonly #checkpoint: CheckpointGate;

  constructor(tablePath: string, state: TableState, cache: ColumnCache, objectStore?: ObjectStore) {
    this.tablePath = tablePath;
    this.objectStore = objectStore;
    this.#checkpoint = checkpointGate(tablePath.slice(0, tablePath.lastIndexOf("/")));
    this.#state = state;
    this.cache = cache;
  }

  get meta(): TableMeta {
    return this.#state.meta;
  }

  get state(): TableState {
    return this.#state;
  }

  get txn(): number {
    return this.#state.txn.txn;
  }

  get tableId(): number {
    return this.#state.meta.id;
  }

  /** True once the table was dropped (this object is then dead). */
  get dropped(): boolean {
    return this.#dropped;
  }

  snapshot(): TableSnapshot {
    const txn = this.#state.txn.txn;
    this.#live.set(txn, (this.#live.get(txn) ?? 0) + 1);
    return new Snapshot(this, this.#state);
  }

  released(txn: number): void {
    const n = (this.#live.get(txn) ?? 1) - 1;
    if (n > 0) this.#live.set(txn, n);
    else this.#live.delete(txn);
    // Deletion runs under the mutex so that it never races a write choosing folder names.
    this.#mutex.run(() => this.#collect()).catch(() => {});
  }

  /**
   * Appends rows; rows into local Parquet partitions merge into new Parquet versions in the same
   * commit (parquet_merge.ts). In a FORMAT PARQUET table (parquet_format.ts) a write into a remote
   * Parquet partition first converts it back to native (one commit), and after the append every
   * partition due is converted to Parquet (another commit): readers see each state whole.
   */
  async append(rows: RowsToWrite, options?: AppendOptions): Promise<number> {
    const convertedBack = new Set<string>();
    let written: number;
    for (;;) {
      try {
        written = await this.#appendOnce(rows, options);
        break;
      } catch (e) {
        if (!(e instanceof ParquetWriteError) || !this.meta.parquetFormat || convertedBack.has(e.partition)) {
          throw e;
        }
        convertedBack.add(e.partition);
        await this.convertPartitions([e.partition], "native");
      }
    }
    if (this.meta.parquetFormat) await this.#settleParquetFormat();
    return written;
  }

  /**
   * Converts the partitions of a FORMAT PARQUET table that stopped being active. The rows are
   * committed already, so a failure is logged, not thrown (the storage-policy task retries).
   */
  async #settleParquetFormat(): Promise<void> {
    const due = partitionsDueForParquet(this.meta, this.#state.txn.partitions);
    if (due.length === 0) return;
    try {
      await this.convertPartitions(due, "parquet");
    } catch (e) {
      log(
        "E",
        "storage",
        `FORMAT PARQUET conversion failed [table=${this.meta.name}]: ${(e as Error).message}`,
      );
    }
  }

  #appendOnce(rows: RowsToWrite, options?: AppendOptions): Promise<number> {
    return this.#writeRows(async (work) => {
      // Local Parquet partitions the rows go to are unpacked, written and repacked before the
      // one commit (parquet_merge.ts).
      const unpacked = new Set<string>();
      let committed: TableSnapshot | undefined;
      try {
        const result = await appendRows(this.#state, work, rows, {
          ...options,
          unpackParquet: (p) => {
            unpacked.add(p.name);
            committed ??= this.snapshot();
            return unpackParquet(this, work, committed, p);
          },
        });
        if (!result) return 0;
        const partitions = unpacked.size === 0
          ? result.partitions
          : await this.#repackParquet(work, result.partitions, unpacked);
        await this.commit(work, { partitions });
        engineStats.committedRows += result.written;
        if (this.meta.wal) engineStats.walRows += result.written;
        return result.written;
      } finally {
        committed?.release();
      }
    });
  }

  /**
   * Writes the partitions `names` of an append's uncommitted `partitions` as Parquet, reading
   * them through a snapshot of that state (its symbol counts include this write's new symbols).
   */
  async #repackParquet(
    work: WriteSet,
    partitions: PartitionState[],
    names: ReadonlySet<string>,
  ): Promise<PartitionState[]> {
    const old = this.#state;
    const symbolCounts = Object.fromEntries(
      this.meta.columns.filter((c) => c.type.tag === "SYMBOL").map((c) => [c.id, old.dicts.get(c.id)!.size]),
    );
    const txn: TxnState = { ...old.txn, txn: old.txn.txn + 1, partitions, symbolCounts };
    // Not counted among the live snapshots: it reads only folders this write made.
    const host: SnapshotHost = {
      tablePath: this.tablePath,
      tableId: this.tableId,
      cache: this.cache,
      objectStore: this.objectStore,
      released: () => {},
    };
    const written = new Snapshot(host, makeState(this.meta, old.columnIdNext, txn, old.dicts));
    try {
      return await repackParquet(work, written, partitions, names);
    } finally {
      written.release();
    }
  }

  update(changes: ColumnUpdate[]): Promise<void> {
    return this.#writeRows((work) => updateOp(this, work, changes));
  }

  updateRows(pick: (snapshot: TableSnapshot) => Promise<ColumnUpdate[]>): Promise<void> {
    return this.#writeRows(async (work) => {
      // Writes are serialized by the mutex held here, so this snapshot is the state updated.
      const snap = this.snapshot();
      let changes: ColumnUpdate[];
      try {
        changes = await pick(snap);
      } finally {
        snap.release();
      }
      await updateOp(this, work, changes);
    });
  }

  deleteRows(pick: (snapshot: TableSnapshot) => Promise<RowDelete[]>): Promise<number> {
    return this.#writeRows(async (work) => {
      // Writes are serialized by the mutex held here, so this snapshot is the state deleted from.
      const snap = this.snapshot();
      let deletes: RowDelete[];
      try {
        deletes = await pick(snap);
      } finally {
        snap.release();
      }
      return await deleteOp(this, work, deletes);
    });
  }

  truncate(): Promise<void> {
    return this.#writeRows((work) => truncateOp(this, work));
  }

  addColumn(column: Omit<StoredColumn, "id">): Promise<void> {
    return this.#write((work) => addColumnOp(this, work, column));
  }

  dropColumn(name: string): Promise<void> {
    return this.#write((work) => dropColumnOp(this, work, name));
  }

  renameColumn(from: string, to: string): Promise<void> {
    return this.#write((work) => renameColumnOp(this, work, from, to));
  }

  convertColumn(name: string, column: Omit<StoredColumn, "id">, convert: (v: Value) => Value): Promise<void> {
    return this.#write((work) => convertColumnOp(this, work, name, column, convert));
  }

  dropPartitions(names: string[]): Promise<void> {
    return this.#write((work) => dropPartitionsOp(this, work, names));
  }

  convertPartitions(names: string[], format: "parquet" | "native"): Promise<void> {
    return this.#write(async (work) => {
      // Writes are serialized by the mutex held here, so this snapshot is the state converted.
      const snap = this.snapshot();
      try {
        await convertPartitionsOp(this, work, snap, names, format);
      } finally {
        snap.release();
      }
      // The versions replaced go now unless a query still reads them, so that a glob over the
      // table folder (DuckDB, Spark; docs/storage.md "Other readers") sees one version each.
      await this.#collect().catch(() => {});
    });
  }

  /** Uploads the named local Parquet partitions to the cold store (table_cold.ts); returns those moved. */
  movePartitionsRemote(names: string[]): Promise<string[]> {
    const store = this.objectStore;
    if (!store) {
      return Promise.reject(new SqlError("cold storage is not enabled [cold.storage.enabled=false]"));
    }
    return this.#write((work) => movePartitionsOp(this, work, names, store));
  }

  /**
   * Deletes this table's objects in the cold store that the committed state does not name
   * (table_cold.ts). Skipped (0) while a snapshot of an older state may still read one.
   */
  collectRemote(): Promise<number> {
    const store = this.objectStore;
    if (!store) return Promise.resolve(0);
    return this.#write(() => {
      const txn = this.#state.txn;
      if (this.#checkpoint.open || [...this.#live.keys()].some((t) => t < txn.txn)) return Promise.resolve(0);
      const inUse = new Set<string>();
      for (const p of txn.partitions) if (p.parquet?.remote !== undefined) inUse.add(p.parquet.remote);
      return collectRemoteOp(this.tablePath, store, inUse);
    });
  }

  alterMeta(change: (meta: TableMeta) => void): Promise<void> {
    return this.#write((work) => alterMetaOp(this, work, change));
  }

  /** RENAME TABLE: a metadata change (the folder keeps its name). */
  rename(name: string): Promise<void> {
    return this.#write((work) => alterMetaOp(this, work, (m) => void (m.name = name)));
  }

  /**
   * DROP TABLE: removing the transaction file is the atomic point (a folder without one is
   * deleted by recovery); the folder goes now, or when the last live snapshot is released.
   */
  drop(): Promise<void> {
    return this.#write(async () => {
      await removePath(joinPath(this.tablePath, TXN_FILE));
      await syncDir(this.tablePath);
      this.#dropped = true;
      await this.#collect();
    });
  }

  /** Waits for writes in flight; later writes fail. */
  close(): Promise<void> {
    return this.#mutex.run(async () => {
      this.#closed = true;
      await this.#collect();
    });
  }

  /**
   * A write of rows: refused while the table is suspended (ALTER TABLE SUSPEND WAL). The flag
   * is read under the mutex, so a write queued behind SUSPEND WAL sees it.
   */
  #writeRows<T>(work: (w: WriteSet) => Promise<T>): Promise<T> {
    return this.#write((ws) => {
      if (this.meta.suspended) {
        throw new SqlError(`table is suspended [tableName=${this.meta.name}]`, -1, "semantic");
      }
      return work(ws);
    });
  }

  /** Runs a write under the mutex; on failure everything it wrote is undone. */
  #write<T>(work: (w: WriteSet) => Promise<T>): Promise<T> {
    return this.#mutex.run(async () => {
      if (this.#dropped) throw new SqlError(`table does not exist [table=${this.meta.name}]`);
      if (this.#closed) throw new SqlError("storage is closed", -1, "internal");
      await this.#checkpoint.enter();
      try {
        return await this.#writeUnder(work);
      } finally {
        this.#checkpoint.leave();
      }
    });
  }

  /** The body of a write: its files, and on failure the undoing of them. */
  async #writeUnder<T>(work: (w: WriteSet) => Promise<T>): Promise<T> {
    const ws = new WriteSet(this.tablePath, Math.max(this.#state.txn.versionNext, this.#versionFloor));
    try {
      return await work(ws);
    } catch (e) {
      if (ws.committed) throw e;
      engineStats.rollbacks++;
      this.#versionFloor = Math.max(this.#versionFloor, ws.versionNext);
      for (const dict of this.#state.dicts.values()) dict.rollback();
      await ws.rollback().catch(() => {});
      throw e;
    }
  }

  async commit(work: WriteSet, next: NextState): Promise<void> {
    const old = this.#state;
    const meta = next.meta ? freezeMeta({ ...next.meta, version: old.txn.metaVersion + 1 }) : old.meta;
    const columnIdNext = next.columnIdNext ?? old.columnIdNext;
    const dicts = next.dicts ?? old.dicts;
    const metaVersion = next.meta ? old.txn.metaVersion + 1 : old.txn.metaVersion;
    if (next.meta) {
      const path = joinPath(this.tablePath, metaFileName(metaVersion));
      work.onRollback(() => removePath(path));
      await writeFileSynced(path, encodeMeta({ meta, columnIdNext }));
    }
    const symbolBytes = await this.#writeSymbols(work, meta, dicts);
    const symbolFileCreated = [...symbolBytes.keys()].some((id) => dicts.get(id)!.committedBytes === 0);
    if (next.meta || work.dirsCreated || symbolFileCreated) await syncDir(this.tablePath);
    const txn: TxnState = {
      txn: old.txn.txn + 1,
      metaVersion,
      versionNext: Math.max(work.versionNext, old.txn.versionNext),
      partitions: pruneTops(next.partitions ?? old.txn.partitions, meta),
      symbolCounts: Object.fromEntries(
        meta.columns.filter((c) => c.type.tag === "SYMBOL").map((c) => [c.id, dicts.get(c.id)!.size]),
      ),
    };
    const temp = joinPath(this.tablePath, TXN_FILE + ".tmp");
    await writeFileSynced(temp, encodeTxn(txn));
    await Deno.rename(temp, joinPath(this.tablePath, TXN_FILE));
    // In force from here on: nothing below may undo it.
    work.committed = true;
    engineStats.commits++;
    for (const [id, bytes] of symbolBytes) dicts.get(id)!.markCommitted(bytes);
    this.#state = makeState(meta, columnIdNext, txn, dicts);
    for (const path of work.obsolete) this.#obsolete.push({ path, afterTxn: txn.txn });
    if (next.meta) this.#obsolete.push({ path: metaFileName(old.txn.metaVersion), afterTxn: 0 });
    // Makes the rename durable; should it fail, the caller hears of it but the commit stands.
    await syncDir(this.tablePath);
    await this.#collect().catch(() => {});
  }

  /** Appends the uncommitted entries of every dictionary to its file; returns bytes per column id. */
  async #writeSymbols(
    work: WriteSet,
    meta: TableMeta,
    dicts: ReadonlyMap<number, SymbolTable>,
  ): Promise<Map<number, number>> {
    const written = new Map<number, number>();
    await Promise.all(
      meta.columns.filter((c) => c.type.tag === "SYMBOL").map(async (c) => {
        const dict = dicts.get(c.id)!;
        if (dict.size === dict.committedCount) return;
        const bytes = dict.pendingBytes();
        const path = joinPath(this.tablePath, symbolFileName(c.id));
        work.onRollback(() => truncateTo(path, dict.committedBytes));
        await writeAtSynced(path, dict.committedBytes, [bytes]);
        written.set(c.id, bytes.length);
      }),
    );
    return written;
  }

  /** Deletes obsolete paths no live snapshot can read; a dropped table goes whole. */
  async #collect(): Promise<void> {
    // Nothing is deleted while a checkpoint is open; the next collection after RELEASE does it.
    if (this.#checkpoint.open) return;
    const oldest = this.#live.size === 0 ? Infinity : Math.min(...this.#live.keys());
    if (this.#dropped) {
      if (this.#live.size > 0) return;
      this.cache.forget(`${this.tableId}/`);
      await removePath(this.tablePath);
      return;
    }
    const keep: Obsolete[] = [];
    for (const o of this.#obsolete.splice(0)) {
      if (o.afterTxn > oldest) {
        keep.push(o);
        continue;
      }
      // A folder's name may be reused once it is gone, so its cache entries go first. Cache
      // keys are `<table id>/<partition folder>/<file>`; column files end in `.d` or `.i`.
      const isFile = /\.[di]$/.test(o.path);
      this.cache.forget(`${this.tableId}/${o.path}${isFile ? "" : "/"}`);
      try {
        await removePath(joinPath(this.tablePath, o.path));
      } catch {
        keep.push(o); // retried on the next collection; recovery removes it at the latest
      }
    }
    this.#obsolete.push(...keep);
  }
}

/** Drops column tops of columns no longer in the table. */
function pruneTops(partitions: readonly PartitionState[], meta: TableMeta): PartitionState[] {
  const ids = new Set(meta.columns.map((c) => String(c.id)));
  return partitions.map((p) => {
    const keys = Object.keys(p.tops);
    if (keys.every((k) => ids.has(k))) return p;
    return { ...p, tops: Object.fromEntries(Object.entries(p.tops).filter(([k]) => ids.has(k))) };
  });
}
