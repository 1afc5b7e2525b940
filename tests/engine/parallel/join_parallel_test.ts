/**
 * Aggregates over an INNER or LEFT hash join whose probe runs on the workers
 * (engine/exec/vector/join_parallel.ts): each query runs on an engine that sends every scan to
 * the workers (EXPLAIN must show the parallel probe, the pool's job count that it ran there)
 * and on the row-at-a-time reference of an engine without workers; the rows must be the same.
 * The tables have NULL keys (NULL matches NULL in a join, spec/sql.md §11.2), duplicate build
 * keys, build symbols the probe lacks and the other way round, SYMBOL against STRING keys,
 * INT against LONG keys, an empty build side, and an ON condition's non-equality part.
 */
import assert from "node:assert/strict";
import { hashTuning } from "../../../engine/parallel/worker_pool.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { joinTuning } from "../../../engine/exec/vector/join_parallel.ts";
import {
  assertSame,
  explain,
  parallelEngine,
  rows,
  rowsWithJobs,
  run,
  singleEngine,
} from "./_parallel_util.ts";

/** [query, whether the workers probe it]. */
const QUERIES: [string, boolean][] = [
  // Two keys (SYMBOL of two dictionaries, INT with NULLs), a computed sum over both sides.
  ["SELECT count(*), sum(t.d - r.v), min(r.l), max(t.i) FROM t JOIN r ON t.s = r.s AND t.i = r.k", true],
  // LEFT: unmatched probe rows count once with NULL right columns.
  ["SELECT count(*), count(r.v), sum(r.l), avg(r.v) FROM t LEFT JOIN r ON t.i = r.k", true],
  ["SELECT count(*), count(r.v) FROM t LEFT JOIN r ON t.s = r.s AND t.i = r.k", true],
  // One SYMBOL key (per-code chains), duplicates in the build side, keys of either side.
  ["SELECT r.s, count(*), sum(t.d), max(r.v) FROM t JOIN r ON t.s = r.s GROUP BY r.s ORDER BY r.s", true],
  ["SELECT t.s, count(*), count(r.v) FROM t LEFT JOIN r ON t.s = r.s GROUP BY t.s ORDER BY t.s", true],
  // WHERE over both sides above the join, a key over a right column, as the survey's j3.
  [
    "SELECT d.s, count(*), avg(t.d) FROM t JOIN (SELECT s, max(v) mv FROM r GROUP BY s) d " +
    "ON t.s = d.s WHERE t.d > d.mv * 0.5 GROUP BY d.s ORDER BY d.s",
    true,
  ],
  // A build side unique per SYMBOL key (one row per value, NULL's too or not): no chains.
  [
    "SELECT t.s, count(*), count(d.mv), sum(d.mv) FROM t LEFT JOIN (SELECT s, max(v) mv FROM r " +
    "WHERE s != 'a' GROUP BY s) d ON t.s = d.s GROUP BY t.s ORDER BY t.s",
    true,
  ],
  [
    "SELECT d.s, count(*), min(t.i) FROM t JOIN (SELECT s, min(k) mk FROM r WHERE s IS NOT NULL " +
    "GROUP BY s) d ON t.s = d.s WHERE t.i > d.mk GROUP BY d.s ORDER BY d.s",
    true,
  ],
  // A right SYMBOL column compared with a text on the workers (stand-in codes of its dictionary).
  ["SELECT count(*), sum(t.d) FROM t JOIN r ON t.i = r.k WHERE r.s = 'b'", true],
  ["SELECT count(*) FROM t JOIN r ON t.i = r.k WHERE r.s = 'no such'", true],
  // The ON condition's rest on an INNER join: one more filter of the joined rows.
  ["SELECT count(*), sum(r.v) FROM t JOIN r ON t.i = r.k AND t.d > r.v", true],
  // STRING probe key against a SYMBOL build key; INT against LONG through a cast, on the row join
  // (QuestDB refuses a key of two types: 'join column type mismatch').
  ["SELECT count(*), sum(t.d) FROM t JOIN r ON t.str = r.s", true],
  ["SELECT count(*), sum(r.v) FROM t JOIN r ON t.i::LONG = r.l", false],
  // DOUBLE keys (NaN is NULL).
  ["SELECT count(*) FROM t LEFT JOIN r ON t.d = r.v", true],
  // An empty build side.
  ["SELECT count(*), sum(t.d) FROM t JOIN e ON t.s = e.s", true],
  ["SELECT count(*), count(e.v) FROM t LEFT JOIN e ON t.s = e.s", true],
  // A key of no known small domain (about a group per row) keeps the join on the main thread.
  ["SELECT t.d, count(*) FROM t JOIN r ON t.i = r.k GROUP BY t.d ORDER BY t.d", false],
  // RIGHT/FULL joins and LEFT joins with a condition stay with the single-heap join.
  ["SELECT count(*), count(t.d) FROM t RIGHT JOIN r ON t.i = r.k", false],
  ["SELECT count(*) FROM t LEFT JOIN r ON t.i = r.k AND t.d > r.v", false],
];

async function makeTables(engine: Parameters<typeof run>[0]): Promise<void> {
  // Eight DAY partitions; the probe's SYMBOL dictionary has values the build lacks and the
  // other way round, in another order. The doubles are multiples of 1/1024 (with NULLs), so
  // every sum of them is exact whatever order the workers and the row path add them in: with
  // rnd_double() values the ~400K-term sum(r.v) of the reference differed from the workers' by
  // up to 1.3e-12 relative, past assertSame's bound, in some runs.
  // Multiples of 1/64 on the build side meet the probe's on some rows (the DOUBLE-key join).
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 20_000_000L) ts, " +
      "rnd_symbol('a','b','c','x',null) s, rnd_int(0, 60, 5) i, rnd_int(0, 1000000, 6) / 1024.0 d, " +
      "rnd_str('a','b','zz',null) str FROM long_sequence(30000)) TIMESTAMP(ts) PARTITION BY DAY",
  );
  await run(
    engine,
    "CREATE TABLE r AS (SELECT timestamp_sequence('2024-03-01', 100_000_000L) ts, " +
      "rnd_symbol('c','b','y','a',null) s, rnd_int(0, 50, 4) k, rnd_int(0, 1000, 3) / 64.0 v, rnd_long(0, 40, 4) l " +
      "FROM long_sequence(300)) TIMESTAMP(ts) PARTITION BY DAY",
  );
  await run(engine, "CREATE TABLE e (ts TIMESTAMP, s SYMBOL, v DOUBLE) TIMESTAMP(ts) PARTITION BY DAY");
}

Deno.test("aggregates over a hash join probed on the workers equal the row reference", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_joinpar_" });
  const morselRows = hashTuning.morselRows;
  // 30,000 rows as morsels of 4,096: the partials merge in morsel order.
  hashTuning.morselRows = 4096;
  try {
    const par = await parallelEngine(root);
    const got: unknown[][][] = [];
    try {
      await makeTables(par);
      for (const [sql, probed] of QUERIES) {
        const text = await explain(par, sql);
        got.push(await rowsWithJobs(par, sql, probed ? 1 : undefined));
        if (probed) {
          assert.match(text, /Join \(vectorized hash, parallel probe\)/, `${sql}\n${text}`);
          assert.match(text, /GroupBy .*parallel 2/, `${sql}\n${text}`);
        } else {
          assert.doesNotMatch(text, /parallel probe/, `${sql}\n${text}`);
        }
      }
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      setReferenceExecution(true);
      for (let q = 0; q < QUERIES.length; q++) {
        const sql = QUERIES[q][0];
        assert.doesNotMatch(await explain(single, sql), /vectorized hash|parallel/);
        assertSame(got[q], await rows(single, sql), sql);
      }
    } finally {
      setReferenceExecution(false);
      await single.close();
    }
    // The data exercises what the queries claim.
    const of = (part: string) => got[QUERIES.findIndex(([q]) => q.includes(part))];
    assert.ok((of("GROUP BY t.s ORDER BY t.s")[0][0] as unknown) === null, "a NULL probe key group");
    assert.ok(
      of("GROUP BY t.s ORDER BY t.s").some((r) => r[0] === "x" && r[2] === 0n),
      "a probe symbol the build lacks (LEFT: right columns NULL)",
    );
    assert.deepEqual(of("FROM t JOIN e"), [[0n, null]], "an empty build side");
    assert.deepEqual(of("LEFT JOIN e"), [[30000n, 0n]], "LEFT join of an empty build side");
    assert.deepEqual(of("'no such'"), [[0n]], "a text the right dictionary lacks");
    assert.ok((of("JOIN r ON t.s = r.s AND t.i = r.k")[0][0] as bigint) > 0n, "two-key matches");
  } finally {
    hashTuning.morselRows = morselRows;
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a join that multiplies a morsel's rows past the share hands the statement back, same answer", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_joinpar_fanout_" });
  const morselRows = hashTuning.morselRows, joinedRowsMax = joinTuning.joinedRowsMax;
  hashTuning.morselRows = 4096;
  // Each probe row meets ~60 build rows of its symbol: a morsel joins ~245K rows.
  joinTuning.joinedRowsMax = 50_000;
  const sql = "SELECT count(*), sum(t.d), max(r.v) FROM t JOIN r ON t.s = r.s";
  try {
    const par = await parallelEngine(root);
    let got: unknown[][];
    try {
      await makeTables(par);
      // The plan's choice stands; the run hands back (no parallel job completes).
      assert.match(await explain(par, sql), /parallel probe/);
      const jobs = par.parallel.jobs;
      got = await rows(par, sql);
      assert.equal(par.parallel.jobs, jobs, "handed back to the main thread");
      joinTuning.joinedRowsMax = 10_000_000;
      assertSame(await rows(par, sql), got, `${sql} (on the workers)`);
      assert.equal(par.parallel.jobs, jobs + 1, "ran on the workers under a higher share");
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      setReferenceExecution(true);
      assertSame(got, await rows(single, sql), sql);
    } finally {
      setReferenceExecution(false);
      await single.close();
    }
  } finally {
    hashTuning.morselRows = morselRows;
    joinTuning.joinedRowsMax = joinedRowsMax;
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a build side with a bloom filter: probed on the workers, the row reference's answers", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_joinpar_bloom_" });
  const morselRows = hashTuning.morselRows;
  hashTuning.morselRows = 8192;
  // 80,000 build rows (a bloom filter from 65,536): keys x * 3 with NULLs, so that about a
  // third of the probe's keys match, ties of the SYMBOL key, a second key of either type;
  // values whose sums are exact in any order.
  const queries = [
    "SELECT count(*), sum(p.v), sum(b.w), min(b.w) FROM p JOIN b ON p.k = b.k",
    "SELECT count(*), sum(b.w), count(b.w) FROM p LEFT JOIN b ON p.k = b.k",
    "SELECT count(*), sum(p.v - b.w) FROM p JOIN b ON p.s = b.s AND p.k = b.k",
    "SELECT count(*), count(b.w) FROM p LEFT JOIN b ON p.s = b.s AND p.k = b.k",
    "SELECT count(*), count(b.w) FROM p LEFT JOIN b ON p.i = b.i AND p.d = b.d",
  ];
  const create = async (engine: Parameters<typeof run>[0]) => {
    await run(
      engine,
      "CREATE TABLE p AS (SELECT timestamp_sequence('2024-03-01', 10_000_000L) ts, " +
        "CASE WHEN x % 23 = 0 THEN NULL ELSE x END k, rnd_symbol('a','b','c',null) s, " +
        "rnd_int(0, 90000, 7) i, (x % 1000)::DOUBLE d, (x % 101)::DOUBLE v FROM long_sequence(20000)) " +
        "TIMESTAMP(ts) PARTITION BY DAY",
    );
    await run(
      engine,
      "CREATE TABLE b AS (SELECT CASE WHEN x % 29 = 0 THEN NULL ELSE x * 3 END k, " +
        "rnd_symbol('c','b','a',null) s, rnd_int(0, 90000, 5) i, (x % 997)::DOUBLE d, " +
        "(x % 37)::DOUBLE w FROM long_sequence(80000))",
    );
  };
  try {
    const par = await parallelEngine(root);
    const got: unknown[][][] = [];
    try {
      await create(par);
      for (const sql of queries) {
        assert.match(await explain(par, sql), /Join \(vectorized hash, parallel probe\)/, sql);
        got.push(await rowsWithJobs(par, sql, 1));
      }
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      // The single-heap vectorized join (its own probe of the same filter), then the reference.
      const vectorized = [];
      for (const sql of queries) vectorized.push(await rows(single, sql));
      setReferenceExecution(true);
      for (let q = 0; q < queries.length; q++) {
        const want = await rows(single, queries[q]);
        assertSame(got[q], want, queries[q]);
        assertSame(vectorized[q], want, `${queries[q]} (single heap)`);
      }
    } finally {
      setReferenceExecution(false);
      await single.close();
    }
    assert.ok((got[0][0][0] as bigint) > 5_000n, "matches");
    assert.ok((got[1][0][0] as bigint) > (got[1][0][2] as bigint), "LEFT rows without a match");
  } finally {
    hashTuning.morselRows = morselRows;
    await Deno.remove(root, { recursive: true });
  }
});
