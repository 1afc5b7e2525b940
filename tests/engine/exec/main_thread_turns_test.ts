/**
 * Issue #17: the main-thread blockers that held the event loop in one piece now give turns
 * inside their work: window frames computed per partition (a general frame aggregate, ranking
 * with peers), the radix sort's ranking of a million distinct strings, and the unkeyed SAMPLE
 * BY fast path over one large partition. While each runs, `SELECT 1` is due on another session
 * every 10 ms, timed from when it is due: most must be answered at once and none may wait
 * 300 ms. Before, these waited 0.4-1.3 s (the frame aggregate answered 2 probes in 1.1 s).
 * Bounds are generous: the test machine is shared.
 */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { assertResponsive, probed } from "../_select1_probe.ts";
import { rows } from "../_result_rows.ts";

const HEAVY: Record<string, string> = {
  // stddev has no sliding kernel: each frame is aggregated afresh on the row path.
  "window: general frame aggregate": "SELECT count(*), sum(a) FROM (SELECT stddev(x) OVER " +
    "(ORDER BY ts ROWS BETWEEN 300 PRECEDING AND CURRENT ROW) a FROM t WHERE ts < '2024-01-01T02:46:40')",
  "window: rank over strings with peers": "SELECT count(*), sum(a) FROM (SELECT rank() OVER " +
    "(PARTITION BY s ORDER BY str) a FROM t)",
  "radix sort: string ranking": "SELECT count(*), min(k) FROM (SELECT str k, x FROM t ORDER BY str, x)",
  "sample by: one large partition":
    "SELECT count(*), sum(c) FROM (SELECT ts, count() c, max(d) FROM t SAMPLE BY 1s)",
};

Deno.test({
  name: "long operators give SELECT 1 turns inside their work",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_turns_" });
    // On the main heap: the SAMPLE BY must not go to the workers.
    const engine = await Engine.open({ root, cacheBytes: 256 * 1024 * 1024, parallelWorkers: 0 });
    try {
      // 1M rows in one partition; a million distinct strings.
      await rows(
        engine,
        "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 100_000L) ts, rnd_symbol('a','b','c') s, " +
          "cast(x * 7919 % 1000003 AS STRING) str, rnd_double() d, x FROM long_sequence(1_000_000)) " +
          "TIMESTAMP(ts) PARTITION BY YEAR",
      );
      for (const [name, sql] of Object.entries(HEAVY)) {
        const p = await probed(engine, sql);
        assert.equal(p.rows.length, 1, name);
        assertResponsive(name, p);
      }
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
