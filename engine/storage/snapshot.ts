/**
 * A read snapshot of one table (api.ts `TableSnapshot`): the committed state at the moment it
 * was taken, read through the column cache.
 *
 * Fixed-width columns are cached as the whole logical column of a partition (the column top,
 * if any, materialized as NULLs) and handed out as views; var-size columns cache their
 * offsets and data files and are decoded per read. Every block handed out stays pinned until
 * `release()`.
 */
import { fixedSize, isVarSize } from "../base/types.ts";
import type { SymbolDict, Value, Vector } from "../base/values.ts";
import { assert } from "../base/assert.ts";
import type { FactMemo, PartitionInfo, StoredColumn, TableMeta, TableSnapshot } from "./api.ts";
import { makeState, type TableState } from "./table_state.ts";
import { partitionDir, type PartitionState, topOf, type TxnState } from "./txn_file.ts";
import { type Block, type ColumnCache, type Loader } from "./column_cache.ts";
import { fillNull, fixedVectorData } from "./fixed_codec.ts";
import { dataPath, indexPath } from "./column_files.ts";
import { fileSize, joinPath, listDir, readInto } from "./_fs.ts";
import { decodeRecord } from "./var_column.ts";
import { SymbolDictView, SymbolTable } from "./symbol_dict.ts";
import type { ColumnChunk } from "./column_chunk.ts";
import { encodeOffsets } from "./var_column.ts";
import { SINCE_LAST_TURN, yieldIfDue } from "../exec/event_loop_turn.ts";
import {
  decodeParquetColumn,
  openParquetPartition,
  type ParquetPartitionFile,
  readDictionary,
} from "./parquet_partition.ts";
import { ObjectStore, type ObjectStoreConfig } from "./object_store.ts";

/** What a snapshot needs from its table. */
export interface SnapshotHost {
  readonly tablePath: string;
  readonly tableId: number;
  readonly cache: ColumnCache;
  /** The cold store remote Parquet partitions are read from (cold.storage.enabled). */
  readonly objectStore?: ObjectStore;
  /** Called once when the snapshot is released. */
  released(txn: number): void;
}

/** A snapshot's table folder, metadata and transaction state (structured-cloneable). */
export interface SnapshotOrigin {
  tablePath: string;
  tableId: number;
  meta: TableMeta;
  txn: TxnState;
  /** The cold store's settings (with its credentials: they stay inside the process). */
  objectStore?: ObjectStoreConfig;
}

/**
 * A read-only snapshot of the committed state `origin` over `cache`, for a heap that does not
 * own the table (a Worker). It has no symbol dictionaries: `symbols()` must not be called.
 * The folders it reads stay on disk while the snapshot `origin` came from is live.
 */
export function openSnapshot(origin: SnapshotOrigin, cache: ColumnCache): Snapshot {
  const host: SnapshotHost = {
    tablePath: origin.tablePath,
    tableId: origin.tableId,
    cache,
    objectStore: origin.objectStore ? new ObjectStore(origin.objectStore) : undefined,
    released() {},
  };
  return new Snapshot(host, makeState(origin.meta, 0, origin.txn, new Map()));
}

/** Bound on memoized column facts per cache (a few hundred bytes each). */
const MAX_FACTS = 100_000;
/**
 * Bound on memoized block facts per cache: each holds the partial states of up to
 * BLOCK_SLOTS_MAX groups and aggregates (exec/block_partials.ts), ~5 KiB at most, so the memo
 * stays under ~20 MiB of JavaScript heap; 4,096 blocks are 268M rows of one statement.
 */
const MAX_BLOCK_FACTS = 4_096;

/** Offsets of a decoded Parquet column re-encoded between two turns (a few ms). */
const OFFSETS_SLICE = 131_072;
/** Bytes of a decoded Parquet column's values copied into the cache between two turns. */
const DATA_SLICE_BYTES = 4 * 1024 * 1024;

export class Snapshot implements TableSnapshot {
  readonly meta: TableMeta;
  readonly partitions: readonly PartitionInfo[];
  readonly rowCount: number;
  readonly #state: TableState;
  readonly #host: SnapshotHost;
  /** The newest block this snapshot holds per stream key (each pinned once). */
  readonly #blocks = new Map<string, Block>();
  readonly #pinned: Block[] = [];
  readonly #dicts = new Map<number, SymbolDict>();
  /**
   * Parquet partitions decoded by this snapshot (docs/storage.md "Parquet partitions"): the
   * file per folder, and each column's native form until both of its streams are cached.
   */
  readonly #parquetFiles = new Map<string, Promise<ParquetPartitionFile>>();
  readonly #parquetColumns = new Map<string, Promise<ColumnChunk>>();
  readonly #parquetDicts = new Map<number, Promise<SymbolTable>>();
  #released = false;

  constructor(host: SnapshotHost, state: TableState) {
    this.#host = host;
    this.#state = state;
    this.meta = state.meta;
    this.partitions = state.partitions;
    this.rowCount = state.rowCount;
  }

  async read(partition: number, column: number, from: number, to: number): Promise<Vector> {
    const { part, col } = this.#locate(partition, column);
    assert(from >= 0 && from <= to && to <= part.rowCount, "read: row range out of bounds");
    const type = col.type;
    if (isVarSize(type)) return { type, data: await this.#readVar(part, col, from, to) };
    const block = await this.#fixedBlock(part, col);
    const data = fixedVectorData(type, block.bytes(0, part.rowCount * fixedSize(type)), from, to);
    if (type.tag === "SYMBOL") return { type, data, dict: this.symbols(column) };
    // A partition keeps its rows in designated-timestamp order (scan.ts searches it).
    return column === this.meta.timestampIndex ? { type, data, ascending: true } : { type, data };
  }

  async region(partition: number, column: number): Promise<{ ptr: number; rowCount: number } | undefined> {
    const { part, col } = this.#locate(partition, column);
    if (isVarSize(col.type)) return undefined;
    const block = await this.#fixedBlock(part, col);
    return block.ptr >= 0 ? { ptr: block.ptr, rowCount: part.rowCount } : undefined;
  }

  symbols(column: number): SymbolDict {
    const col = this.meta.columns[column];
    assert(col?.type.tag === "SYMBOL", "symbols: not a SYMBOL column");
    let dict = this.#dicts.get(column);
    if (!dict) {
      const table = this.#state.dicts.get(col.id)!;
      dict = new SymbolDictView(table, this.#state.txn.symbolCounts[col.id] ?? 0);
      this.#dicts.set(column, dict);
    }
    return dict;
  }

  factMemo(partition: number, column: number): FactMemo | undefined {
    const { part, col } = this.#locate(partition, column);
    // The folder version names the bytes (never rewritten in place); the row count and top
    // say which prefix of a partition still receiving appends the fact covers.
    const base = this.#key(part, `${col.id}.d:${col.type.tag}:${part.rowCount}:${topOf(part, col.id)}`);
    const facts = this.#host.cache.facts;
    return {
      get: (tag) => facts.get(`${base}:${tag}`),
      set: (tag, value) => {
        // Stale keys of a growing partition pile up otherwise; facts are cheap to recompute.
        if (facts.size >= MAX_FACTS) facts.clear();
        facts.set(`${base}:${tag}`, value);
      },
    };
  }

  blockMemo(partition: number, columns: readonly number[]): FactMemo | undefined {
    const part = this.#state.txn.partitions[partition];
    // Parquet partitions decode whole columns; their facts are not worth a block memo.
    if (!part || part.parquet) return undefined;
    // The folder names the committed rows; each column's id, type and top what they read as.
    const cols = columns.map((c) => {
      const col = this.meta.columns[c];
      return `${col.id}:${col.type.tag}:${topOf(part, col.id)}`;
    });
    const base = this.#key(part, `blocks:${cols.join(",")}`);
    const facts = this.#host.cache.blockFacts;
    return {
      get: (tag) => {
        const key = `${base}:${tag}`;
        const entry = facts.get(key);
        if (entry === undefined) return undefined;
        // Least recently used first: Map keeps insertion order, a hit moves to the end. It goes
        // back under its stored key: this lookup's new string in the long-lived map would
        // survive the young generation's collections (thousands of hits a second).
        facts.delete(key);
        facts.set(entry.key, entry);
        return entry.value;
      },
      set: (tag, value) => {
        if (facts.size >= MAX_BLOCK_FACTS) facts.delete(facts.keys().next().value!);
        const key = `${base}:${tag}`;
        facts.set(key, { key, value });
      },
    };
  }

  get regionBudgetBytes(): number {
    return this.#host.cache.budgetBytes;
  }

  releasePartition(partition: number): void {
    const part = this.#state.txn.partitions[partition];
    if (!part || this.#released) return;
    const prefix = `${this.#host.tableId}/${partitionDir(part)}/`;
    for (const [key, block] of this.#blocks) {
      if (!key.startsWith(prefix)) continue;
      this.#blocks.delete(key);
      const at = this.#pinned.indexOf(block);
      if (at >= 0) {
        this.#pinned.splice(at, 1);
        this.#host.cache.unpin(block);
      }
    }
  }

  releaseCopies(partition: number): void {
    const part = this.#state.txn.partitions[partition];
    if (!part || this.#released) return;
    const dir = partitionDir(part);
    const prefix = `${this.#host.tableId}/${dir}/`;
    for (const [key, block] of this.#blocks) {
      if (block.ptr >= 0 || !key.startsWith(prefix)) continue;
      this.#blocks.delete(key);
      const at = this.#pinned.indexOf(block);
      if (at >= 0) this.#pinned.splice(at, 1);
      this.#host.cache.unpin(block);
    }
    for (const key of [...this.#parquetColumns.keys()]) {
      if (key.startsWith(`${dir}/`)) this.#parquetColumns.delete(key);
    }
    this.#parquetFiles.delete(dir);
  }

  /** Bytes this snapshot holds in JavaScript memory as copies of columns the cache could not take. */
  get copyBytes(): number {
    let bytes = 0;
    for (const b of this.#blocks.values()) if (b.ptr < 0) bytes += b.capacity;
    return bytes;
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    for (const b of this.#pinned) this.#host.cache.unpin(b);
    this.#pinned.length = 0;
    this.#blocks.clear();
    this.#parquetFiles.clear();
    this.#parquetColumns.clear();
    this.#parquetDicts.clear();
    this.#host.released(this.#state.txn.txn);
  }

  /**
   * Where this snapshot reads and exactly what it sees, as plain data: another heap (a
   * Worker, engine/parallel) opens the same committed state from it with `openSnapshot`.
   */
  origin(): SnapshotOrigin {
    return {
      tablePath: this.#host.tablePath,
      tableId: this.#host.tableId,
      meta: this.meta,
      txn: this.#state.txn,
      ...(this.#host.objectStore ? { objectStore: this.#host.objectStore.config } : {}),
    };
  }

  async partitionByteSize(partition: number): Promise<number> {
    const part = this.#state.txn.partitions[partition];
    assert(part !== undefined, "partitionByteSize: no such partition");
    if (part.parquet?.remote !== undefined) return 0; // nothing on the local disk
    const dir = joinPath(this.#host.tablePath, partitionDir(part));
    let bytes = 0;
    for (const entry of await listDir(dir)) {
      if (!entry.isDirectory) bytes += Math.max(0, await fileSize(joinPath(dir, entry.name)));
    }
    return bytes;
  }

  /** The transaction number this snapshot reads. */
  get txn(): number {
    return this.#state.txn.txn;
  }

  #locate(partition: number, column: number): { part: PartitionState; col: StoredColumn } {
    assert(!this.#released, "read of a released snapshot");
    const part = this.#state.txn.partitions[partition];
    const col = this.meta.columns[column];
    assert(part !== undefined && col !== undefined, "read: no such partition or column");
    return { part, col };
  }

  #key(part: PartitionState, name: string): string {
    return `${this.#host.tableId}/${partitionDir(part)}/${name}`;
  }

  /** A pinned block holding at least `needBytes` of stream `key`. */
  async #block(key: string, needBytes: number, load: Loader): Promise<Block> {
    const held = this.#blocks.get(key);
    if (held && held.validBytes >= needBytes) return held;
    const block = await this.#host.cache.acquire(key, needBytes, load);
    if (this.#released) {
      this.#host.cache.unpin(block);
      assert(false, "read of a released snapshot");
    }
    this.#pinned.push(block);
    this.#blocks.set(key, block);
    return block;
  }

  /** The whole logical column of a partition: `top` NULL rows, then the file's rows. */
  #fixedBlock(part: PartitionState, col: StoredColumn): Promise<Block> {
    const size = fixedSize(col.type);
    const topBytes = topOf(part, col.id) * size;
    const path = dataPath(this.#partPath(part), col);
    if (part.parquet && topBytes === 0) {
      return this.#block(this.#key(part, `${col.id}.d`), part.rowCount * size, async (target, fromByte) => {
        // The whole column at once: decoded straight into the cache block, not copied there.
        const whole = fromByte === 0 && target.length === part.rowCount * size;
        const chunk = await this.#parquetColumn(part, col, whole ? target : undefined);
        assert(chunk.kind === "fixed", "parquet decode: fixed column expected");
        if (chunk.bytes !== target) target.set(chunk.bytes.subarray(fromByte, fromByte + target.length));
      });
    }
    return this.#block(this.#key(part, `${col.id}.d`), part.rowCount * size, async (target, fromByte) => {
      let at = 0;
      if (fromByte < topBytes) {
        at = Math.min(target.length, topBytes - fromByte);
        fillNull(col.type, target.subarray(0, at));
      }
      if (at < target.length) await readInto(path, fromByte + at - topBytes, target.subarray(at));
    });
  }

  async #readVar(part: PartitionState, col: StoredColumn, from: number, to: number): Promise<Value[]> {
    const top = topOf(part, col.id);
    const fileRows = part.rowCount - top;
    const out = new Array<Value>(to - from).fill(null);
    if (to <= top || fileRows === 0) return out;
    const partPath = this.#partPath(part);
    const ipath = indexPath(partPath, col), dpath = dataPath(partPath, col);
    // A Parquet partition's column is decoded into the streams a native one caches.
    const fromParquet = part.parquet !== undefined;
    const parquetVar = async () => {
      const chunk = await this.#parquetColumn(part, col);
      assert(chunk.kind === "var", "parquet decode: var-size column expected");
      return chunk.col;
    };
    const index = await this.#block(
      this.#key(part, `${col.id}.i`),
      (fileRows + 1) * 8,
      fromParquet
        ? async (t, f) => {
          const c = await parquetVar();
          if (f % 8 !== 0 || t.length % 8 !== 0) {
            return void t.set(encodeOffsets(c.offsets, 0, fileRows + 1, 0).subarray(f, f + t.length));
          }
          // Only this block's entries, a slice at a time with turns between: a million of them
          // in one piece held the event loop ~40 ms (issue #17). The slice counts from the last
          // turn anyone took (SINCE_LAST_TURN), not from here: the scan held the loop before.
          const first = f / 8, entries = t.length / 8;
          for (let k = 0; k < entries; k += OFFSETS_SLICE) {
            const n = Math.min(entries - k, OFFSETS_SLICE);
            t.set(encodeOffsets(c.offsets, first + k, first + k + n, 0), k * 8);
            await yieldIfDue(SINCE_LAST_TURN);
          }
        }
        : (t, f) => readInto(ipath, f, t),
    );
    const words = new Uint32Array(index.buffer, index.byteOffset, (fileRows + 1) * 2);
    const offsetOf = (k: number) => words[2 * k] + words[2 * k + 1] * 4294967296;
    const data = await this.#block(
      this.#key(part, `${col.id}.d`),
      offsetOf(fileRows),
      fromParquet
        ? async (t, f) => {
          // Copied a few MiB at a time (the first touch of a fresh block's pages costs most).
          const d = (await parquetVar()).data;
          for (let k = 0; k < t.length; k += DATA_SLICE_BYTES) {
            const n = Math.min(t.length - k, DATA_SLICE_BYTES);
            t.set(d.subarray(f + k, f + k + n), k);
            await yieldIfDue(SINCE_LAST_TURN);
          }
        }
        : (t, f) => readInto(dpath, f, t),
    );
    const bytes = data.bytes(0, offsetOf(fileRows));
    for (let r = Math.max(from, top); r < to; r++) {
      out[r - from] = decodeRecord(col.type, bytes, offsetOf(r - top));
    }
    return out;
  }

  /**
   * Column `col` of a Parquet partition in native form, decoded once per snapshot; decoded
   * into `into` (a fixed column's whole cache block, loaded once) without keeping it here.
   */
  #parquetColumn(part: PartitionState, col: StoredColumn, into?: Uint8Array): Promise<ColumnChunk> {
    const dir = partitionDir(part);
    const key = `${dir}/${col.id}`;
    let chunk = into ? undefined : this.#parquetColumns.get(key);
    if (!chunk) {
      let file = this.#parquetFiles.get(dir);
      if (!file) {
        file = openParquetPartition(this.#partPath(part), part.parquet!, this.#host.objectStore);
        this.#parquetFiles.set(dir, file);
      }
      chunk = (async () => {
        const dict = col.type.tag === "SYMBOL" ? await this.#parquetDict(col.id) : undefined;
        return decodeParquetColumn(await file, part, col, dict, into);
      })();
      if (into) return chunk;
      this.#parquetColumns.set(key, chunk);
      chunk.catch(() => this.#parquetColumns.delete(key));
    }
    return chunk;
  }

  /** The committed dictionary of a SYMBOL column, read from its file (also in a Worker). */
  #parquetDict(columnId: number): Promise<SymbolTable> {
    let dict = this.#parquetDicts.get(columnId);
    if (!dict) {
      const count = this.#state.txn.symbolCounts[columnId] ?? 0;
      const own = this.#state.dicts.get(columnId);
      dict = own
        ? Promise.resolve(copyOf(own, count))
        : readDictionary(this.#host.tablePath, columnId, count);
      this.#parquetDicts.set(columnId, dict);
    }
    return dict;
  }

  #partPath(part: PartitionState): string {
    return `${this.#host.tablePath}/${partitionDir(part)}`;
  }
}

/** The first `count` entries of a dictionary as a private table (re-keying never adds to it). */
function copyOf(table: SymbolTable, count: number): SymbolTable {
  const values: string[] = [];
  for (let k = 0; k < count; k++) values.push(table.valueOf(k)!);
  return SymbolTable.of(values);
}
