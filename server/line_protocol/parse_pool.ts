/**
 * Parses large ILP/HTTP bodies on worker threads, so that concurrent requests parse on
 * separate cores while the main thread reads bodies and commits (parsing is most of the
 * CPU of an ingest). The body's buffer is transferred to a worker, which sends the blocks
 * back as transferred typed arrays (block_wire.ts); the outcome is exactly that of parsing
 * in place (parse_body.ts), which is what happens when workers cannot be started.
 *
 * Workers start on first use and stop after a while without work, so an idle server (or a
 * test) holds no threads.
 */
import type { LineError, Precision } from "./line_parser.ts";
import { blocksFromWire, type WireBlock } from "./block_wire.ts";
import { parseBody, type ParsedBody } from "./parse_body.ts";

export interface ParseRequest {
  id: number;
  body: ArrayBuffer;
  /** Byte ranges of `body` parsed in turn, each ending a line (multipart parts). */
  parts: [number, number][];
  precision: Precision;
}

export interface ParseReply {
  id: number;
  error?: LineError;
  blocks?: WireBlock[];
  /** The worker threw (a bug): the message. */
  failure?: string;
}

/** Workers stop after this long without a request. */
const IDLE_MS = 20_000;

interface Task {
  resolve: (r: ParsedBody) => void;
  reject: (e: Error) => void;
}

export class ParsePool {
  readonly #size: number;
  readonly #idle: Worker[] = [];
  readonly #tasks = new Map<Worker, Task>();
  /** Requests waiting for a worker, first come first served. */
  readonly #queue: ((w: Worker | undefined) => void)[] = [];
  #count = 0;
  #nextId = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Workers that failed: never reused. */
  readonly #dead = new WeakSet<Worker>();
  /** Workers could not be started (permissions): parse in place from then on. */
  #unavailable = false;

  constructor(size = Math.max(1, Math.min(2, navigator.hardwareConcurrency ?? 1))) {
    this.#size = size;
  }

  /**
   * Parses `parts` of `body` (ranges relative to it) on a worker. `body` may be detached
   * afterwards: its buffer is handed over when `body` spans all of it.
   */
  async parse(body: Uint8Array, parts: [number, number][], precision: Precision): Promise<ParsedBody> {
    const worker = this.#unavailable ? undefined : await this.#acquire();
    if (!worker) return parseBody(parts.map(([f, t]) => body.subarray(f, t)), precision);
    const buffer = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength &&
        body.buffer instanceof ArrayBuffer
      ? body.buffer
      : body.slice().buffer;
    try {
      return await new Promise<ParsedBody>((resolve, reject) => {
        this.#tasks.set(worker, { resolve, reject });
        const request: ParseRequest = { id: ++this.#nextId, body: buffer, parts, precision };
        worker.postMessage(request, [buffer]);
      });
    } finally {
      this.#tasks.delete(worker);
      this.#release(worker);
    }
  }

  #acquire(): Promise<Worker | undefined> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const idle = this.#idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.#count < this.#size) {
      const w = this.#start();
      if (w) return Promise.resolve(w);
      if (this.#count === 0) return Promise.resolve(undefined);
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  #release(worker: Worker): void {
    if (this.#dead.has(worker)) return;
    const next = this.#queue.shift();
    if (this.#unavailable && !next) {
      worker.terminate(); // closed while this one was parsing
      this.#count--;
      return;
    }
    if (next) return next(worker);
    this.#idle.push(worker);
    if (this.#idle.length === this.#count && this.#timer === undefined) {
      const timer = setTimeout(() => this.#stopIdle(), IDLE_MS);
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
  }

  #start(): Worker | undefined {
    let w: Worker;
    try {
      w = new Worker(new URL("./parse_worker.ts", import.meta.url).href, { type: "module" });
    } catch {
      this.#unavailable = true;
      return undefined;
    }
    this.#count++;
    w.onmessage = (e: MessageEvent<ParseReply>) => {
      const task = this.#tasks.get(w);
      if (!task) return;
      const r = e.data;
      if (r.failure !== undefined) task.reject(new Error(r.failure));
      else if (r.error) task.resolve({ error: r.error, blocks: [] });
      else task.resolve({ blocks: blocksFromWire(r.blocks ?? []) });
    };
    w.onerror = (e: ErrorEvent) => {
      // A worker that failed (or could not load) is dropped; its request fails with 500.
      e.preventDefault();
      this.#dead.add(w);
      this.#count--;
      w.terminate();
      this.#tasks.get(w)?.reject(new Error(`ILP parse worker failed: ${e.message}`));
      const i = this.#idle.indexOf(w);
      if (i >= 0) this.#idle.splice(i, 1);
      // A request waiting for a worker gets a new one (or parses in place).
      const next = this.#queue.shift();
      if (next) next(this.#start());
    };
    return w;
  }

  /** Stops the workers (after the requests they are parsing). */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unavailable = true; // later requests parse in place
    for (const w of this.#idle.splice(0)) {
      w.terminate();
      this.#count--;
    }
  }

  #stopIdle(): void {
    this.#timer = undefined;
    for (const w of this.#idle.splice(0)) {
      w.terminate();
      this.#count--;
    }
  }
}
