/**
 * FORMAT PARQUET tables (CREATE TABLE ... FORMAT PARQUET, ALTER TABLE SET FORMAT PARQUET;
 * docs/storage.md "FORMAT PARQUET tables"). Appends always write native column files into the
 * active (newest) partition; a partition becomes Parquet when it stops being the active one,
 * converted right after the append that opened a newer partition (and by the storage-policy
 * task, should that conversion have failed or been cut short by a crash).
 */
import type { TableMeta } from "./api.ts";

/** The partition fields the rule reads (PartitionState and PartitionInfo both have them). */
interface PartitionLike {
  readonly name: string;
  readonly maxTs: bigint;
  readonly parquet?: unknown;
  readonly parquetSize?: number;
}

/**
 * Names of the partitions of a FORMAT PARQUET table that are due for conversion: native, not
 * the active one, and written since the format was set (their newest row is at or after
 * `parquetFormat.fromTs`). Empty for a native table.
 */
export function partitionsDueForParquet(meta: TableMeta, partitions: readonly PartitionLike[]): string[] {
  const format = meta.parquetFormat;
  if (!format || meta.partitionBy === "NONE") return [];
  const from = format.fromTs === undefined ? undefined : BigInt(format.fromTs);
  return partitions.slice(0, -1)
    .filter((p) => p.parquet === undefined && p.parquetSize === undefined)
    .filter((p) => from === undefined || p.maxTs >= from)
    .map((p) => p.name);
}
