/**
 * ALTER TABLE CONVERT PARTITION TO PARQUET | NATIVE (issue #21): each partition is rewritten
 * as a new version folder in the other format and the commit swaps the versions through the
 * transaction file, as any partition rewrite does. A crash before the `_txn` rename leaves an
 * unnamed folder that recovery deletes; the old version is deleted once no snapshot reads it.
 */
import { isVarSize } from "../base/types.ts";
import { SqlError } from "../base/errors.ts";
import { readValue, type Value } from "../base/values.ts";
import type { TableSnapshot } from "./api.ts";
import type { TableWriter } from "./table_writer.ts";
import type { WriteSet } from "./write_set.ts";
import { partitionDir, type PartitionState } from "./txn_file.ts";
import { writeColumn } from "./column_files.ts";
import { encodeChunk } from "./append.ts";
import { syncDir } from "./_fs.ts";
import { writeParquetPartition } from "./parquet_partition.ts";
import { EncoderWorkers } from "../parquet/encoder_thread.ts";
import { REWRITE_SLICE_ROWS, rewriteTurn, writeSlices } from "./column_rewrite.ts";
import type { ColumnChunk } from "./column_chunk.ts";

/**
 * Converts the partitions `names` (each must exist) of the table to `format`, reading them
 * from `snap`, a snapshot of the committed state taken under the table's write lock.
 */
export async function convertPartitionsOp(
  w: TableWriter,
  work: WriteSet,
  snap: TableSnapshot,
  names: string[],
  format: "parquet" | "native",
): Promise<void> {
  const s = w.state;
  const wanted = new Set(names);
  for (const name of wanted) {
    if (!s.txn.partitions.some((p) => p.name === name)) {
      throw new SqlError(`could not convert partition [table=${s.meta.name}, partition=${name}]`);
    }
  }
  const next: PartitionState[] = [];
  // One encoder worker serves the partitions one after another (a start per partition cost more
  // than encoding a small one).
  const encoders = new EncoderWorkers();
  try {
    for (const [index, p] of s.txn.partitions.entries()) {
      if (!wanted.has(p.name) || (format === "parquet") === (p.parquet !== undefined)) {
        next.push(p);
        continue;
      }
      const { version, path } = await work.createPartitionDir(p.name);
      const base = { name: p.name, version, rowCount: p.rowCount, minTs: p.minTs, maxTs: p.maxTs, tops: {} };
      if (format === "parquet") {
        next.push({ ...base, parquet: await writeParquetPartition(snap, index, path, encoders) });
      } else {
        await writeNative(w, snap, index, path);
        next.push(base);
      }
      await syncDir(path);
      work.obsolete.push(partitionDir(p));
    }
  } finally {
    encoders.close();
  }
  if (next.every((p, i) => p === s.txn.partitions[i])) return;
  await w.commit(work, { partitions: next });
}

/**
 * Writes every column of partition `index` of `snap` as native column files into `path`, a
 * slice of rows at a time with turns between: converting a column of millions of rows to
 * values and encoding them in one piece held the event loop for seconds (issue #17). (The
 * snapshot still decodes a Parquet column whole, on its first read.)
 */
export async function writeNative(
  w: TableWriter,
  snap: TableSnapshot,
  index: number,
  path: string,
): Promise<void> {
  const rowCount = snap.partitions[index].rowCount;
  const turn = rewriteTurn();
  for (const [c, col] of snap.meta.columns.entries()) {
    // SYMBOL strings are interned into the table's dictionary, where they already are.
    const dict = w.state.dicts.get(col.id);
    const slice = async (from: number): Promise<ColumnChunk> => {
      const to = Math.min(rowCount, from + REWRITE_SLICE_ROWS);
      const v = await snap.read(index, c, from, to);
      if (!isVarSize(col.type) && col.type.tag !== "SYMBOL") {
        // A fixed-width vector is the file's bytes (docs/storage.md "Column files").
        const d = v.data as unknown as ArrayBufferView;
        if (ArrayBuffer.isView(d)) {
          return { kind: "fixed", bytes: new Uint8Array(d.buffer, d.byteOffset, d.byteLength) };
        }
      }
      const values = new Array<Value>(to - from);
      for (let r = from; r < to; r++) values[r - from] = readValue(v, r - from);
      return encodeChunk(col, values, to - from, dict);
    };
    if (rowCount === 0) await writeColumn(path, col, encodeChunk(col, [], 0, dict));
    else await writeSlices(path, col, 0, rowCount, slice, turn);
  }
}
