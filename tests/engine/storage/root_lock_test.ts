import assert from "node:assert/strict";
import { openStorage } from "../../../engine/storage/mod.ts";
import { RootInUseError } from "../../../engine/storage/root_lock.ts";

Deno.test("a data root opens once at a time; close gives it back", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_lock_" });
  try {
    const first = await openStorage(root, { cacheBytes: 16 * 1024 * 1024 });
    await assert.rejects(() => openStorage(root, { cacheBytes: 16 * 1024 * 1024 }), (e: unknown) => {
      assert.ok(e instanceof RootInUseError);
      assert.match(e.message, new RegExp(`is in use by process ${Deno.pid}\\b`));
      return true;
    });
    await first.close();
    const second = await openStorage(root, { cacheBytes: 16 * 1024 * 1024 });
    await second.close();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
