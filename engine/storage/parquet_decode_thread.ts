/**
 * Large columns of local Parquet partitions decoded on a worker thread (issue #17 "No query
 * blocks another"). The first read of a partition decodes whole columns; hyparquet decodes a
 * row group of strings in one call (20-60 ms for 100,000 rows) and the values are then
 * converted and encoded, ~0.5-0.8 s of main-thread time for a million strings. Here a worker
 * per column does all of it and transfers the native bytes back; the event loop only waits.
 *
 * Workers are started once and kept: `new Worker` blocks this thread until the worker's
 * isolate exists (20-80 ms of wall time, measured), which a first read paid per column. An
 * idle worker is terminated after `IDLE_MS` (a timer that does not keep the process alive)
 * and when the storage closes (closeDecodeWorkers), so it holds neither the process nor a
 * test's op sanitizer for long. Columns under `minRows` rows are decoded in place (sliced
 * with turns: parquet_generic_decode.ts); so are columns past `workersMax` running at once,
 * all where no worker can start, and all on statement workers' threads. A worker that fails
 * to load also falls back to decoding in place; an error of the decode itself (a damaged
 * file) is the caller's.
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

/** Columns decoded on a worker, workers started, workers alive now (tests). */
export const decodeThreadStats = { onWorker: 0, started: 0, alive: 0 };

/** Idle workers, most recently used last. */
const idle: Worker[] = [];
let idleTimer: ReturnType<typeof setTimeout> | undefined;
/** How long an idle worker is kept for the next column. */
const IDLE_MS = 5_000;

/**
 * Whether this is the main thread: a statement worker's heap (engine/parallel) decodes in place,
 * as it blocks no client, instead of starting threads of its own.
 */
const onMainThread = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === "undefined";

/** An idle worker, a new one while fewer than `workersMax` are alive, else undefined. */
function takeWorker(): Worker | undefined {
  const kept = idle.pop();
  if (kept) return kept;
  if (decodeThreadStats.alive >= decodeThreadTuning.workersMax) return undefined;
  try {
    const worker = new Worker(new URL("./parquet_decode_worker.ts", import.meta.url).href, {
      type: "module",
    });
    decodeThreadStats.alive++;
    decodeThreadStats.started++;
    return worker;
  } catch {
    return undefined; // no permission to start workers here
  }
}

/** Keeps a worker that answered for the next column; one that failed is ended. */
function giveBack(worker: Worker, answered: boolean): void {
  worker.onmessage = worker.onerror = worker.onmessageerror = null;
  if (!answered) {
    worker.terminate();
    decodeThreadStats.alive--;
    return;
  }
  idle.push(worker);
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  const timer = setTimeout(closeDecodeWorkers, IDLE_MS);
  Deno.unrefTimer(timer);
  idleTimer = timer;
}

/** Ends the idle decode workers (the storage's close; a decode still running keeps its own). */
export function closeDecodeWorkers(): void {
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
  for (const worker of idle.splice(0)) {
    worker.terminate();
    decodeThreadStats.alive--;
  }
}

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
  if (!onMainThread) return undefined;
  const worker = takeWorker();
  if (!worker) return undefined;
  let reply: DecodeReply | undefined;
  try {
    reply = await new Promise<DecodeReply | undefined>((resolve) => {
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
  } finally {
    giveBack(worker, reply !== undefined);
  }
  if (reply?.kind === "error") throw new SqlError(reply.message, -1, reply.errorKind);
  if (reply) decodeThreadStats.onWorker++;
  return reply?.chunk;
}
