/**
 * Writing a rewritten column in slices (issue #17 "No query blocks another"). A partition
 * rewrite (an out-of-order merge, DELETE, UPDATE, ALTER COLUMN TYPE) gathers millions of rows
 * per column; done in one piece, that held the event loop 0.3-1.8 s for a 3M-row partition
 * and every other client's `SELECT 1` waited. Here the rows go to the files a slice at a time,
 * with a turn of the event loop between slices when one is due.
 *
 * Durability is unchanged: the files are in a new partition folder (or are a new column's)
 * that no committed state names yet; each is fsynced before these functions return, and the
 * caller commits only after that. Slices are written in order at growing offsets, so the
 * bytes are exactly those a single write would have produced.
 */
import { fixedSize, isVarSize } from "../base/types.ts";
import type { StoredColumn } from "./api.ts";
import { type ColumnChunk, gatherChunk, sliceChunk } from "./column_chunk.ts";
import { appendColumn, dataPath, indexPath, varDataSize } from "./column_files.ts";
import { encodeOffsets } from "./var_column.ts";
import { writeAll } from "./_fs.ts";
import { yieldIfDue } from "../exec/event_loop_turn.ts";

/** Rows gathered and written per slice: a few ms of gathering for the widest records. */
export const REWRITE_SLICE_ROWS = 65_536;

/** Awaited between the slices of a rewrite; may throw (a cancelled statement: nothing is committed). */
export type Turn = () => Promise<void>;

/**
 * `given` (the statement's pace, which also checks cancellation), or a turn of the event loop
 * whenever the loop has been held for a slice since this rewrite began or since the last turn
 * anyone took (event_loop_turn.ts): writes from ILP or the WAL apply have no statement.
 */
export function rewriteTurn(given?: Turn): Turn {
  if (given) return given;
  let since = performance.now();
  return async () => {
    since = await yieldIfDue(since);
  };
}

/**
 * Writes the rows `order` picks from `a` and `b` (see column_chunk.ts `gatherFixed`) after the
 * `fileRows` rows a column's files in `partPath` hold (0 for a new file), slice by slice, and
 * fsyncs them. What `appendColumn(partPath, column, fileRows, gatherChunk(...))` writes.
 */
export async function writeGathered(
  partPath: string,
  column: StoredColumn,
  fileRows: number,
  a: ColumnChunk,
  b: ColumnChunk | null,
  order: Int32Array,
  turn: Turn,
): Promise<void> {
  const n = order.length;
  if (n <= REWRITE_SLICE_ROWS) {
    await appendColumn(partPath, column, fileRows, gatherChunk(column.type, a, b, order));
    return;
  }
  const slice = (k: number) =>
    gatherChunk(column.type, a, b, order.subarray(k, Math.min(n, k + REWRITE_SLICE_ROWS)));
  await writeSlices(partPath, column, fileRows, n, slice, turn);
}

/**
 * Writes rows [from, to) of `chunk` after the `fileRows` rows a column's files hold, slice by
 * slice, and fsyncs them: what `appendColumn(partPath, column, fileRows, sliceChunk(...))` writes.
 */
export async function writeRange(
  partPath: string,
  column: StoredColumn,
  fileRows: number,
  chunk: ColumnChunk,
  from: number,
  to: number,
  turn: Turn,
): Promise<void> {
  if (to - from <= REWRITE_SLICE_ROWS) {
    await appendColumn(partPath, column, fileRows, sliceChunk(column.type, chunk, from, to));
    return;
  }
  const slice = (k: number) =>
    sliceChunk(column.type, chunk, from + k, Math.min(to, from + k + REWRITE_SLICE_ROWS));
  await writeSlices(partPath, column, fileRows, to - from, slice, turn);
}

/**
 * Writes `rows` rows after the `fileRows` a column's files hold, taking them from `slice(k)`
 * (rows [k, k + REWRITE_SLICE_ROWS) in file form) with a turn after each, then fsyncs.
 */
export async function writeSlices(
  partPath: string,
  column: StoredColumn,
  fileRows: number,
  rows: number,
  slice: (from: number) => ColumnChunk | Promise<ColumnChunk>,
  turn: Turn,
): Promise<void> {
  const files: Deno.FsFile[] = [];
  try {
    const open = async (path: string, at: number) => {
      const f = await Deno.open(path, { read: true, write: true, create: true });
      files.push(f);
      await f.seek(at, Deno.SeekMode.Start);
      return f;
    };
    if (!isVarSize(column.type)) {
      const data = await open(dataPath(partPath, column), fileRows * fixedSize(column.type));
      for (let k = 0; k < rows; k += REWRITE_SLICE_ROWS) {
        await writeAll(data, ((await slice(k)) as { bytes: Uint8Array }).bytes);
        await turn();
      }
    } else {
      // Offsets entries are absolute: each slice's are shifted by the data written before it.
      // With no rows in the file its entry 0 is written too (the offsets file may be missing).
      let base = await varDataSize(partPath, column, fileRows);
      const data = await open(dataPath(partPath, column), base);
      const index = await open(indexPath(partPath, column), (fileRows + (fileRows === 0 ? 0 : 1)) * 8);
      for (let k = 0; k < rows; k += REWRITE_SLICE_ROWS) {
        const col = ((await slice(k)) as Extract<ColumnChunk, { kind: "var" }>).col;
        const count = col.offsets.length - 1;
        await writeAll(data, col.data);
        await writeAll(index, encodeOffsets(col.offsets, k === 0 && fileRows === 0 ? 0 : 1, count + 1, base));
        base += col.data.length;
        await turn();
      }
    }
    await Promise.all(files.map((f) => f.syncData()));
  } finally {
    for (const f of files) f.close();
  }
}

/**
 * `rows` rows in file form made a slice at a time by `make(from, to)` (encoding values,
 * interning symbols), with a turn after each slice, joined into one chunk.
 */
export async function makeSliced(
  rows: number,
  make: (from: number, to: number) => ColumnChunk,
  turn: Turn,
): Promise<ColumnChunk> {
  if (rows <= REWRITE_SLICE_ROWS) return make(0, rows);
  const pieces: ColumnChunk[] = [];
  for (let k = 0; k < rows; k += REWRITE_SLICE_ROWS) {
    pieces.push(make(k, Math.min(rows, k + REWRITE_SLICE_ROWS)));
    await turn();
  }
  return joinChunks(pieces);
}

/** The pieces (all fixed or all var-size, in row order) as one chunk. */
export function joinChunks(pieces: ColumnChunk[]): ColumnChunk {
  if (pieces[0].kind === "fixed") {
    const parts = pieces.map((p) => (p as { bytes: Uint8Array }).bytes);
    const bytes = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of parts) {
      bytes.set(b, at);
      at += b.length;
    }
    return { kind: "fixed", bytes };
  }
  const cols = pieces.map((p) => (p as Extract<ColumnChunk, { kind: "var" }>).col);
  const rows = cols.reduce((n, c) => n + c.offsets.length - 1, 0);
  const data = new Uint8Array(cols.reduce((n, c) => n + c.data.length, 0));
  const offsets = new Float64Array(rows + 1);
  let row = 0, base = 0;
  for (const c of cols) {
    data.set(c.data, base);
    for (let i = 0; i < c.offsets.length - 1; i++) offsets[row++] = c.offsets[i] + base;
    base += c.data.length;
  }
  offsets[rows] = base;
  return { kind: "var", col: { offsets, data } };
}
