/**
 * read_parquet('file') / parquet_scan('file') (issue #21): a table function over Parquet
 * files under cairo.sql.copy.root. The footer is read when the query is planned (it gives
 * the columns); rows are decoded by hyparquet one row group at a time.
 */
import {
  type ColumnChunk,
  type FileMetaData,
  parquetMetadata,
  parquetRead,
  type SchemaElement,
} from "hyparquet";
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T } from "../base/types.ts";
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import { allocVectorData, type Batch, type Value, writeValue } from "../base/values.ts";
import { decompressors } from "./codecs.ts";

export interface ParquetSource {
  path: string;
  metadata: FileMetaData;
  /** Leaf columns in file order, with the engine type each is read as. */
  columns: { name: string; type: ColumnType; element: SchemaElement }[];
}

/**
 * Resolves `name` inside `root`: relative names are joined to it, absolute ones must lie in
 * it, and `..` segments are refused outright (QuestDB refuses them too).
 */
export function resolveInRoot(root: string, name: string, pos: number): string {
  if (name.split(/[\\/]/).includes("..")) {
    throw new SqlError(`'..' is not allowed in a file path [path=${name}]`, pos);
  }
  const base = root.replace(/\/+$/, "");
  const path = name.startsWith("/") ? name.replace(/\/+/g, "/") : `${base}/${name}`;
  if (path !== base && !path.startsWith(base + "/")) {
    throw new SqlError(`file is outside cairo.sql.copy.root [path=${name}, root=${base}]`, pos);
  }
  return path;
}

/** Opens a file's footer synchronously (the planner is synchronous); errors name the file. */
export function openParquet(path: string, pos: number): ParquetSource {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    throw new SqlError(`could not open parquet file [path=${path}]`, pos);
  }
  try {
    const size = file.statSync().size;
    if (size < 12) throw new SqlError(`not a parquet file [path=${path}]`, pos);
    const tail = readAt(file, size - 8, 8);
    const magic = new TextDecoder().decode(tail.subarray(4));
    if (magic !== "PAR1") throw new SqlError(`not a parquet file [path=${path}]`, pos);
    const footerLength = new DataView(tail.buffer, tail.byteOffset, 8).getUint32(0, true);
    if (footerLength + 12 > size) throw new SqlError(`corrupt parquet footer [path=${path}]`, pos);
    const footer = readAt(file, size - 8 - footerLength, footerLength + 8);
    // Our parsers keep timestamps exact in the column statistics too (row-group skipping).
    const metadata = parquetMetadata(footer.buffer as ArrayBuffer, { parsers: PARQUET_PARSERS as never });
    return { path, metadata, columns: columnsOf(metadata, path, pos) };
  } catch (e) {
    if (e instanceof SqlError) throw e;
    throw new SqlError(`could not read parquet file [path=${path}, error=${(e as Error).message}]`, pos);
  } finally {
    file.close();
  }
}

function readAt(file: Deno.FsFile, offset: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  file.seekSync(offset, Deno.SeekMode.Start);
  let done = 0;
  while (done < length) {
    const n = file.readSync(out.subarray(done));
    if (n === null) break;
    done += n;
  }
  return out;
}

function columnsOf(meta: FileMetaData, path: string, pos: number): ParquetSource["columns"] {
  const [root, ...elements] = meta.schema;
  const out: ParquetSource["columns"] = [];
  if (elements.length !== (root.num_children ?? 0)) {
    const nested = elements.find((e) => e.num_children);
    throw new SqlError(`nested parquet column is not supported [column=${nested?.name}, path=${path}]`, pos);
  }
  for (const e of elements) out.push({ name: e.name, type: engineTypeOf(e, path, pos), element: e });
  return out;
}

/** The engine type a Parquet column is read as (docs/parquet.md "Types"). */
export function engineTypeOf(e: SchemaElement, path: string, pos: number): ColumnType {
  const ct = e.converted_type;
  const lt = e.logical_type;
  if (ct === "DECIMAL" || lt?.type === "DECIMAL") return T.DOUBLE;
  switch (e.type) {
    case "BOOLEAN":
      return T.BOOLEAN;
    case "INT32":
      if (ct === "INT_8") return T.BYTE;
      if (ct === "INT_16" || ct === "UINT_8") return T.SHORT;
      if (ct === "UINT_16") return T.CHAR;
      if (ct === "UINT_32") return T.LONG;
      if (ct === "DATE" || lt?.type === "DATE") return T.DATE;
      if (lt?.type === "INTEGER" && lt.bitWidth === 8) return lt.isSigned ? T.BYTE : T.SHORT;
      if (lt?.type === "INTEGER" && lt.bitWidth === 16) return lt.isSigned ? T.SHORT : T.CHAR;
      if (lt?.type === "INTEGER" && !lt.isSigned) return T.LONG;
      return T.INT;
    case "INT64":
      if (ct === "TIMESTAMP_MICROS" || (lt?.type === "TIMESTAMP" && lt.unit === "MICROS")) return T.TIMESTAMP;
      if (ct === "TIMESTAMP_MILLIS" || (lt?.type === "TIMESTAMP" && lt.unit === "MILLIS")) return T.DATE;
      if (lt?.type === "TIMESTAMP" && lt.unit === "NANOS") return T.TIMESTAMP_NS;
      return T.LONG;
    case "INT96":
      return T.TIMESTAMP_NS;
    case "FLOAT":
      return T.FLOAT;
    case "DOUBLE":
      return T.DOUBLE;
    case "BYTE_ARRAY":
      if (ct === "UTF8" || ct === "JSON" || ct === "ENUM" || lt?.type === "STRING" || lt?.type === "JSON") {
        return T.VARCHAR;
      }
      return T.BINARY;
    case "FIXED_LEN_BYTE_ARRAY":
      if (lt?.type === "UUID" && e.type_length === 16) return T.UUID;
      if (e.type_length === 32 && !lt && !ct) return T.LONG256;
      if (lt?.type === "FLOAT16") return T.FLOAT;
      return T.BINARY;
    default:
      throw new SqlError(
        `unsupported parquet column type [column=${e.name}, type=${e.type}, path=${path}]`,
        pos,
      );
  }
}

const UTF8 = new TextDecoder();

/**
 * Keeps raw values where hyparquet would make Dates (they lose microseconds); used for external
 * files here and for the table's own Parquet partitions (engine/storage/parquet_partition.ts).
 */
export const PARQUET_PARSERS = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (days: number) => BigInt(days) * 86_400_000n,
  // JSON columns read as VARCHAR: the text as written, where hyparquet would parse it into
  // objects (which then printed as "[object Object]").
  jsonFromBytes: (bytes: Uint8Array | undefined) => bytes && UTF8.decode(bytes),
};

/** A row group's row range. */
export interface RowGroupSpan {
  index: number;
  start: number;
  end: number;
  chunks: ColumnChunk[];
}

/**
 * A bound on one column from a pushed-down filter (engine/plan/parquet_pushdown.ts): rows
 * must have `lo ≤ value ≤ hi` (strict when `loOpen`/`hiOpen`). NULLs never pass a comparison,
 * so a row group whose statistics lie outside the bounds has no row the filter keeps.
 */
export interface ColumnBound {
  /** Index into ParquetSource.columns. */
  column: number;
  lo?: number | bigint;
  loOpen?: boolean;
  hi?: number | bigint;
  hiOpen?: boolean;
}

/** Row groups and decoded column chunks, for tests that check skipping and projection. */
export const parquetDecodeCounts = { rowGroups: 0, columnChunks: 0 };

/** The row groups, without those whose min/max statistics show no row can meet `bounds`. */
export function rowGroupSpans(meta: FileMetaData, bounds: readonly ColumnBound[] = []): RowGroupSpan[] {
  const out: RowGroupSpan[] = [];
  let start = 0;
  meta.row_groups.forEach((rg, index) => {
    const n = Number(rg.num_rows);
    if (bounds.every((b) => mayMatch(rg.columns[b.column], b))) {
      out.push({ index, start, end: start + n, chunks: rg.columns });
    }
    start += n;
  });
  return out;
}

/** Compares numbers and bigints exactly (a DOUBLE bound against an INT64 column, say). */
function cmp(a: number | bigint, b: number | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function mayMatch(chunk: ColumnChunk | undefined, b: ColumnBound): boolean {
  const stats = chunk?.meta_data?.statistics;
  const min = stats?.min_value ?? stats?.min;
  const max = stats?.max_value ?? stats?.max;
  const numeric = (v: unknown): v is number | bigint =>
    typeof v === "bigint" || (typeof v === "number" && !isNaN(v));
  // Without usable statistics (or with NaN in a float column) the group must be read.
  if (!numeric(min) || !numeric(max)) {
    const rows = chunk?.meta_data?.num_values;
    // An all-NULL chunk has no min/max: no row passes a comparison.
    return !(stats?.null_count !== undefined && rows !== undefined && stats.null_count === rows && rows > 0n);
  }
  if (b.lo !== undefined) {
    const c = cmp(max, b.lo);
    if (c < 0 || (c === 0 && b.loOpen)) return false;
  }
  if (b.hi !== undefined) {
    const c = cmp(min, b.hi);
    if (c > 0 || (c === 0 && b.hiOpen)) return false;
  }
  return true;
}

/** Reads the chosen columns of the chosen row groups as engine batches. */
export async function* readParquetBatches(
  src: ParquetSource,
  columnIndexes: number[],
  groups: RowGroupSpan[],
): AsyncGenerator<Batch> {
  const file = await Deno.open(src.path, { read: true });
  try {
    const size = (await file.stat()).size;
    let queue: Promise<unknown> = Promise.resolve();
    const buffer = {
      byteLength: size,
      // hyparquet asks for several ranges at once; seek + read on one handle must not interleave.
      slice(start: number, end?: number): Promise<ArrayBuffer> {
        const read = async () => {
          const stop = end ?? size;
          const out = new Uint8Array(stop - start);
          await file.seek(start, Deno.SeekMode.Start);
          let done = 0;
          while (done < out.length) {
            const n = await file.read(out.subarray(done));
            if (n === null) break;
            done += n;
          }
          return out.buffer;
        };
        const next = queue.then(read);
        queue = next.catch(() => undefined);
        return next;
      },
    };
    const cols = columnIndexes.map((i) => src.columns[i]);
    // hyparquet reads a subset of columns correctly only when it is named in file order.
    const readOrder = [...new Set(columnIndexes)].sort((a, b) => a - b).map((i) => src.columns[i].name);
    for (const g of groups) {
      if (g.end === g.start) continue;
      parquetDecodeCounts.rowGroups++;
      parquetDecodeCounts.columnChunks += readOrder.length;
      const parts = new Map<string, { rowStart: number; data: ArrayLike<unknown> }[]>();
      await parquetRead({
        file: buffer,
        metadata: src.metadata,
        columns: readOrder,
        rowStart: g.start,
        rowEnd: g.end,
        compressors: decompressors,
        parsers: PARQUET_PARSERS as never,
        utf8: false, // un-annotated BYTE_ARRAY stays bytes (BINARY); UTF8/STRING columns are still text
        onChunk: (chunk) => {
          const list = parts.get(chunk.columnName) ?? [];
          list.push({ rowStart: chunk.rowStart, data: chunk.columnData as ArrayLike<unknown> });
          parts.set(chunk.columnName, list);
        },
      });
      for (let at = g.start; at < g.end; at += BATCH_ROWS_MAX) {
        const len = Math.min(BATCH_ROWS_MAX, g.end - at);
        yield {
          rowCount: len,
          columns: cols.map((c) => {
            const data = allocVectorData(c.type, len);
            for (const p of parts.get(c.name) ?? []) {
              const lo = Math.max(at, p.rowStart);
              const hi = Math.min(at + len, p.rowStart + p.data.length);
              for (let r = lo; r < hi; r++) {
                writeValue(c.type, data, r - at, parquetValue(c.type, p.data[r - p.rowStart]));
              }
            }
            return { type: c.type, data };
          }),
        };
      }
    }
  } finally {
    file.close();
  }
}

/**
 * A raw value hyparquet gives (with PARQUET_PARSERS, utf8 off) as the engine value of type `t`:
 * for read_parquet() columns (engineTypeOf) and for the table's own Parquet partitions, whose
 * columns are read as the type they were written from (engine/parquet/writer.ts: IPV4, GEOHASH,
 * SYMBOL and STRING too). Text comes as a string, or as bytes where utf8 is off (ENUM columns,
 * a JSON logical type without the converted type).
 */
export function parquetValue(t: ColumnType, v: unknown): Value {
  if (v === null || v === undefined) return null;
  switch (t.tag) {
    case "BOOLEAN":
      return v === true;
    case "BYTE":
    case "SHORT":
    case "INT":
    case "FLOAT":
    case "DOUBLE":
      return typeof v === "bigint" ? Number(v) : (v as number);
    case "CHAR":
      return (v as number) === 0 ? null : String.fromCharCode(v as number);
    case "IPV4":
      return (v as number) >>> 0;
    case "GEOHASH":
      return BigInt(v as number | bigint);
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return typeof v === "bigint" ? v : BigInt(v as number);
    case "LONG256": {
      const b = v as Uint8Array;
      const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      let x = 0n;
      for (let w = 3; w >= 0; w--) x = (x << 64n) | view.getBigUint64(w * 8, true);
      return x;
    }
    case "SYMBOL":
    case "STRING":
    case "VARCHAR":
      return typeof v === "string" ? v : v instanceof Uint8Array ? UTF8.decode(v) : String(v);
    default:
      return v as Value;
  }
}
