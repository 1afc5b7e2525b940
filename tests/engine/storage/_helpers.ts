/** Shared fixtures of the storage tests: temp roots, table definitions, reading a table back as rows. */
import type { ColumnType } from "../../../engine/base/types.ts";
import { readValue, type Value, type VectorData } from "../../../engine/base/values.ts";
import type { PartitionUnit } from "../../../engine/sql/ast.ts";
import type { Storage, Table, TableDefinition, TableSnapshot } from "../../../engine/storage/api.ts";
import { openStorage } from "../../../engine/storage/mod.ts";

/** Microseconds of an ISO instant. */
export function us(iso: string): bigint {
  return BigInt(Date.parse(iso)) * 1000n;
}

/** A table definition from `[name, type]` pairs. */
export function tableDef(
  name: string,
  columns: [string, ColumnType][],
  opts: { ts?: string; partitionBy?: PartitionUnit; dedupKeys?: string[] } = {},
): TableDefinition {
  return {
    name,
    columns: columns.map(([n, type]) => ({
      name: n,
      type,
      symbolCapacity: 256,
      symbolCache: true,
      indexed: false,
      indexCapacity: 0,
    })),
    timestampIndex: opts.ts ? columns.findIndex(([n]) => n === opts.ts) : -1,
    partitionBy: opts.partitionBy ?? "NONE",
    wal: false,
    dedupKeys: opts.dedupKeys ?? [],
  };
}

const roots: string[] = [];
// Temp roots go when the test process ends, after every test (and its reopen) is done with them.
globalThis.addEventListener("unload", () => {
  for (const root of roots) {
    try {
      Deno.removeSync(root, { recursive: true });
    } catch { /* already gone */ }
  }
});

/** A fresh storage on a new temp folder (removed when the test process exits). */
export async function freshStorage(cacheBytes?: number): Promise<{ root: string; storage: Storage }> {
  const root = await Deno.makeTempDir({ prefix: "qdb_storage_test_" });
  roots.push(root);
  return { root, storage: await openStorage(root, { cacheBytes }) };
}

/** Every row of a snapshot in scalar form, partition by partition. */
export async function snapshotRows(snap: TableSnapshot): Promise<Value[][]> {
  const rows: Value[][] = [];
  for (let p = 0; p < snap.partitions.length; p++) {
    const n = snap.partitions[p].rowCount;
    const vectors = [];
    for (let c = 0; c < snap.meta.columns.length; c++) vectors.push(await snap.read(p, c, 0, n));
    for (let r = 0; r < n; r++) rows.push(vectors.map((v) => readValue(v, r)));
  }
  return rows;
}

/** Every row of a table's current state. */
export async function tableRows(table: Table): Promise<Value[][]> {
  const snap = table.snapshot();
  try {
    return await snapshotRows(snap);
  } finally {
    snap.release();
  }
}

/** Appends rows given as scalar `Value[]` per column (storage converts to the vector layout). */
export function appendValues(table: Table, columns: (Value[] | VectorData | null)[]): Promise<number> {
  const rowCount = columns.find((c) => c !== null)?.length ?? 0;
  return table.append({ rowCount, columns: columns as (VectorData | null)[] });
}

/** Names of the entries of a folder, sorted. */
export async function dirEntries(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(path)) out.push(e.name);
  return out.sort();
}
