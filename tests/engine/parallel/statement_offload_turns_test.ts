/**
 * Issue #17: a heavy join, window or LATEST ON runs whole on a worker heap (default threshold),
 * so `SELECT 1` on another session is answered while it runs. A probe is due every 10 ms, timed
 * from when it is due (main_thread_turns_test.ts's method): the median must stay under 100 ms
 * and none may wait 300 ms. On the main thread these statements hand out turns only between
 * slices (tens of ms each, longer under load).
 */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { assertResponsive, probed } from "../_select1_probe.ts";
import { rows } from "../_result_rows.ts";
import { statementStats } from "../../../engine/parallel/statement_offload.ts";

const HEAVY: Record<string, string> = {
  "hash join": "SELECT count(*), sum(b.x) FROM t a FULL JOIN t b ON a.k = b.k",
  // An aggregate over a join probes on the workers from the main thread (join_parallel.ts),
  // after the main thread builds the hash table: that build must give turns too.
  "hash join, parallel probe": "SELECT count(*), sum(b.x) FROM t a JOIN t b ON a.k = b.k",
  // stddev has no sliding kernel (each frame aggregated afresh): 200K rows take ~3 s.
  "window frame": "SELECT count(*), sum(a) FROM (SELECT stddev(x) OVER " +
    "(ORDER BY ts ROWS BETWEEN 300 PRECEDING AND CURRENT ROW) a FROM t WHERE ts < '2024-01-01T05:33:20')",
  "LATEST ON": "SELECT count(*), sum(x) FROM (SELECT * FROM t LATEST ON ts PARTITION BY str)",
};

Deno.test({
  name: "SELECT 1 stays fast while a heavy join, window or LATEST ON runs on a worker",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_offload_turns_" });
    const engine = await Engine.open({ root, cacheBytes: 256 * 1024 * 1024 });
    try {
      await rows(
        engine,
        "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 100_000L) ts, x % 400_000 k, " +
          "cast(x * 7919 % 1000003 AS STRING) str, x FROM long_sequence(1_000_000)) TIMESTAMP(ts) PARTITION BY DAY",
      );
      for (const [name, sql] of Object.entries(HEAVY)) {
        const probe = name.endsWith("parallel probe");
        const plan = (await rows(engine, `EXPLAIN ${sql}`)).map((r) => r[0]);
        if (probe) assert.match(plan.join("\n"), /parallel probe/, `${name}:\n${plan.join("\n")}`);
        else assert.equal(plan[0], "Worker", `${name}:\n${plan.join("\n")}`);
        const offloaded = statementStats.offloaded;
        const p = await probed(engine, sql);
        assert.equal(p.rows.length, 1, name);
        assert.equal(statementStats.offloaded, offloaded + (probe ? 0 : 1), `${name} ran on a worker`);
        assertResponsive(name, p);
      }
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
