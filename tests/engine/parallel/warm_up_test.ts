/**
 * WorkerPool.warmUp (what the server calls at start, `cairo.sql.parallel.workers.warm.up`):
 * every worker starts and loads the statement runner before any query needs it, a statement
 * then runs on a worker with the right answer, and a pool without workers or a closed one
 * declines to warm up.
 */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { explain, rows } from "../_result_rows.ts";

const OPTS = { sanitizeResources: false, sanitizeOps: false };

async function withEngine(parallelWorkers: number, fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_warm_" });
  const engine = await Engine.open({
    root,
    cacheBytes: 64 * 1024 * 1024,
    statementRowsMin: 0,
    parallelWorkers,
  });
  try {
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test({
  name: "warmUp starts the workers with the statement runner loaded; statements then run there",
  ...OPTS,
  fn: () =>
    withEngine(2, async (engine) => {
      assert.equal(await engine.parallel.warmUp(), true);
      // A second call finds them running.
      assert.equal(await engine.parallel.warmUp(), true);
      await rows(engine, "CREATE TABLE t AS (SELECT x, x % 3 k FROM long_sequence(1000))");
      const sql =
        "SELECT k, count(*), sum(x) FROM t JOIN (SELECT x y FROM long_sequence(10)) ON x = y ORDER BY k";
      assert.match(await explain(engine, sql), /^Worker/);
      assert.deepEqual(await rows(engine, sql), [[0n, 3n, 18n], [1n, 4n, 22n], [2n, 3n, 15n]]);
    }),
});

Deno.test({
  name: "warmUp declines without workers and after close",
  ...OPTS,
  fn: async () => {
    await withEngine(0, async (engine) => assert.equal(await engine.parallel.warmUp(), false));
    await withEngine(2, async (engine) => {
      engine.parallel.close();
      assert.equal(await engine.parallel.warmUp(), false);
    });
  },
});
