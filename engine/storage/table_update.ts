/**
 * UPDATE (api.ts `ColumnUpdate`): each affected partition gets a new copy-on-write version in
 * which the changed columns are rewritten and the unchanged ones are hard links to the old
 * version's files (immutable below their committed size, so sharing them is safe).
 */
import { isVarSize } from "../base/types.ts";
import { SqlError } from "../base/errors.ts";
import { assert } from "../base/assert.ts";
import type { ColumnUpdate } from "./api.ts";
import type { TableWriter } from "./table_writer.ts";
import type { WriteSet } from "./write_set.ts";
import { partitionDir, type PartitionState, topOf } from "./txn_file.ts";
import { dataPath, indexPath, readColumnChunk } from "./column_files.ts";
import { type ColumnChunk, gatherChunk } from "./column_chunk.ts";
import { encodeChunk } from "./append.ts";
import { joinPath, linkOrCopy, syncDir } from "./_fs.ts";
import { forEachLimit } from "./_limit.ts";
import { checkNotNull } from "./not_null.ts";
import { parquetWriteError } from "./parquet_partition.ts";
import { makeSliced, REWRITE_SLICE_ROWS, rewriteTurn, type Turn, writeGathered } from "./column_rewrite.ts";

export async function updateOp(w: TableWriter, work: WriteSet, changes: ColumnUpdate[]): Promise<void> {
  const s = w.state;
  const byPartition = new Map<string, ColumnUpdate[]>();
  for (const c of changes) {
    if (c.column === s.meta.timestampIndex) {
      throw new SqlError("Designated timestamp column cannot be updated");
    }
    assert(s.meta.columns[c.column] !== undefined, "update: no such column");
    checkNotNull(s.meta.columns[c.column], c.values, c.rows.length);
    const list = byPartition.get(c.partition) ?? [];
    list.push(c);
    byPartition.set(c.partition, list);
  }
  if (byPartition.size === 0) return;
  const rewritten = new Map<string, PartitionState>();
  // A partition of millions of rows is rewritten in slices with turns between (issue #17).
  const turn = rewriteTurn();
  for (const [name, list] of byPartition) {
    const p = s.txn.partitions.find((x) => x.name === name);
    if (!p) throw new SqlError(`partition does not exist [table=${s.meta.name}, partition=${name}]`);
    if (p.parquet) throw parquetWriteError(s.meta.name, name);
    rewritten.set(name, await rewritePartition(w, work, p, list, turn));
  }
  await w.commit(work, { partitions: s.txn.partitions.map((p) => rewritten.get(p.name) ?? p) });
}

async function rewritePartition(
  w: TableWriter,
  work: WriteSet,
  p: PartitionState,
  list: ColumnUpdate[],
  turn: Turn,
): Promise<PartitionState> {
  const s = w.state;
  const oldPath = joinPath(w.tablePath, partitionDir(p));
  const { version, path } = await work.createPartitionDir(p.name);
  const tops: Record<string, number> = { ...p.tops };
  await forEachLimit(s.meta.columns, 4, async (col, ci) => {
    const updates = list.filter((u) => u.column === ci);
    const top = topOf(p, col.id);
    if (updates.length === 0) {
      if (p.rowCount - top === 0) return;
      await linkOrCopy(dataPath(oldPath, col), dataPath(path, col));
      if (isVarSize(col.type)) await linkOrCopy(indexPath(oldPath, col), indexPath(path, col));
      return;
    }
    let chunk = await readColumnChunk(oldPath, col, top, p.rowCount, turn);
    let values: ColumnChunk | null = null, order = new Int32Array(0);
    for (const u of updates) {
      // An earlier update of the same column is applied in memory; the last one as it is written.
      if (values) chunk = gatherChunk(col.type, chunk, values, order);
      // Each updated row takes its value from the update (`~k`), every other row keeps its own.
      order = new Int32Array(p.rowCount);
      for (let r = 0; r < order.length; r++) {
        if (r % REWRITE_SLICE_ROWS === 0) await turn();
        order[r] = r;
      }
      for (let k = 0; k < u.rows.length; k++) order[u.rows[k]] = ~k;
      // A million new values take ~50 ms to encode (strings, symbols): a slice at a time.
      const data = u.values, dict = s.dicts.get(col.id);
      values = await makeSliced(
        u.rows.length,
        (from, to) => encodeChunk(col, data === null ? null : data.slice(from, to), to - from, dict),
        turn,
      );
    }
    delete tops[col.id];
    await writeGathered(path, col, 0, chunk, values, order, turn);
  });
  await syncDir(path);
  work.obsolete.push(partitionDir(p));
  return { ...p, version, tops };
}
