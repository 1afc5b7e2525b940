/**
 * The worker pool (engine/parallel/worker_pool.ts) against the main heap on the same data:
 * every query runs once on an engine whose workers take every scan and once on an engine
 * without workers, and the results must agree (NULLs, symbols with a NULL key, WHERE filters,
 * timestamp intervals, partitions with no matching row, columns added later). Also: which
 * queries the pool takes, and that the engine stops its workers on close.
 */
import assert from "node:assert/strict";
import type { Engine } from "../../../engine/mod.ts";
import { assertSame, parallelEngine, rows, run, singleEngine } from "./_parallel_util.ts";

const UNKEYED = [
  "SELECT sum(d) AS s, avg(d) AS a FROM t",
  "SELECT count(*), count(d), sum(d), avg(d), min(d), max(d) FROM t",
  "SELECT count(f), sum(f), avg(f), min(f), max(f) FROM t",
  "SELECT count(i), sum(i), avg(i), min(i), max(i) FROM t",
  "SELECT count(l), sum(l), min(l), max(l), min(ts), max(ts) FROM t",
  "SELECT sum(sh), count(sh), sum(b) FROM t",
  "SELECT count(*), avg(d), sum(l) FROM t WHERE s = 'b'",
  "SELECT count(*), avg(d), sum(l) FROM t WHERE s = 'nope'",
  "SELECT count(*), max(d) FROM t WHERE s IS NULL",
  "SELECT count(*), min(d) FROM t WHERE s IN ('a', 'c', null)",
  "SELECT count(*), sum(i) FROM t WHERE s != 'a' AND d > 0.5",
  "SELECT count(*), sum(d) FROM t WHERE i < 0",
  "SELECT count(*), sum(d) FROM t WHERE d > 2",
  "SELECT count(*), sum(d), max(l) FROM t WHERE ts IN '2024-03-02;2d'",
  "SELECT count(*), sum(d), max(l) FROM t WHERE ts > '2024-03-03T12:00' AND ts < '2024-03-07T06:00'",
  "SELECT count(*), sum(d) FROM t WHERE ts IN '2024-03-02' OR ts IN '2024-03-06'",
  "SELECT count(*), sum(d) FROM t WHERE ts IN '2025-01-01'",
  "SELECT count(*), sum(late), count(late), min(late) FROM t",
  // The same over every row through a filter (NULL != 12345 holds), which the workers scan:
  // unfiltered ones answer whole partitions from partition statistics on the main heap.
  "SELECT sum(d) AS s, avg(d) AS a FROM t WHERE i != 12345",
  "SELECT count(f), sum(f), avg(f), min(f), max(f) FROM t WHERE i != 12345",
  "SELECT count(l), sum(l), min(l), max(l), min(ts), max(ts) FROM t WHERE i != 12345",
  "SELECT sum(sh), count(sh), sum(b) FROM t WHERE i != 12345",
  "SELECT count(*), sum(late), count(late), min(late) FROM t WHERE i != 12345",
];

const KEYED = [
  "SELECT s, count(*) AS n, sum(d) AS v, avg(d) AS a, min(d) AS lo, max(d) AS hi, sum(l) AS q FROM t GROUP BY s ORDER BY s",
  "SELECT s, count(i), sum(i), min(i), max(i), avg(f), min(f) FROM t GROUP BY s ORDER BY s",
  "SELECT s, count(*), sum(d) FROM t WHERE d > 0.9 GROUP BY s ORDER BY s",
  "SELECT s, count(*), max(ts) FROM t WHERE ts IN '2024-03-04;2d' GROUP BY s ORDER BY s",
  "SELECT k, count(*), sum(d), max(l) FROM t WHERE s = 'a' GROUP BY k ORDER BY k",
  "SELECT s, count(*), sum(late) FROM t WHERE s != 'c' GROUP BY s ORDER BY s",
];

/** Ten DAY partitions with NULLs in every column, a symbol with NULL keys and a column added later. */
async function makeTable(engine: Engine): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 14_000_000L) ts, " +
      "rnd_symbol('a','b','c','d',null) s, rnd_symbol('k1','k2','k3') k, rnd_double(4) d, rnd_float(4) f, " +
      "rnd_int(-1000, 1000, 4) i, rnd_long(-100000, 100000, 4) l, rnd_short() sh, rnd_byte() b " +
      "FROM long_sequence(62500)) TIMESTAMP(ts) PARTITION BY DAY",
  );
  await run(engine, "ALTER TABLE t ADD COLUMN late DOUBLE");
  await run(
    engine,
    "INSERT INTO t (ts, s, k, d, l, late) SELECT timestamp_sequence('2024-03-09T18:00', 4_000_000L), " +
      "rnd_symbol('a','b','e',null), rnd_symbol('k1','k4'), rnd_double(2), rnd_long(0, 10, 2), rnd_double(3) FROM long_sequence(5000)",
  );
}

Deno.test("parallel aggregates equal the main heap's over partitions, NULLs, symbols and filters", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_par_" });
  try {
    const par = await parallelEngine(root);
    const results: unknown[][][] = [];
    try {
      await makeTable(par);
      const local: string[] = [];
      for (const sql of [...UNKEYED, ...KEYED]) {
        const jobs = par.parallel.jobs;
        results.push(await rows(par, sql));
        const onWorkers = par.parallel.jobs !== jobs;
        if (!onWorkers) local.push(sql);
        // The plan chose where it runs: EXPLAIN says `parallel 2` exactly for the workers' scans.
        const plan = (await rows(par, `EXPLAIN ${sql}`)).flat().join("\n");
        assert.equal(/GroupBy .*\[[^\]]*, parallel 2\]/.test(plan), onWorkers, `${sql}\n${plan}`);
      }
      assert.equal(par.parallel.running, 2);
      // The rest went to the workers. (Two odd partitions, which one worker holds, are no longer
      // kept here: the hash aggregation's morsels split their rows between both workers.)
      assert.deepEqual(local, [
        // Unfiltered or time-filtered: whole partitions from partition statistics.
        ...UNKEYED.slice(0, 6),
        UNKEYED[13],
        UNKEYED[14],
        // No partition in the interval.
        "SELECT count(*), sum(d) FROM t WHERE ts IN '2025-01-01'",
        UNKEYED[17],
      ]);
    } finally {
      await par.close();
    }
    const one = await singleEngine(root);
    try {
      let i = 0;
      for (const sql of [...UNKEYED, ...KEYED]) {
        const expected = await rows(one, sql);
        assert.ok(expected.length > 0, sql);
        assertSame(results[i++], expected, sql);
      }
      assert.equal(one.parallel.jobs, 0);
    } finally {
      await one.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("parallel aggregates equal the row path", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_par_" });
  const engine = await parallelEngine(root);
  try {
    await makeTable(engine);
    const fast =
      "SELECT s, count(*), sum(d), avg(d), min(d), max(d), sum(l), min(i), max(f) FROM t WHERE d > 0.2 GROUP BY s ORDER BY s";
    const slow =
      "SELECT s, count(*) FILTER (WHERE true), sum(d) FILTER (WHERE true), avg(d) FILTER (WHERE true), " +
      "min(d) FILTER (WHERE true), max(d) FILTER (WHERE true), sum(l) FILTER (WHERE true), min(i) FILTER (WHERE true), " +
      "max(f) FILTER (WHERE true) FROM t WHERE d > 0.2 GROUP BY s ORDER BY s";
    const jobs = engine.parallel.jobs;
    const a = await rows(engine, fast);
    assert.equal(engine.parallel.jobs, jobs + 1);
    assertSame(a, await rows(engine, slow), "keyed");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the pool leaves small scans, one-partition scans and count(*) to the main heap", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_par_" });
  const { Engine } = await import("../../../engine/mod.ts");
  const engine = await Engine.open({
    root,
    cacheBytes: 64 * 1024 * 1024,
    parallelWorkers: 2,
    parallelValuesMin: 50_000,
  });
  try {
    await makeTable(engine);
    await rows(engine, "SELECT count(*) FROM t");
    await rows(engine, "SELECT sum(d) FROM t WHERE ts IN '2024-03-03'");
    await rows(engine, "SELECT sum(d) FROM t WHERE ts IN '2024-03-03;1d'");
    await rows(engine, "SELECT s, first(d) FROM t");
    assert.equal(engine.parallel.jobs, 0);
    assert.equal(engine.parallel.running, 0, "no worker started");
    // Partition statistics answer an unfiltered sum on the main heap; a filtered one is scanned.
    await rows(engine, "SELECT sum(d) FROM t");
    assert.equal(engine.parallel.jobs, 0);
    await rows(engine, "SELECT sum(d) FROM t WHERE i != 12345");
    assert.equal(engine.parallel.jobs, 1);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("workers stream partitions through a cache smaller than the table; one that cannot hold a single partition hands the scan back", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_par_" });
  const sql = "SELECT s, count(*), sum(d), min(l), max(l) FROM t GROUP BY s ORDER BY s";
  try {
    const { Engine } = await import("../../../engine/mod.ts");
    const cases = [
      // 256 KiB per worker: one partition's s, d and l (~6,200 rows, ~125 KB) fit, a worker's
      // five or six together do not; each partition is released once folded in.
      { cacheBytes: 512 * 1024, streamed: true },
      // 32 KiB per worker: not even one partition fits.
      { cacheBytes: 64 * 1024, streamed: false },
    ];
    const results: unknown[][][] = [];
    for (const c of cases) {
      const small = await Engine.open({
        root,
        cacheBytes: c.cacheBytes,
        parallelWorkers: 2,
        parallelValuesMin: 1,
      });
      try {
        if (results.length === 0) await makeTable(small);
        results.push(await rows(small, sql));
        if (c.streamed) assert.ok(small.parallel.jobs > 0, "the workers completed the job");
        else assert.equal(small.parallel.jobs, 0, "no job completed on the workers");
        assert.equal(small.parallel.running, 2, "the workers were asked");
      } finally {
        await small.close();
      }
    }
    const one = await singleEngine(root);
    try {
      const expected = await rows(one, sql);
      for (const got of results) assertSame(got, expected, sql);
    } finally {
      await one.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a GROUP BY over very many symbol keys stays on the main heap", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_par_" });
  const engine = await parallelEngine(root);
  try {
    await run(
      engine,
      "CREATE TABLE u AS (SELECT timestamp_sequence('2024-03-01', 14_000_000L) ts, CAST(x AS SYMBOL) k, 1.0 d " +
        "FROM long_sequence(20000)) TIMESTAMP(ts) PARTITION BY DAY",
    );
    const got = await rows(engine, "SELECT k, sum(d) FROM u");
    assert.equal(got.length, 20000);
    assert.equal(engine.parallel.jobs, 0);
    await rows(engine, "SELECT sum(d) FROM u WHERE d != 2");
    assert.equal(engine.parallel.jobs, 1);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("closing the engine terminates its workers", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_par_" });
  const engine = await parallelEngine(root);
  try {
    await makeTable(engine);
    assert.equal(engine.parallel.running, 0);
    await rows(engine, "SELECT sum(d) FROM t WHERE i != 12345");
    assert.equal(engine.parallel.running, 2);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
  assert.equal(engine.parallel.running, 0);
  // A closed pool declines: nothing runs on a terminated worker.
  assert.equal(engine.parallel.jobs, 1);
});
