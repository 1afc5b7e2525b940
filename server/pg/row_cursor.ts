/**
 * Streams a result's batches as DataRow messages, stopping after a row limit and resuming
 * where it stopped (Execute with max rows and PortalSuspended, spec/protocols.md §12.5). The
 * output is flushed to the socket whenever it grows past a threshold, so a large result never
 * sits in memory and a slow reader slows the query instead of growing the buffer.
 */
import {
  type Batch,
  type ColumnMeta,
  readValue,
  SqlError,
  type Value,
  yieldIfDue,
} from "../../engine/mod.ts";
import type { ColumnType } from "../../engine/mod.ts";
import type { BufferWriter } from "./buffer_writer.ts";
import type { FieldDescription } from "./backend_messages.ts";
import { writeBinaryCell } from "./encode_binary.ts";
import { writeTextCell } from "./encode_text.ts";
import { pgTypeOf } from "./pg_types.ts";

/** Output past this many bytes is written to the socket before more rows are encoded. */
export const FLUSH_BYTES = 256 * 1024;

type CellWriter = (w: BufferWriter, v: Value, t: ColumnType) => void;

/**
 * The format code of each result column: none = all text, one = all that, else one per
 * column (spec/protocols.md §12.5). BINARY follows the request too, as bytea does in
 * PostgreSQL (text: `\x` hex): QuestDB sends it binary whatever was asked (§12.8), which
 * psycopg 3 reads as an empty value when a text row mixes formats (issue #18).
 */
export function resultFormats(columns: ColumnMeta[], requested: number[]): number[] {
  return columns.map((_c, i) => {
    const f = requested.length === 0 ? 0 : requested.length === 1 ? requested[0] : requested[i] ?? 0;
    return f === 1 ? 1 : 0;
  });
}

/** RowDescription fields for result columns in the given formats. */
export function fieldsOf(columns: ColumnMeta[], formats: number[]): FieldDescription[] {
  return columns.map((c, i) => ({
    name: c.name,
    type: pgTypeOf(c.type),
    format: formats[i] ?? 0,
    attributeNumber: i + 1,
  }));
}

export class RowCursor {
  readonly columns: ColumnMeta[];
  readonly formats: number[];
  readonly #iterator: AsyncIterator<Batch>;
  readonly #writers: CellWriter[];
  #batch: Batch | undefined;
  #row = 0;
  #done = false;
  /** Rows sent so far over all Executes. */
  rowCount = 0;

  constructor(columns: ColumnMeta[], batches: AsyncIterable<Batch>, formats: number[]) {
    this.columns = columns;
    this.formats = formats;
    this.#iterator = batches[Symbol.asyncIterator]();
    this.#writers = formats.map((f) => (f === 1 ? writeBinaryCell : writeTextCell));
  }

  get done(): boolean {
    return this.#done;
  }

  /**
   * Writes up to `maxRows` rows (0 = all); returns the number written. `flush` sends the
   * buffered output; `signal` stops the stream with a "cancelled" error.
   */
  async write(
    w: BufferWriter,
    maxRows: number,
    flush: () => Promise<void>,
    signal?: AbortSignal,
  ): Promise<number> {
    let sent = 0;
    const limit = maxRows > 0 ? maxRows : Infinity;
    const n = this.columns.length;
    const types = this.columns.map((c) => c.type);
    let since = performance.now();
    while (sent < limit) {
      if (!this.#batch || this.#row >= this.#batch.rowCount) {
        if (signal?.aborted) throw new SqlError("cancelled by user", -1, "cancelled");
        const next = await this.#iterator.next();
        if (next.done) {
          this.#done = true;
          break;
        }
        this.#batch = next.value;
        this.#row = 0;
        continue;
      }
      const batch = this.#batch;
      const vectors = batch.columns;
      const end = Math.min(batch.rowCount, this.#row + (limit - sent));
      for (let r = this.#row; r < end; r++) {
        w.begin("D").int16(n);
        for (let c = 0; c < n; c++) this.#writers[c](w, readValue(vectors[c], r), types[c]);
        w.end();
        sent++;
        if (w.length > FLUSH_BYTES) {
          this.#row = r + 1;
          await flush();
          // A write the socket takes at once is no turn: encoding rows holds the loop as long
          // as the engine does, and other clients wait unless it yields too (issue #17). Two
          // turns, as an HTTP stream takes: once DataRows were encoded faster (ASCII cells
          // copied by hand), one turn let an HTTP `SELECT 1` wait 0.3-1.7 s beside a pgwire
          // stream in streaming_fairness_test (max 42-81 ms with two; no throughput change
          // measured: 1M rows to a raw reader 1.0-1.2 s either way).
          since = await yieldIfDue(since, 2);
          if (signal?.aborted) throw new SqlError("cancelled by user", -1, "cancelled");
        }
      }
      this.#row = end;
    }
    this.rowCount += sent;
    if (!this.#done && this.#batch && this.#row >= this.#batch.rowCount && maxRows > 0) {
      // Peek: a portal whose last row was just sent completes now rather than suspending.
      const next = await this.#iterator.next();
      if (next.done) this.#done = true;
      else {
        this.#batch = next.value;
        this.#row = 0;
      }
    }
    return sent;
  }

  /** Stops the underlying stream (releases table snapshots). */
  async close(): Promise<void> {
    this.#done = true;
    try {
      await this.#iterator.return?.();
    } catch {
      // The stream already failed; its error was reported when it happened.
    }
  }
}
