/**
 * The statistics aggregates on typed arrays in the hash aggregation (exec/vector/stat_states.ts:
 * ksum, nsum, stddev/variance in every form, covar_pop, covar_samp, corr) against the
 * row-at-a-time reference: the same rows to the last bit, with NULLs and non-finite doubles
 * (read as NULL), LONGs past 2^53, INT/SHORT/BYTE arguments, FILTER clauses, one and two keys,
 * groups with one row (sample forms NULL), groups of only NULLs and an empty input.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { bothWays, resultKey } from "../_result_rows.ts";

const AGGS = [
  "ksum(d)",
  "nsum(d)",
  "ksum(l)",
  "stddev(d)",
  "stddev_samp(i)",
  "stddev_pop(d)",
  "variance(l)",
  "var_samp(d)",
  "var_pop(sh)",
  "covar_pop(d, l)",
  "covar_samp(d, i)",
  "corr(d, l)",
  "corr(i, by)",
  "stddev(d) FILTER (WHERE i > 0)",
  "corr(d, l) FILTER (WHERE k <> 'k1')",
];

Deno.test("statistics aggregates on typed arrays answer as the row path, bit for bit", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_stat_agg_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, k SYMBOL, j INT, d DOUBLE, l LONG, i INT, sh SHORT, by BYTE) " +
        "TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    let seed = 3;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const values: string[] = [];
    for (let r = 0; r < 5000; r++) {
      const pick = rnd();
      const d = pick < 0.1 ? "NULL" : pick < 0.12 ? "'NaN'::double" : pick < 0.13 ? "1e308 * 10" : String(
        (rnd() - 0.5) * 10 ** Math.floor(rnd() * 8),
      );
      const l = rnd() < 0.1
        ? "NULL"
        : rnd() < 0.05
        ? String(2n ** 60n + BigInt(r))
        : String(Math.floor(rnd() * 1e6));
      const i = rnd() < 0.1 ? "NULL" : String(Math.floor(rnd() * 2000) - 1000);
      // k5 holds one row; k6 only NULL values.
      const k = r === 7
        ? "'k5'"
        : r % 97 === 0
        ? "'k6'"
        : rnd() < 0.05
        ? "NULL"
        : `'k${Math.floor(rnd() * 4)}'`;
      const nulls = k === "'k6'";
      values.push(
        `('${new Date(Date.UTC(2024, 0, 1) + r * 60_000).toISOString()}', ${k}, ${r % 3}, ${
          nulls ? "NULL" : d
        }, ` +
          `${nulls ? "NULL" : l}, ${nulls ? "NULL" : i}, ${r % 300}, ${r % 100})`,
      );
    }
    await engine.execute(`INSERT INTO t VALUES ${values.join(", ")}`, adminSession());
    const queries = [
      `SELECT k, ${AGGS.join(", ")} FROM t GROUP BY k`,
      `SELECT k, j, ${AGGS.join(", ")} FROM t GROUP BY k, j`,
      `SELECT ${AGGS.join(", ")} FROM t`,
      `SELECT k, ${AGGS.join(", ")} FROM t WHERE ts IN '2024-01-02' GROUP BY k`,
      `SELECT k, ${AGGS.join(", ")} FROM t WHERE d > 1e300 GROUP BY k`,
    ];
    for (const sql of queries) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.match(plan, /vectorized hash/, sql);
      const sort = (rs: unknown[][]) => rs.map((r) => r.map(resultKey).join("|")).sort();
      assert.deepEqual(sort(got), sort(want), sql);
      if (!sql.includes("1e300")) assert.ok(got.length > 0, sql);
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
