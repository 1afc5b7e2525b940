import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { appendValues, freshStorage, tableDef, tableRows, us } from "./_helpers.ts";

const d = us("2024-01-01T00:00:00Z");

Deno.test("dedup replaces an existing row in place and keeps rows with other keys (spec §6.1 example)", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("px", [["ts", T.TIMESTAMP], ["k", T.SYMBOL], ["v", T.DOUBLE]], {
      ts: "ts",
      partitionBy: "DAY",
      dedupKeys: ["ts", "k"],
    }),
  );
  await appendValues(t, [[d, d], ["x", "y"], [1.0, 2.0]]);
  assert.equal(await appendValues(t, [[d], ["x"], [3.0]]), 1);
  assert.deepEqual(await tableRows(t), [[d, "x", 3.0], [d, "y", 2.0]]);
  await storage.close();
});

Deno.test("dedup within one batch: the later duplicate wins in the earlier slot; NULL keys are equal", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("px", [["ts", T.TIMESTAMP], ["k", T.VARCHAR], ["n", T.INT], ["v", T.LONG]], {
      ts: "ts",
      partitionBy: "DAY",
      dedupKeys: ["ts", "k", "n"],
    }),
  );
  const written = await appendValues(t, [
    [d, d, d, d, d + 1n],
    ["a", null, "a", null, "a"],
    [1, null, 1, null, 1],
    [1n, 2n, 3n, 4n, 5n],
  ]);
  assert.equal(written, 3);
  assert.deepEqual(await tableRows(t), [[d, "a", 1, 3n], [d, null, null, 4n], [d + 1n, "a", 1, 5n]]);
  // Against existing rows: a match on the last timestamp of the newest partition, a match in
  // the middle (out of order), and a new key at an existing timestamp.
  await appendValues(t, [[d + 1n, d, d], ["a", null, "b"], [1, null, 1], [50n, 40n, 60n]]);
  assert.deepEqual(await tableRows(t), [
    [d, "a", 1, 3n],
    [d, null, null, 40n],
    [d, "b", 1, 60n],
    [d + 1n, "a", 1, 50n],
  ]);
  await storage.close();
});

Deno.test("dedup on the timestamp alone keeps one row per timestamp", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("px", [["ts", T.TIMESTAMP], ["v", T.INT]], { ts: "ts", partitionBy: "HOUR", dedupKeys: ["ts"] }),
  );
  await appendValues(t, [[d, d + 1n, d], [1, 2, 3]]);
  await appendValues(t, [[d + 1n, d + 2n], [4, 5]]);
  assert.deepEqual(await tableRows(t), [[d, 3], [d + 1n, 4], [d + 2n, 5]]);
  await storage.close();
});

Deno.test("without dedup, equal timestamps and keys are all kept", async () => {
  const { storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("px", [["ts", T.TIMESTAMP], ["v", T.INT]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d, d], [1, 2]]);
  await appendValues(t, [[d], [3]]);
  assert.deepEqual(await tableRows(t), [[d, 1], [d, 2], [d, 3]]);
  await storage.close();
});
