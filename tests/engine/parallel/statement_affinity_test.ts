/**
 * Statements keep to the worker that last ran the same text (WorkerPool.channel's affinity):
 * a repeated query finds its columns in that worker's cache and its code compiled, instead of
 * alternating between workers. Load still comes first: while the preferred worker runs a
 * statement, the next one goes to an idle worker; texts without a record are spread in turn.
 */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";

const OPTS = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "statement channels prefer the worker that last ran the same text, unless it is busy",
  ...OPTS,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "qdb_affinity_" });
    const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 2 });
    try {
      const pool = engine.parallel;
      const open = (text?: string) => pool.channel(() => {}, text);
      // One at a time, the same text always lands on the same worker.
      const first = (await open("SELECT a FROM t"))!;
      first.close();
      for (let i = 0; i < 5; i++) {
        const c = (await open("SELECT a FROM t"))!;
        assert.equal(c.heap, first.heap);
        c.close();
      }
      // Another text without a record may take the other worker; it then keeps to it too.
      const other = (await open("SELECT b FROM t"))!;
      other.close();
      const again = (await open("SELECT b FROM t"))!;
      assert.equal(again.heap, other.heap);
      again.close();
      // Busy preferred worker: the same text goes to the idle one rather than queueing.
      const busy = (await open("SELECT a FROM t"))!;
      const second = (await open("SELECT a FROM t"))!;
      assert.notEqual(second.heap, busy.heap);
      busy.close();
      second.close();
      // Without a text, statements are spread over the workers in turn.
      const spread = new Set<number>();
      for (let i = 0; i < 4; i++) {
        const c = (await open())!;
        spread.add(c.heap);
        c.close();
      }
      assert.equal(spread.size, 2);
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
