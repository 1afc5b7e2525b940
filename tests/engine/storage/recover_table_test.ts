import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { openStorage } from "../../../engine/storage/mod.ts";
import { appendValues, dirEntries, freshStorage, tableDef, tableRows, us } from "./_helpers.ts";

const d1 = us("2024-01-01T00:00:00Z"), d2 = us("2024-01-02T00:00:00Z");

async function appendGarbage(path: string, bytes = 37): Promise<void> {
  const f = await Deno.open(path, { append: true });
  await f.write(new Uint8Array(bytes).fill(0xab));
  f.close();
}

Deno.test("recovery cuts garbage past committed sizes and removes what the txn file does not name", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["x", T.INT], ["s", T.VARCHAR], ["k", T.SYMBOL]], {
      ts: "ts",
      partitionBy: "DAY",
    }),
  );
  await appendValues(t, [[d1, d2], [1, 2], ["a", null], ["p", "q"]]);
  const expected = await tableRows(t);
  const tableDir = `${root}/${t.meta.dirName}`;
  await storage.close();

  const sizes = new Map<string, number>();
  for (const f of ["2024-01-02/0.d", "2024-01-02/1.d", "2024-01-02/2.d", "2024-01-02/2.i", "3.sym"]) {
    sizes.set(f, (await Deno.stat(`${tableDir}/${f}`)).size);
    await appendGarbage(`${tableDir}/${f}`);
  }
  await Deno.writeFile(`${tableDir}/3.sym`, new Uint8Array([5, 0, 0, 0, 0x7a, 0]), { append: true }); // a whole extra entry
  await Deno.mkdir(`${tableDir}/2024-05-05`);
  await Deno.writeFile(`${tableDir}/2024-05-05/0.d`, new Uint8Array(8));
  await Deno.mkdir(`${tableDir}/2024-01-01.99`);
  await Deno.writeFile(`${tableDir}/2024-01-01/99.d`, new Uint8Array(8));
  await Deno.writeFile(`${tableDir}/_meta.7`, new Uint8Array(3));
  await Deno.writeFile(`${tableDir}/_txn.tmp`, new Uint8Array(3));
  await Deno.mkdir(`${root}/half_created~99`);
  await Deno.writeFile(`${root}/half_created~99/_meta.0`, new Uint8Array(3));
  await Deno.mkdir(`${root}/not_a_table`);

  const again = await openStorage(root);
  const t2 = again.table("t")!;
  assert.deepEqual(await tableRows(t2), expected);
  for (const [f, size] of sizes) assert.equal((await Deno.stat(`${tableDir}/${f}`)).size, size, f);
  assert.deepEqual(await dirEntries(tableDir), ["2024-01-01", "2024-01-02", "3.sym", "_meta.0", "_txn"]);
  assert.deepEqual(await dirEntries(`${tableDir}/2024-01-01`), ["0.d", "1.d", "2.d", "2.i", "3.d"]);
  const rootEntries = await dirEntries(root);
  assert.ok(!rootEntries.includes("half_created~99"));
  assert.ok(rootEntries.includes("not_a_table"), "folders that are not tables are left alone");
  // The table is fully usable after recovery, including the dictionary.
  await appendValues(t2, [[d2 + 1n], [3], ["c"], ["r"]]);
  const snap = t2.snapshot();
  assert.equal(snap.symbols(3).keyOf("r"), 2);
  assert.equal(snap.symbols(3).size, 3);
  snap.release();
  assert.deepEqual(await tableRows(t2), [...expected, [d2 + 1n, 3, "c", "r"]]);
  await again.close();
});

Deno.test("a failed append leaves nothing behind and the table usable", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["k", T.SYMBOL], ["u", T.UUID]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1], ["a"], [null]]);
  const tableDir = `${root}/${t.meta.dirName}`;
  const before = await dirEntries(tableDir);
  const sizeBefore = (await Deno.stat(`${tableDir}/2024-01-01/0.d`)).size;
  // A bad UUID fails the encode after symbols were interned; a new day and an in-place append were planned.
  await assert.rejects(appendValues(t, [[d1 + 1n, d2], ["b", "c"], [null, "not-a-uuid"]]), /invalid UUID/);
  assert.deepEqual(await dirEntries(tableDir), before);
  assert.equal((await Deno.stat(`${tableDir}/2024-01-01/0.d`)).size, sizeBefore);
  const snap = t.snapshot();
  assert.equal(snap.symbols(1).size, 1);
  snap.release();
  await appendValues(t, [[d1 + 2n], ["c"], ["00000000-0000-0000-0000-000000000001"]]);
  assert.deepEqual(await tableRows(t), [[d1, "a", null], [
    d1 + 2n,
    "c",
    "00000000-0000-0000-0000-000000000001",
  ]]);
  const s2 = t.snapshot();
  assert.equal(s2.symbols(1).keyOf("c"), 1);
  s2.release();
  await storage.close();
});

Deno.test("a write failing mid-way (a file it must write is in the way) is rolled back", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["x", T.INT], ["s", T.STRING]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1], [1], ["a"]]);
  const tableDir = `${root}/${t.meta.dirName}`;
  // A directory where the STRING data file of the active partition lives makes its write fail
  // after the INT column was already appended in place.
  await Deno.rename(`${tableDir}/2024-01-01/2.d`, `${tableDir}/moved`);
  await Deno.mkdir(`${tableDir}/2024-01-01/2.d`);
  await assert.rejects(appendValues(t, [[d1 + 1n], [2], ["b"]]));
  await Deno.remove(`${tableDir}/2024-01-01/2.d`);
  await Deno.rename(`${tableDir}/moved`, `${tableDir}/2024-01-01/2.d`);
  assert.equal((await Deno.stat(`${tableDir}/2024-01-01/1.d`)).size, 4, "the in-place INT append was undone");
  await appendValues(t, [[d1 + 1n], [3], ["c"]]);
  assert.deepEqual(await tableRows(t), [[d1, 1, "a"], [d1 + 1n, 3, "c"]]);
  await storage.close();
});
