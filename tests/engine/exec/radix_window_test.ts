/**
 * A LIMIT cut from the radix sort (engine/exec/vector/radix_window.ts, physical.ts
 * sortWindowOf): windows wider than a top-N keeps, or far from the start, against the row sort
 * with the row LIMIT (`setReferenceExecution`). NULL keys (first ascending, last descending),
 * ties kept in input order, windows over digit bucket edges, several keys of every family,
 * projections above the sort, windows past the end, empty inputs.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { bothWays, explain, resultKey } from "../_result_rows.ts";

async function both(engine: Engine, sql: string, windowed = true): Promise<unknown[][]> {
  const { got, want, plan } = await bothWays(engine, sql);
  if (windowed) assert.match(plan, /Sort \[radix permutation, rows \d+\.\.\d+\]/, `${sql}\n${plan}`);
  assert.equal(resultKey(got), resultKey(want), sql);
  return got;
}

Deno.test("radix sort windows answer LIMIT like the row sort", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_radix_window_" });
  const engine = await Engine.open({ root, cacheBytes: 128 * 1024 * 1024 });
  try {
    const x = (sql: string) => engine.execute(sql, adminSession());
    // 150k rows: NULLs in every key, heavy ties (i, s), near-unique doubles, strings.
    await x(
      "CREATE TABLE w AS (SELECT timestamp_sequence('2024-01-01', 1000000) ts, x, " +
        "rnd_symbol('a','b','c','d','e',NULL) s, rnd_int(0, 20, 7) i, rnd_double(9) d, " +
        "rnd_long(-5, 5, 11) l, rnd_str(2, 4, 13) str FROM long_sequence(150000)) " +
        "TIMESTAMP(ts) PARTITION BY HOUR",
    );
    await x("CREATE TABLE e (ts TIMESTAMP, d DOUBLE) TIMESTAMP(ts) PARTITION BY DAY");
    const got = await both(engine, "SELECT ts, d FROM w ORDER BY d DESC, ts LIMIT 5 OFFSET 100000");
    assert.equal(got.length, 5);
    const windows = [[0, 70000], [74999, 3], [3, 100000], [149990, 20], [149999, 5], [1, 149999], [60000, 1]];
    const orders = [
      "d",
      "d DESC",
      "i, x DESC",
      "i DESC",
      "s, i",
      "s DESC, d",
      "l, i, d",
      "str, x",
      "str DESC",
    ];
    for (const [k, order] of orders.entries()) {
      // Each order with a wide and a narrow window, the windows taken in turn.
      for (const [skip, n] of [windows[(2 * k) % 7], windows[(2 * k + 1) % 7]]) {
        await both(engine, `SELECT x, s, i, d, str FROM w ORDER BY ${order} LIMIT ${n} OFFSET ${skip}`);
      }
    }
    // A LONG key whose high words all tie (read from its low word), ascending and descending.
    await both(engine, "SELECT x, d FROM w ORDER BY x DESC, i LIMIT 3 OFFSET 120000");
    await both(engine, "SELECT x, l FROM w ORDER BY l, x DESC LIMIT 4 OFFSET 70000");
    // The comma form, a window past the end, a projection above the sort, a filter below it.
    await both(engine, "SELECT x, d FROM w ORDER BY i, d LIMIT 80000, 80010");
    assert.equal((await both(engine, "SELECT x FROM w ORDER BY d LIMIT 5 OFFSET 150000")).length, 0);
    await both(engine, "SELECT d, x FROM (SELECT x, d, i FROM w ORDER BY i DESC, x) LIMIT 10 OFFSET 90000");
    await both(engine, "SELECT x, d FROM w WHERE s = 'b' ORDER BY d LIMIT 5 OFFSET 100000");
    await both(engine, "SELECT x, d FROM w WHERE s = 'zz' ORDER BY d LIMIT 5 OFFSET 100000");
    await both(engine, "SELECT * FROM e ORDER BY d LIMIT 5 OFFSET 100000");
    // Small keeps stay a top-N.
    assert.match(await explain(engine, "SELECT x FROM w ORDER BY d LIMIT 10"), /Top N/);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
