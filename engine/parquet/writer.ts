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
  /**
   * A numeric column chunk that the codec does not shrink (random doubles: LZ4 grows them) is
   * stored uncompressed: smaller, and a reader can read its values straight into place.
   * Parquet allows a codec per column chunk; on for partition files, off for exports (the
   * codec asked for is used throughout).
   */
  uncompressedWhenNoGain?: boolean;
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

/**
 * The file schema of a result's columns; throws a SqlError for a column type Parquet export
 * does not support (callers that encode elsewhere check this first, to answer with an error
 * before any byte is sent).
 */
export function parquetSchema(columns: ParquetColumn[], timestampIndex: number): SchemaElement[] {
  return [
    { name: "schema", num_children: columns.length },
    ...columns.map((c, i) => schemaElementOf(c.name, c.type, i === timestampIndex)),
  ];
}

type Cell = null | boolean | number | bigint | string | Uint8Array | undefined;

export class ParquetResultWriter {
  readonly #writer = new DrainingWriter(1 << 20);
  readonly #pq: ParquetWriter;
  readonly #columns: ParquetColumn[];
  readonly #convert: ((v: Vector, i: number) => Cell)[];
  readonly #compress: Record<string, (input: Uint8Array) => Uint8Array>;
  #pending: Cell[][];
  #rows = 0;
  /** Rows written so far, for COPY's and the bench's counts. */
  written = 0;

  constructor(columns: ParquetColumn[], timestampIndex: number, readonly options: ParquetWriteOptions) {
    this.#columns = columns;
    const schema = parquetSchema(columns, timestampIndex);
    this.#convert = columns.map((c) => converterOf(c.type));
    this.#pending = columns.map(() => []);
    this.#compress = compressorsFor(options.level);
    this.#pq = new ParquetWriter({
      writer: this.#writer,
      schema,
      codec: options.codec,
      compressors: this.#compress,
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
      columnData: this.#columns.map((c, k) => ({
        name: c.name,
        data: this.#pending[k] as never,
        ...(this.#incompressible(c.type, this.#pending[k]) ? { codec: "UNCOMPRESSED" as const } : {}),
      })),
      rowGroupSize: n,
      pageSize: this.options.dataPageSize,
    });
    this.written += n;
    this.#pending = this.#columns.map(() => []);
    this.#rows = 0;
  }

  /** Whether the codec leaves a sample of the chunk's PLAIN bytes at over 90% of its size. */
  #incompressible(type: ColumnType, cells: Cell[]): boolean {
    const { codec, uncompressedWhenNoGain } = this.options;
    if (!uncompressedWhenNoGain || codec === "UNCOMPRESSED") return false;
    const sample = plainSample(type, cells);
    if (!sample || sample.length < 1024) return false;
    const compress = this.#compress[codec];
    return compress !== undefined && compress(sample).length > sample.length * 0.9;
  }
}

/** Values sampled from a chunk to judge its compressibility. */
const SAMPLE_VALUES = 8192;

/** The PLAIN bytes of the first non-NULL cells of a fixed-size numeric column; else undefined. */
function plainSample(type: ColumnType, cells: Cell[]): Uint8Array | undefined {
  const values = [];
  for (let i = 0; i < cells.length && values.length < SAMPLE_VALUES; i++) {
    if (cells[i] !== null && cells[i] !== undefined) values.push(cells[i]);
  }
  switch (type.tag) {
    case "DOUBLE":
      return new Uint8Array(Float64Array.from(values as number[]).buffer);
    case "FLOAT":
      return new Uint8Array(Float32Array.from(values as number[]).buffer);
    case "INT":
      return new Uint8Array(Int32Array.from(values as number[]).buffer);
    case "LONG":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return typeof values[0] === "bigint"
        ? new Uint8Array(BigInt64Array.from(values as bigint[]).buffer)
        : undefined;
    default:
      return undefined;
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
