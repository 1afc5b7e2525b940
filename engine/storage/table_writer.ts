/**
 * The seam between a table and the write operations in their own files (append, alter,
 * update): the committed state to start from and one way to commit a change.
 */
import type { TableMeta } from "./api.ts";
import type { TableState } from "./table_state.ts";
import type { PartitionState } from "./txn_file.ts";
import type { SymbolTable } from "./symbol_dict.ts";
import type { WriteSet } from "./write_set.ts";

/** The parts of the state a commit changes; omitted parts stay as they are. */
export interface NextState {
  meta?: TableMeta;
  columnIdNext?: number;
  partitions?: readonly PartitionState[];
  /** Dictionaries by column id; every SYMBOL column of the (next) meta must have one. */
  dicts?: ReadonlyMap<number, SymbolTable>;
}

export interface TableWriter {
  /** The committed state (writes are serialized, so it does not change under a write). */
  readonly state: TableState;
  readonly tablePath: string;
  /**
   * Makes `next` the committed state: writes the metadata file and symbol entries, then
   * replaces the transaction file. Files the change needs must already be written and synced.
   */
  commit(work: WriteSet, next: NextState): Promise<void>;
}
