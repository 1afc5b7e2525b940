/**
 * Streams a query result into a Parquet file one row group at a time (issue #21): batches
 * are buffered as column arrays until `rowGroupSize` rows, then encoded by hyparquet-writer
 * and handed out as bytes, so a large export holds one row group in memory, never the result.
 */
import type { CompressionCodec, SchemaElement } from "hyparquet";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import type { ColumnType } from "../base/types.ts";
import { type Batch, readValue, type Vector } from "../base/values.ts";
import { compressorsFor } from "./codecs.ts";
import { geohashWidth, schemaElementOf } from "./schema.ts";

export interface ParquetWriteOptions {
  codec: CompressionCodec;
  /** Codec level; ≤ 0 picks the codec's default. */
  level: number;
  rowGroupSize: number;
  dataPageSize: number;
  statistics: boolean;
}

/** QuestDB's export defaults (cairo.parquet.export.*): LZ4_RAW, 100,000-row groups, 1 MiB pages. */
export const PARQUET_EXPORT_DEFAULTS: ParquetWriteOptions = {
  codec: "LZ4_RAW",
  level: 0,
  rowGroupSize: 100_000,
  dataPageSize: 1024 * 1024,
  statistics: true,
};

export interface ParquetColumn {
  name: string;
  type: ColumnType;
}

/** A ByteWriter whose written bytes can be taken out between row groups (offsets keep counting). */
class DrainingWriter extends ByteWriter {
  take(): Uint8Array {
    const out = new Uint8Array(this.buffer.slice(0, this.index));
    this.index = 0;
    return out;
  }
}

type Cell = null | boolean | number | bigint | string | Uint8Array | undefined;

export class ParquetResultWriter {
  readonly #writer = new DrainingWriter(1 << 20);
  readonly #pq: ParquetWriter;
  readonly #columns: ParquetColumn[];
  readonly #convert: ((v: Vector, i: number) => Cell)[];
  #pending: Cell[][];
  #rows = 0;
  /** Rows written so far, for COPY's and the bench's counts. */
  written = 0;

  constructor(columns: ParquetColumn[], timestampIndex: number, readonly options: ParquetWriteOptions) {
    this.#columns = columns;
    const schema: SchemaElement[] = [
      { name: "schema", num_children: columns.length },
      ...columns.map((c, i) => schemaElementOf(c.name, c.type, i === timestampIndex)),
    ];
    this.#convert = columns.map((c) => converterOf(c.type));
    this.#pending = columns.map(() => []);
    this.#pq = new ParquetWriter({
      writer: this.#writer,
      schema,
      codec: options.codec,
      compressors: compressorsFor(options.level),
      statistics: options.statistics,
      createdBy: "qdb-ts (QuestDB-compatible)",
    });
  }

  /** Appends a batch; returns the bytes of any row groups it completed (and the file header). */
  add(batch: Batch, from = 0, to = batch.rowCount): Uint8Array {
    const size = this.options.rowGroupSize;
    for (let i = from; i < to; i++) {
      for (let c = 0; c < this.#columns.length; c++) {
        this.#pending[c].push(this.#convert[c](batch.columns[c], i));
      }
      if (++this.#rows === size) this.#flushGroup();
    }
    return this.#writer.take();
  }

  /** Writes the last row group and the footer; returns the remaining bytes of the file. */
  finish(): Uint8Array {
    if (this.#rows > 0) this.#flushGroup();
    this.#pq.finish();
    return this.#writer.take();
  }

  #flushGroup(): void {
    const n = this.#rows;
    this.#pq.write({
      columnData: this.#columns.map((c, k) => ({ name: c.name, data: this.#pending[k] as never })),
      rowGroupSize: n,
      pageSize: this.options.dataPageSize,
    });
    this.written += n;
    this.#pending = this.#columns.map(() => []);
    this.#rows = 0;
  }
}

/** Reads cell `i` of a vector in the form hyparquet-writer takes for the column's schema. */
function converterOf(t: ColumnType): (v: Vector, i: number) => Cell {
  switch (t.tag) {
    case "BYTE":
    case "SHORT":
    case "CHAR":
      return (v, i) => (v.data as Int16Array)[i];
    case "IPV4":
      return (v, i) => (v.data as Int32Array)[i] === 0 ? null : (v.data as Int32Array)[i];
    case "LONG256":
      return (v, i) => {
        const x = readValue(v, i) as bigint | null;
        return x === null ? null : long256Bytes(x);
      };
    case "GEOHASH": {
      const wide = geohashWidth(t.geoBits) === 64;
      return (v, i) => {
        const x = readValue(v, i) as bigint | null;
        return x === null ? null : wide ? x : Number(x);
      };
    }
    default:
      return (v, i) => readValue(v, i) as Cell;
  }
}

/** LONG256 as QuestDB lays it out: four 64-bit words, least significant first, little-endian. */
function long256Bytes(x: bigint): Uint8Array {
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let w = 0; w < 4; w++) view.setBigUint64(w * 8, BigInt.asUintN(64, x >> BigInt(64 * w)), true);
  return out;
}
