/**
 * Every kind of vectorized hash aggregation the workers take (engine/exec/vector/hash_parallel.ts):
 * expression keys, expression arguments, WHERE filters, FILTER clauses, global aggregates,
 * count(DISTINCT x), SELECT DISTINCT, interval-filtered scans, filters matching nothing. Each
 * query runs on an engine that sends every scan to the workers and on one without workers; the
 * rows must be the same in the same order (no ORDER BY: groups come out in first-appearance
 * order on both), and EXPLAIN and the pool's job count must show the workers ran it.
 */
import assert from "node:assert/strict";
import { adminSession, type Engine, readValue, T } from "../../../engine/mod.ts";
import { hashTuning } from "../../../engine/parallel/worker_pool.ts";
import { partitionTuning } from "../../../engine/exec/vector/hash_parallel.ts";
import {
  assertSame,
  explain,
  parallelEngine,
  rows,
  rowsWithJobs,
  run,
  singleEngine,
} from "./_parallel_util.ts";

/** [query, a pattern its EXPLAIN must show on the parallel engine]. */
const SHAPES: [string, RegExp][] = [
  // Expression keys (small integers: hour, qty % 7), SYMBOL keys with NULLs, expression arguments.
  [
    "SELECT hour(ts) k0, s k1, count(*), sum(d), min(i * 2 + 1) FROM t GROUP BY hour(ts), s",
    /GroupBy keys: 2 .*parallel 2, dense keys/,
  ],
  ["SELECT s, avg(i * 2 + 1), sum(d), max(l - 3) FROM t GROUP BY s", /parallel 2/],
  ["SELECT s, side, count(*), max(d * f), min(d * f) FROM t GROUP BY s, side", /parallel 2/],
  ["SELECT i % 7 m, count(*), sum(l), avg(d) FROM t GROUP BY m", /parallel 2/],
  ["SELECT day_of_week(ts) k0, side, i % 7 k2, avg(d), sum(d - f) FROM t GROUP BY 1, 2, 3", /parallel 2/],
  [
    "SELECT date_trunc('hour', ts + 1000) t1, count(*) FROM t WHERE ts IN '2024-03-03' GROUP BY t1",
    /parallel 2/,
  ],
  ["SELECT date_trunc('day', ts) dd, sum(i), count(i) FROM t GROUP BY dd", /parallel 2/],
  ["SELECT CASE WHEN d > 0.5 THEN 1 ELSE 0 END hi, count(*), sum(d) FROM t GROUP BY hi", /parallel 2/],
  // WHERE filters (symbol comparisons on the workers' code tables) and FILTER clauses.
  [
    "SELECT day_of_week(ts) k0, side, i % 7 k2, avg(d), sum(f), count(*) FILTER (WHERE side = 'buy') " +
    "FROM t WHERE side = 'sell' GROUP BY day_of_week(ts), side, i % 7",
    /Filter[\s\S]*|parallel 2/,
  ],
  ["SELECT s, side, count(*) FROM t WHERE d > 0.5 GROUP BY s, side", /parallel 2/],
  ["SELECT k, count(*), sum(d) FROM t WHERE s IN ('a', 'c') OR s IS NULL GROUP BY k", /parallel 2/],
  [
    // Keyed by s alone it runs on the WASM kernels (fast_aggregate.ts keyed FILTER); by s, k on
    // the hash morsels.
    "SELECT s, k, count(*), sum(l) FILTER (WHERE i > 0), max(d) FILTER (WHERE s != 'b') FROM t GROUP BY s, k",
    /parallel/,
  ],
  ["SELECT s, side, count(*) FROM t WHERE s = 'no such symbol' GROUP BY s, side", /parallel 2/],
  ["SELECT k, sum(d) FROM t WHERE d > 2 GROUP BY k", /parallel 2/],
  // Global aggregates: with a filter, with expressions, matching nothing, with count(DISTINCT).
  [
    "SELECT sum(d), sum(i), sum(d - f), avg(d) FROM t WHERE d < 0.1 OR i > 900",
    /GroupBy values: .*parallel 2/,
  ],
  ["SELECT max(d), avg(d), min(d * f), count(DISTINCT s) FROM t", /parallel 2/],
  ["SELECT count(*), sum(d), min(l), max(ts), avg(i) FROM t WHERE i * 2 > 5000", /parallel 2/],
  ["SELECT count(*), sum(d - 1), min(i) FROM t WHERE ts IN '2030-01-01'", /GroupBy values/],
  ["SELECT sum(d * 2), avg(d + f) FROM t", /parallel 2/],
  // No keys, no FILTER: count/min/max/avg/sum over DOUBLE columns and expressions with NULLs.
  ["SELECT count(d), count(d * f), max(d * f), min(d), avg(d - f), sum(d), count(*) FROM t", /parallel 2/],
  // Aggregates over one computed argument share its evaluation per batch on the worker.
  [
    "SELECT sum(d - f), count(*), min(d - f), max(d - f) FILTER (WHERE i > 0), count(DISTINCT i % 10), " +
    "sum(i % 10) FROM t",
    /parallel 2/,
  ],
  // count(DISTINCT) by group, over SYMBOL, STRING, INT and expression arguments.
  [
    "SELECT side, count(DISTINCT s), count(DISTINCT k), count(DISTINCT i % 10) FROM t GROUP BY side",
    /parallel/,
  ],
  ["SELECT s, count_distinct(l) FROM t WHERE ts > '2024-03-04' GROUP BY s", /parallel 2/],
  // Hundreds of groups and distinct values per morsel (typed key vectors merged).
  ["SELECT i % 25 m, l, count(*), sum(d) FROM t GROUP BY m, l", /parallel 2/],
  ["SELECT side, count(DISTINCT i % 100), count(DISTINCT l * 7) FROM t GROUP BY side", /parallel 2/],
  // About a group or DISTINCT pair per row (group_estimate.ts): keyed shapes run as two-phase
  // radix aggregation (hash_radix.ts); global ones stay on the main thread, where merging the
  // workers' partials would cost as much as grouping.
  [
    "SELECT ts, d, count(*), sum(i) FROM t GROUP BY ts, d",
    /GroupBy keys: 2 values: count,sum \[vectorized hash, radix 2\]/,
  ],
  ["SELECT count(DISTINCT ts), count(DISTINCT d) FROM t", /GroupBy values: count,count \[vectorized hash\]/],
  ["SELECT DISTINCT ts, s FROM t", /Distinct \[vectorized hash, radix 2\]/],
  // SELECT DISTINCT of columns and expressions.
  ["SELECT DISTINCT hour(ts) k0, i % 7 k1 FROM t", /Distinct \[vectorized hash, parallel 2, dense keys\]/],
  ["SELECT DISTINCT s, side FROM t", /Distinct \[vectorized hash, parallel 2, dense keys\]/],
  ["SELECT DISTINCT k, l FROM t WHERE d > 0.9", /Distinct \[vectorized hash, parallel 2\]/],
  ["SELECT DISTINCT s FROM t WHERE ts IN '2030-01-01'", /Distinct \[vectorized hash\]/],
];

/** Shapes of about a group per row: radix aggregation on the workers, or (no keys) the main thread. */
const RADIX = ["GROUP BY ts, d", "DISTINCT ts, s"];
const MAIN_THREAD = ["count(DISTINCT ts)"];

/** Ten DAY partitions; SYMBOL/STRING/INT/LONG/DOUBLE/FLOAT columns with NULLs. */
async function makeTable(engine: Engine): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 14_000_000L) ts, " +
      "rnd_symbol('a','b','c',null) s, rnd_symbol('buy','sell') side, rnd_str('x','yy',null) k, " +
      "rnd_double(4) d, rnd_float(4) f, rnd_int(-1000, 1000, 4) i, rnd_long(-5, 5, 4) l " +
      "FROM long_sequence(62500)) TIMESTAMP(ts) PARTITION BY DAY",
  );
}

Deno.test("every hash aggregation shape on the workers equals the main thread's, in the same order", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_hashpar_shapes_" });
  // Morsels of 4,096 rows: the 62,500 rows are 16 morsels, merged in order on the main thread.
  const morselRows = hashTuning.morselRows, workersMin = partitionTuning.workersMin;
  hashTuning.morselRows = 4096;
  // Two workers run many-group shapes as radix aggregation here (by default only from four).
  partitionTuning.workersMin = 2;
  try {
    const par = await parallelEngine(root);
    const results: unknown[][][] = [];
    try {
      await makeTable(par);
      for (const [sql, plan] of SHAPES) {
        const text = await explain(par, sql);
        // An interval of no partition scans no rows: the main thread answers it.
        const radix = RADIX.some((part) => sql.includes(part));
        const onWorkers = !sql.includes("2030") && !MAIN_THREAD.some((part) => sql.includes(part));
        if (onWorkers) assert.match(text, radix ? /radix 2/ : /parallel 2/, `${sql}\n${text}`);
        else assert.doesNotMatch(text, /parallel|radix/, `${sql}\n${text}`);
        assert.match(text, plan, `${sql}\n${text}`);
        results.push(await rowsWithJobs(par, sql, onWorkers ? 1 : 0));
      }
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      for (let q = 0; q < SHAPES.length; q++) {
        const sql = SHAPES[q][0];
        assert.doesNotMatch(await explain(single, sql), /parallel/);
        const expected = await rows(single, sql);
        assertSame(results[q], expected, sql);
      }
      // The shapes exercise what they claim: NULL keys, empty answers, a global row of NULLs.
      const of = (part: string) => results[SHAPES.findIndex(([q]) => q.includes(part))];
      assert.ok(of("avg(i * 2 + 1)").some((r) => r[0] === null), "a NULL SYMBOL group");
      assert.equal(of("no such symbol").length, 0, "no row for a symbol the table lacks");
      assert.deepEqual(
        of("WHERE i * 2 > 5000"),
        [[0n, null, null, null, null]],
        "a global aggregate of no rows",
      );
      assert.deepEqual(of("sum(d - 1)"), [[0n, null, null]], "a global aggregate of no partition");
      assert.equal(of("DISTINCT s FROM t WHERE ts IN '2030").length, 0, "DISTINCT of no partition");
      assert.ok(of("GROUP BY ts, d").length > 60_000, "a group per row");
    } finally {
      await single.close();
    }
  } finally {
    hashTuning.morselRows = morselRows;
    partitionTuning.workersMin = workersMin;
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a LONG expression past 2^53 on a worker falls back to the row path there, same answer", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_hashpar_wide_" });
  try {
    const par = await parallelEngine(root);
    const sql = "SELECT l % 3 m, max(l * 10000), min(l * 10000 + 1), count(*) FROM w GROUP BY m";
    let got: unknown[][];
    try {
      // Values near 2^62: the batch loops decline such batches, which then go row by row.
      await run(
        par,
        "CREATE TABLE w AS (SELECT timestamp_sequence('2024-03-01', 60_000_000L) ts, " +
          "rnd_long(4_000_000_000_000, 9_000_000_000_000, 3) l FROM long_sequence(20000)) " +
          "TIMESTAMP(ts) PARTITION BY DAY",
      );
      assert.match(await explain(par, sql), /parallel 2/);
      got = await rowsWithJobs(par, sql, 1);
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      assertSame(got, await rows(single, sql), sql);
    } finally {
      await single.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a prepared aggregation on the workers takes its parameters; its kept plan, an emptied table", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_hashpar_prepared_" });
  const sql = "SELECT i % 5 m, count(*), sum(d * $2) FROM t WHERE i > $1 GROUP BY m";
  const session = (params: unknown[]) => ({ ...adminSession(), params, paramTypes: [T.INT, T.DOUBLE] });
  const sets = [[0, 2.0], [500, -1.5]];
  try {
    const got: unknown[][][] = [];
    let par = await parallelEngine(root);
    try {
      await makeTable(par);
      const p = par.prepare(sql, session([]));
      for (const params of sets) {
        const jobs = par.parallel.jobs;
        got.push(await rowsOf(par, p, session(params)));
        assert.equal(par.parallel.jobs, jobs + 1, `${sql} ${params}: ran on the workers`);
      }
      assert.ok(p.cachedPlan, "the plan is kept");
      assert.notDeepEqual(got[0], got[1], "the parameters reach the workers");
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      for (let i = 0; i < sets.length; i++) {
        assertSame(got[i], await rowsOf(single, sql, session(sets[i])), sql);
      }
    } finally {
      await single.close();
    }
    par = await parallelEngine(root);
    try {
      const p = par.prepare(sql, session([]));
      assert.ok((await rowsOf(par, p, session(sets[0]))).length > 0);
      // The kept plan still sends it to the workers; the emptied table has no morsel, no group.
      await run(par, "TRUNCATE TABLE t");
      assert.deepEqual(await rowsOf(par, p, session(sets[0])), []);
      assert.deepEqual(await rows(par, "SELECT count(*), sum(d * 2) FROM t WHERE i > 0"), [[0n, null]]);
    } finally {
      await par.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

async function rowsOf(
  engine: Engine,
  stmt: Parameters<Engine["execute"]>[0],
  session: ReturnType<typeof adminSession>,
): Promise<unknown[][]> {
  const out = await engine.execute(stmt, session);
  const result: unknown[][] = [];
  if (out.kind === "rows") {
    for await (const b of out.batches) {
      for (let i = 0; i < b.rowCount; i++) result.push(b.columns.map((c) => readValue(c, i)));
    }
  }
  return result;
}
