import assert from "node:assert/strict";
import { geohashType, T } from "../../../engine/base/types.ts";
import { INT_NULL, LONG_NULL, type Value } from "../../../engine/base/values.ts";
import { openStorage } from "../../../engine/storage/mod.ts";
import { appendValues, freshStorage, tableDef, tableRows, us } from "./_helpers.ts";

const ALL_TYPES = tableDef("all_types", [
  ["ts", T.TIMESTAMP],
  ["b", T.BOOLEAN],
  ["by", T.BYTE],
  ["sh", T.SHORT],
  ["ch", T.CHAR],
  ["i", T.INT],
  ["l", T.LONG],
  ["f", T.FLOAT],
  ["d", T.DOUBLE],
  ["dt", T.DATE],
  ["t2", T.TIMESTAMP],
  ["tn", T.TIMESTAMP_NS],
  ["sym", T.SYMBOL],
  ["s", T.STRING],
  ["v", T.VARCHAR],
  ["u", T.UUID],
  ["ip", T.IPV4],
  ["l256", T.LONG256],
  ["bin", T.BINARY],
  ["g1", geohashType(5)],
  ["g2", geohashType(10)],
  ["g4", geohashType(25)],
  ["g8", geohashType(60)],
], { ts: "ts", partitionBy: "DAY" });

/** Input vectors in the layout of values.ts, and the rows they must read back as. */
function allTypesBatch(): { columns: unknown[]; rows: Value[][] } {
  const ts = new BigInt64Array([
    us("2024-01-01T00:00:00Z"),
    us("2024-01-01T01:00:00Z"),
    us("2024-01-02T00:00:00Z"),
  ]);
  const columns = [
    ts,
    new Int8Array([1, 0, 0]),
    new Int8Array([-128, 127, 0]),
    new Int16Array([-32768, 32767, 0]),
    new Uint16Array([65, 0x263a, 0]),
    new Int32Array([2147483647, -2147483647, INT_NULL]),
    new BigInt64Array([9223372036854775807n, -9223372036854775807n, LONG_NULL]),
    new Float32Array([1.5, -0.25, NaN]),
    new Float64Array([Math.PI, -1e300, NaN]),
    new BigInt64Array([1_700_000_000_000n, 0n, LONG_NULL]),
    new BigInt64Array([1n, -5n, LONG_NULL]),
    new BigInt64Array([1_700_000_000_000_000_123n, 7n, LONG_NULL]),
    ["alpha", null, "alpha"],
    ["héllo \u{1f600} \ud800", "", null],
    ["ünïcode \u{1f600}", "", null],
    ["0123abcd-4567-89ef-0123-456789abcdef", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", null],
    new Int32Array([0x7f000001, -1, 0]),
    [2n ** 255n + 12345n, 0n, null],
    [new Uint8Array([0, 1, 255]), new Uint8Array(0), null],
    [31n, 0n, null],
    [1023n, 5n, null],
    [(1n << 25n) - 1n, 1n, null],
    [(1n << 60n) - 1n, 123456789n, null],
  ];
  const rows: Value[][] = [
    [
      ts[0],
      true,
      -128,
      -32768,
      "A",
      2147483647,
      9223372036854775807n,
      1.5,
      Math.PI,
      1_700_000_000_000n,
      1n,
      1_700_000_000_000_000_123n,
      "alpha",
      "héllo \u{1f600} \ud800",
      "ünïcode \u{1f600}",
      "0123abcd-4567-89ef-0123-456789abcdef",
      0x7f000001,
      2n ** 255n + 12345n,
      new Uint8Array([0, 1, 255]),
      31n,
      1023n,
      (1n << 25n) - 1n,
      (1n << 60n) - 1n,
    ],
    [
      ts[1],
      false,
      127,
      32767,
      "\u263a",
      -2147483647,
      -9223372036854775807n,
      -0.25,
      -1e300,
      0n,
      -5n,
      7n,
      null,
      "",
      "",
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
      0xffffffff,
      0n,
      new Uint8Array(0),
      0n,
      5n,
      1n,
      123456789n,
    ],
    [
      ts[2],
      false,
      0,
      0,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      "alpha",
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ],
  ];
  return { columns, rows };
}

Deno.test("every column type round-trips with NULLs, and again after reopen", async () => {
  const { root, storage } = await freshStorage();
  const table = await storage.createTable(ALL_TYPES);
  const { columns, rows } = allTypesBatch();
  assert.equal(await appendValues(table, columns as Value[][]), 3);
  assert.deepEqual(await tableRows(table), rows);
  const snap = table.snapshot();
  assert.deepEqual(snap.partitions.map((p) => [p.name, p.rowCount]), [["2024-01-01", 2], ["2024-01-02", 1]]);
  assert.equal(snap.partitions[0].lo, us("2024-01-01T00:00:00Z"));
  assert.equal(snap.partitions[0].minTs, us("2024-01-01T00:00:00Z"));
  assert.equal(snap.partitions[0].maxTs, us("2024-01-01T01:00:00Z"));
  const sym = await snap.read(0, 12, 0, 2);
  assert.ok(sym.data instanceof Int32Array);
  assert.deepEqual([...(sym.data as Int32Array)], [0, -1]);
  assert.equal(sym.dict?.valueOf(0), "alpha");
  const region = await snap.region(0, 6);
  assert.ok(region && region.rowCount === 2);
  snap.release();
  await storage.close();

  const reopened = await openStorage(root);
  assert.deepEqual(await tableRows(reopened.table("ALL_TYPES")!), rows);
  await reopened.close();
});

Deno.test("null columns in an append read as NULL (false/0 for BOOLEAN, BYTE, SHORT)", async () => {
  const { storage } = await freshStorage();
  const table = await storage.createTable(
    tableDef("t", [["a", T.INT], ["b", T.BOOLEAN], ["s", T.VARCHAR], ["y", T.SYMBOL], ["sh", T.SHORT]]),
  );
  await table.append({ rowCount: 2, columns: [new Int32Array([1, 2]), null, null, null, null] });
  assert.deepEqual(await tableRows(table), [[1, false, null, null, 0], [2, false, null, null, 0]]);
  await storage.close();
});

Deno.test("input in scalar form is converted to the vector layout", async () => {
  const { storage } = await freshStorage();
  const table = await storage.createTable(
    tableDef("t", [["ts", T.TIMESTAMP], ["i", T.INT], ["d", T.DOUBLE], ["b", T.BOOLEAN], ["c", T.CHAR]], {
      ts: "ts",
    }),
  );
  await appendValues(table, [[1n, 2n], [5, null], [1.25, null], [true, null], ["x", null]]);
  assert.deepEqual(await tableRows(table), [[1n, 5, 1.25, true, "x"], [2n, null, null, false, null]]);
  await storage.close();
});

Deno.test("tables keep ids in creation order, names are case-insensitive, and folders are safe", async () => {
  const { root, storage } = await freshStorage();
  const a = await storage.createTable(tableDef("../evil/Name", [["x", T.INT]]));
  const b = await storage.createTable(tableDef("second", [["x", T.INT]]));
  assert.ok(a.meta.id > 0 && b.meta.id > a.meta.id);
  assert.match(a.meta.dirName, /^[A-Za-z0-9_-]+~\d+$/);
  await assert.rejects(
    storage.createTable(tableDef("SECOND", [["x", T.INT]])),
    /table already exists \[table=SECOND\]/,
  );
  assert.equal(storage.table("../EVIL/name"), a);
  await storage.renameTable("second", "third");
  assert.equal(storage.table("second"), undefined);
  assert.equal(storage.table("THIRD")?.meta.name, "third");
  assert.equal(storage.table("third")?.meta.dirName, b.meta.dirName);
  await assert.rejects(storage.renameTable("third", "../evil/name"), /table already exists/);
  await storage.dropTable("../evil/name");
  await assert.rejects(storage.dropTable("../evil/name"), /table does not exist \[table=..\/evil\/name\]/);
  await assert.rejects(a.append({ rowCount: 1, columns: [new Int32Array([1])] }), /table does not exist/);
  const c = await storage.createTable(tableDef("../evil/Name", [["x", T.INT]]));
  assert.ok(c.meta.id > b.meta.id);
  await storage.close();

  const reopened = await openStorage(root);
  assert.deepEqual(reopened.tables().map((t) => [t.name, t.id]), [["third", b.meta.id], [
    "../evil/Name",
    c.meta.id,
  ]]);
  const d = await reopened.createTable(tableDef("fourth", [["x", T.INT]]));
  assert.ok(d.meta.id > c.meta.id);
  await reopened.close();
});

Deno.test("dropping the newest table does not let its id be reused", async () => {
  const { root, storage } = await freshStorage();
  const a = await storage.createTable(tableDef("a", [["x", T.INT]]));
  await storage.dropTable("a");
  await storage.close();
  const reopened = await openStorage(root);
  const b = await reopened.createTable(tableDef("b", [["x", T.INT]]));
  assert.ok(b.meta.id > a.meta.id);
  await reopened.close();
});
