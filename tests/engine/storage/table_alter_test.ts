import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import type { Value } from "../../../engine/base/values.ts";
import { openStorage } from "../../../engine/storage/mod.ts";
import { appendValues, dirEntries, freshStorage, snapshotRows, tableDef, tableRows, us } from "./_helpers.ts";

const d1 = us("2024-01-01T00:00:00Z"), d2 = us("2024-01-02T00:00:00Z"), d3 = us("2024-01-03T00:00:00Z");

function column(name: string, type = T.INT) {
  return { name, type, symbolCapacity: 256, symbolCache: true, indexed: false, indexCapacity: 0 };
}

Deno.test("symbols intern in first-seen order per column and survive reopen", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("s", [["ts", T.TIMESTAMP], ["a", T.SYMBOL], ["b", T.SYMBOL]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1, d1, d1], ["x", "y", null], ["y", "y", "z"]]);
  await appendValues(t, [[d2], ["w"], ["y"]]);
  const snap = t.snapshot();
  const a = snap.symbols(1), b = snap.symbols(2);
  assert.deepEqual([a.size, a.valueOf(0), a.valueOf(1), a.valueOf(2), a.keyOf("w"), a.keyOf("nope")], [
    3,
    "x",
    "y",
    "w",
    2,
    undefined,
  ]);
  assert.deepEqual([b.size, b.valueOf(0), b.valueOf(1), b.valueOf(-1)], [2, "y", "z", null]);
  assert.deepEqual([...((await snap.read(0, 1, 0, 3)).data as Int32Array)], [0, 1, -1]);
  snap.release();
  await storage.close();
  const again = await openStorage(root);
  const t2 = again.table("s")!;
  assert.deepEqual(await tableRows(t2), [[d1, "x", "y"], [d1, "y", "y"], [d1, null, "z"], [d2, "w", "y"]]);
  await appendValues(t2, [[d3], ["v"], ["q"]]);
  const s2 = t2.snapshot();
  assert.equal(s2.symbols(1).keyOf("v"), 3);
  s2.release();
  await again.close();
});

Deno.test("add column: old rows read NULL (0 for SHORT), new rows carry values, also after reopen", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["x", T.INT]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1, d2], [1, 2]]);
  await t.addColumn(column("s", T.VARCHAR));
  await t.addColumn(column("sh", T.SHORT));
  await t.addColumn(column("y", T.SYMBOL));
  await assert.rejects(t.addColumn(column("X")), /Duplicate column/);
  await appendValues(t, [[d2 + 1n, d3], [3, 4], ["p", null], [7, 8], ["k", null]]);
  const expected: Value[][] = [[d1, 1, null, 0, null], [d2, 2, null, 0, null], [d2 + 1n, 3, "p", 7, "k"], [
    d3,
    4,
    null,
    8,
    null,
  ]];
  assert.deepEqual(await tableRows(t), expected);
  // The column top also survives an out-of-order merge of that partition.
  await appendValues(t, [[d2 - 1n], [9], ["m"], [1], ["j"]]);
  expected.splice(1, 0, [d2 - 1n, 9, "m", 1, "j"]);
  assert.deepEqual(await tableRows(t), expected);
  const snap = t.snapshot();
  assert.ok(await snap.region(0, 3), "a column top is materialized for kernels");
  snap.release();
  await storage.close();
  const again = await openStorage(root);
  assert.deepEqual(await tableRows(again.table("t")!), expected);
  assert.equal(again.table("t")!.meta.version, 3);
  await again.close();
});

Deno.test("drop column removes data; the designated timestamp cannot be dropped; rename is metadata only", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["a", T.STRING], ["ts", T.TIMESTAMP], ["k", T.SYMBOL], ["v", T.INT]], {
      ts: "ts",
      partitionBy: "DAY",
      dedupKeys: ["ts", "k"],
    }),
  );
  await appendValues(t, [["s1", "s2"], [d1, d2], ["x", "y"], [1, 2]]);
  await assert.rejects(t.dropColumn("TS"), /designated timestamp/);
  await assert.rejects(t.dropColumn("nope"), /Invalid column: nope/);
  await t.dropColumn("a");
  assert.equal(t.meta.timestampIndex, 0);
  assert.deepEqual(t.meta.columns.map((c) => c.name), ["ts", "k", "v"]);
  await t.renameColumn("k", "key");
  await assert.rejects(t.renameColumn("v", "KEY"), /Duplicate column/);
  assert.deepEqual(t.meta.dedupKeys, ["ts", "key"]);
  assert.deepEqual(await tableRows(t), [[d1, "x", 1], [d2, "y", 2]]);
  assert.deepEqual(await dirEntries(`${root}/${t.meta.dirName}/2024-01-01`), ["1.d", "2.d", "3.d"]);
  await t.addColumn(column("a", T.STRING));
  assert.deepEqual(await tableRows(t), [[d1, "x", 1, null], [d2, "y", 2, null]]);
  await storage.close();
  const again = await openStorage(root);
  assert.deepEqual(again.table("t")!.meta.columns.map((c) => [c.name, c.id]), [["ts", 1], ["key", 2], [
    "v",
    3,
  ], ["a", 4]]);
  await again.close();
});

Deno.test("convert column rewrites values with the new type", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["x", T.INT], ["s", T.SYMBOL]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1, d2], [1, null], ["a", null]]);
  await t.addColumn(column("late", T.LONG));
  await t.convertColumn("x", column("x", T.VARCHAR), (v) => (v === null ? null : `#${v}`));
  await t.convertColumn("s", column("s", T.STRING), (v) => v);
  await t.convertColumn("late", column("late", T.SYMBOL), (v) => (v === null ? "none" : String(v)));
  assert.deepEqual(t.meta.columns.map((c) => c.type.tag), ["TIMESTAMP", "VARCHAR", "STRING", "SYMBOL"]);
  assert.deepEqual(await tableRows(t), [[d1, "#1", "a", "none"], [d2, null, null, "none"]]);
  await assert.rejects(t.convertColumn("ts", column("ts", T.LONG), (v) => v), /designated timestamp/);
  await storage.close();
});

Deno.test("truncate removes rows and clears dictionaries; the table stays usable", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["s", T.SYMBOL]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1, d2], ["a", "b"]]);
  const old = t.snapshot();
  await t.truncate();
  const snap = t.snapshot();
  assert.equal(snap.rowCount, 0);
  assert.equal(snap.symbols(1).size, 0);
  snap.release();
  // The snapshot from before still reads the old rows and dictionary.
  assert.equal(old.symbols(1).valueOf(1), "b");
  assert.equal(
    (await old.read(1, 1, 0, 1)).dict?.valueOf(((await old.read(1, 1, 0, 1)).data as Int32Array)[0]),
    "b",
  );
  old.release();
  await appendValues(t, [[d1], ["c"]]);
  assert.deepEqual(await tableRows(t), [[d1, "c"]]);
  await storage.close();
  const again = await openStorage(root);
  const t2 = again.table("t")!;
  assert.deepEqual(await tableRows(t2), [[d1, "c"]]);
  const s2 = t2.snapshot();
  assert.equal(s2.symbols(1).size, 1);
  s2.release();
  await again.close();
});

Deno.test("drop partitions: unknown names are an error, the newest partition may go", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["x", T.INT]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1, d2, d3], [1, 2, 3]]);
  await assert.rejects(t.dropPartitions(["2024-01-01", "2024-01-09"]), /could not remove partition/);
  assert.equal((await tableRows(t)).length, 3);
  await t.dropPartitions(["2024-01-03", "2024-01-01"]);
  assert.deepEqual(await tableRows(t), [[d2, 2]]);
  assert.deepEqual((await dirEntries(`${root}/${t.meta.dirName}`)).filter((n) => n.startsWith("2024")), [
    "2024-01-02",
  ]);
  // Rows for a dropped day come back as a new partition.
  await appendValues(t, [[d3 + 5n], [4]]);
  assert.deepEqual(await tableRows(t), [[d2, 2], [d3 + 5n, 4]]);
  await storage.close();
});

Deno.test("alterMeta changes parameters only and bumps the version", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["x", T.INT]], { ts: "ts", partitionBy: "DAY" }),
  );
  const v0 = t.meta.version!;
  await t.alterMeta((m) => {
    m.maxUncommittedRows = 42;
    m.o3MaxLagMicros = 5n;
    m.dedupKeys = ["ts"];
    m.ttl = { amount: 2, unit: "DAY" };
  });
  assert.ok(t.meta.version! > v0);
  assert.throws(() => (t.meta as { name: string }).name = "x");
  await assert.rejects(t.alterMeta((m) => m.columns.pop()), /columns may not/);
  await storage.close();
  const again = await openStorage(root);
  const m = again.table("t")!.meta;
  assert.deepEqual([m.maxUncommittedRows, m.o3MaxLagMicros, m.dedupKeys, m.ttl], [42, 5n, ["ts"], {
    amount: 2,
    unit: "DAY",
  }]);
  await again.close();
});

Deno.test("update rewrites the changed column in a new partition version", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["x", T.INT], ["s", T.VARCHAR], ["y", T.SYMBOL]], {
      ts: "ts",
      partitionBy: "DAY",
    }),
  );
  await appendValues(t, [[d1, d1 + 1n, d2], [1, 2, 3], ["a", "b", "c"], ["p", "q", "r"]]);
  const before = t.snapshot();
  await t.update([
    { partition: "2024-01-01", column: 1, rows: new Int32Array([1]), values: new Int32Array([20]) },
    { partition: "2024-01-01", column: 2, rows: new Int32Array([0, 1]), values: [null, "bb"] },
    { partition: "2024-01-01", column: 3, rows: new Int32Array([0]), values: ["new"] },
  ]);
  await assert.rejects(
    t.update([{
      partition: "2024-01-02",
      column: 0,
      rows: new Int32Array([0]),
      values: new BigInt64Array([1n]),
    }]),
    /Designated timestamp column cannot be updated/,
  );
  const expected = [[d1, 1, null, "new"], [d1 + 1n, 20, "bb", "q"], [d2, 3, "c", "r"]];
  assert.deepEqual(await tableRows(t), expected);
  assert.deepEqual(await snapshotRows(before), [[d1, 1, "a", "p"], [d1 + 1n, 2, "b", "q"], [
    d2,
    3,
    "c",
    "r",
  ]]);
  before.release();
  // Appends keep working on the rewritten (hard-linked) partition.
  await appendValues(t, [[d1 + 2n], [4], ["d"], ["p"]]);
  expected.splice(2, 0, [d1 + 2n, 4, "d", "p"]);
  assert.deepEqual(await tableRows(t), expected);
  await storage.close();
  const again = await openStorage(root);
  assert.deepEqual(await tableRows(again.table("t")!), expected);
  await again.close();
});
