/**
 * Large columns of local Parquet partitions decoded on a worker thread (issue #17 "No query
 * blocks another"). The first read of a partition decodes whole columns; hyparquet decodes a
 * row group of strings in one call (20-60 ms for 100,000 rows) and the values are then
 * converted and encoded, ~0.5-0.8 s of main-thread time for a million strings. Here a worker
 * per column does all of it and transfers the native bytes back; the event loop only waits.
 *
 * A worker starts per column (50-300 ms of its own loading, none of it on this thread), so
 * columns under `minRows` rows are decoded in place (sliced with turns:
 * parquet_generic_decode.ts); so are columns past `workersMax` running at once, all where no
 * worker can start, and all on statement workers' threads. A worker that fails to load also
 * falls back to decoding in place; an error of the decode itself (a damaged file) is the
 * caller's.
 */
import type { FileMetaData } from "hyparquet";
import { type ErrorKind, SqlError } from "../base/errors.ts";
import type { StoredColumn } from "./api.ts";
import type { ColumnChunk } from "./column_chunk.ts";

export interface DecodeRequest {
  path: string;
  /** The committed size of the file. */
  size: number;
  metadata: FileMetaData;
  /** Leaf column index in the file. */
  at: number;
  /** Rows of the partition. */
  n: number;
  col: StoredColumn;
}

export type DecodeReply =
  | { kind: "chunk"; chunk: ColumnChunk }
  | { kind: "error"; message: string; errorKind: ErrorKind };

/** Tests lower `minRows`. */
export const decodeThreadTuning = {
  minRows: 200_000,
  workersMax: Math.max(1, navigator.hardwareConcurrency || 2),
};

/** Columns decoded on a worker (tests). */
export const decodeThreadStats = { onWorker: 0 };

let running = 0;

/**
 * Whether this is the main thread: a statement worker's heap (engine/parallel) decodes in place,
 * as it blocks no client, instead of starting threads of its own.
 */
const onMainThread = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === "undefined";

/**
 * Column `at` of the local file `path` as `n` rows of `col` (no dictionary: not a SYMBOL
 * re-keyed through the table's), decoded on a worker; undefined when it must be done here.
 */
export async function decodeOnWorker(
  path: string,
  size: number,
  metadata: FileMetaData,
  at: number,
  n: number,
  col: StoredColumn,
): Promise<ColumnChunk | undefined> {
  if (!onMainThread || running >= decodeThreadTuning.workersMax) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(new URL("./parquet_decode_worker.ts", import.meta.url).href, { type: "module" });
  } catch {
    return undefined; // no permission to start workers here
  }
  running++;
  try {
    const reply = await new Promise<DecodeReply | undefined>((resolve) => {
      worker.onmessage = (e: MessageEvent<DecodeReply>) => resolve(e.data);
      // The worker did not load or died: decode in place.
      worker.onerror = (e) => {
        e.preventDefault();
        resolve(undefined);
      };
      worker.onmessageerror = () => resolve(undefined);
      const request: DecodeRequest = { path, size, metadata, at, n, col };
      try {
        worker.postMessage(request);
      } catch {
        resolve(undefined); // a footer that does not clone: decode in place
      }
    });
    if (reply?.kind === "error") throw new SqlError(reply.message, -1, reply.errorKind);
    if (reply) decodeThreadStats.onWorker++;
    return reply?.chunk;
  } finally {
    worker.terminate();
    running--;
  }
}
