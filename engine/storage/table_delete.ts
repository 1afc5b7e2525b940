/**
 * Row-level DELETE (api.ts `RowDelete`): like UPDATE, each affected partition gets a new
 * copy-on-write version, here holding only the surviving rows of every column; the old version
 * is obsolete once the transaction file names the new one, so a crash before that point leaves
 * the table as it was and one after it leaves the rows deleted. A partition that loses every
 * row is dropped from the transaction state. Symbol dictionaries are kept: an entry no row
 * references is harmless (QuestDB keeps them too) and keeps other partitions' keys valid.
 */
import { SqlError } from "../base/errors.ts";
import type { RowDelete } from "./api.ts";
import type { TableWriter } from "./table_writer.ts";
import type { WriteSet } from "./write_set.ts";
import { partitionDir, type PartitionState, topOf } from "./txn_file.ts";
import { readColumnRange } from "./column_files.ts";
import type { ColumnChunk } from "./column_chunk.ts";
import { joinPath, syncDir } from "./_fs.ts";
import { forEachLimit } from "./_limit.ts";
import { parquetWriteError } from "./parquet_partition.ts";
import { REWRITE_SLICE_ROWS, rewriteTurn, type Turn, writeGathered } from "./column_rewrite.ts";

/** Columns rewritten at once per partition: each holds a whole column in memory. */
const COLUMNS_PARALLEL = 4;

export async function deleteOp(w: TableWriter, work: WriteSet, deletes: RowDelete[]): Promise<number> {
  const s = w.state;
  const byName = new Map<string, Int32Array>();
  for (const d of deletes) {
    if (d.rows.length === 0) continue;
    if (byName.has(d.partition)) {
      throw new SqlError(`delete: partition named twice [partition=${d.partition}]`);
    }
    byName.set(d.partition, d.rows);
  }
  if (byName.size === 0) return 0;
  let deleted = 0;
  const next: PartitionState[] = [];
  // A partition of millions of rows is rewritten in slices with turns between (issue #17).
  const turn = rewriteTurn();
  for (const p of s.txn.partitions) {
    const rows = byName.get(p.name);
    if (!rows) {
      next.push(p);
      continue;
    }
    byName.delete(p.name);
    if (p.parquet) throw parquetWriteError(s.meta.name, p.name);
    const keep = await keptRows(p.rowCount, rows, turn);
    deleted += p.rowCount - keep.length;
    // The old folder is read by live snapshots until they go; the collector removes it after.
    work.obsolete.push(partitionDir(p));
    if (keep.length > 0) next.push(await rewritePartition(w, work, p, keep, turn));
  }
  const missing = [...byName.keys()][0];
  if (missing !== undefined) {
    throw new SqlError(`partition does not exist [table=${s.meta.name}, partition=${missing}]`);
  }
  await w.commit(work, { partitions: next });
  return deleted;
}

/** Indexes of the rows of a partition not in `deleted` (ascending, in range). */
async function keptRows(rowCount: number, deleted: Int32Array, turn: Turn): Promise<Int32Array> {
  const gone = new Uint8Array(rowCount);
  for (let i = 0; i < deleted.length; i++) {
    if (i % REWRITE_SLICE_ROWS === 0) await turn();
    const r = deleted[i];
    if (r < 0 || r >= rowCount) throw new SqlError(`delete: row out of range [row=${r}, rows=${rowCount}]`);
    gone[r] = 1;
  }
  const keep = new Int32Array(rowCount);
  let n = 0;
  for (let r = 0; r < rowCount; r++) {
    if (r % REWRITE_SLICE_ROWS === 0) await turn();
    if (!gone[r]) keep[n++] = r;
  }
  return keep.subarray(0, n);
}

async function rewritePartition(
  w: TableWriter,
  work: WriteSet,
  p: PartitionState,
  keep: Int32Array,
  turn: Turn,
): Promise<PartitionState> {
  const s = w.state;
  const oldPath = joinPath(w.tablePath, partitionDir(p));
  const { version, path } = await work.createPartitionDir(p.name);
  const tops: Record<string, number> = {};
  let minTs = 0n, maxTs = 0n;
  await forEachLimit(s.meta.columns, COLUMNS_PARALLEL, async (col, ci) => {
    const top = topOf(p, col.id);
    // Kept rows below the top still read as NULL: they become the new, shorter top.
    let newTop = 0;
    while (newTop < keep.length && keep[newTop] < top) newTop++;
    if (newTop > 0) tops[col.id] = newTop;
    if (newTop === keep.length) return; // no file rows survive
    const chunk = await readColumnRange(oldPath, col, top, top, p.rowCount, turn); // the file rows
    // Kept rows as file rows (the same array when the column has no top).
    let order = keep.subarray(newTop);
    if (top > 0) {
      order = new Int32Array(keep.length - newTop);
      for (let k = 0; k < order.length; k++) order[k] = keep[newTop + k] - top;
    }
    if (ci === s.meta.timestampIndex) [minTs, maxTs] = tsRange(chunk, order);
    await writeGathered(path, col, 0, chunk, null, order, turn);
  });
  await syncDir(path);
  return { name: p.name, version, rowCount: keep.length, minTs, maxTs, tops };
}

/** First and last kept value of a (sorted) designated timestamp chunk; `order` is not empty. */
function tsRange(c: ColumnChunk, order: Int32Array): [bigint, bigint] {
  const bytes = (c as { bytes: Uint8Array }).bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [view.getBigInt64(order[0] * 8, true), view.getBigInt64(order[order.length - 1] * 8, true)];
}
