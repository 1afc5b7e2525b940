/**
 * Schema and housekeeping changes of one table (spec/sql.md §5.3, §5.4): TRUNCATE, ADD /
 * DROP / RENAME / ALTER TYPE of a column, DROP PARTITION and metadata-only changes. Each one
 * commits through the transaction file, so it is all-or-nothing across a crash.
 */
import { isVarSize } from "../base/types.ts";
import { SqlError } from "../base/errors.ts";
import { assert } from "../base/assert.ts";
import type { Value } from "../base/values.ts";
import type { StoredColumn, TableMeta } from "./api.ts";
import type { TableWriter } from "./table_writer.ts";
import type { WriteSet } from "./write_set.ts";
import { cloneMeta, columnIndexOf } from "./meta_file.ts";
import { partitionDir, topOf } from "./txn_file.ts";
import { SymbolTable } from "./symbol_dict.ts";
import { dataFileName, indexFileName, symbolFileName } from "./dir_name.ts";
import { dataPath, indexPath, readColumnChunk, writeColumn } from "./column_files.ts";
import { chunkValue } from "./column_chunk.ts";
import { encodeChunk } from "./append.ts";
import { joinPath, removePath, syncDir, truncateTo } from "./_fs.ts";
import { forEachLimit } from "./_limit.ts";
import { parquetWriteError } from "./parquet_partition.ts";
import { REWRITE_SLICE_ROWS, rewriteTurn, writeSlices } from "./column_rewrite.ts";

/** Partitions converted at once by ALTER COLUMN TYPE: each holds a whole column in memory. */
const CONVERT_PARTITIONS_PARALLEL = 2;

function noColumn(name: string): SqlError {
  return new SqlError(`Invalid column: ${name}`);
}

/** TRUNCATE TABLE: no partitions, empty dictionaries (spec/sql.md §5.4), schema kept. */
export async function truncateOp(w: TableWriter, work: WriteSet): Promise<void> {
  const s = w.state;
  for (const p of s.txn.partitions) work.obsolete.push(partitionDir(p));
  const dicts = new Map<number, SymbolTable>();
  for (const id of s.dicts.keys()) dicts.set(id, new SymbolTable());
  await w.commit(work, { partitions: [], dicts });
  // The dictionary files now hold nothing committed; emptying them is tidiness, not safety.
  for (const id of s.dicts.keys()) {
    await truncateTo(joinPath(w.tablePath, symbolFileName(id)), 0).catch(() => {});
  }
}

/** ADD COLUMN: existing rows read NULL through a column top in every partition. */
export async function addColumnOp(
  w: TableWriter,
  work: WriteSet,
  column: Omit<StoredColumn, "id">,
): Promise<void> {
  const s = w.state;
  if (columnIndexOf(s.meta, column.name) >= 0) throw new SqlError(`Duplicate column [name=${column.name}]`);
  const meta = cloneMeta(s.meta);
  const id = s.columnIdNext;
  meta.columns.push({ ...column, id });
  const partitions = s.txn.partitions.map((p) => ({ ...p, tops: { ...p.tops, [id]: p.rowCount } }));
  const dicts = new Map(s.dicts);
  if (column.type.tag === "SYMBOL") dicts.set(id, new SymbolTable());
  await w.commit(work, { meta, columnIdNext: id + 1, partitions, dicts });
}

/** DROP COLUMN: metadata first; the files go once no snapshot reads them. */
export async function dropColumnOp(w: TableWriter, work: WriteSet, name: string): Promise<void> {
  const s = w.state;
  const index = columnIndexOf(s.meta, name);
  if (index < 0) throw noColumn(name);
  if (index === s.meta.timestampIndex) {
    throw new SqlError(`cannot drop designated timestamp column [column=${name}]`);
  }
  const meta = cloneMeta(s.meta);
  const [col] = meta.columns.splice(index, 1);
  if (meta.timestampIndex > index) meta.timestampIndex--;
  meta.dedupKeys = meta.dedupKeys.filter((k) => k.toLowerCase() !== col.name.toLowerCase());
  obsoleteColumnFiles(w, work, col);
  const dicts = new Map(s.dicts);
  if (dicts.delete(col.id)) work.obsolete.push(symbolFileName(col.id));
  await w.commit(work, { meta, dicts });
}

function obsoleteColumnFiles(w: TableWriter, work: WriteSet, col: StoredColumn): void {
  for (const p of w.state.txn.partitions) {
    work.obsolete.push(`${partitionDir(p)}/${dataFileName(col.id)}`);
    if (isVarSize(col.type)) work.obsolete.push(`${partitionDir(p)}/${indexFileName(col.id)}`);
  }
}

/** RENAME COLUMN: metadata only (files are named by column id). */
export async function renameColumnOp(
  w: TableWriter,
  work: WriteSet,
  from: string,
  to: string,
): Promise<void> {
  const s = w.state;
  const index = columnIndexOf(s.meta, from);
  if (index < 0) throw noColumn(from);
  const clash = columnIndexOf(s.meta, to);
  if (clash >= 0 && clash !== index) throw new SqlError(`Duplicate column [name=${to}]`);
  const meta = cloneMeta(s.meta);
  const old = meta.columns[index].name;
  meta.columns[index].name = to;
  meta.dedupKeys = meta.dedupKeys.map((k) => (k.toLowerCase() === old.toLowerCase() ? to : k));
  await w.commit(work, { meta });
}

/**
 * ALTER COLUMN TYPE: the converted values are written under a new column id next to the old
 * files in each partition, and the metadata swaps the column in one commit; old snapshots
 * keep reading the old files until they go.
 */
export async function convertColumnOp(
  w: TableWriter,
  work: WriteSet,
  name: string,
  column: Omit<StoredColumn, "id">,
  convert: (v: Value) => Value,
): Promise<void> {
  const s = w.state;
  const index = columnIndexOf(s.meta, name);
  if (index < 0) throw noColumn(name);
  if (index === s.meta.timestampIndex) {
    throw new SqlError(`cannot change type of designated timestamp column [column=${name}]`);
  }
  const old = s.meta.columns[index];
  const pq = s.txn.partitions.find((p) => p.parquet);
  if (pq) throw parquetWriteError(s.meta.name, pq.name);
  const target: StoredColumn = { ...column, id: s.columnIdNext };
  const oldDict = s.dicts.get(old.id);
  const newDict = target.type.tag === "SYMBOL" ? new SymbolTable() : undefined;
  // Millions of rows are converted and written a slice at a time, with turns between (issue #17).
  const turn = rewriteTurn();
  await forEachLimit(s.txn.partitions, CONVERT_PARTITIONS_PARALLEL, async (p) => {
    const path = joinPath(w.tablePath, partitionDir(p));
    const chunk = await readColumnChunk(path, old, topOf(p, old.id), p.rowCount, turn);
    const converted = (from: number, to: number) => {
      const values = new Array<Value>(to - from);
      for (let r = from; r < to; r++) values[r - from] = convert(chunkValue(old.type, chunk, r, oldDict));
      return encodeChunk(target, values, to - from, newDict);
    };
    work.onRollback(() => removePath(dataPath(path, target)));
    if (isVarSize(target.type)) work.onRollback(() => removePath(indexPath(path, target)));
    if (p.rowCount <= REWRITE_SLICE_ROWS) await writeColumn(path, target, converted(0, p.rowCount));
    else {
      const slice = (k: number) => converted(k, Math.min(p.rowCount, k + REWRITE_SLICE_ROWS));
      await writeSlices(path, target, 0, p.rowCount, slice, turn);
    }
    await syncDir(path);
  });
  const meta = cloneMeta(s.meta);
  meta.columns[index] = target;
  obsoleteColumnFiles(w, work, old);
  const dicts = new Map(s.dicts);
  if (dicts.delete(old.id)) work.obsolete.push(symbolFileName(old.id));
  if (newDict) dicts.set(target.id, newDict);
  await w.commit(work, { meta, columnIdNext: target.id + 1, dicts });
}

/** DROP PARTITION LIST: every name must be a partition of the table (spec/sql.md §5.3). */
export async function dropPartitionsOp(w: TableWriter, work: WriteSet, names: string[]): Promise<void> {
  const s = w.state;
  const drop = new Set<string>();
  for (const name of names) {
    if (!s.txn.partitions.some((p) => p.name === name)) {
      throw new SqlError(`could not remove partition [table=${s.meta.name}, partition=${name}]`);
    }
    drop.add(name);
  }
  for (const p of s.txn.partitions) if (drop.has(p.name)) work.obsolete.push(partitionDir(p));
  await w.commit(work, { partitions: s.txn.partitions.filter((p) => !drop.has(p.name)) });
}

/** Metadata-only changes; identity and column ids are storage's and may not change. */
export async function alterMetaOp(
  w: TableWriter,
  work: WriteSet,
  change: (meta: TableMeta) => void,
): Promise<void> {
  const s = w.state;
  const meta = cloneMeta(s.meta);
  change(meta);
  assert(meta.id === s.meta.id && meta.dirName === s.meta.dirName, "alterMeta: table identity changed");
  assert(
    meta.columns.length === s.meta.columns.length &&
      meta.columns.every((c, i) => c.id === s.meta.columns[i].id),
    "alterMeta: columns may not be added, removed or reordered",
  );
  await w.commit(work, { meta });
}
