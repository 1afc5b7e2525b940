/**
 * Parallel top-N with selective conditions whose matching rows most other rows beat
 * (engine/exec/vector/top_n_parallel.ts prefilter): once most rows beat the threshold, a
 * morsel's next batches test the conditions (the filter kernels) before the key. Morsels of
 * several batches, so the switch happens inside one; the rows must equal the row-at-a-time
 * reference's, ties and NULLs included.
 */
import assert from "node:assert/strict";
import { topNTuning } from "../../../engine/exec/vector/top_n_parallel.ts";
import { bothWays } from "../_result_rows.ts";
import { parallelEngine, run } from "./_parallel_util.ts";

const SHAPES = [
  "SELECT ts, s, d FROM t WHERE d < 0.01 ORDER BY d DESC, ts LIMIT 5",
  "SELECT ts, d, f FROM t WHERE s = 'b' AND d < 0.05 ORDER BY d DESC, ts LIMIT 7",
  "SELECT ts, s, i FROM t WHERE i = 3 ORDER BY d, ts DESC LIMIT 9",
  "SELECT ts, d FROM t WHERE s IS NULL AND d > 0.99 ORDER BY d, ts LIMIT 4",
];

Deno.test("parallel top-N testing conditions before the key gives the reference rows", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_topn_cond_" });
  const morselRows = topNTuning.morselRows;
  // Two morsels of ~200K rows: three or four batches each.
  topNTuning.morselRows = 200_000;
  const engine = await parallelEngine(root);
  try {
    await run(
      engine,
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 1_000_000L) ts, " +
        "rnd_symbol('a','b','c',null) s, rnd_double(4) d, rnd_float(4) f, rnd_int(0, 9, 4) i " +
        "FROM long_sequence(400_000)) TIMESTAMP(ts) PARTITION BY MONTH",
    );
    for (const sql of SHAPES) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.match(plan, /Top N \[parallel 2\]/, `${sql}\n${plan}`);
      assert.deepEqual(got, want, sql);
      assert.ok(got.length > 0, sql);
    }
  } finally {
    topNTuning.morselRows = morselRows;
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
