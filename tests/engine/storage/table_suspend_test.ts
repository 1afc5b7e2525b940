/** The `suspended` flag of ALTER TABLE SUSPEND WAL: persisted in the metadata, refusing row writes. */
import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { openStorage } from "../../../engine/storage/mod.ts";
import { appendValues, freshStorage, tableDef, tableRows, us } from "./_helpers.ts";

const d1 = us("2024-01-01T00:00:00Z"), d2 = us("2024-01-02T00:00:00Z");

Deno.test("a suspended table refuses row writes, keeps the flag across a restart, and writes again once resumed", async () => {
  const { root, storage } = await freshStorage();
  const t = await storage.createTable(
    tableDef("s", [["ts", T.TIMESTAMP], ["v", T.INT]], { ts: "ts", partitionBy: "DAY" }),
  );
  await appendValues(t, [[d1], [1]]);
  const txn = t.txn;
  await t.alterMeta((m) => void (m.suspended = true));
  assert.equal(t.txn, txn + 1, "the flag is a commit of its own");
  await assert.rejects(() => appendValues(t, [[d2], [2]]), /table is suspended \[tableName=s\]/);
  await assert.rejects(() => t.truncate(), /table is suspended/);
  await assert.rejects(() => t.deleteRows(() => Promise.resolve([])), /table is suspended/);
  await storage.close();

  const again = await openStorage(root);
  const t2 = again.table("s")!;
  assert.equal(t2.meta.suspended, true);
  await assert.rejects(() => appendValues(t2, [[d2], [2]]), /table is suspended/);
  await t2.alterMeta((m) => void (m.suspended = false));
  await appendValues(t2, [[d2], [2]]);
  assert.deepEqual(await tableRows(t2), [[d1, 1], [d2, 2]]);
  await again.close();
  await Deno.remove(root, { recursive: true });
});
