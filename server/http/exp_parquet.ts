/**
 * GET /exp?fmt=parquet (issue #21): the query's result as one Parquet file, streamed one row
 * group at a time with backpressure, encoded on a worker thread. QuestDB's parameters: compression_codec,
 * compression_level, row_group_size, data_page_size, statistics_enabled, parquet_version,
 * raw_array_encoding, partition_by (NONE only: one file per response). Defaults come from
 * cairo.parquet.export.* (LZ4_RAW as QuestDB).
 */
import {
  type Batch,
  type ColumnMeta,
  PARQUET_EXPORT_DEFAULTS,
  ParquetEncoderThread,
  type ParquetWriteOptions,
  parseParquetCodec,
  SqlError,
  yieldIfDue,
} from "../../engine/mod.ts";
import { type Params, text } from "./query_params.ts";

/** Reads the Parquet options of a request over `defaults`; a bad value is a SqlError. */
export function parquetOptions(params: Params, defaults: ParquetWriteOptions): ParquetWriteOptions {
  const o = { ...defaults };
  const codec = text(params, "compression_codec");
  if (codec !== undefined) o.codec = parseParquetCodec(codec);
  o.level = intParam(params, "compression_level", o.level, 0, 22);
  o.rowGroupSize = intParam(params, "row_group_size", o.rowGroupSize, 1, 10_000_000);
  o.dataPageSize = intParam(params, "data_page_size", o.dataPageSize, 1024, 1 << 30);
  const stats = text(params, "statistics_enabled");
  if (stats !== undefined) o.statistics = boolParam("statistics_enabled", stats);
  // Pages are always written as data page v2 by the library; both versions are read by every
  // current reader, so the parameter is validated and otherwise has no effect.
  intParam(params, "parquet_version", 2, 1, 2);
  const raw = text(params, "raw_array_encoding");
  if (raw !== undefined) boolParam("raw_array_encoding", raw); // no array columns here
  const partitionBy = text(params, "partition_by");
  if (partitionBy !== undefined && partitionBy.toUpperCase() !== "NONE") {
    throw new SqlError(`partition_by=${partitionBy} is not supported by /exp, use COPY ... TO`, 0);
  }
  return o;
}

function intParam(params: Params, key: string, fallback: number, min: number, max: number): number {
  const raw = text(params, key);
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new SqlError(`invalid ${key} [value=${raw}, expected ${min}..${max}]`, 0);
  }
  return n;
}

function boolParam(key: string, raw: string): boolean {
  const v = raw.toLowerCase();
  if (v !== "true" && v !== "false") throw new SqlError(`invalid ${key} [value=${raw}]`, 0);
  return v === "true";
}

/** Requests (batches, the footer) the encoder worker may hold: bounds memory between the threads. */
const IN_FLIGHT = 3;
/** Rows of a batch handed to the encoder at once. */
const SLICE_ROWS = 8192;

/**
 * The response body: row groups as they fill, the footer at the end; `skip`/`stop` are /exp's
 * limit. The rows are encoded on a worker (ParquetEncoderThread, issue #17): the main thread
 * only reads batches and hands them over, a few ahead of the encoder, and sends bytes as the
 * client takes them. A client that goes away stops the worker and the query.
 */
export function parquetStream(
  columns: ColumnMeta[],
  timestampIndex: number,
  iterator: AsyncIterator<Batch>,
  first: IteratorResult<Batch> | undefined,
  options: ParquetWriteOptions,
  skip: number,
  stop: number,
): ReadableStream<Uint8Array> {
  const encoder = new ParquetEncoderThread(columns, timestampIndex, options);
  let row = 0;
  let inputDone = false;
  let since = performance.now();
  // The batch being handed over and its rows [at, hi) still to send: a batch goes in slices,
  // with a turn for other clients between them when due (copying and cloning 65,536 rows of
  // text at once held the loop for tens of milliseconds).
  let batch: Batch | undefined;
  let at = 0, hi = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // Loop until some bytes are ready: a row group spans many batches.
        for (;;) {
          if (inputDone || encoder.inFlight >= IN_FLIGHT) {
            const out = await encoder.next();
            if (out.bytes.length > 0) controller.enqueue(out.bytes);
            if (out.last) controller.close();
            if (out.last || out.bytes.length > 0) return;
            continue;
          }
          since = await yieldIfDue(since, 2);
          if (batch && at < hi) {
            const end = Math.min(hi, at + SLICE_ROWS);
            encoder.add(batch, at, end);
            at = end;
            continue;
          }
          const r = first ?? await iterator.next();
          first = undefined;
          if (r.done || row >= stop) {
            if (!r.done) await iterator.return?.();
            inputDone = true;
            encoder.finish();
            continue;
          }
          batch = r.value;
          at = Math.max(0, Math.min(batch.rowCount, skip - row));
          hi = Math.max(at, Math.min(batch.rowCount, stop - row));
          row += batch.rowCount;
        }
      } catch (err) {
        encoder.close();
        if (!inputDone) await iterator.return?.();
        throw err;
      }
    },
    async cancel() {
      encoder.close();
      if (!inputDone) await iterator.return?.();
    },
  });
}

/** The export defaults of server.conf (QuestDB's cairo.parquet.export.* keys). */
export function parquetExportDefaults(config: {
  get(key: string): string | undefined;
  int(key: string, fallback: number): number;
}): ParquetWriteOptions {
  const d = PARQUET_EXPORT_DEFAULTS;
  const codec = config.get("cairo.parquet.export.compression.codec");
  const stats = config.get("cairo.parquet.export.statistics.enabled");
  return {
    codec: codec ? parseParquetCodec(codec) : d.codec,
    level: config.int("cairo.parquet.export.compression.level", d.level),
    rowGroupSize: config.int("cairo.parquet.export.row.group.size", d.rowGroupSize),
    dataPageSize: config.int("cairo.parquet.export.data.page.size", d.dataPageSize),
    statistics: stats === undefined ? d.statistics : stats.toLowerCase() !== "false",
  };
}
