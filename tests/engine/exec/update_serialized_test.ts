/**
 * UPDATE chooses its rows under the table's write lock (Table.updateRows, as DELETE's
 * deleteRows): its scan gives other statements turns (issue #17), and before, an out-of-order
 * INSERT committed during that scan shifted the partition's rows, so the UPDATE rewrote the
 * rows at the old positions (`WHERE x = 5` changed the row of x = 4). Whichever runs first
 * now, exactly the matching row changes and the inserted row is kept.
 */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

Deno.test({
  name: "an UPDATE and an out-of-order INSERT into its partition apply one after the other",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_update_serialized_" });
    const engine = await Engine.open({ root, parallelWorkers: 0 });
    try {
      await rows(
        engine,
        "CREATE TABLE t AS (SELECT dateadd('u', (x * 1000)::int, '2024-01-01'::timestamp) ts, x, x * 0.5 d " +
          "FROM long_sequence(1_000_000)) TIMESTAMP(ts) PARTITION BY DAY",
      );
      for (const delay of [0, 5, 20]) {
        const update = rows(engine, `UPDATE t SET d = -99 - ${delay} WHERE x = 5`);
        await new Promise((r) => setTimeout(r, delay));
        // Before every row: each existing row moves one position on.
        const insert = rows(
          engine,
          `INSERT INTO t VALUES ('2024-01-01T00:00:00.000001', -${delay + 1}, 0.0)`,
        );
        await Promise.all([update, insert]);
        assert.deepEqual(
          await rows(engine, `SELECT x, d FROM t WHERE d = -99 - ${delay} OR x = 5`),
          [[5n, -99 - delay]],
          `delay ${delay} ms`,
        );
        assert.deepEqual(await rows(engine, `SELECT count(*) FROM t WHERE x = -${delay + 1}`), [[1n]]);
      }
      assert.deepEqual(await rows(engine, "SELECT count(*) FROM t"), [[1_000_003n]]);
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
