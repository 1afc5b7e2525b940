/**
 * The transaction file `_txn`: the committed state of a table and the only thing recovery
 * trusts (docs/storage.md "Transaction file"). It names the metadata version, every committed
 * partition version with its row count and timestamp range, the column tops, and the committed
 * size of every symbol dictionary. It is replaced atomically on each commit.
 */
import { SqlError } from "../base/errors.ts";
import { partitionDirName } from "./dir_name.ts";

const FORMAT = 1;

/** One committed partition version. */
export interface PartitionState {
  readonly name: string;
  /** 0 for the folder `name`, N for `name.N` (a copy-on-write rewrite). */
  readonly version: number;
  readonly rowCount: number;
  /** Designated timestamp range of the rows in the column's unit; 0n without a timestamp. */
  readonly minTs: bigint;
  readonly maxTs: bigint;
  /**
   * Column tops by column id: the first `top` rows of that column read as NULL and its files
   * hold rows [top, rowCount). Only columns added after the partition was written have one.
   */
  readonly tops: Readonly<Record<string, number>>;
  /**
   * Present when the partition version is one Parquet file (`data.parquet`) instead of column
   * files (ALTER TABLE CONVERT PARTITION TO PARQUET; docs/storage.md "Parquet partitions").
   */
  readonly parquet?: ParquetPart;
}

/** The `_txn` record of a Parquet partition version. */
export interface ParquetPart {
  /** Committed size of `data.parquet` in bytes. */
  readonly size: number;
  /** The column id of each column of the file, in file order (names may change later). */
  readonly columnIds: readonly number[];
  /**
   * The object key in the cold store when the file lives there (docs/storage.md "Cold
   * storage"); the version then has no local folder.
   */
  readonly remote?: string;
}

/** The committed state of a table. */
export interface TxnState {
  /** Commit sequence number, +1 per commit. */
  readonly txn: number;
  readonly metaVersion: number;
  /** Next partition version number; versions are never reused within a table. */
  readonly versionNext: number;
  /** Sorted by time range. */
  readonly partitions: readonly PartitionState[];
  /** Committed entry count of each SYMBOL column's dictionary, by column id. */
  readonly symbolCounts: Readonly<Record<string, number>>;
}

/** The folder of a committed partition version. */
export function partitionDir(p: PartitionState): string {
  return partitionDirName(p.name, p.version);
}

/** The column top of `columnId` in `p` (0 when the column was there from the start). */
export function topOf(p: PartitionState, columnId: number): number {
  return p.tops[columnId] ?? 0;
}

export function encodeTxn(t: TxnState): Uint8Array {
  const json = {
    format: FORMAT,
    ...t,
    partitions: t.partitions.map((p) => ({ ...p, minTs: String(p.minTs), maxTs: String(p.maxTs) })),
  };
  return new TextEncoder().encode(JSON.stringify(json));
}

export function decodeTxn(bytes: Uint8Array, path: string): TxnState {
  let json;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new SqlError(`corrupt transaction file [file=${path}]`, -1, "io", { cause: e });
  }
  if (json.format !== FORMAT) throw new SqlError(`unsupported transaction format [file=${path}]`, -1, "io");
  return {
    txn: json.txn,
    metaVersion: json.metaVersion,
    versionNext: json.versionNext,
    symbolCounts: json.symbolCounts,
    partitions: json.partitions.map((p: Record<string, unknown>) => ({
      name: p.name,
      version: p.version,
      rowCount: p.rowCount,
      minTs: BigInt(p.minTs as string),
      maxTs: BigInt(p.maxTs as string),
      tops: p.tops ?? {},
      ...(p.parquet ? { parquet: p.parquet as ParquetPart } : {}),
    })),
  };
}
