/**
 * Partitions stored as one Parquet file (issue #21, docs/storage.md "Parquet partitions"):
 * `<partition>.<N>/data.parquet`, written from a snapshot by ALTER TABLE CONVERT PARTITION TO
 * PARQUET and decoded column by column into the same native byte layout the column cache holds
 * for native partitions. A column is decoded once per cache entry, so later scans cost what a
 * native scan costs.
 *
 * The file is plain Parquet with the table's column names (QuestDB's encoding, engine/parquet)
 * so DuckDB, Spark or Trino read it as is. SYMBOL columns are stored as strings and re-keyed
 * through the table's dictionary on decode; the `_txn` entry lists the column id of each file
 * column, so RENAME / ADD / DROP COLUMN after the conversion keep reading the right data.
 */
import { type AsyncBuffer, type FileMetaData, parquetMetadataAsync } from "hyparquet";
import { SqlError } from "../base/errors.ts";
import { type ColumnType, isVarSize } from "../base/types.ts";
import { allocVectorData } from "../base/values.ts";
import type { StoredColumn, TableSnapshot } from "./api.ts";
import { PARQUET_EXPORT_DEFAULTS } from "../parquet/writer.ts";
import { EncoderWorkers, ParquetEncoderThread } from "../parquet/encoder_thread.ts";
import { REWRITE_SLICE_ROWS, rewriteTurn } from "./column_rewrite.ts";
import { SINCE_LAST_TURN, yieldIfDue } from "../exec/event_loop_turn.ts";
import { decodeGeneric } from "./parquet_generic_decode.ts";
import { decodeOnWorker, decodeThreadTuning } from "./parquet_decode_thread.ts";
import { PARQUET_PARSERS } from "../parquet/reader.ts";
import { decodeColumnFast, type ReadRange, type Target } from "../parquet/fast_decode.ts";
import { fillNull } from "./fixed_codec.ts";
import { LocalChunkReader, recycleChunk } from "./parquet_chunk_reader.ts";
import { fileSize, joinPath, readRange, writeAll } from "./_fs.ts";
import { encodeChunk } from "./append.ts";
import type { ColumnChunk } from "./column_chunk.ts";
import { decodeSymbolFile, type SymbolTable } from "./symbol_dict.ts";
import { symbolFileName } from "./dir_name.ts";
import type { ParquetPart, PartitionState } from "./txn_file.ts";
import type { ObjectStore } from "./object_store.ts";

/** QuestDB's name for the file of a Parquet partition. */
export const PARQUET_FILE = "data.parquet";

/** Values (rows × columns) the converter buffers per row group, as JavaScript values, at most. */
const ROW_GROUP_CELLS = 5_000_000;
const ROW_GROUP_ROWS_MAX = 1_000_000;

/**
 * Rows per row group of a partition file. QuestDB's 100,000 for a table with var-size columns
 * (their values' size is unbounded); otherwise as many as `ROW_GROUP_CELLS` allows, up to
 * 1,000,000, split evenly: a scan reads a column chunk per row group (an async read or two
 * each, against one read of a native column file), so a day of 864,000 rows in one group
 * reads its columns as a native partition does. The converter's memory stays what 100,000
 * rows of a 50-column table take today.
 */
export function partitionRowGroupRows(types: readonly ColumnType[], rowCount: number): number {
  const base = PARQUET_EXPORT_DEFAULTS.rowGroupSize;
  if (types.some(isVarSize)) return base;
  const max = Math.max(base, Math.min(ROW_GROUP_ROWS_MAX, Math.floor(ROW_GROUP_CELLS / types.length)));
  const groups = Math.max(1, Math.ceil(rowCount / max));
  return Math.max(1, Math.ceil(rowCount / groups));
}

/** The error of a row write (append, O3 merge, UPDATE, DELETE, ALTER TYPE) into a Parquet partition. */
export class ParquetWriteError extends SqlError {
  /** The partition written to: an append to a FORMAT PARQUET table converts it back and retries. */
  readonly partition: string;

  constructor(table: string, partition: string) {
    super(
      `partition is in Parquet format; convert it to NATIVE first [table=${table}, partition=${partition}]`,
    );
    this.partition = partition;
  }
}

export function parquetWriteError(table: string, partition: string): SqlError {
  return new ParquetWriteError(table, partition);
}

/** Rows read from the snapshot at once, and handed to the encoder at once (a few ms of copying or cloning). */
const READ_SLICE_ROWS = REWRITE_SLICE_ROWS;
const ENCODE_SLICE_ROWS = 16_384;
/** Requests the encoder may hold unanswered: bounds the rows held between the two threads. */
const ENCODE_IN_FLIGHT = 4;

/**
 * Partitions of at most `inPlaceCells` values (rows × columns) are encoded on this thread: a
 * worker's start and its cold code made converting three 21,600-row partitions ~4x slower
 * (~1 s against ~250 ms) for at most ~50 ms of encoding held here per partition. Tests lower it.
 */
export const convertTuning = { inPlaceCells: 131_072 };

/**
 * Writes partition `index` of `snap` as `<partPath>/data.parquet` and fsyncs it. Returns what
 * the `_txn` entry records: the file size and the column id of each file column. `encoders`
 * keeps the encoder worker for the caller's next partition.
 *
 * The row groups are encoded on a worker thread (engine/parquet/encoder_thread.ts, as COPY TO
 * does): encoding and compressing a group held the event loop 0.5-2.7 s (issue #17). Here the
 * rows are read a slice at a time and sent with turns between; the bytes are those one
 * ParquetResultWriter fed the whole partition writes (it cuts groups by row count), written in
 * order, and the file is fsynced before the caller commits, as before.
 */
export async function writeParquetPartition(
  snap: TableSnapshot,
  index: number,
  partPath: string,
  encoders?: EncoderWorkers,
): Promise<ParquetPart> {
  const meta = snap.meta;
  const rowCount = snap.partitions[index].rowCount;
  const groupRows = partitionRowGroupRows(meta.columns.map((c) => c.type), rowCount);
  const encoder = new ParquetEncoderThread(
    meta.columns.map((c) => ({ name: c.name, type: c.type })),
    meta.timestampIndex,
    {
      ...PARQUET_EXPORT_DEFAULTS,
      rowGroupSize: groupRows,
      // One page per chunk of 8-byte values (QuestDB's 1 MiB at most 131,072 of them): the
      // scan reads an uncompressed chunk's values into place only when they are one page.
      dataPageSize: Math.max(PARQUET_EXPORT_DEFAULTS.dataPageSize, groupRows * 8 + 8),
      // Chunks LZ4 cannot shrink stay uncompressed: a scan reads their values into place.
      uncompressedWhenNoGain: true,
    },
    rowCount * meta.columns.length > convertTuning.inPlaceCells,
    encoders,
  );
  const file = await Deno.open(joinPath(partPath, PARQUET_FILE), { write: true, createNew: true });
  let size = 0;
  const take = async (): Promise<boolean> => {
    const r = await encoder.next();
    await writeAll(file, r.bytes);
    size += r.bytes.length;
    return r.last;
  };
  const turn = rewriteTurn();
  try {
    for (let from = 0; from < rowCount; from += READ_SLICE_ROWS) {
      const to = Math.min(rowCount, from + READ_SLICE_ROWS);
      const columns = await Promise.all(meta.columns.map((_, c) => snap.read(index, c, from, to)));
      const batch = { rowCount: to - from, columns };
      for (let at = 0; at < batch.rowCount; at += ENCODE_SLICE_ROWS) {
        await turn();
        encoder.add(batch, at, Math.min(batch.rowCount, at + ENCODE_SLICE_ROWS));
        while (encoder.inFlight >= ENCODE_IN_FLIGHT) await take();
      }
    }
    encoder.finish();
    while (!await take());
    await file.sync();
  } finally {
    encoder.close();
    file.close();
  }
  return { size, columnIds: meta.columns.map((c) => c.id) };
}

/**
 * An open Parquet partition file: its bytes (a local file read whole, or ranged reads of a
 * remote object) and footer, shared by the columns decoded from it.
 */
export interface ParquetPartitionFile {
  bytes: ArrayBuffer | AsyncBuffer;
  metadata: FileMetaData;
  /** The local file's path (undefined for a remote object): the direct decoder reads it by handle. */
  path?: string;
}

/** Bytes read for the footer first: the footer of a partition file is a few KiB (hyparquet reads more when not). */
const FOOTER_FETCH = 64 * 1024;

/**
 * Parsed footers of the partition files read lately, by file and committed size. A committed
 * Parquet version is never rewritten in place (a rewrite is a new version folder or object
 * key), so a footer stays right for as long as its file exists; a first scan of a partition
 * then costs no footer read (a stat, an open and a read, or a ranged GET) and no parse.
 */
const footers = new Map<string, FileMetaData>();
const FOOTERS_MAX = 512;

async function footerOf(key: string, bytes: AsyncBuffer): Promise<FileMetaData> {
  const held = footers.get(key);
  if (held) {
    footers.delete(key); // most recently used last
    footers.set(key, held);
    return held;
  }
  const metadata = await parquetMetadataAsync(bytes, {
    parsers: PARQUET_PARSERS as never,
    initialFetchSize: Math.min(FOOTER_FETCH, bytes.byteLength),
  });
  footers.set(key, metadata);
  if (footers.size > FOOTERS_MAX) footers.delete(footers.keys().next().value!);
  return metadata;
}

/**
 * Reads a Parquet partition's file; a file shorter than committed is an io error. A remote
 * partition's footer is fetched now and its column chunks by range when decoded.
 */
export async function openParquetPartition(
  partPath: string,
  part: ParquetPart,
  store: ObjectStore | undefined,
): Promise<ParquetPartitionFile> {
  if (part.remote !== undefined) return await openRemote(part, store);
  const path = joinPath(partPath, PARQUET_FILE);
  const key = `${path}\0${part.size}`;
  // Checked when the footer is first read; later reads of a file cut short fail on their own.
  if (!footers.has(key) && await fileSize(path) < part.size) {
    throw new SqlError(`committed parquet data is missing [file=${path}]`, -1, "io");
  }
  // Ranges on demand: a query reads the footer and the column chunks it decodes, not the file.
  const bytes: AsyncBuffer = {
    byteLength: part.size,
    slice: async (start, end) =>
      (await readRange(path, start, (end ?? part.size) - start)).buffer as ArrayBuffer,
  };
  return { bytes, metadata: await footerOf(key, bytes), path };
}

async function openRemote(part: ParquetPart, store: ObjectStore | undefined): Promise<ParquetPartitionFile> {
  const key = part.remote!;
  if (!store) {
    throw new SqlError(
      `partition is in cold storage but cold.storage.enabled is false [key=${key}]`,
      -1,
      "io",
    );
  }
  const bytes: AsyncBuffer = {
    byteLength: part.size,
    slice: (start, end) => store.getRange(key, start, end ?? part.size),
  };
  const { endpoint, bucket } = store.config;
  return { bytes, metadata: await footerOf(`s3:${endpoint}/${bucket}/${key}\0${part.size}`, bytes) };
}

/**
 * The dictionary a Parquet partition's SYMBOL strings are re-keyed through: the committed
 * entries of the table's dictionary file (a private copy, so the same in a Worker's heap).
 */
export async function readDictionary(
  tablePath: string,
  columnId: number,
  count: number,
): Promise<SymbolTable> {
  const file = joinPath(tablePath, symbolFileName(columnId));
  const decoded = decodeSymbolFile(await Deno.readFile(file), count);
  if (!decoded) throw new SqlError(`committed symbol entries are missing [file=${file}]`, -1, "io");
  return decoded.table;
}

/**
 * All rows of `col` in a Parquet partition, in the native file form (fixed bytes, or var-size
 * offsets and data). The first `top` rows (a column added after the conversion) are NULL.
 * The direct decoder writes a fixed-size column into `into` when given (a cache block of the
 * column's size), which the answer's bytes then are.
 */
export async function decodeParquetColumn(
  file: ParquetPartitionFile,
  part: PartitionState,
  col: StoredColumn,
  dict: SymbolTable | undefined,
  into?: Uint8Array,
): Promise<ColumnChunk> {
  const n = part.rowCount;
  const at = part.parquet!.columnIds.indexOf(col.id);
  if (at >= 0) {
    const fast = await decodeFast(file, at, n, col, dict, into);
    if (fast) {
      parquetColumnDecodes.direct++;
      return { kind: "fixed", bytes: fast };
    }
  }
  parquetColumnDecodes.generic++;
  if (at < 0) return encodeChunk(col, allocVectorData(col.type, n), n, dict);
  // Large local columns on a worker thread (issue #17: a million strings held the event loop
  // ~0.4 s); else here, a row group and a slice at a time with turns between.
  if (file.path !== undefined && dict === undefined && n >= decodeThreadTuning.minRows) {
    const off = await decodeOnWorker(file.path, part.parquet!.size, file.metadata, at, n, col);
    if (off) return off;
  }
  return await decodeGeneric(file.bytes, file.metadata, at, n, col, dict, readTurn);
}

/**
 * The turn between a decode's slices. A column is decoded inside a scan's slice (its first
 * read), so the slice counts from the last turn anyone took, not from the decode's start.
 */
async function readTurn(): Promise<void> {
  await yieldIfDue(SINCE_LAST_TURN);
}

/**
 * Columns decoded by the direct decoder and by hyparquet, and chunks whose values were read
 * straight into place (tests check which path ran).
 */
export const parquetColumnDecodes = { direct: 0, generic: 0, inPlaceReads: 0 };

/** Native widths of the column types the direct decoder (engine/parquet/fast_decode.ts) writes. */
const FAST_WIDTH: Partial<Record<string, 4 | 8>> = {
  INT: 4,
  FLOAT: 4,
  DOUBLE: 8,
  LONG: 8,
  TIMESTAMP: 8,
  TIMESTAMP_NS: 8,
};

/** Column `at` of the file decoded straight into native bytes, or undefined (use hyparquet). */
function decodeFast(
  file: ParquetPartitionFile,
  at: number,
  n: number,
  col: StoredColumn,
  dict: SymbolTable | undefined,
  into: Uint8Array | undefined,
): Promise<Uint8Array | undefined> {
  let target: Target;
  if (col.type.tag === "SYMBOL") {
    if (!dict) return Promise.resolve(undefined);
    target = { kind: "symbol", keyOf: (s) => dict.intern(s) };
  } else {
    const width = FAST_WIDTH[col.type.tag];
    if (!width) return Promise.resolve(undefined);
    const nullBytes = new Uint8Array(width);
    fillNull(col.type, nullBytes);
    target = { kind: "fixed", width, nullBytes };
  }
  if (file.path !== undefined) return decodeLocal(file.path, file.metadata, at, n, target, into);
  const bytes = file.bytes;
  const read: ReadRange = bytes instanceof ArrayBuffer
    ? (start, end) => new Uint8Array(bytes, start, end - start)
    : async (start, end) => new Uint8Array(await bytes.slice(start, end));
  return decodeColumnFast(read, file.metadata, at, n, target, { into, turn: readTurn });
}

/** A local file's column: its chunks read through one handle into recycled buffers. */
async function decodeLocal(
  path: string,
  metadata: FileMetaData,
  at: number,
  n: number,
  target: Target,
  into: Uint8Array | undefined,
): Promise<Uint8Array | undefined> {
  const reader = new LocalChunkReader(path);
  try {
    return await decodeColumnFast(reader.read, metadata, at, n, target, {
      into,
      turn: readTurn,
      recycle: recycleChunk,
      readInto: (start, end, dest) => {
        parquetColumnDecodes.inPlaceReads++;
        return reader.readInto(start, end, dest);
      },
    });
  } finally {
    await reader.close();
  }
}
