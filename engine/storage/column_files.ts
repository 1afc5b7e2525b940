/**
 * Reading and writing the files of one column in one partition folder (docs/storage.md
 * "Column files"). A column's files hold rows [top, rowCount) of the partition; the first
 * `top` rows read as NULL. "File rows" below means `rowCount - top`.
 *
 * Every write here fsyncs the file before returning: the caller commits by replacing the
 * transaction file only after all data it names is durable.
 */
import { fixedSize, isVarSize } from "../base/types.ts";
import type { StoredColumn } from "./api.ts";
import { dataFileName, indexFileName } from "./dir_name.ts";
import { fileSize, joinPath, readInto, readRange, truncateTo, writeAtSynced } from "./_fs.ts";
import type { ColumnChunk } from "./column_chunk.ts";
import { fillNull } from "./fixed_codec.ts";
import { encodeOffsets, offsetAt, varColumnFromFileSteps } from "./var_column.ts";

/** Rows of a var column converted from file form between two calls of a rewrite's `turn`. */
const CONVERT_STEP_ROWS = 262_144;

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
export async function appendColumn(
  partPath: string,
  column: StoredColumn,
  fileRows: number,
  chunk: ColumnChunk,
): Promise<void> {
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
    writeAtSynced(indexPath(partPath, column), (fileRows + first) * 8, [
      encodeOffsets(col.offsets, first, rows + 1, base),
    ]),
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
export async function truncateColumn(
  partPath: string,
  column: StoredColumn,
  fileRows: number,
): Promise<void> {
  if (!isVarSize(column.type)) {
    await truncateTo(dataPath(partPath, column), fileRows * fixedSize(column.type));
    return;
  }
  const size = await varDataSize(partPath, column, fileRows);
  await truncateTo(indexPath(partPath, column), fileRows === 0 ? 8 : (fileRows + 1) * 8);
  await truncateTo(dataPath(partPath, column), size);
}

/** Checks that a column's committed bytes exist; returns a message naming what is missing. */
export async function checkColumn(
  partPath: string,
  column: StoredColumn,
  fileRows: number,
): Promise<string | undefined> {
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
 * NULL. Used by rewrites (updates, conversions), which need whole columns.
 */
export function readColumnChunk(
  partPath: string,
  column: StoredColumn,
  top: number,
  rowCount: number,
  turn?: () => Promise<void>,
): Promise<ColumnChunk> {
  return readColumnRange(partPath, column, top, 0, rowCount, turn);
}

/**
 * Rows [from, to) of a committed column whose first `top` rows are NULL, as a chunk in JS
 * memory. With `turn`, a var column's offsets are converted in steps with a call of it
 * between them (millions of rows take ~100 ms: a rewrite must not hold the event loop).
 */
export async function readColumnRange(
  partPath: string,
  column: StoredColumn,
  top: number,
  from: number,
  to: number,
  turn?: () => Promise<void>,
): Promise<ColumnChunk> {
  const nullRows = Math.max(0, Math.min(to, top) - from);
  const a = Math.max(from, top) - top, b = to - top; // file rows [a, b)
  if (!isVarSize(column.type)) {
    const size = fixedSize(column.type);
    const bytes = new Uint8Array((to - from) * size);
    fillNull(column.type, bytes.subarray(0, nullRows * size));
    if (b > a) await readInto(dataPath(partPath, column), a * size, bytes.subarray(nullRows * size));
    return { kind: "fixed", bytes };
  }
  const empty = new Uint8Array(0);
  const offsets = b <= a ? empty : await readRange(indexPath(partPath, column), a * 8, (b - a + 1) * 8);
  const lo = b <= a ? 0 : offsetAt(offsets, 0), hi = b <= a ? 0 : offsetAt(offsets, b - a);
  const data = b <= a ? empty : await readRange(dataPath(partPath, column), lo, hi - lo);
  const steps = varColumnFromFileSteps(nullRows, offsets, data, turn ? CONVERT_STEP_ROWS : Infinity);
  for (;;) {
    const step = steps.next();
    if (step.done) return { kind: "var", col: step.value };
    await turn?.();
  }
}

/**
 * Copies the first `fileRows` rows of a column's files to another partition folder: a
 * kernel-side file copy cut to size, so an out-of-order merge rewrites only the rows it
 * changes in JS. The copy is made durable by the `appendColumn` that follows it.
 */
export async function copyColumnPrefix(
  source: string,
  target: string,
  column: StoredColumn,
  fileRows: number,
): Promise<void> {
  if (fileRows === 0) return;
  if (!isVarSize(column.type)) {
    await copyPrefix(dataPath(source, column), dataPath(target, column), fileRows * fixedSize(column.type));
    return;
  }
  await copyPrefix(indexPath(source, column), indexPath(target, column), (fileRows + 1) * 8);
  await copyPrefix(
    dataPath(source, column),
    dataPath(target, column),
    await varDataSize(source, column, fileRows),
  );
}

async function copyPrefix(source: string, target: string, bytes: number): Promise<void> {
  await Deno.copyFile(source, target);
  await Deno.truncate(target, bytes);
}

/**
 * Index of the first of `rowCount` ascending timestamps in a column file that is greater
 * than `ts` (or not less, when `inclusive`): a binary search by positioned reads.
 */
export async function searchTimestamp(
  path: string,
  rowCount: number,
  ts: bigint,
  inclusive: boolean,
): Promise<number> {
  const file = await Deno.open(path, { read: true });
  try {
    const cell = new BigInt64Array(1);
    const bytes = new Uint8Array(cell.buffer);
    let lo = 0, hi = rowCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      await file.seek(mid * 8, Deno.SeekMode.Start);
      let done = 0;
      while (done < 8) {
        const n = await file.read(bytes.subarray(done));
        if (n === null) throw new Error(`short timestamp file [file=${path}]`);
        done += n;
      }
      if (cell[0] < ts || (!inclusive && cell[0] === ts)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  } finally {
    file.close();
  }
}
