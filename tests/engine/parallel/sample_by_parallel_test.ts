/**
 * SAMPLE BY's fast paths as morsels on the worker heaps (engine/exec/sample_by_parallel.ts):
 * every query runs on an engine whose workers take it (morsels and worker slices lowered to a
 * few hundred rows, so buckets are cut at morsel, slice and partition edges) and on an engine
 * without workers; the rows must be the same in the same order. Keyed and unkeyed, fills,
 * calendar alignment with time zones and offsets, FIRST OBSERVATION, FROM/TO, intervals,
 * months, NULL keys and values. EXPLAIN names the choice. Also: cancel and timeout of a
 * SAMPLE BY whose morsels run on the workers.
 */
import assert from "node:assert/strict";
import { adminSession, type Engine } from "../../../engine/mod.ts";
import { sampleByTuning } from "../../../engine/exec/sample_by_parallel.ts";
import { assertSame, explain, parallelEngine, rows, run, singleEngine } from "./_parallel_util.ts";

const KEYED_AGGS = "count(), count(d), sum(d), avg(d), min(d), max(d), first(d), last(d), sum(f), min(f), " +
  "last(f), sum(i), max(i), first(i), avg(i), sum(l), min(l), last(l), count(l)";
const UNKEYED_AGGS =
  "count(), sum(d), avg(d), min(d), max(d), first(d), last(d), sum(i), min(i), last(l), avg(i), avg(l)";

const KEYED: string[] = [
  "1d",
  "3h",
  "7m",
  "1M",
  "1h ALIGN TO CALENDAR TIME ZONE 'Europe/Berlin'",
  "90m ALIGN TO CALENDAR WITH OFFSET '00:17'",
  "45m ALIGN TO FIRST OBSERVATION",
  "1h FROM '2024-04-01' TO '2024-04-03'",
].map((by) => `SELECT ts, s, ${KEYED_AGGS} FROM t SAMPLE BY ${by}`).concat(
  // avg of a LONG column (without its sum()): exact sums recovered from the kernels' wrapped ones.
  "SELECT ts, s, avg(l), max(l), count(l) FROM t SAMPLE BY 3h",
  // FILTER conditions (numeric comparisons) reduce selected rows on the workers too.
  "SELECT ts, s, count() FILTER (WHERE d > 0.5), avg(i) FILTER (WHERE d > 0.5), sum(d) FILTER (WHERE i < 0 OR l > 0), " +
    "max(l) FILTER (WHERE NOT (f < 0.5)), avg(l) FILTER (WHERE i != 0), count() FROM t SAMPLE BY 2h ALIGN TO CALENDAR TIME ZONE 'Europe/Berlin'",
);

const UNKEYED: string[] = [
  "2h",
  "1d",
  "1M",
  "30m ALIGN TO CALENDAR TIME ZONE 'America/New_York'",
  "1h ALIGN TO FIRST OBSERVATION",
  "1h FILL(NULL)",
  "1h FILL(PREV)",
  "1h FILL(LINEAR)",
  `1h FILL(${Array(12).fill("0").join(", ")})`,
  "1h FROM '2024-03-29' TO '2024-04-12' FILL(NULL)",
  "2h ALIGN TO CALENDAR WITH OFFSET '00:40' FILL(PREV)",
].map((by) => `SELECT ts, ${UNKEYED_AGGS} FROM t SAMPLE BY ${by}`);

const WHERE: string[] = [
  // FILTER conditions on the unkeyed path (exact avg of LONG under a filter too).
  "SELECT ts, count() FILTER (WHERE d > 0.5), avg(l) FILTER (WHERE i < 0 OR d > 0.9), sum(d) FILTER (WHERE NOT (f < 0.5)), " +
  "count() FROM t SAMPLE BY 90m FILL(PREV)",
  `SELECT ts, s, ${KEYED_AGGS} FROM t WHERE ts > '2024-03-31T01:30' AND ts < '2024-04-04T07' SAMPLE BY 2h`,
  `SELECT ts, ${UNKEYED_AGGS} FROM t WHERE ts IN '2024-04-02' SAMPLE BY 5m`,
  // A range starting and ending within partitions: morsels are cut from the rows in range only.
  `SELECT ts, s, ${KEYED_AGGS} FROM t WHERE ts IN '2024-04-01T01:20;29h' SAMPLE BY 40m`,
  `SELECT ts, ${UNKEYED_AGGS} FROM t WHERE ts IN '2024-04-01T01:20;29h' SAMPLE BY 7m`,
];

/** 30,000 rows over ~11 days in HOUR partitions (small ones: morsels span several), NULLs. */
async function makeTable(engine: Engine): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-30T00:13', 31_777_777L) ts, " +
      "rnd_symbol('a','b','c','d',null) s, rnd_double(4) d, rnd_float(4) f, rnd_int(-1000, 1000, 4) i, " +
      "rnd_long(-100000, 100000, 4) l FROM long_sequence(30000)) TIMESTAMP(ts) PARTITION BY HOUR",
  );
}

Deno.test("parallel SAMPLE BY equals the main thread's, keyed and unkeyed, with fills, zones and edges", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_sbpar_" });
  const saved = { ...sampleByTuning };
  const all = [...KEYED, ...UNKEYED, ...WHERE];
  try {
    const par = await parallelEngine(root);
    // [morsel rows, worker slice rows]: uneven sizes cut buckets everywhere.
    const tunings = [[997, 331], [4_000, 65_536], [50_000, 7]];
    const results: unknown[][][][] = tunings.map(() => []);
    try {
      await makeTable(par);
      for (const sql of all) {
        assert.match(await explain(par, sql), /SampleBy \[(keyed )?wasm, parallel 2\]/, sql);
      }
      for (let t = 0; t < tunings.length; t++) {
        [sampleByTuning.morselRows, sampleByTuning.workerSliceRows] = tunings[t];
        for (const sql of all) {
          const jobs = par.parallel.jobs;
          results[t].push(await rows(par, sql));
          assert.equal(par.parallel.jobs, jobs + 1, `${sql}: ran on the workers`);
        }
      }
      // Outside the fast paths' shapes: stays on the main thread.
      for (
        const sql of [
          "SELECT ts, s, count() FROM t SAMPLE BY 1h FILL(NULL)",
          "SELECT ts, s, sum(d) FILTER (WHERE true) FROM t SAMPLE BY 1h",
          "SELECT ts, concat(s, 'x') k, count() FROM t SAMPLE BY 1h",
        ]
      ) {
        assert.doesNotMatch(await explain(par, sql), /parallel/, sql);
      }
    } finally {
      Object.assign(sampleByTuning, saved);
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      for (let q = 0; q < all.length; q++) {
        assert.doesNotMatch(await explain(single, all[q]), /parallel/);
        const expected = await rows(single, all[q]);
        assert.ok(expected.length >= 2, `${all[q]}: ${expected.length} rows`);
        for (let t = 0; t < tunings.length; t++) {
          assertSame(results[t][q], expected, `${tunings[t]}: ${all[q]}`);
        }
      }
    } finally {
      await single.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a SAMPLE BY whose morsels run on the workers is cancelled and timed out promptly", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_sbpar_cancel_" });
  try {
    const engine = await parallelEngine(root);
    try {
      await run(
        engine,
        "CREATE TABLE big AS (SELECT timestamp_sequence('2024-01-01', 1_728_000L) ts, rnd_symbol(300, 4, 4, 0) s, " +
          "rnd_double() d FROM long_sequence(2_000_000)) TIMESTAMP(ts) PARTITION BY DAY",
      );
      const sql = "SELECT count(*), sum(hi) FROM " +
        "(SELECT ts, s, first(d), max(d) hi, min(d), last(d), sum(d) FROM big SAMPLE BY 1m)";
      assert.match(await explain(engine, sql), /SampleBy \[(keyed )?wasm, parallel 2\]/);
      const t0 = performance.now();
      const expected = await rows(engine, sql);
      const full = performance.now() - t0;

      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(drain(engine, sql, { ...adminSession(), signal: controller.signal }), /cancelled/);
      const cancelMs = performance.now() - started;
      assert.ok(cancelMs < Math.max(400, full / 2), `cancel took ${cancelMs} ms (full run ${full} ms)`);

      const t1 = performance.now();
      await assert.rejects(drain(engine, sql, { ...adminSession(), timeoutMs: 50 }), /timeout/);
      const timeoutMs = performance.now() - t1;
      assert.ok(timeoutMs < Math.max(400, full / 2), `timeout took ${timeoutMs} ms (full run ${full} ms)`);

      // The workers serve the next statement with the same answer.
      assert.deepEqual(await rows(engine, sql), expected);
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

Deno.test("parallel unkeyed SAMPLE BY: avg of LONG is exact past 2^63 across morsels; sum wraps", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_sbpar_" });
  const saved = { ...sampleByTuning };
  try {
    const par = await parallelEngine(root);
    try {
      // Values near 4e18 (three sum past 2^63) and near -4e18 (wide ranges: rows summed again).
      await run(
        par,
        "CREATE TABLE big AS (SELECT timestamp_sequence('2024-03-30', 97_777_777L) ts, " +
          "CASE WHEN x % 7 = 0 THEN rnd_long(-4000000000000000000, 4000000000000000000, 0) " +
          "ELSE rnd_long(4000000000000000000, 4000000000000001000, 3) END l FROM long_sequence(8000)) " +
          "TIMESTAMP(ts) PARTITION BY HOUR",
      );
      const fast = "SELECT ts, avg(l), sum(l), count() FROM big SAMPLE BY 1d";
      const fill = "SELECT ts, avg(l) FROM big SAMPLE BY 6h FILL(NULL)";
      // Under a FILTER the passing rows' sums are recovered the same way.
      const filtered = "SELECT ts, avg(l) FILTER (WHERE l < 100), count() FROM big SAMPLE BY 1d";
      const slow = (sql: string) =>
        sql.includes("FILTER")
          ? sql.replace("l < 100", "l < 100 AND true")
          : sql.replace(/avg\(l\)/g, "avg(l) FILTER (WHERE true)");
      for (const sql of [fast, fill, filtered]) {
        assert.match(await explain(par, sql), /SampleBy \[(keyed )?wasm, parallel 2\]/, sql);
      }
      // 7-row unkeyed morsels (x8): every bucket's sum crosses many morsels.
      for (const morsel of [7, 262_144]) {
        sampleByTuning.morselRows = morsel;
        for (const sql of [fast, fill, filtered]) {
          const jobs = par.parallel.jobs;
          const got = await rows(par, sql);
          assert.equal(par.parallel.jobs, jobs + 1, `${sql}: ran on the workers`);
          const want = await rows(par, slow(sql));
          assert.ok(got.length >= 2, `${sql}: ${got.length} rows`);
          assertSame(got, want, `${morsel}-row morsels: ${sql}`);
        }
      }
    } finally {
      Object.assign(sampleByTuning, saved);
      await par.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
