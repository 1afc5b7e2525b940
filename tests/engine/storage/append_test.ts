import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import type { PartitionUnit } from "../../../engine/sql/ast.ts";
import { appendValues, dirEntries, freshStorage, tableDef, tableRows, us } from "./_helpers.ts";

Deno.test("partition folders are named per unit", async () => {
  const { root, storage } = await freshStorage();
  const expected: Record<PartitionUnit, string[]> = {
    HOUR: ["2024-01-15T10", "2024-01-16T00"],
    DAY: ["2024-01-15", "2024-01-16"],
    WEEK: ["2024-W03"],
    MONTH: ["2024-01"],
    YEAR: ["2024"],
    NONE: ["default"],
  };
  for (const [unit, names] of Object.entries(expected) as [PartitionUnit, string[]][]) {
    const t = await storage.createTable(
      tableDef(`t_${unit}`, [["ts", T.TIMESTAMP], ["x", T.INT]], { ts: "ts", partitionBy: unit }),
    );
    await appendValues(t, [[us("2024-01-15T10:05:00Z"), us("2024-01-16T00:00:00Z")], [1, 2]]);
    const snap = t.snapshot();
    assert.deepEqual(snap.partitions.map((p) => p.name), names, unit);
    snap.release();
    const folders = (await dirEntries(`${root}/${t.meta.dirName}`)).filter((n) =>
      !n.startsWith("_") && !n.endsWith(".sym")
    );
    assert.deepEqual(folders, names, unit);
    assert.deepEqual(await dirEntries(`${root}/${t.meta.dirName}/${names[0]}`), ["0.d", "1.d"]);
  }
  await storage.close();
});

Deno.test("out-of-order rows are merged into place; ties keep insertion order", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("o3", [["ts", T.TIMESTAMP], ["x", T.INT], ["s", T.VARCHAR]], { ts: "ts", partitionBy: "DAY" }),
  );
  const d1 = us("2024-01-01T00:00:00Z"), d2 = us("2024-01-02T00:00:00Z");
  await appendValues(t, [[d1 + 10n, d1 + 20n, d2 + 5n], [1, 2, 3], ["a", "b", "c"]]);
  // Unsorted batch with a tie inside it, a tie with an existing row, and a row for an older day.
  await appendValues(t, [[d1 + 20n, d1 + 15n, d1 - 1n, d1 + 15n, d2 + 5n], [4, 5, 6, 7, 8], [
    "d",
    null,
    "f",
    "g",
    "h",
  ]]);
  const rows = await tableRows(t);
  assert.deepEqual(rows, [
    [d1 - 1n, 6, "f"],
    [d1 + 10n, 1, "a"],
    [d1 + 15n, 5, null],
    [d1 + 15n, 7, "g"],
    [d1 + 20n, 2, "b"],
    [d1 + 20n, 4, "d"],
    [d2 + 5n, 3, "c"],
    [d2 + 5n, 8, "h"],
  ]);
  const snap = t.snapshot();
  assert.deepEqual(snap.partitions.map((p) => [p.name, p.rowCount, p.minTs, p.maxTs]), [
    ["2023-12-31", 1, d1 - 1n, d1 - 1n],
    ["2024-01-01", 5, d1 + 10n, d1 + 20n],
    ["2024-01-02", 2, d2 + 5n, d2 + 5n],
  ]);
  snap.release();
  // The merged day is a new version folder; the old one is gone once no snapshot reads it.
  const folders = (await dirEntries(`${root}/${t.meta.dirName}`)).filter((n) => n.startsWith("20"));
  assert.equal(folders.length, 3);
  assert.ok(folders.some((f) => /^2024-01-01\.\d+$/.test(f)), folders.join());
  assert.ok(
    folders.includes("2024-01-02"),
    "in-order rows at the partition's last timestamp append in place",
  );
  await storage.close();
});

Deno.test("a batch spanning many days is split by partition", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("many", [["ts", T.TIMESTAMP], ["x", T.LONG]], { ts: "ts", partitionBy: "DAY" }),
  );
  const n = 10_000;
  const ts = new BigInt64Array(n), x = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    ts[i] = BigInt(n - i) * 3_600_000_000n; // descending hours: fully out of order
    x[i] = BigInt(i);
  }
  assert.equal(await t.append({ rowCount: n, columns: [ts, x] }), n);
  const snap = t.snapshot();
  assert.equal(snap.rowCount, n);
  assert.equal(snap.partitions.length, Math.ceil((n + 1) / 24));
  let prev = -1n, count = 0;
  for (let p = 0; p < snap.partitions.length; p++) {
    const v = (await snap.read(p, 0, 0, snap.partitions[p].rowCount)).data as BigInt64Array;
    for (const t of v) {
      assert.ok(t > prev);
      prev = t;
      count++;
    }
  }
  assert.equal(count, n);
  snap.release();
  await storage.close();
});

Deno.test("designated timestamp must not be NULL or negative; nothing is written", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["s", T.SYMBOL]], { ts: "ts", partitionBy: "DAY" }),
  );
  await assert.rejects(appendValues(t, [[1n, null], ["a", "b"]]), /designated timestamp/);
  await assert.rejects(appendValues(t, [[1n, -5n], ["a", "b"]]), /designated timestamp/);
  await assert.rejects(t.append({ rowCount: 1, columns: [null, ["a"]] }), /designated timestamp/);
  const snap = t.snapshot();
  assert.equal(snap.rowCount, 0);
  assert.equal(snap.symbols(1).size, 0);
  snap.release();
  await appendValues(t, [[1n], ["z"]]);
  assert.deepEqual(await tableRows(t), [[1n, "z"]]);
  const s2 = t.snapshot();
  assert.equal(s2.symbols(1).keyOf("z"), 0);
  s2.release();
  await storage.close();
});

Deno.test("tables without a designated timestamp keep insertion order in `default`", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(tableDef("t", [["x", T.INT], ["s", T.STRING]]));
  await appendValues(t, [[3, 1], ["c", "a"]]);
  await appendValues(t, [[2], [null]]);
  assert.deepEqual(await tableRows(t), [[3, "c"], [1, "a"], [2, null]]);
  const snap = t.snapshot();
  assert.deepEqual(snap.partitions.map((p) => [p.name, p.minTs, p.maxTs]), [["default", 0n, 0n]]);
  snap.release();
  await storage.close();
});

Deno.test("TIMESTAMP_NS designated timestamps are partitioned by their microsecond value", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("ns", [["ts", T.TIMESTAMP_NS]], { ts: "ts", partitionBy: "DAY" }),
  );
  const ns = us("2024-03-05T12:00:00Z") * 1000n + 7n;
  await appendValues(t, [[ns]]);
  const snap = t.snapshot();
  assert.equal(snap.partitions[0].name, "2024-03-05");
  assert.equal(snap.partitions[0].lo, us("2024-03-05T00:00:00Z") * 1000n);
  snap.release();
  await storage.close();
});
