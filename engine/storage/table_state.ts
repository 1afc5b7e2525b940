/**
 * The committed state of one table as one immutable value: metadata, transaction state and
 * symbol dictionaries. A commit builds a new state and swaps it in; a snapshot keeps the state
 * it was taken from, which is all snapshot isolation needs.
 */
import type { PartitionInfo, TableMeta } from "./api.ts";
import { partitionRange, partitionRangeOf } from "./partition_name.ts";
import type { PartitionState, TxnState } from "./txn_file.ts";
import type { SymbolTable } from "./symbol_dict.ts";

export interface TableState {
  readonly meta: TableMeta;
  readonly columnIdNext: number;
  readonly txn: TxnState;
  /** Dictionaries by column id; entries past `txn.symbolCounts` are invisible. */
  readonly dicts: ReadonlyMap<number, SymbolTable>;
  readonly partitions: readonly PartitionInfo[];
  readonly rowCount: number;
}

/** Builds a state, deriving the partition list callers see. */
export function makeState(
  meta: TableMeta,
  columnIdNext: number,
  txn: TxnState,
  dicts: ReadonlyMap<number, SymbolTable>,
): TableState {
  const partitions = txn.partitions.map((p) => Object.freeze(partitionInfoOf(meta, p)));
  const rowCount = txn.partitions.reduce((n, p) => n + p.rowCount, 0);
  return Object.freeze({ meta, columnIdNext, txn, dicts, partitions: Object.freeze(partitions), rowCount });
}

/** Nanosecond designated timestamps are named and ranged by their microsecond value. */
export function tsScale(meta: TableMeta): bigint {
  return meta.timestampIndex >= 0 && meta.columns[meta.timestampIndex].type.tag === "TIMESTAMP_NS"
    ? 1000n
    : 1n;
}

function partitionInfoOf(meta: TableMeta, p: PartitionState): PartitionInfo {
  const range = partitionRange(meta.partitionBy, p.name) ?? partitionRangeOf("NONE", 0n);
  const scale = tsScale(meta);
  const scaled = meta.partitionBy === "NONE" ? range : { lo: range.lo * scale, hi: range.hi * scale };
  const info: PartitionInfo = {
    name: p.name,
    rowCount: p.rowCount,
    minTs: p.minTs,
    maxTs: p.maxTs,
    lo: scaled.lo,
    hi: scaled.hi,
  };
  if (p.parquet) info.parquetSize = p.parquet.size;
  if (p.parquet?.remote !== undefined) info.remote = true;
  return info;
}
