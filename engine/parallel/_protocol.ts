/**
 * The messages between the worker pool and a worker heap: plain, structured-cloneable data.
 */
import type { HeapScan, Partials } from "../exec/fast_aggregate.ts";
import type { HashJob, HashPartial, Morsel, RowPacket } from "../exec/vector/hash_parallel.ts";
import type { SampleByJob, SampleByMorsel, SampleByPartial } from "../exec/sample_by_parallel.ts";
import type { TopNJob, TopNPartial } from "../exec/vector/top_n_parallel.ts";
import type { SetOpJob, SetOpPartial } from "../exec/vector/setop_parallel.ts";
import type { SnapshotOrigin } from "../storage/snapshot.ts";
import type { StatementReply, StatementRequest } from "./statement_protocol.ts";

export type HeapRequest =
  /** First message: sizes of the worker's WASM memory and of its column cache. */
  | { kind: "init"; memoryBytes: number; cacheBytes: number; nice: number }
  | {
    kind: "aggregate";
    id: number;
    /** Cache prefixes forgotten on the main heap since the previous task to this worker. */
    forget: string[];
    origin: SnapshotOrigin;
    job: HeapScan;
    /** Indexes into `origin.txn.partitions`. */
    partitions: number[];
  }
  /** One morsel of a vectorized hash aggregation (exec/vector/hash_parallel.ts). */
  | {
    kind: "hash";
    id: number;
    forget: string[];
    origin: SnapshotOrigin;
    job: HashJob;
    morsel: Morsel;
  }
  /** Radix aggregation: one morsel's kept rows cut into `parts` packets by key hash. */
  | {
    kind: "radixSplit";
    id: number;
    forget: string[];
    origin: SnapshotOrigin;
    job: HashJob;
    morsel: Morsel;
    /** The grouping of this heap (which compiled the job's expressions). */
    state: number;
    parts: number;
  }
  /** Radix aggregation: a packet of morsel `index` folded into the heap's grouping `state`. */
  | { kind: "radixRows"; id: number; job: HashJob; state: number; packet: RowPacket; index: number }
  /** Radix aggregation: the final groups of the heap's grouping `state`, then forgotten. */
  | { kind: "radixFinish"; id: number; job: HashJob; state: number }
  /** Forgets the grouping `state` (no reply). */
  | { kind: "radixDrop"; state: number }
  /** One morsel of a SAMPLE BY fast path (exec/sample_by_parallel.ts). */
  | {
    kind: "sampleBy";
    id: number;
    forget: string[];
    origin: SnapshotOrigin;
    job: SampleByJob;
    morsel: SampleByMorsel;
  }
  /** One morsel of a top-N (exec/vector/top_n_parallel.ts). */
  | {
    kind: "topN";
    id: number;
    forget: string[];
    origin: SnapshotOrigin;
    job: TopNJob;
    morsel: Morsel;
  }
  /** One hash partition of a set operation over two tables (exec/vector/setop_parallel.ts). */
  | {
    kind: "setop";
    id: number;
    forget: string[];
    /** The left and right tables' committed states. */
    origins: SnapshotOrigin[];
    job: SetOpJob;
    part: number;
  }
  /** Loads the statement runner now, so that the first statement does not wait for it. */
  | { kind: "preload"; id: number }
  /** A whole statement's messages (parallel/statement_worker.ts), outside the morsel queue. */
  | StatementRequest;

export type HeapReply =
  | { kind: "ready" }
  | { kind: "failed"; message: string }
  | { kind: "partials"; id: number; partials: Partials }
  | { kind: "hashPartial"; id: number; partial: HashPartial }
  /** A radix fold's groups so far on the heap. */
  | { kind: "radixFolded"; id: number; groups: number }
  | { kind: "radixPackets"; id: number; packets: RowPacket[] }
  | { kind: "sampleByPartial"; id: number; partial: SampleByPartial }
  | { kind: "topNPartial"; id: number; partial: TopNPartial }
  | { kind: "setopPartial"; id: number; partial: SetOpPartial }
  /** The heap could not hold what the kernels need: the query runs on the main heap. */
  | { kind: "unavailable"; id: number }
  | { kind: "error"; id: number; message: string }
  /** The statement runner is loaded (answer to `preload`). */
  | { kind: "preloaded"; id: number }
  | StatementReply;
