/**
 * GROUP BY over UNION ALL of table scans read branch by branch on the WASM kernels
 * (union_aggregate.ts) against the row-at-a-time reference: two tables with different symbol
 * dictionaries (codes differ for equal texts), NULL keys and values, filters and intervals in
 * branches, three branches, unkeyed, an empty table, avg() of LONG past 2^63 across branches,
 * several partitions; shapes it must leave to the hash aggregate (widened types, DISTINCT,
 * expressions) still agree. The worker heaps answer the same.
 */
import assert from "node:assert/strict";
import { adminSession, type Engine } from "../../../engine/mod.ts";
import { rng } from "../../fuzz/prng.ts";
import { bothWays, resultKey } from "../_result_rows.ts";
import { assertSame, parallelEngine, rowsWithJobs, singleEngine } from "../parallel/_parallel_util.ts";

const close = (a: unknown, b: unknown): boolean =>
  typeof a === "number" && typeof b === "number"
    ? a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b))
    : resultKey(a) === resultKey(b);

function assertClose(got: unknown[][], want: unknown[][], label: string): void {
  assert.equal(got.length, want.length, `${label}: row count`);
  got.forEach((row, i) =>
    row.forEach((cell, j) =>
      assert.ok(
        close(cell, want[i][j]),
        `${label}: row ${i} col ${j}: ${resultKey(cell)} vs ${resultKey(want[i][j])}`,
      )
    )
  );
}

async function load(engine: Engine): Promise<void> {
  const run = (sql: string) => engine.execute(sql, adminSession());
  const ddl = "(ts TIMESTAMP, s SYMBOL, d DOUBLE, l LONG, i INT) TIMESTAMP(ts) PARTITION BY DAY";
  await run(`CREATE TABLE a ${ddl}`);
  await run(`CREATE TABLE b ${ddl}`);
  await run(`CREATE TABLE c ${ddl}`);
  await run(`CREATE TABLE e ${ddl}`);
  await run("CREATE TABLE w (ts TIMESTAMP, s SYMBOL, d DOUBLE, l INT, i INT) TIMESTAMP(ts) PARTITION BY DAY");
  const r = rng(7);
  for (
    const [table, keys, n] of [["a", ["x", "y", "z", "q"], 700], ["b", ["z", "p", "y"], 500], [
      "c",
      ["x"],
      40,
    ]] as const
  ) {
    const values: string[] = [];
    for (let k = 0; k < n; k++) {
      const ts = `'2024-01-0${1 + r.int(3)}T${String(r.int(24)).padStart(2, "0")}:00:00.${
        String(k).padStart(6, "0")
      }Z'`;
      values.push(
        `(${ts}, ${r.chance(0.1) ? "NULL" : `'${r.pick(keys)}'`}, ${
          r.chance(0.15) ? "NULL" : (r.next() * 100 - 50).toFixed(2)
        }, ${r.chance(0.15) ? "NULL" : r.pick(["4611686018427387904", "3", "-7", "4000000000000000001"])}, ${
          r.chance(0.15) ? "NULL" : String(r.int(1000) - 500)
        })`,
      );
    }
    await run(`INSERT INTO ${table} VALUES ${values.join(", ")}`);
  }
  await run("INSERT INTO w VALUES ('2024-01-01T00:00:00Z', 'x', 1.5, 7, 2)");
}

const PICKED = [
  "SELECT s, count(*) FROM (SELECT s FROM a UNION ALL SELECT s FROM b) GROUP BY s ORDER BY s",
  "SELECT s, count(*), count(d), sum(d), avg(d), min(d), max(d), sum(l), avg(l), min(l), max(i), sum(i) " +
  "FROM (SELECT s, d, l, i FROM a UNION ALL SELECT s, d, l, i FROM b) GROUP BY s ORDER BY s",
  "SELECT s, count(*), avg(d) FROM (SELECT s, d FROM a WHERE d > 0 UNION ALL SELECT s, d FROM b WHERE i < 100) " +
  "GROUP BY s ORDER BY s",
  "SELECT s, sum(d), avg(l) FROM (SELECT s, d, l FROM a UNION ALL SELECT s, d, l FROM b UNION ALL " +
  "SELECT s, d, l FROM c) GROUP BY s ORDER BY s",
  "SELECT s, count(*), max(l) FROM (SELECT s, l FROM a WHERE ts IN '2024-01-02' UNION ALL SELECT s, l FROM e) " +
  "GROUP BY s ORDER BY s",
  "SELECT count(*), sum(d), avg(l), min(i) FROM (SELECT d, l, i FROM a UNION ALL SELECT d, l, i FROM b)",
  "SELECT count(*), sum(d) FROM (SELECT d FROM e UNION ALL SELECT d FROM e)",
  "SELECT s, count(*) FROM (SELECT s FROM e UNION ALL SELECT s FROM e) GROUP BY s",
  "SELECT s, count(*) FROM (SELECT s FROM a WHERE d > 1e9 UNION ALL SELECT s FROM b WHERE d > 1e9) GROUP BY s",
];

/** Shapes the branches cannot take: the hash aggregate answers them. */
const LEFT = [
  // l is INT in w, LONG in a: the union widens it.
  "SELECT s, sum(l) FROM (SELECT s, l FROM a UNION ALL SELECT s, l FROM w) GROUP BY s ORDER BY s",
  "SELECT s, count(DISTINCT i) FROM (SELECT s, i FROM a UNION ALL SELECT s, i FROM b) GROUP BY s ORDER BY s",
  "SELECT s, sum(d * 2) FROM (SELECT s, d FROM a UNION ALL SELECT s, d FROM b) GROUP BY s ORDER BY s",
  "SELECT s, count(*) FROM (SELECT s FROM a UNION SELECT s FROM b) GROUP BY s ORDER BY s",
  "SELECT s, count(*) FILTER (WHERE d > 0) FROM (SELECT s, d FROM a UNION ALL SELECT s, d FROM b) GROUP BY s ORDER BY s",
];

Deno.test("GROUP BY over UNION ALL of scans reads branch by branch and equals the row path", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_union_agg_" });
  const engine = await singleEngine(root);
  try {
    await load(engine);
    for (const sql of PICKED) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.match(plan, /wasm kernels(, partition stats)?, union branches [23]/, sql);
      assert.match(plan, /Union All \[per branch\]/, sql);
      // Groups come in first-appearance order per branch: compare sorted where unordered.
      const sorted = (x: unknown[][]) =>
        /ORDER BY/.test(sql) ? x : [...x].sort((p, q) => resultKey(p) < resultKey(q) ? -1 : 1);
      assertClose(sorted(got), sorted(want), sql);
    }
    for (const sql of LEFT) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.doesNotMatch(plan, /union branches/, sql);
      assertClose(got, want, sql);
    }
    // Unfiltered unkeyed branches answer whole partitions from statistics, and EXPLAIN says so.
    const { plan: statsPlan } = await bothWays(engine, PICKED[5]);
    assert.match(statsPlan, /wasm kernels, partition stats, union branches 2/);
    // The data reaches the cases: keys of both dictionaries, a NULL key, avg of LONG past 2^63.
    const { got } = await bothWays(engine, PICKED[1]);
    assert.deepEqual(got.map((r) => r[0]), [null, "p", "q", "x", "y", "z"]);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("GROUP BY over UNION ALL on the worker heaps equals one heap", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_union_agg_par_" });
  let engine = await singleEngine(root);
  const single: unknown[][][] = [];
  try {
    await load(engine);
    for (const sql of PICKED.slice(0, 5)) single.push(await rowsWithJobs(engine, sql, undefined));
  } finally {
    await engine.close();
  }
  engine = await parallelEngine(root);
  try {
    for (const [i, sql] of PICKED.slice(0, 5).entries()) {
      // Each branch over several partitions is a job of its own (the interval branch reads one
      // partition and stays on this heap, the empty table reads nothing).
      const jobs = i === 3 ? 3 : i === 4 ? 0 : 2;
      assertSame(await rowsWithJobs(engine, sql, jobs), single[i], sql);
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
