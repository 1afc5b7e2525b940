/**
 * @module
 * Storage: the data root, tables, partitions, column and transaction files, symbol
 * dictionaries and the column cache. The contract is `api.ts`; the on-disk format, the commit
 * protocol and recovery are described in docs/storage.md.
 *
 * Entry point: `openStorage(root)`. Imports only `engine/base`, the `PartitionUnit` type of
 * `engine/sql/ast.ts` and `engine-wasm/mod.ts`; it knows nothing of SQL text, plans or
 * listeners.
 *
 * @example
 * ```ts ignore
 * const storage = await openStorage("./qdb_root");
 * const table = storage.table("trades")!;
 * const snap = table.snapshot();
 * const prices = await snap.read(0, 2, 0, snap.partitions[0].rowCount);
 * snap.release();
 * await storage.close();
 * ```
 */
import type { Storage } from "./api.ts";
import { FileStorage } from "./file_storage.ts";
import type { ObjectStoreConfig } from "./object_store.ts";
import { CACHE_BYTES_DEFAULT } from "./cache_default.ts";
export { type ObjectStoreConfig, parseObjectStore } from "./object_store.ts";

export type * from "./api.ts";
export { SymbolDictView, SymbolTable } from "./symbol_dict.ts";
export { DEFAULT_PARTITION, partitionNameOf, partitionRange, partitionRangeOf } from "./partition_name.ts";
export type { PartitionRange } from "./partition_name.ts";

/** Default column cache budget: a quarter of the machine's memory, bounded (cache_default.ts). */
export { CACHE_BYTES_DEFAULT } from "./cache_default.ts";

export interface StorageOptions {
  /** Bytes of WASM memory the column cache may keep resident. */
  cacheBytes?: number;
  /** The cold store Parquet partitions move to (cold.storage.*; docs/storage.md "Cold storage"). */
  objectStore?: ObjectStoreConfig;
}

/**
 * Opens the data root `root` (created when missing), recovers every table in it to its last
 * committed state, and returns the storage the engine works with.
 */
export function openStorage(root: string, options: StorageOptions = {}): Promise<Storage> {
  return FileStorage.open(root, options.cacheBytes ?? CACHE_BYTES_DEFAULT, options.objectStore);
}
