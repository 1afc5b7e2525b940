import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import type { FileStorage } from "../../../engine/storage/file_storage.ts";
import { wasmMemory } from "../../../engine-wasm/mod.ts";
import { appendValues, dirEntries, freshStorage, snapshotRows, tableDef, tableRows, us } from "./_helpers.ts";

const d1 = us("2024-01-01T00:00:00Z"), d2 = us("2024-01-02T00:00:00Z");

Deno.test("a snapshot does not see a later append, in place or merged", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["x", T.INT], ["s", T.VARCHAR]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1, d1 + 5n], [1, 2], ["a", "b"]]);
  const s1 = t.snapshot();
  const before = await snapshotRows(s1); // caches the active partition
  await appendValues(t, [[d1 + 9n], [3], ["c"]]); // in place
  const s2 = t.snapshot();
  await appendValues(t, [[d1 + 1n, d2], [4, 5], ["d", "e"]]); // merge into a new version + a new partition
  assert.equal(s1.rowCount, 2);
  assert.deepEqual(await snapshotRows(s1), before);
  assert.deepEqual(await snapshotRows(s2), [...before, [d1 + 9n, 3, "c"]]);
  assert.deepEqual(await tableRows(t), [
    [d1, 1, "a"],
    [d1 + 1n, 4, "d"],
    [d1 + 5n, 2, "b"],
    [d1 + 9n, 3, "c"],
    [d2, 5, "e"],
  ]);
  // The old version of the merged day stays while s1 and s2 may read it, and goes after.
  const tableDir = `${root}/${t.meta.dirName}`;
  assert.ok((await dirEntries(tableDir)).includes("2024-01-01"));
  s1.release();
  assert.ok((await dirEntries(tableDir)).includes("2024-01-01"));
  s2.release();
  await t.snapshot().release();
  await storage.close();
  assert.ok(!(await dirEntries(tableDir)).includes("2024-01-01"));
});

Deno.test("the cache extends the active partition instead of re-reading it per append", async () => {
  const { storage } = await freshStorage();
  const cache = (storage as FileStorage).cache;
  const t = await storage.createTable(
    tableDef("bulk", [["ts", T.TIMESTAMP], ["v", T.DOUBLE]], { ts: "ts", partitionBy: "DAY" }),
  );
  const batch = 100_000, batches = 8;
  const start = cache.loadedBytes;
  let sum = 0;
  for (let b = 0; b < batches; b++) {
    const ts = new BigInt64Array(batch), v = new Float64Array(batch);
    for (let i = 0; i < batch; i++) {
      ts[i] = d1 + BigInt((b * batch + i) * 100);
      v[i] = b * batch + i;
    }
    await t.append({ rowCount: batch, columns: [ts, v] });
    const snap = t.snapshot();
    assert.equal(snap.partitions.length, 1);
    const r = await snap.region(0, 1);
    assert.ok(r);
    const data = wasmMemory().f64(r.ptr, r.rowCount);
    sum = 0;
    for (let i = 0; i < data.length; i++) sum += data[i];
    const ts0 = (await snap.read(0, 0, 0, snap.partitions[0].rowCount)).data as BigInt64Array;
    assert.equal(ts0[ts0.length - 1], d1 + BigInt((b * batch + batch - 1) * 100));
    snap.release();
  }
  const n = batch * batches;
  assert.equal(sum, (n * (n - 1)) / 2);
  // Each byte of the two columns is read about once, not once per append.
  assert.ok(cache.loadedBytes - start <= n * 16 * 1.01, `loaded ${cache.loadedBytes - start}`);
  await storage.close();
});

Deno.test("columns beyond the cache budget fall back to JS memory; region is then undefined", async () => {
  const { storage } = await freshStorage(64 * 1024);
  const cache = (storage as FileStorage).cache;
  const t = await storage.createTable(tableDef("big", [["x", T.LONG]]));
  const n = 50_000;
  const x = new BigInt64Array(n);
  for (let i = 0; i < n; i++) x[i] = BigInt(i);
  await t.append({ rowCount: n, columns: [x] });
  const snap = t.snapshot();
  assert.equal(await snap.region(0, 0), undefined);
  const v = (await snap.read(0, 0, 10, 20)).data as BigInt64Array;
  assert.deepEqual([...v], x.slice(10, 20).reduce((a: bigint[], y) => [...a, y], []));
  assert.equal(cache.residentBytes, 0);
  snap.release();
  await storage.close();
});

Deno.test("LRU eviction keeps the cache within its budget once snapshots release", async () => {
  const { storage } = await freshStorage(256 * 1024);
  const cache = (storage as FileStorage).cache;
  const t = await storage.createTable(
    tableDef("days", [["ts", T.TIMESTAMP], ["x", T.LONG]], { ts: "ts", partitionBy: "DAY" }),
  );
  const perDay = 4_000, days = 20;
  const ts = new BigInt64Array(perDay * days), x = new BigInt64Array(perDay * days);
  for (let i = 0; i < ts.length; i++) {
    ts[i] = d1 + BigInt(Math.floor(i / perDay)) * 86_400_000_000n + BigInt(i % perDay);
    x[i] = BigInt(i);
  }
  await t.append({ rowCount: ts.length, columns: [ts, x] });
  for (let round = 0; round < 2; round++) {
    for (let p = 0; p < days; p++) {
      const snap = t.snapshot();
      const v = (await snap.read(p, 1, 0, perDay)).data as BigInt64Array;
      assert.equal(v[0], BigInt(p * perDay));
      assert.ok(await snap.region(p, 1));
      snap.release();
      assert.ok(cache.residentBytes <= cache.budgetBytes);
    }
  }
  await storage.close();
});

Deno.test("concurrent reads of one column share a single load", async () => {
  const { storage } = await freshStorage();
  const cache = (storage as FileStorage).cache;
  const t = await storage.createTable(tableDef("c", [["x", T.INT]]));
  await t.append({ rowCount: 1000, columns: [new Int32Array(1000).fill(7)] });
  const start = cache.loadedBytes;
  const snaps = [t.snapshot(), t.snapshot(), t.snapshot()];
  const vs = await Promise.all(snaps.map((s) => s.read(0, 0, 0, 1000)));
  assert.ok(vs.every((v) => (v.data as Int32Array)[999] === 7));
  assert.equal(cache.loadedBytes - start, 4000);
  for (const s of snaps) s.release();
  await storage.close();
});
