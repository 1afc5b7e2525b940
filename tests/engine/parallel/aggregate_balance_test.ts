/**
 * The table-scan aggregates on the worker heaps (worker_pool.ts `aggregate`) cut a partition
 * between two workers when dealing whole partitions in turn leaves one with more rows: `balance`
 * moves the tail of the busier worker's last partition, and the cut partition's rows are
 * aggregated once, half on each worker (keyed and unkeyed, filtered, NULL keys, exact avg of
 * LONG), equal to one heap.
 */
import assert from "node:assert/strict";
import { balance } from "../../../engine/parallel/worker_pool.ts";
import type { TableSnapshot } from "../../../engine/storage/api.ts";
import { assertSame, parallelEngine, rowsWithJobs, run, singleEngine } from "./_parallel_util.ts";

const snapOf = (counts: number[]) =>
  ({ partitions: counts.map((rowCount) => ({ rowCount })) }) as unknown as TableSnapshot;

Deno.test("balance cuts the busier worker's last partition and leaves even deals alone", () => {
  // 7 equal partitions dealt 4 and 3: half of partition 6 moves to worker 1.
  const sets = [[0, 2, 4, 6], [1, 3, 5]];
  const spans = balance(sets, snapOf([100, 100, 100, 100, 100, 100, 100]), 2);
  assert.deepEqual(spans, [[{ p: 6, lo: 0, hi: 50 }], [{ p: 6, lo: 50, hi: 100 }]]);
  assert.deepEqual(sets, [[0, 2, 4, 6], [1, 3, 5, 6]]);
  // Even enough: nothing cut.
  const even = [[0, 2], [1, 3]];
  assert.deepEqual(balance(even, snapOf([100, 100, 100, 95]), 2), [[], []]);
  assert.deepEqual(even, [[0, 2], [1, 3]]);
  // Three workers, one big partition: cut once (a partition is never cut twice).
  const three = [[0], [1], [2]];
  assert.deepEqual(balance(three, snapOf([900, 10, 10]), 3), [[{ p: 0, lo: 0, hi: 455 }], [{
    p: 0,
    lo: 455,
    hi: 900,
  }], []]);
});

Deno.test("a partition cut between the workers is aggregated once, as on one heap", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_agg_balance_" });
  let engine = await singleEngine(root);
  const queries = [
    "SELECT s, count(*), sum(d), avg(l), min(d), max(l) FROM t GROUP BY s ORDER BY s",
    "SELECT s, count(*) FROM t GROUP BY s ORDER BY s",
    "SELECT count(*), sum(d), avg(l), max(d) FROM t WHERE d > 10",
    "SELECT s, avg(d) FROM t WHERE l < 4000000000000000000 GROUP BY s ORDER BY s",
    "SELECT s, count(*) FILTER (WHERE d > 50), avg(l) FILTER (WHERE s = 'k1'), max(d) FROM t GROUP BY s ORDER BY s",
  ];
  const single: unknown[][][] = [];
  try {
    await run(
      engine,
      "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, d DOUBLE, l LONG) TIMESTAMP(ts) PARTITION BY DAY",
    );
    // Three partitions of 400, 300 and 500 rows: dealt 900 and 300, one is cut.
    const values: string[] = [];
    for (const [day, n] of [[1, 400], [2, 300], [3, 500]]) {
      for (let i = 0; i < n; i++) {
        const key = i % 11 === 0 ? "NULL" : `'k${(i * 7) % 5}'`;
        const d = i % 13 === 0 ? "NULL" : String((i * 37) % 101);
        const l = i % 17 === 0 ? "NULL" : i % 3 === 0 ? "4611686018427387904" : String(i);
        const ts = `'2024-01-0${day}T00:00:00.${String(i).padStart(6, "0")}Z'`;
        values.push(`(${ts}, ${key}, ${d}, ${l})`);
      }
    }
    await run(engine, `INSERT INTO t VALUES ${values.join(", ")}`);
    for (const sql of queries) single.push(await rowsWithJobs(engine, sql, undefined));
  } finally {
    await engine.close();
  }
  engine = await parallelEngine(root);
  try {
    for (const [i, sql] of queries.entries()) assertSame(await rowsWithJobs(engine, sql, 1), single[i], sql);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
