/**
 * Whether a SYMBOL column has an index the storage maintains. None has yet: `SYMBOL ... INDEX`
 * (and ALTER COLUMN ... ADD INDEX) is only a declaration kept in the metadata, which SHOW CREATE
 * TABLE repeats so that a later real index can honour it. Until an index is built, no catalog
 * (pg_class, pg_index, pg_indexes, pg_tables.hasindexes, table_columns().indexed) reports one:
 * an index no query uses would mislead clients and users (docs/symbol_index.md). This is the one
 * place to change once a per-partition index exists.
 */
import type { StoredColumn } from "../storage/api.ts";

export function hasBuiltIndex(_c: StoredColumn): boolean {
  return false;
}
