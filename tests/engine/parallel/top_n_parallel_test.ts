/**
 * Top-N on the worker heaps (engine/exec/vector/top_n_parallel.ts): every `ORDER BY ... LIMIT`
 * runs on an engine that sends every scan to the workers, cut into morsels of a few hundred
 * rows, and on one without workers; the rows must be the same in the same order (ties keep
 * table order on both). EXPLAIN and the pool's job count show which ran on the workers; the
 * shapes the workers decline (SYMBOL sort keys, negative limits, which sort the whole input)
 * must answer the same too.
 */
import assert from "node:assert/strict";
import type { Engine } from "../../../engine/mod.ts";
import { topNTuning } from "../../../engine/exec/vector/top_n_parallel.ts";
import {
  assertSame,
  explain,
  parallelEngine,
  rows,
  rowsWithJobs,
  run,
  singleEngine,
} from "./_parallel_util.ts";

/** [query, whether the workers run it]. */
const SHAPES: [string, boolean][] = [
  // DOUBLE first keys (the typed-array path) with NULLs, DESC and ASC, ties broken by ts.
  ["SELECT ts, s, d, f FROM t ORDER BY d DESC, ts DESC LIMIT 20", true],
  ["SELECT ts, s, d FROM t ORDER BY d LIMIT 25", true],
  ["SELECT ts, s, d FROM t ORDER BY d, ts DESC LIMIT 7", true],
  // Few distinct values: many ties, kept in table order; integer NULLs first ascending, last descending.
  ["SELECT ts, i, l FROM t ORDER BY i LIMIT 40", true],
  ["SELECT ts, i, l, k FROM t ORDER BY i DESC, l LIMIT 40", true],
  ["SELECT ts, l, s FROM t ORDER BY l DESC LIMIT 33", true],
  ["SELECT k, ts, i FROM t ORDER BY k DESC, i LIMIT 12", true],
  ["SELECT ts, d FROM t ORDER BY f DESC, ts LIMIT 5", true],
  // Filters (SYMBOL comparisons on the workers' code tables) and expression keys.
  ["SELECT ts, s, d, f FROM t WHERE side = 'sell' AND d > 0.5 ORDER BY d * f DESC, ts DESC LIMIT 10", true],
  ["SELECT ts, s, d FROM t WHERE s IN ('a', 'c') OR s IS NULL ORDER BY f, ts LIMIT 15", true],
  ["SELECT ts, s, i * 2 + 1 x FROM t WHERE i BETWEEN -3 AND 3 ORDER BY x DESC, ts LIMIT 18", true],
  ["SELECT ts, s, side, d FROM t WHERE ts IN '2024-03-03' ORDER BY d DESC LIMIT 9", true],
  // LIMIT windows from the start: a range, an offset, zero rows, more rows than match.
  ["SELECT ts, d FROM t ORDER BY d DESC LIMIT 5, 15", true],
  ["SELECT ts, d, i FROM t ORDER BY i, d LIMIT 10 OFFSET 5", true],
  ["SELECT ts, d FROM t ORDER BY d LIMIT 0", false],
  ["SELECT ts, s, d FROM t WHERE d > 0.999 ORDER BY d DESC LIMIT 500", true],
  // Nothing to read: a filter matching nothing, an interval with no partition.
  ["SELECT ts, d FROM t WHERE s = 'no such symbol' ORDER BY d LIMIT 10", true],
  ["SELECT ts, d FROM t WHERE ts IN '2030-01-01' ORDER BY d LIMIT 10", true],
  // Declined: a SYMBOL key (text order), negative limits (the last rows: a full sort); LIMIT 0
  // above reads nothing.
  ["SELECT ts, s, d FROM t ORDER BY s, d LIMIT 10", false],
  ["SELECT ts, d FROM t ORDER BY d DESC LIMIT -5", false],
  ["SELECT ts, d, i FROM t ORDER BY i, ts LIMIT -10, -3", false],
  // Selective conditions whose rows most others beat (the conditions go before the key).
  ["SELECT ts, s, d FROM t WHERE d < 0.01 ORDER BY d DESC, ts LIMIT 5", true],
  ["SELECT ts, d, f FROM t WHERE s = 'b' AND d < 0.05 ORDER BY d DESC, ts LIMIT 7", true],
];

/** Eight DAY partitions; columns with NULLs and few distinct values (ties). */
async function makeTable(engine: Engine): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 36_000_000L) ts, " +
      "rnd_symbol('a','b','c',null) s, rnd_symbol('buy','sell') side, rnd_str('x','yy','zzz',null) k, " +
      "rnd_double(4) d, rnd_float(4) f, rnd_int(-5, 5, 4) i, rnd_long(-3, 3, 4) l " +
      "FROM long_sequence(19_000)) TIMESTAMP(ts) PARTITION BY DAY",
  );
  await run(engine, "CREATE TABLE e (ts TIMESTAMP, d DOUBLE) TIMESTAMP(ts) PARTITION BY DAY");
}

Deno.test("every top-N on the workers equals the main thread's, ties and NULLs in the same order", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_topn_par_" });
  const morselRows = topNTuning.morselRows;
  topNTuning.morselRows = 700;
  try {
    const par = await parallelEngine(root);
    const results: unknown[][][] = [];
    try {
      await makeTable(par);
      for (const [sql, parallel] of SHAPES) {
        const text = await explain(par, sql);
        if (parallel) assert.match(text, /Top N \[parallel 2\] keys/, `${sql}\n${text}`);
        else assert.doesNotMatch(text, /parallel/, `${sql}\n${text}`);
        // A scan of no partition sends no morsel.
        results.push(await rowsWithJobs(par, sql, parallel && !sql.includes("2030") ? 1 : undefined));
      }
      // An empty table: chosen by its row count at plan time, never for no rows.
      assert.doesNotMatch(await explain(par, "SELECT * FROM e ORDER BY d LIMIT 3"), /parallel/);
      assert.deepEqual(await rows(par, "SELECT * FROM e ORDER BY d LIMIT 3"), []);
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      for (let q = 0; q < SHAPES.length; q++) {
        const sql = SHAPES[q][0];
        assert.doesNotMatch(await explain(single, sql), /parallel/);
        assertSame(results[q], await rows(single, sql), sql);
      }
    } finally {
      await single.close();
    }
    // The shapes exercise what they claim.
    // A DOUBLE NULL sorts last ascending and first descending (QuestDB's order for NaN).
    assert.ok(results[1].every((r) => r[2] !== null), "DOUBLE NULLs last ascending");
    assert.ok(results[0][0][2] === null, "DOUBLE NULLs first descending");
    assert.ok(results[3].every((r) => r[1] === null || r[1] === -5), "ties of the lowest INT");
    assert.equal(results[3].length, 40);
    assert.equal(results[12].length, 10, "LIMIT 5, 15");
    assert.equal(results[14].length, 0, "LIMIT 0");
    const matching = (results[15] as unknown[][]).length;
    assert.ok(matching > 0 && matching < 500, `LIMIT beyond the matching rows (${matching})`);
    assert.equal(results[16].length, 0);
    assert.equal(results[17].length, 0);
    assert.equal(results[19].length, 5, "LIMIT -5: the last five");
  } finally {
    topNTuning.morselRows = morselRows;
    await Deno.remove(root, { recursive: true });
  }
});
