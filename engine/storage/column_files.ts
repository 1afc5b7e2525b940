/**
 * Reading and writing the files of one column in one partition folder (docs/storage.md
 * "Column files"). A column's files hold rows [top, rowCount) of the partition; the first
 * `top` rows read as NULL. "File rows" below means `rowCount - top`.
 *
 * Every write here fsyncs the file before returning: the caller commits by replacing the
 * transaction file only after all data it names is durable.
 */
import { type ColumnType, fixedSize, isVarSize } from "../base/types.ts";
import type { StoredColumn } from "./api.ts";
import { dataFileName, indexFileName } from "./dir_name.ts";
import { fileSize, joinPath, readInto, readRange, truncateTo, writeAtSynced } from "./_fs.ts";
import type { ColumnChunk } from "./column_chunk.ts";
import { fillNull } from "./fixed_codec.ts";
import { encodeOffsets, offsetAt, varColumnFromFile } from "./var_column.ts";

/** Path of the data file of `column` in a partition folder. */
export function dataPath(partPath: string, column: StoredColumn): string {
  return joinPath(partPath, dataFileName(column.id));
}

/** Path of the offsets file of a var-size `column` in a partition folder. */
export function indexPath(partPath: string, column: StoredColumn): string {
  return joinPath(partPath, indexFileName(column.id));
}

/** Committed size of a var-size column's data file: offsets entry `fileRows`. */
export async function varDataSize(partPath: string, column: StoredColumn, fileRows: number): Promise<number> {
  if (fileRows === 0) return 0;
  return offsetAt(await readRange(indexPath(partPath, column), fileRows * 8, 8), 0);
}

/**
 * Appends a chunk after the `fileRows` committed rows of a column, in place (the fast path
 * of in-order appends). Bytes past the committed size, if any, are overwritten.
 */
export async function appendColumn(partPath: string, column: StoredColumn, fileRows: number, chunk: ColumnChunk): Promise<void> {
  if (chunk.kind === "fixed") {
    await writeAtSynced(dataPath(partPath, column), fileRows * fixedSize(column.type), [chunk.bytes]);
    return;
  }
  const col = chunk.col;
  const rows = col.offsets.length - 1;
  const base = await varDataSize(partPath, column, fileRows);
  // With no committed rows the offsets file may be missing, so its entry 0 is written too.
  const first = fileRows === 0 ? 0 : 1;
  await Promise.all([
    writeAtSynced(dataPath(partPath, column), base, [col.data]),
    writeAtSynced(indexPath(partPath, column), (fileRows + first) * 8, [encodeOffsets(col.offsets, first, rows + 1, base)]),
  ]);
}

/** Writes a whole column into a new partition folder. */
export function writeColumn(partPath: string, column: StoredColumn, chunk: ColumnChunk): Promise<void> {
  return appendColumn(partPath, column, 0, chunk);
}

/**
 * Cuts a column's files back to `fileRows` rows: undoes a failed in-place append, and is what
 * recovery does to bytes a crash left past the committed size. A missing file with rows
 * committed is an io error raised by the read of its offsets.
 */
export async function truncateColumn(partPath: string, column: StoredColumn, fileRows: number): Promise<void> {
  if (!isVarSize(column.type)) {
    await truncateTo(dataPath(partPath, column), fileRows * fixedSize(column.type));
    return;
  }
  const size = await varDataSize(partPath, column, fileRows);
  await truncateTo(indexPath(partPath, column), fileRows === 0 ? 8 : (fileRows + 1) * 8);
  await truncateTo(dataPath(partPath, column), size);
}

/** Checks that a column's committed bytes exist; returns a message naming what is missing. */
export async function checkColumn(partPath: string, column: StoredColumn, fileRows: number): Promise<string | undefined> {
  if (fileRows === 0) return undefined;
  if (!isVarSize(column.type)) {
    const need = fileRows * fixedSize(column.type);
    return (await fileSize(dataPath(partPath, column))) < need ? dataPath(partPath, column) : undefined;
  }
  if ((await fileSize(indexPath(partPath, column))) < (fileRows + 1) * 8) return indexPath(partPath, column);
  const need = await varDataSize(partPath, column, fileRows);
  return (await fileSize(dataPath(partPath, column))) < need ? dataPath(partPath, column) : undefined;
}

/**
 * All `rowCount` rows of a committed column as a chunk in JS memory, the first `top` rows
 * NULL. Used by rewrites (out-of-order merges, updates, conversions), which need whole columns.
 */
export async function readColumnChunk(partPath: string, column: StoredColumn, top: number, rowCount: number): Promise<ColumnChunk> {
  const fileRows = rowCount - top;
  if (!isVarSize(column.type)) {
    const size = fixedSize(column.type);
    const bytes = new Uint8Array(rowCount * size);
    fillNull(column.type, bytes.subarray(0, top * size));
    if (fileRows > 0) await readInto(dataPath(partPath, column), 0, bytes.subarray(top * size));
    return { kind: "fixed", bytes };
  }
  if (fileRows === 0) return { kind: "var", col: varColumnFromFile(top, new Uint8Array(0), new Uint8Array(0), rowCount) };
  const offsets = await readRange(indexPath(partPath, column), 0, (fileRows + 1) * 8);
  const data = await readRange(dataPath(partPath, column), 0, offsetAt(offsets, fileRows));
  return { kind: "var", col: varColumnFromFile(top, offsets, data, rowCount) };
}

/** Byte length of `rows` values of a fixed-width type (0 for var-size). */
export function fixedBytes(t: ColumnType, rows: number): number {
  return fixedSize(t) * rows;
}
