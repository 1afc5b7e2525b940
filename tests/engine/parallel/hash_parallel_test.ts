/**
 * The vectorized hash aggregation on the worker heaps (engine/exec/vector/hash_parallel.ts):
 * every GROUP BY runs on an engine whose workers take it and on an engine without workers, and
 * the rows must be the same in the same order (groups in first-appearance order: morsels are
 * merged in table order), over keys of every kind with NULLs, several keys, intervals and
 * every partial aggregate. EXPLAIN names the choice; other shapes stay on the main thread.
 * Also: cancel and timeout of a statement whose morsels run on the workers.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { WorkerPool } from "../../../engine/parallel/worker_pool.ts";
import {
  assertSame,
  CACHE_BYTES,
  explain,
  parallelEngine,
  rows,
  run,
  singleEngine,
} from "./_parallel_util.ts";

// (One SYMBOL key with these aggregates takes the WASM kernels, not the hash: not listed.)
const PARALLEL = [
  "SELECT s, side, count(*), avg(d) FROM t GROUP BY s, side",
  "SELECT k, count(*), count(d), sum(d), avg(d), min(d), max(d) FROM t GROUP BY k",
  "SELECT side, s, k, sum(i), avg(i), min(i), max(i), count(i) FROM t GROUP BY side, s, k",
  "SELECT k, sum(l), avg(l), min(l), max(l), min(ts), max(ts) FROM t GROUP BY k",
  "SELECT b, sum(f), avg(f), min(f), max(f), sum(sh), min(sh) FROM t GROUP BY b",
  "SELECT l, count(*) FROM t GROUP BY l",
  "SELECT d, count(*) FROM t WHERE ts IN '2024-03-03;1d' GROUP BY d",
  "SELECT s, side, count(*), sum(d) FROM t WHERE ts > '2024-03-04T12:00' AND ts < '2024-03-07' GROUP BY s, side",
  "SELECT flag, s, count(*), sum(late), max(late) FROM t GROUP BY flag, s",
  "SELECT i, count(*) FROM t WHERE ts IN '2030-01-01' GROUP BY i",
  "SELECT name, count(*), max(d) FROM t GROUP BY name",
];

/** Ten DAY partitions: SYMBOL/STRING/INT/LONG/DOUBLE/BOOLEAN keys with NULLs, a column added later. */
async function makeTable(engine: Engine): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 14_000_000L) ts, " +
      "rnd_symbol('a','b','c','d',null) s, rnd_symbol('buy','sell') side, rnd_str('x','yy',null) k, " +
      "rnd_double(4) d, rnd_float(4) f, rnd_int(-1000, 1000, 4) i, rnd_long(-5, 5, 4) l, " +
      "rnd_short() sh, rnd_byte(0, 3) b, rnd_boolean() flag, rnd_varchar('n1','n2',null) name " +
      "FROM long_sequence(62500)) TIMESTAMP(ts) PARTITION BY DAY",
  );
  await run(engine, "ALTER TABLE t ADD COLUMN late DOUBLE");
  await run(
    engine,
    "INSERT INTO t (ts, s, side, d, l, late) SELECT timestamp_sequence('2024-03-09T18:00', 4_000_000L), " +
      "rnd_symbol('a','e',null), rnd_symbol('buy','hold'), rnd_double(2), rnd_long(0, 10, 2), rnd_double(3) " +
      "FROM long_sequence(5000)",
  );
}

Deno.test("parallel hash aggregation equals the main thread's, rows in the same order", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_hashpar_" });
  try {
    const par = await parallelEngine(root);
    const results: unknown[][][] = [];
    try {
      await makeTable(par);
      for (const sql of PARALLEL) {
        // No partition in the interval: no rows to share, the main thread answers.
        const onWorkers = !sql.includes("2030");
        const plan = await explain(par, sql);
        if (onWorkers) {
          assert.match(plan, /GroupBy keys: .* \[vectorized hash, parallel 2(, dense keys)?\]/, sql);
        } else assert.match(plan, /GroupBy keys: .* \[vectorized hash\]/, sql);
        const jobs = par.parallel.jobs;
        results.push(await rows(par, sql));
        assert.equal(par.parallel.jobs, onWorkers ? jobs + 1 : jobs, `${sql}: ran on the workers`);
      }
      // Outside the shape: aggregates without mergeable partials, expressions without a batch
      // form (hash_parallel_shapes_test.ts covers filters, expression keys and DISTINCT).
      for (
        const sql of [
          "SELECT s, first(d) FROM t GROUP BY s",
          "SELECT concat(s, 'x'), count(*) FROM t GROUP BY 1",
          "SELECT s, count(*) FROM t WHERE k LIKE 'x%' GROUP BY s",
          "SELECT s, stddev(d) FROM t GROUP BY s",
        ]
      ) {
        assert.doesNotMatch(await explain(par, sql), /parallel/, sql);
      }
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      for (let q = 0; q < PARALLEL.length; q++) {
        assert.doesNotMatch(await explain(single, PARALLEL[q]), /parallel/);
        const expected = await rows(single, PARALLEL[q]);
        assert.ok(expected.length > 0 || q === 9, `${PARALLEL[q]}: some groups`);
        assertSame(results[q], expected, PARALLEL[q]);
      }
    } finally {
      await single.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a statement whose morsels run on the workers is cancelled and timed out promptly", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_hashpar_cancel_" });
  try {
    const engine = await parallelEngine(root);
    try {
      // 3M rows in 60 partitions: many morsels, about a second or more of grouping.
      await run(
        engine,
        "CREATE TABLE big AS (SELECT timestamp_sequence('2024-01-01', 1_728_000L) ts, rnd_long(0, 200000, 0) a, " +
          "rnd_symbol('p','q','r') s, rnd_double() d FROM long_sequence(3_000_000)) TIMESTAMP(ts) PARTITION BY DAY",
      );
      // (15,000 groups: a group per few rows would go back to the main thread after one morsel;
      // `a % 5000` is past the dense-key range, whose fused loop finished this in ~50 ms.)
      const sql = "SELECT a % 5000 m, s, count(*), sum(d), max(d - a) FROM big GROUP BY m, s";
      assert.match(await explain(engine, sql), /parallel 2/);
      const t0 = performance.now();
      const jobs = engine.parallel.jobs;
      await rows(engine, sql);
      const full = performance.now() - t0;
      assert.equal(engine.parallel.jobs, jobs + 1, "the full run's morsels ran on the workers");

      const controller = new AbortController();
      const session = { ...adminSession(), signal: controller.signal };
      const started = performance.now();
      setTimeout(() => controller.abort(), 50);
      const cancelled = drain(engine, sql, session);
      await assert.rejects(cancelled, /cancelled/);
      const cancelMs = performance.now() - started;
      assert.ok(cancelMs < Math.max(400, full / 2), `cancel took ${cancelMs} ms (full run ${full} ms)`);

      const timed = { ...adminSession(), timeoutMs: 50 };
      const t1 = performance.now();
      await assert.rejects(drain(engine, sql, timed), /timeout/);
      const timeoutMs = performance.now() - t1;
      assert.ok(timeoutMs < Math.max(400, full / 2), `timeout took ${timeoutMs} ms (full run ${full} ms)`);

      // The workers serve the next statement with the right answer.
      const [[n]] = await rows(engine, "SELECT count(*) FROM (SELECT a, s FROM big GROUP BY a, s)");
      assert.ok(Number(n) > 100_000);
      console.log(
        `full ${full.toFixed(0)} ms, cancel ${cancelMs.toFixed(0)} ms, timeout ${timeoutMs.toFixed(0)} ms`,
      );
    } finally {
      await engine.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

async function drain(engine: Engine, sql: string, session: ReturnType<typeof adminSession>): Promise<void> {
  const out = await engine.execute(sql, session);
  if (out.kind !== "rows") throw new Error("expected rows");
  for await (const _ of out.batches) { /* read everything */ }
}

Deno.test("the workers take hash aggregations of 1M-row tables only, whatever the machine's load", async () => {
  // The measured crossover (docs/parallel.md): 500K rows were slower on two workers.
  const pool = new WorkerPool({ workers: 2, cacheBytes: CACHE_BYTES });
  assert.equal(pool.hashRowsMin, 1_000_000);
  assert.equal((pool as unknown as { busy?: boolean }).busy, undefined, "no load gate");
  pool.close();

  const root = await Deno.makeTempDir({ prefix: "qdb_hash_choice_" });
  try {
    const engine = await Engine.open({ root, cacheBytes: CACHE_BYTES, parallelWorkers: 2 });
    try {
      await run(
        engine,
        "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 1_000_000L) ts, " +
          "rnd_symbol('a','b') s, rnd_long() l FROM long_sequence(200000)) TIMESTAMP(ts) PARTITION BY DAY",
      );
      const plan = (await rows(engine, "EXPLAIN SELECT s, l, count(*) FROM t GROUP BY s, l")).map((r) =>
        r[0]
      );
      assert.ok(plan.join("\n").includes("[vectorized hash]"), plan.join("\n"));
    } finally {
      await engine.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
