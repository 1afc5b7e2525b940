/**
 * What the metrics endpoint reads from the engine: the counters of engine/base/counters.ts and
 * gauges computed when scraped (column cache, WebAssembly heap, WAL transactions).
 */
import { wasmMemory } from "../engine-wasm/mod.ts";
import type { Storage } from "./storage/api.ts";
import type { ColumnCache } from "./storage/column_cache.ts";

export { engineStats, LATENCY_BUCKETS_SECONDS, recordStatement } from "./base/counters.ts";

/** Gauges read when the metrics are scraped: memory of the column cache and WAL transactions. */
export interface ResourceStats {
  /** Bytes of WASM memory the main heap's column cache holds, and may hold. */
  cacheUsedBytes: number;
  cacheBudgetBytes: number;
  /** Size of the main WebAssembly heap (linear memory). */
  wasmHeapBytes: number;
  /** Sum of the committed transaction numbers of WAL tables (QuestDB's questdb_wal_seq_txn). */
  walSeqTxn: number;
  /** Sum of the applied ones: the same here, since a commit is applied before it returns. */
  walWriterTxn: number;
  tableCount: number;
}

export function resourceStats(storage: Storage): ResourceStats {
  const cache = (storage as { cache?: ColumnCache }).cache;
  let walTxn = 0;
  const tables = storage.tables();
  for (const m of tables) if (m.wal) walTxn += storage.table(m.name)?.txn ?? 0;
  return {
    cacheUsedBytes: cache?.residentBytes ?? 0,
    cacheBudgetBytes: cache?.budgetBytes ?? 0,
    wasmHeapBytes: wasmMemory().buffer.byteLength,
    walSeqTxn: walTxn,
    walWriterTxn: walTxn,
    tableCount: tables.length,
  };
}
