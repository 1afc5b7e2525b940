/**
 * Row writes into local Parquet partitions. QuestDB 9 takes INSERTs, out-of-order rows and
 * DEDUP UPSERT KEYS rows into a Parquet partition, which stays Parquet and shows the merged rows
 * (QuestDB's test/parquet/parquet_ts_dedup.test). Here the partition's rows are written as
 * native column files into a new version folder (unpack), the append writes into that folder as
 * into any native partition (in place after its last row, else an O3 merge into another folder,
 * dedup honoured), and the result is encoded as `data.parquet` in one more new version folder
 * (repack), all before the append's one commit.
 *
 * Crash safety is that of every O3 merge: until the `_txn` rename, readers and a restart see
 * the committed Parquet version; a crash leaves unnamed folders, which recovery deletes; the
 * versions replaced (the old file and the native folders in between) are deleted after the
 * commit once no snapshot reads them. UPDATE, DELETE and ALTER COLUMN TYPE still refuse
 * Parquet partitions, and so do appends into remote (cold) ones.
 */
import { assert } from "../base/assert.ts";
import type { TableSnapshot } from "./api.ts";
import type { TableWriter } from "./table_writer.ts";
import type { WriteSet } from "./write_set.ts";
import { partitionDir, type PartitionState } from "./txn_file.ts";
import { writeNative } from "./table_convert.ts";
import { writeParquetPartition } from "./parquet_partition.ts";
import { EncoderWorkers } from "../parquet/encoder_thread.ts";
import { syncDir } from "./_fs.ts";

/**
 * Partition `p` (a local Parquet partition of the committed state) as native column files in a
 * new version folder of `work`, read through `committed`, a snapshot of that state. The folder
 * is never committed as it is (repackParquet writes the partition's final version), so it is
 * not synced.
 */
export async function unpackParquet(
  w: TableWriter,
  work: WriteSet,
  committed: TableSnapshot,
  p: PartitionState,
): Promise<PartitionState> {
  const index = w.state.txn.partitions.indexOf(p);
  assert(index >= 0 && p.parquet !== undefined, "unpackParquet: a committed Parquet partition expected");
  const { version, path } = await work.createPartitionDir(p.name);
  await writeNative(w, committed, index, path);
  work.obsolete.push(partitionDir(p));
  return { name: p.name, version, rowCount: p.rowCount, minTs: p.minTs, maxTs: p.maxTs, tops: {} };
}

/**
 * `partitions` (an append's result) with the partitions named in `names` written as Parquet
 * files in new version folders, read through `written`: a snapshot of the uncommitted state
 * whose partitions are exactly `partitions`. Their native folders become obsolete.
 */
export async function repackParquet(
  work: WriteSet,
  written: TableSnapshot,
  partitions: readonly PartitionState[],
  names: ReadonlySet<string>,
): Promise<PartitionState[]> {
  const out = [...partitions];
  // One encoder worker for the partitions one after another, as CONVERT PARTITION does.
  const encoders = new EncoderWorkers();
  try {
    for (const [index, p] of partitions.entries()) {
      if (!names.has(p.name)) continue;
      assert(p.parquet === undefined, "repackParquet: a native partition expected");
      const { version, path } = await work.createPartitionDir(p.name);
      const parquet = await writeParquetPartition(written, index, path, encoders);
      await syncDir(path);
      work.obsolete.push(partitionDir(p));
      out[index] = {
        name: p.name,
        version,
        rowCount: p.rowCount,
        minTs: p.minTs,
        maxTs: p.maxTs,
        tops: {},
        parquet,
      };
    }
  } finally {
    encoders.close();
  }
  return out;
}
