/**
 * The plan-time estimate of groups per morsel (engine/exec/vector/group_estimate.ts): shapes of
 * about a group per row stay on the main thread and EXPLAIN says so (no run-time hand-back),
 * shapes of few groups (after the WHERE) go to the workers. Both agree with the row-at-a-time
 * reference, and so do the many-group shapes when forced onto the workers (their partials
 * merged on the main thread): NULL keys, no rows, more groups than a worker's first hash
 * table. A GROUP BY of too many groups on the workers fails with the memory limit error.
 */
import assert from "node:assert/strict";
import type { Engine } from "../../../engine/mod.ts";
import { extrapolate, groupEstimate } from "../../../engine/exec/vector/group_estimate.ts";
import { partitionTuning } from "../../../engine/exec/vector/hash_parallel.ts";
import { bothWays } from "../_result_rows.ts";
import { assertSame, explain, rows, run } from "./_parallel_util.ts";
import { assertMemoryLimitError, withTunedEngine } from "./_tuned_engine.ts";

Deno.test("extrapolate: a small domain saturates, a value per row keeps growing, uniform domains fit", () => {
  // 7 values: every slice saw them all.
  assert.equal(Math.round(extrapolate([4096, 8192, 16384], [7, 7, 7], 262144)), 7);
  // A new value per row: a morsel of 256K rows holds 256K groups.
  assert.equal(extrapolate([4096, 8192, 16384], [4096, 8192, 16384], 262144), 262144);
  // Uniform draws from 30,000 values: the domain answers (the slopes alone would overshoot).
  const u = (n: number) => 30000 * -Math.expm1(-n / 30000);
  const got = extrapolate([4096, 8192, 16384], [u(4096), u(8192), u(16384)], 262144);
  assert.ok(Math.abs(got - u(262144)) < 300, `uniform 30K: ${got}`);
  // Below the sample, proportional.
  assert.equal(extrapolate([4096, 8192, 16384], [100, 200, 400], 8192), 200);
});

const ROWS = 120_000;

async function makeTable(engine: Engine): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 7_200_000L) ts, " +
      "rnd_symbol('a','b','c','d',null) s, rnd_int(0, 9, 0) k, " +
      "CASE WHEN x % 13 = 0 THEN NULL ELSE x END u, rnd_double(3) d " +
      `FROM long_sequence(${ROWS})) TIMESTAMP(ts) PARTITION BY DAY`,
  );
}

/** Runs `fn` with 16K-row morsels (a limit of 4K groups a morsel) on a parallel engine. */
function withEngine(fn: (e: Engine) => Promise<void>, queryMemoryBytes?: number): Promise<void> {
  return withTunedEngine({
    prefix: "qdb_group_estimate_",
    morselRows: 16384,
    setUp: makeTable,
    queryMemoryBytes,
  }, fn);
}

const MANY = [
  [
    "SELECT u, count(*), sum(d) FROM t GROUP BY u",
    /GroupBy keys: 1 values: count,sum \[vectorized hash, radix 2\]/,
  ],
  [
    "SELECT s, u, max(d) FROM t GROUP BY s, u",
    /GroupBy keys: 2 values: max \[vectorized hash, radix 2\]/,
  ],
  ["SELECT DISTINCT u, k FROM t", /Distinct \[vectorized hash, radix 2\]/],
  [
    "SELECT k, count(DISTINCT u) FROM t GROUP BY k",
    /GroupBy keys: 1 values: count \[vectorized hash, radix 2\]/,
  ],
  [
    "SELECT ts, count(*) FROM t GROUP BY ts",
    /GroupBy keys: 1 values: count \[vectorized hash, radix 2\]/,
  ],
] as const;

/** More many-group shapes (partitioned): a symbol and a long, 64-bit results, FILTER, WHERE. */
const MORE_MANY = [
  "SELECT u, count(*), min(u), max(ts) FROM t GROUP BY u",
  "SELECT s, u, sum(u), avg(d), count(d) FILTER (WHERE k > 4) FROM t GROUP BY s, u",
  "SELECT u, k, count(*) FROM t WHERE k <> 3 GROUP BY u, k",
  "SELECT DISTINCT d FROM t",
  "SELECT count(*), sum(n) FROM (SELECT u, s, count(*) n FROM t GROUP BY u, s)",
];

const FEW = [
  ["SELECT k, count(*), avg(d) FROM t GROUP BY k", /\[vectorized hash, parallel 2\]/],
  ["SELECT DISTINCT k, s FROM t", /Distinct \[vectorized hash, parallel 2/],
  // A tenth of the rows pass: ~1,600 groups a morsel, under its limit of 4,096.
  ["SELECT u, count(*) FROM t WHERE k = 3 GROUP BY u", /\[vectorized hash, parallel 2\]/],
] as const;

Deno.test("many groups a morsel run as hash partitions at plan time, few go to the workers as morsels", async () => {
  await withEngine(async (engine) => {
    for (const [sql, plan] of [...MANY, ...FEW]) {
      const jobs = engine.parallel.jobs;
      const { got, want, plan: text } = await bothWays(engine, sql);
      assert.match(text, plan, `${sql}\n${text}`);
      const onWorkers = /parallel|radix/.test(text);
      // Rows on the workers only when the plan said so: no run-time hand-back.
      const picked = await rows(engine, sql);
      assert.equal(engine.parallel.jobs, onWorkers ? jobs + 2 : jobs, `${sql}: ran on the workers`);
      assertSame(picked, want, sql);
      assertSame(got, want, sql);
    }
  });
});

Deno.test("more many-group shapes as hash partitions give the reference's rows in its order", async () => {
  await withEngine(async (engine) => {
    for (const sql of MORE_MANY) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.match(plan, /radix 2/, `${sql}\n${plan}`);
      assert.ok(want.length >= 1, `${sql}: ${want.length} rows`);
      assertSame(got, want, sql);
    }
    // Fewer workers than partitionTuning.workersMin: one heap.
    partitionTuning.workersMin = 3;
    const { got: one, want: ref, plan } = await bothWays(engine, MANY[0][0]);
    assert.match(plan, /GroupBy keys: 1 values: count,sum \[vectorized hash\]/, plan);
    assertSame(one, ref, MANY[0][0]);
    partitionTuning.workersMin = 2;
    // No rows: no groups (the estimate saw many groups in the table's rows).
    const empty = "SELECT u, count(*) FROM t WHERE k = 42 GROUP BY u";
    const { got, want } = await bothWays(engine, empty);
    assert.equal(want.length, 0);
    assertSame(got, want, empty);
  });
});

Deno.test("many-group shapes forced onto the workers merge to the reference's rows", async () => {
  await withEngine(async (engine) => {
    groupEstimate.share = Infinity;
    const empty = "SELECT u, count(*) FROM t WHERE ts IN '2030-01-01' GROUP BY u";
    for (const [sql] of [...MANY, [empty]]) {
      const { got, want, plan } = await bothWays(engine, sql);
      if (sql !== empty) assert.match(plan, /parallel 2/, `${sql}\n${plan}`);
      assertSame(got, want, sql);
    }
    const groups = await rows(engine, MANY[0][0]);
    // More groups than a worker's first hash table (1,024 pairs), a NULL key among them.
    assert.ok(groups.length > 100_000, `${groups.length} groups`);
    assert.ok(groups.some((r) => r[0] === null), "a NULL group");
    assert.equal((await rows(engine, empty)).length, 0);
  });
});

Deno.test("a GROUP BY of too many groups on the workers fails with the memory limit error", async () => {
  const small = 2 * 1024 * 1024;
  await withEngine(async (engine) => {
    const sql = "SELECT u, count(*) FROM t GROUP BY u";
    // As hash partitions (the plan's choice) and as morsels merged here (forced).
    assert.match(await explain(engine, sql), /radix 2/);
    await assertMemoryLimitError(rows(engine, sql), small);
    groupEstimate.share = Infinity;
    assert.match(await explain(engine, sql), /parallel 2/);
    await assertMemoryLimitError(rows(engine, sql), small);
    // The engine carries on: few groups fit.
    assert.equal((await rows(engine, "SELECT k, count(*) FROM t GROUP BY k")).length, 10);
  }, small);
});
