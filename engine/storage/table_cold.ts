/**
 * Moving Parquet partitions to the cold store (docs/storage.md "Cold storage"). The order makes
 * a crash harmless at every step:
 *
 * 1. upload `data.parquet` as `<root>/<table folder>/<partition>.<N>/data.parquet`, N a fresh
 *    partition version (never reused, so a key is never overwritten);
 * 2. commit `_txn` naming version N with `parquet.remote = key` (the commit point);
 * 3. delete the local folder once no snapshot reads it (the obsolete-path mechanism).
 *
 * A crash before 2 leaves an object `_txn` does not name: `collectRemoteOp` deletes such keys
 * (run by the cold-storage task under the table's write lock). A crash after 2 leaves the old
 * local folder, which recovery deletes as it deletes any unnamed folder.
 */
import { SqlError } from "../base/errors.ts";
import { exists, joinPath } from "./_fs.ts";
import type { TableWriter } from "./table_writer.ts";
import type { WriteSet } from "./write_set.ts";
import { partitionDir, type PartitionState } from "./txn_file.ts";
import { PARQUET_FILE } from "./parquet_partition.ts";
import { partitionDirName } from "./dir_name.ts";
import type { ObjectStore } from "./object_store.ts";

/** The key prefix of one table's objects: `<root>/<table folder>/`. */
export function tablePrefix(store: ObjectStore, tablePath: string): string {
  return store.keyOf(tablePath.slice(tablePath.lastIndexOf("/") + 1)) + "/";
}

/**
 * Uploads the local Parquet partitions among `names` and commits them as remote; partitions
 * that are native are refused (convert them first), remote ones are left alone. Returns the
 * names moved.
 */
export async function movePartitionsOp(
  w: TableWriter,
  work: WriteSet,
  names: string[],
  store: ObjectStore,
): Promise<string[]> {
  const s = w.state;
  const wanted = new Set(names);
  const moved: string[] = [];
  const next: PartitionState[] = [];
  for (const p of s.txn.partitions) {
    if (!wanted.has(p.name) || p.parquet?.remote !== undefined) {
      next.push(p);
      continue;
    }
    if (!p.parquet) {
      throw new SqlError(
        `partition is not in Parquet format; convert it to PARQUET first [table=${s.meta.name}, partition=${p.name}]`,
      );
    }
    const version = work.newVersion();
    const key = tablePrefix(store, w.tablePath) + `${partitionDirName(p.name, version)}/${PARQUET_FILE}`;
    const file = await Deno.readFile(joinPath(w.tablePath, partitionDir(p), PARQUET_FILE));
    const body = file.subarray(0, p.parquet.size);
    // Undone when the commit fails; a crash leaves the object to collectRemoteOp.
    work.onRollback(() => store.delete(key));
    await store.put(key, body);
    next.push({ ...p, version, parquet: { ...p.parquet, remote: key } });
    work.obsolete.push(partitionDir(p));
    moved.push(p.name);
  }
  if (moved.length) await w.commit(work, { partitions: next });
  return moved;
}

/**
 * Deletes the table's objects `inUse` does not name: uploads a crash left uncommitted, and
 * remote versions replaced (converted back, dropped) once no snapshot reads them. Returns the
 * number deleted.
 */
export async function collectRemoteOp(
  tablePath: string,
  store: ObjectStore,
  inUse: ReadonlySet<string>,
): Promise<number> {
  let n = 0;
  for (const key of await store.list(tablePrefix(store, tablePath))) {
    if (inUse.has(key)) continue;
    await store.delete(key);
    n++;
  }
  return n;
}

/** A key this database writes: `<table folder>/<partition>.<N>/data.parquet` under the root. */
const KEY_PATTERN = /^([^/]+~\d+)\/[^/]+\/data\.parquet$/;

/**
 * Deletes the objects of tables whose folder is gone from `root` (dropped, or never committed
 * before a crash). A dropped table's folder stays while a snapshot reads it, so its objects do
 * too. Returns the number deleted.
 */
export async function collectDroppedOp(root: string, store: ObjectStore): Promise<number> {
  const prefix = store.keyOf("");
  const gone = new Map<string, boolean>();
  let n = 0;
  for (const key of await store.list(prefix)) {
    const m = KEY_PATTERN.exec(key.slice(prefix.length));
    if (!m) continue;
    let isGone = gone.get(m[1]);
    if (isGone === undefined) {
      isGone = !(await exists(joinPath(root, m[1])));
      gone.set(m[1], isGone);
    }
    if (!isGone) continue;
    await store.delete(key);
    n++;
  }
  return n;
}
