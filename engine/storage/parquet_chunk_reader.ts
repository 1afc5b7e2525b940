/**
 * Column chunk reads of a local Parquet partition file (issue #21 "Speed"). A column's decode
 * reads one chunk per row group; opening the file for each (open, seek, read, close) and
 * allocating a zeroed buffer for each cost as much as decoding a DOUBLE column. Here one
 * handle serves all the chunk reads of a column, one read at a time (seek then read: the
 * handle has one position), into buffers taken back once their chunk is decoded.
 */
import { SqlError } from "../base/errors.ts";

/** Recycled chunk buffers (per heap: each worker has its own). */
const free: ArrayBuffer[] = [];
/** Enough for the read-ahead of a couple of columns decoded at the same time. */
const MAX_FREE = 12;

function take(length: number): Uint8Array {
  for (let i = 0; i < free.length; i++) {
    if (free[i].byteLength >= length) {
      const buf = free[i];
      free[i] = free[free.length - 1];
      free.pop();
      return new Uint8Array(buf, 0, length);
    }
  }
  // Rounded up so that a buffer fits the slightly different sizes of the next chunks.
  return new Uint8Array(new ArrayBuffer(Math.ceil(length / 65536) * 65536), 0, length);
}

/** Gives back a buffer `read` returned; the caller holds no view of it any more. */
export function recycleChunk(chunk: Uint8Array): void {
  if (chunk.byteOffset !== 0) return;
  const buf = chunk.buffer as ArrayBuffer;
  if (free.length < MAX_FREE) {
    free.push(buf);
    return;
  }
  // Full: a larger buffer replaces the smallest (small page-header reads must not crowd out
  // the chunk-sized ones).
  let least = 0;
  for (let i = 1; i < free.length; i++) if (free[i].byteLength < free[least].byteLength) least = i;
  if (free[least].byteLength < buf.byteLength) free[least] = buf;
}

export class LocalChunkReader {
  readonly #path: string;
  readonly #file: Promise<Deno.FsFile>;
  #queue: Promise<unknown> = Promise.resolve();
  /** The handle's file position when known (reads run one at a time), else -1. */
  #position = 0;

  constructor(path: string) {
    this.#path = path;
    this.#file = Deno.open(path, { read: true }).catch((e) => {
      throw new SqlError(
        `could not open parquet partition file [file=${path}, error=${e.message}]`,
        -1,
        "io",
      );
    });
    this.#file.catch(() => {}); // reported by the first read
  }

  /** Bytes [start, end) of the file; reads run one after another on the one handle. */
  read = (start: number, end: number): Promise<Uint8Array> => {
    const done = this.#queue.then(() => this.#readAt(start, end));
    this.#queue = done.catch(() => {});
    return done;
  };

  /**
   * Bytes [start, end) of the file into `target` (a view of the column's cache block: the
   * values of an uncompressed page land in place, with no second copy).
   */
  readInto = (start: number, end: number, target: Uint8Array): Promise<void> => {
    if (target.length !== end - start) return Promise.reject(new Error("readInto: target size"));
    const done = this.#queue.then(() => this.#readAt(start, end, target));
    this.#queue = done.catch(() => {});
    return done.then(() => {});
  };

  async #readAt(start: number, end: number, into?: Uint8Array): Promise<Uint8Array> {
    const file = await this.#file;
    const out = into ?? take(end - start);
    // A page's values right after its header: no seek (each file op is a round trip to
    // the runtime's I/O threads).
    if (this.#position !== start) await file.seek(start, Deno.SeekMode.Start);
    this.#position = -1; // unknown until the read completes
    let done = 0;
    while (done < out.length) {
      const n = await file.read(out.subarray(done));
      if (n === null || n === 0) {
        throw new SqlError(`parquet file is shorter than committed [file=${this.#path}]`, -1, "io");
      }
      done += n;
    }
    this.#position = end;
    return out;
  }

  /** Closes the handle after the reads in flight (a decode that gave up may leave some). */
  async close(): Promise<void> {
    await this.#queue;
    try {
      (await this.#file).close();
    } catch {
      // never opened
    }
  }
}
