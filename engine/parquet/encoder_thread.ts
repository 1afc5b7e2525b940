/**
 * A Parquet export encoded on its own worker thread (issue #17 "No query blocks another"):
 * hyparquet-writer encodes a whole row group in one call (hundreds of milliseconds for
 * 100,000 wide rows), which on the main thread held every other client for that long. The
 * main thread sends the result's batches (typed column arrays transferred, text cloned:
 * parallel/batch_wire.ts) and receives the file's bytes as row groups finish; the bytes are
 * exactly those of ParquetResultWriter, which runs in the worker.
 *
 * A small result is encoded in place: starting a worker (loading the writer's modules) costs
 * 50-300 ms, a thousand times what encoding a few thousand cells does. Batches are held
 * (copied) until they pass `IN_PLACE_CELLS`; then the worker starts and gets them all.
 *
 * Each `add` and `finish` is answered by one reply, in order; the caller keeps at most a few
 * requests in flight (`inFlight`), which bounds the memory held between the two threads.
 * Where no worker can be started the writer runs in place, replies ready at once.
 */
import { SqlError } from "../base/errors.ts";
import type { Batch } from "../base/values.ts";
import { BatchDecoder, BatchEncoder } from "../parallel/batch_wire.ts";
import type { EncodeReply, EncodeRequest } from "./encode_protocol.ts";
import {
  type ParquetColumn,
  ParquetResultWriter,
  parquetSchema,
  type ParquetWriteOptions,
} from "./writer.ts";

/**
 * Cells (rows × columns) encoded in place at most: a few milliseconds of encoding, well under
 * a worker's start. Tests lower it.
 */
export const encoderTuning = {
  inPlaceCells: 16_384,
  /**
   * Encoder workers running at once, over every export: one per core. An export past them
   * holds its batches (the caller's few in flight) until one finishes, instead of starting a
   * worker per concurrent export (50 clients exporting Parquet started 50 threads).
   */
  workersMax: Math.max(1, navigator.hardwareConcurrency || 2),
};

/** Encoder workers running, and the exports waiting for one. */
const slots = { used: 0, waiting: [] as (() => void)[] };

function trySlot(): boolean {
  if (slots.used >= encoderTuning.workersMax) return false;
  slots.used++;
  return true;
}

function waitSlot(): Promise<void> {
  return new Promise((resolve) => slots.waiting.push(resolve));
}

function releaseSlot(): void {
  const next = slots.waiting.shift();
  if (next) next(); // the slot passes on
  else slots.used--;
}

/** Encoder workers running now (tests). */
export function encoderWorkersRunning(): number {
  return slots.used;
}

/** Exports that waited for an encoder worker (tests). */
export const encoderSlotStats = { waited: 0 };

/**
 * Encoder workers kept between the files of one caller (a CONVERT PARTITION of many
 * partitions): starting a worker costs 50-300 ms of its own, more than encoding a small
 * partition. A worker whose file ended cleanly waits here for the next file; `close` (the
 * caller's `finally`) terminates them, as an idle worker keeps the process alive.
 */
export class EncoderWorkers {
  readonly idle: Worker[] = [];

  close(): void {
    for (const w of this.idle.splice(0)) w.terminate();
  }
}

export interface EncodedBytes {
  bytes: Uint8Array;
  /** The footer's reply: the file is complete. */
  last: boolean;
}

interface Held {
  add: Extract<EncodeRequest, { kind: "add" }>;
  transfer: ArrayBuffer[];
  /** Answered already (an empty reply while the result was small): posted quiet. */
  answered: boolean;
}

const EMPTY = new Uint8Array(0);

export class ParquetEncoderThread {
  #worker: Worker | undefined;
  /** The in-place writer: a small result, or no worker could be started. */
  #local: ParquetResultWriter | undefined;
  readonly #columns: ParquetColumn[];
  readonly #timestampIndex: number;
  readonly #options: ParquetWriteOptions;
  readonly #encoder = new BatchEncoder();
  /** Batches not yet encoded, while the result is small enough to encode in place. */
  #held: Held[] = [];
  #heldCells = 0;
  readonly #replies: EncodeReply[] = [];
  #wake: (() => void) | undefined;
  #inFlight = 0;
  #closed = false;
  /** Holding a worker slot (released when closed). */
  #slot = false;
  /** Waiting for a worker slot; `finish` was asked meanwhile. */
  #waiting = false;
  #finishWaiting = false;
  /** The worker answered the footer: it is idle and can take another file (`pool`). */
  #ended = false;

  /**
   * Throws a SqlError at once for a column type Parquet export does not support. `worker`
   * false encodes in place whatever the size (a caller with many files open at once).
   */
  constructor(
    columns: ParquetColumn[],
    timestampIndex: number,
    options: ParquetWriteOptions,
    readonly worker = true,
    /** Where this file's worker comes from and returns to once the file ended (else started and terminated). */
    readonly pool?: EncoderWorkers,
  ) {
    this.#columns = columns.map((c) => ({ name: c.name, type: c.type }));
    this.#timestampIndex = timestampIndex;
    this.#options = options;
    parquetSchema(this.#columns, timestampIndex);
  }

  /** Requests sent and not yet answered by `next`. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Whether the rows went to a worker (tests). */
  get onWorker(): boolean {
    return this.#worker !== undefined;
  }

  /** Sends rows [from, to) of `batch`; its arrays are copied, so the batch stays the caller's. */
  add(batch: Batch, from: number, to: number): void {
    this.#inFlight++;
    if (this.#local) {
      this.#replies.push({ kind: "bytes", bytes: this.#local.add(batch, from, to) });
      return;
    }
    // Only the rows asked for are copied and sent.
    const { batch: wire, transfer } = this.#encoder.encode(sliceOf(batch, from, to));
    const add = { kind: "add" as const, batch: wire, from: 0, to: to - from };
    if (this.#worker) return this.#post(add, transfer);
    this.#heldCells += (to - from) * this.#columns.length;
    const small = this.#heldCells <= encoderTuning.inPlaceCells;
    this.#held.push({ add, transfer, answered: small && !this.#waiting });
    if (this.#waiting) return; // answered once a worker takes the held batches
    if (small) {
      this.#replies.push({ kind: "bytes", bytes: EMPTY }); // kept for now
      return;
    }
    if (this.worker) {
      if (trySlot()) return this.#onSlot();
      this.#waiting = true;
      encoderSlotStats.waited++;
      waitSlot().then(() => this.#onSlot());
      return;
    }
    this.#replies.push({ kind: "bytes", bytes: this.#encodeHeld() });
  }

  /**
   * A worker slot is ours: the worker takes the held batches (those answered already quietly:
   * their bytes come with the next reply), or, where none can start, they are encoded here.
   */
  #onSlot(): void {
    this.#slot = true;
    this.#waiting = false;
    if (this.#closed) return this.#releaseSlot();
    const held = this.#held;
    if (!this.#start()) {
      this.#releaseSlot();
      const owed = held.filter((h) => !h.answered).length;
      this.#push({ kind: "bytes", bytes: this.#encodeHeld() });
      for (let i = 1; i < owed; i++) this.#push({ kind: "bytes", bytes: EMPTY });
      if (this.#finishWaiting) this.#finishHere();
      return;
    }
    this.#held = [];
    held.forEach((h) => this.#post({ ...h.add, quiet: h.answered }, h.transfer));
    if (this.#finishWaiting) this.#post({ kind: "finish" });
  }

  #releaseSlot(): void {
    if (!this.#slot) return;
    this.#slot = false;
    releaseSlot();
  }

  /** Asks for the last row group and the footer. */
  finish(): void {
    this.#inFlight++;
    if (this.#worker) return this.#post({ kind: "finish" });
    if (this.#waiting) {
      this.#finishWaiting = true;
      return;
    }
    this.#finishHere();
  }

  #finishHere(): void {
    const head = this.#encodeHeld();
    const tail = this.#local!.finish();
    this.#push({ kind: "end", bytes: concat([head, tail]), written: this.#local!.written });
  }

  /** The answer to the oldest request in flight; throws the worker's error. */
  async next(): Promise<EncodedBytes> {
    if (this.#inFlight === 0) throw new Error("parquet encoder: nothing in flight");
    while (this.#replies.length === 0) {
      if (this.#closed) throw new SqlError("parquet export cancelled", -1, "cancelled");
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
    this.#inFlight--;
    const r = this.#replies.shift()!;
    if (r.kind === "error") {
      this.close();
      throw new SqlError(r.message, r.position ?? -1, "internal");
    }
    if (r.kind === "end") {
      this.#ended = true;
      this.close();
    }
    return { bytes: r.bytes, last: r.kind === "end" };
  }

  /** Stops the worker (done, failed or the client went away); idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#held = [];
    const w = this.#worker;
    if (w && this.pool && this.#ended) {
      w.onmessage = w.onerror = w.onmessageerror = null;
      this.pool.idle.push(w);
    } else {
      w?.terminate();
    }
    this.#releaseSlot();
    this.#wakeUp();
  }

  /** Starts the worker; false when workers cannot be started here (no permission). */
  #start(): boolean {
    let worker: Worker;
    try {
      // A pooled worker takes the `open` below as a new file (encode_worker.ts starts a new writer).
      worker = this.pool?.idle.pop() ??
        new Worker(new URL("./encode_worker.ts", import.meta.url).href, { type: "module" });
    } catch {
      return false;
    }
    this.#worker = worker;
    worker.onmessage = (e: MessageEvent<EncodeReply>) => this.#push(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      this.#push({ kind: "error", message: `parquet encoder failed: ${e.message}` });
    };
    worker.onmessageerror = () => this.#push({ kind: "error", message: "parquet encoder: bad reply" });
    this.#post({
      kind: "open",
      columns: this.#columns,
      timestampIndex: this.#timestampIndex,
      options: this.#options,
    });
    return true;
  }

  /** Encodes the held batches here (the in-place writer from now on); their bytes. */
  #encodeHeld(): Uint8Array {
    this.#local ??= new ParquetResultWriter(this.#columns, this.#timestampIndex, this.#options);
    const decoder = new BatchDecoder(this.#columns.map((c) => c.type));
    const out = this.#held.map((h) => this.#local!.add(decoder.decode(h.add.batch), h.add.from, h.add.to));
    this.#held = [];
    return concat(out);
  }

  #post(req: EncodeRequest, transfer: ArrayBuffer[] = []): void {
    if (this.#closed) return;
    this.#worker!.postMessage(req, transfer);
  }

  #push(r: EncodeReply): void {
    if (this.#closed) return;
    this.#replies.push(r);
    this.#wakeUp();
  }

  #wakeUp(): void {
    const w = this.#wake;
    this.#wake = undefined;
    w?.();
  }
}

/** Rows [from, to) of a batch, as views where the column is a typed array. */
function sliceOf(b: Batch, from: number, to: number): Batch {
  if (from === 0 && to === b.rowCount) return b;
  return {
    rowCount: to - from,
    columns: b.columns.map((v) => ({
      ...v,
      data: ArrayBuffer.isView(v.data) ? v.data.subarray(from, to) : v.data.slice(from, to),
    })),
  };
}

/** The chunks as one array (no copy for one chunk). */
export function concat(chunks: Uint8Array[]): Uint8Array {
  const parts = chunks.filter((c) => c.length > 0);
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of parts) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
