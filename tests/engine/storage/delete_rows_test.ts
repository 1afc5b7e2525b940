/** Row-level DELETE in storage (issue 10): copy-on-write partitions, durable across a reopen. */
import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import type { RowDelete, Table } from "../../../engine/storage/api.ts";
import { openStorage } from "../../../engine/storage/mod.ts";
import { appendValues, dirEntries, freshStorage, tableDef, tableRows, us } from "./_helpers.ts";

const d1 = us("2024-01-01T00:00:00Z");
const d2 = us("2024-01-02T00:00:00Z");
const h = 3_600_000_000n;

/** Deletes the rows of each named partition for which `keep` is false. */
function deleteWhere(t: Table, drop: (partition: string, row: number) => boolean): Promise<number> {
  return t.deleteRows((snap) => {
    const out: RowDelete[] = [];
    for (const p of snap.partitions) {
      const rows: number[] = [];
      for (let r = 0; r < p.rowCount; r++) if (drop(p.name, r)) rows.push(r);
      if (rows.length) out.push({ partition: p.name, rows: Int32Array.from(rows) });
    }
    return Promise.resolve(out);
  });
}

Deno.test("delete rewrites only the partitions it touches, drops emptied ones and survives a reopen", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["k", T.SYMBOL], ["s", T.VARCHAR], ["v", T.LONG]], {
      ts: "ts",
      partitionBy: "DAY",
    }),
  );
  await appendValues(t, [
    [d1, d1 + h, d1 + 2n * h, d2, d2 + h],
    ["a", "b", "a", "c", "c"],
    ["one", null, "three", "four", "five"],
    [1n, 2n, 3n, 4n, 5n],
  ]);
  const before = await dirEntries(root + "/" + t.meta.dirName);
  // Deleting the first and last rows of day 1 moves its min/max timestamps to the middle row.
  assert.equal(await deleteWhere(t, (p, r) => p === "2024-01-01" && r !== 1), 2);
  assert.deepEqual(await tableRows(t), [[d1 + h, "b", null, 2n], [d2, "c", "four", 4n], [
    d2 + h,
    "c",
    "five",
    5n,
  ]]);
  const day1 = t.snapshot();
  assert.deepEqual(day1.partitions.map((p) => [p.name, p.rowCount, p.minTs, p.maxTs]), [
    ["2024-01-01", 1, d1 + h, d1 + h],
    ["2024-01-02", 2, d2, d2 + h],
  ]);
  day1.release();
  // Day 2 was not touched: its folder is the one the first append wrote.
  const after = await dirEntries(root + "/" + t.meta.dirName);
  assert.ok(after.includes("2024-01-02") && before.includes("2024-01-02"));
  assert.ok(!after.includes("2024-01-01"), `old version of day 1 collected: ${after}`);
  // Emptying day 2 drops the partition.
  assert.equal(await deleteWhere(t, (p) => p === "2024-01-02"), 2);
  assert.deepEqual(t.snapshot().partitions.map((p) => p.name), ["2024-01-01"]);
  await storage.close();

  const reopened = await openStorage(root);
  const r = reopened.table("t")!;
  assert.deepEqual(await tableRows(r), [[d1 + h, "b", null, 2n]]);
  // Symbols stay valid: a new row may reuse an old key or add one.
  await appendValues(r, [[d2, d2], ["a", "z"], ["x", "y"], [6n, 7n]]);
  assert.deepEqual(await tableRows(r), [[d1 + h, "b", null, 2n], [d2, "a", "x", 6n], [d2, "z", "y", 7n]]);
  await reopened.close();
});

Deno.test("a snapshot taken before a delete still reads the deleted rows", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["v", T.INT]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1, d1 + h], [1, 2]]);
  const old = t.snapshot();
  assert.equal(await deleteWhere(t, () => true), 2);
  assert.deepEqual(await tableRows(t), []);
  assert.equal(old.rowCount, 2);
  const v = await old.read(0, 1, 0, 2);
  assert.deepEqual([...(v.data as Int32Array)], [1, 2]);
  old.release();
  await storage.close();
});

Deno.test("delete keeps column tops of columns added later", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["a", T.INT]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1, d1 + 1n, d1 + 2n], [1, 2, 3]]);
  await t.addColumn({
    name: "b",
    type: T.STRING,
    symbolCapacity: 0,
    symbolCache: false,
    indexed: false,
    indexCapacity: 0,
  });
  await appendValues(t, [[d1 + 3n, d1 + 4n], [4, 5], ["four", "five"]]);
  assert.equal(await deleteWhere(t, (_, r) => r === 1 || r === 3), 2);
  await storage.close();
  const reopened = await openStorage(root);
  const r = reopened.table("t")!;
  assert.deepEqual(await tableRows(r), [[d1, 1, null], [d1 + 2n, 3, null], [d1 + 4n, 5, "five"]]);
  // Only rows inside the column top left: the column has no file rows, yet reads and reopens.
  assert.equal(await deleteWhere(r, (_, row) => row === 2), 1);
  await reopened.close();
  const again = await openStorage(root);
  assert.deepEqual(await tableRows(again.table("t")!), [[d1, 1, null], [d1 + 2n, 3, null]]);
  await appendValues(again.table("t")!, [[d1 + 9n], [9], ["nine"]]);
  assert.deepEqual(await tableRows(again.table("t")!), [[d1, 1, null], [d1 + 2n, 3, null], [
    d1 + 9n,
    9,
    "nine",
  ]]);
  await again.close();
});

Deno.test("ON CONFLICT in storage: DO NOTHING keeps the first row, DO UPDATE sets only the listed columns", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("px", [["ts", T.TIMESTAMP], ["k", T.SYMBOL], ["v", T.DOUBLE], ["n", T.INT]], {
      ts: "ts",
      partitionBy: "DAY",
      dedupKeys: ["ts", "k"],
    }),
  );
  await appendValues(t, [[d1], ["x"], [1.0], [1]]);
  const skipped = new Uint8Array(3);
  const rows = {
    rowCount: 3,
    columns: [
      BigInt64Array.of(d1, d1, d1),
      ["x", "y", "y"],
      Float64Array.of(2, 3, 4),
      Int32Array.of(2, 3, 4),
    ],
  };
  assert.equal(await t.append(rows, { onConflict: { action: "nothing" }, skipped }), 1);
  assert.deepEqual([...skipped], [1, 0, 1]);
  assert.deepEqual(await tableRows(t), [[d1, "x", 1.0, 1], [d1, "y", 3.0, 3]]);
  await t.append(rows, { onConflict: { action: "update", columns: [2] } });
  assert.deepEqual(await tableRows(t), [[d1, "x", 2.0, 1], [d1, "y", 4.0, 3]]);
  await storage.close();
});
