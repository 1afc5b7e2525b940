/**
 * A Parquet export encoded on its own worker thread (issue #17 "No query blocks another"):
 * hyparquet-writer encodes a whole row group in one call (hundreds of milliseconds for
 * 100,000 wide rows), which on the main thread held every other client for that long. The
 * main thread sends the result's batches (typed column arrays transferred, text cloned:
 * parallel/batch_wire.ts) and receives the file's bytes as row groups finish; the bytes are
 * exactly those of ParquetResultWriter, which runs in the worker.
 *
 * Each `add` and `finish` is answered by one reply, in order; the caller keeps at most a few
 * requests in flight (`inFlight`), which bounds the memory held between the two threads.
 * Where no worker can be started the writer runs in place, replies ready at once.
 */
import { SqlError } from "../base/errors.ts";
import type { Batch } from "../base/values.ts";
import { BatchEncoder } from "../parallel/batch_wire.ts";
import type { EncodeReply, EncodeRequest } from "./encode_protocol.ts";
import {
  type ParquetColumn,
  ParquetResultWriter,
  parquetSchema,
  type ParquetWriteOptions,
} from "./writer.ts";

export interface EncodedBytes {
  bytes: Uint8Array;
  /** The footer's reply: the file is complete. */
  last: boolean;
}

export class ParquetEncoderThread {
  readonly #worker: Worker | undefined;
  /** The in-place writer where no worker could be started. */
  readonly #local: ParquetResultWriter | undefined;
  readonly #encoder = new BatchEncoder();
  readonly #replies: EncodeReply[] = [];
  #wake: (() => void) | undefined;
  #inFlight = 0;
  #closed = false;

  /** Throws a SqlError at once for a column type Parquet export does not support. */
  constructor(columns: ParquetColumn[], timestampIndex: number, options: ParquetWriteOptions) {
    const cols = columns.map((c) => ({ name: c.name, type: c.type }));
    parquetSchema(cols, timestampIndex);
    let worker: Worker | undefined;
    try {
      worker = new Worker(new URL("./encode_worker.ts", import.meta.url).href, { type: "module" });
    } catch {
      worker = undefined; // no permission to start workers: encode in place
    }
    if (!worker) {
      this.#local = new ParquetResultWriter(cols, timestampIndex, options);
      return;
    }
    this.#worker = worker;
    worker.onmessage = (e: MessageEvent<EncodeReply>) => this.#push(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      this.#push({ kind: "error", message: `parquet encoder failed: ${e.message}` });
    };
    worker.onmessageerror = () => this.#push({ kind: "error", message: "parquet encoder: bad reply" });
    this.#post({ kind: "open", columns: cols, timestampIndex, options });
  }

  /** Requests sent and not yet answered by `next`. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Sends rows [from, to) of `batch`; its arrays are copied, so the batch stays the caller's. */
  add(batch: Batch, from: number, to: number): void {
    this.#inFlight++;
    if (this.#local) {
      this.#replies.push({ kind: "bytes", bytes: this.#local.add(batch, from, to) });
      return;
    }
    const { batch: wire, transfer } = this.#encoder.encode(batch);
    this.#post({ kind: "add", batch: wire, from, to }, transfer);
  }

  /** Asks for the last row group and the footer. */
  finish(): void {
    this.#inFlight++;
    if (this.#local) {
      this.#replies.push({ kind: "end", bytes: this.#local.finish(), written: this.#local.written });
      return;
    }
    this.#post({ kind: "finish" });
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
    if (r.kind === "end") this.close();
    return { bytes: r.bytes, last: r.kind === "end" };
  }

  /** Stops the worker (done, failed or the client went away); idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#worker?.terminate();
    this.#wakeUp();
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
