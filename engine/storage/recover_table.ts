/**
 * Opening a table folder after a clean close or a crash (docs/storage.md "Recovery"): only
 * the transaction file is trusted. Anything it does not name goes (uncommitted partition
 * versions, old metadata files, files of dropped columns, temp files), and column and
 * dictionary files are cut back to their committed sizes.
 */
import { isVarSize } from "../base/types.ts";
import { SqlError } from "../base/errors.ts";
import { fileSize, joinPath, listDir, removePath, truncateTo } from "./_fs.ts";
import { PARQUET_FILE } from "./parquet_partition.ts";
import { metaFileName, symbolFileName, TXN_FILE } from "./dir_name.ts";
import { decodeMeta } from "./meta_file.ts";
import { decodeTxn, partitionDir, topOf, type TxnState } from "./txn_file.ts";
import { decodeSymbolFile, SymbolTable } from "./symbol_dict.ts";
import { makeState, type TableState } from "./table_state.ts";
import { checkColumn, truncateColumn } from "./column_files.ts";
import type { TableMeta } from "./api.ts";
import { forEachLimit } from "./_limit.ts";

/**
 * Recovers the table in `path`. Returns undefined (after deleting the folder) when it holds
 * no transaction file: a CREATE that never committed, or a DROP that did.
 */
export async function recoverTable(path: string): Promise<TableState | undefined> {
  let txnBytes: Uint8Array;
  try {
    txnBytes = await Deno.readFile(joinPath(path, TXN_FILE));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    await removePath(path);
    return undefined;
  }
  const txn = decodeTxn(txnBytes, joinPath(path, TXN_FILE));
  const metaPath = joinPath(path, metaFileName(txn.metaVersion));
  const { meta: stored, columnIdNext } = decodeMeta(await Deno.readFile(metaPath), metaPath);
  const meta = Object.freeze({ ...stored, version: txn.metaVersion });
  await removeUnnamed(path, meta, txn);
  await forEachLimit(txn.partitions, 8, async (p) => {
    const partPath = joinPath(path, partitionDir(p));
    // A remote version has no local folder; one left by a crash is a stray.
    if (p.parquet?.remote !== undefined) return await removePath(partPath);
    if (p.parquet) return await recoverParquet(partPath, p.parquet.size);
    await removeUnknownFiles(partPath, meta);
    for (const col of meta.columns) {
      const fileRows = p.rowCount - topOf(p, col.id);
      const missing = await checkColumn(partPath, col, fileRows);
      if (missing) throw new SqlError(`committed column data is missing [file=${missing}]`, -1, "io");
      await truncateColumn(partPath, col, fileRows);
    }
  });
  const dicts = new Map<number, SymbolTable>();
  for (const col of meta.columns) {
    if (col.type.tag !== "SYMBOL") continue;
    dicts.set(col.id, await recoverDictionary(path, col.id, txn.symbolCounts[col.id] ?? 0));
  }
  return makeState(meta, columnIdNext, txn, dicts);
}

/** Deletes table-folder entries the transaction file does not name. */
async function removeUnnamed(path: string, meta: TableMeta, txn: TxnState): Promise<void> {
  const keep = new Set<string>([TXN_FILE, metaFileName(txn.metaVersion)]);
  for (const p of txn.partitions) keep.add(partitionDir(p));
  for (const c of meta.columns) if (c.type.tag === "SYMBOL") keep.add(symbolFileName(c.id));
  for (const entry of await listDir(path)) {
    if (!keep.has(entry.name)) await removePath(joinPath(path, entry.name));
  }
}

/** Deletes files of a partition folder that belong to no current column. */
async function removeUnknownFiles(partPath: string, meta: TableMeta): Promise<void> {
  const keep = new Set<string>();
  for (const c of meta.columns) {
    keep.add(`${c.id}.d`);
    if (isVarSize(c.type)) keep.add(`${c.id}.i`);
  }
  for (const entry of await listDir(partPath)) {
    if (!keep.has(entry.name)) await removePath(joinPath(partPath, entry.name));
  }
}

/** A Parquet partition folder holds `data.parquet` only, cut to its committed size. */
async function recoverParquet(partPath: string, size: number): Promise<void> {
  for (const entry of await listDir(partPath)) {
    if (entry.name !== PARQUET_FILE) await removePath(joinPath(partPath, entry.name));
  }
  const file = joinPath(partPath, PARQUET_FILE);
  if (await fileSize(file) < size) {
    throw new SqlError(`committed parquet data is missing [file=${file}]`, -1, "io");
  }
  await truncateTo(file, size);
}

async function recoverDictionary(path: string, columnId: number, count: number): Promise<SymbolTable> {
  const file = joinPath(path, symbolFileName(columnId));
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    bytes = new Uint8Array(0);
  }
  const decoded = decodeSymbolFile(bytes, count);
  if (!decoded) throw new SqlError(`committed symbol entries are missing [file=${file}]`, -1, "io");
  await truncateTo(file, decoded.byteLength);
  return decoded.table;
}
