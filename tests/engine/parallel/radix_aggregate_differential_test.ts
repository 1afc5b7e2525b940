/**
 * Two-phase radix aggregation on the workers (engine/exec/vector/hash_radix.ts) against the
 * row-at-a-time reference: many groups over every key type the workers group (SYMBOL, STRING,
 * VARCHAR, CHAR, BOOLEAN, BYTE, SHORT, INT, LONG, DATE, TIMESTAMP, FLOAT, DOUBLE), NULL keys,
 * -0 beside 0, count(DISTINCT), a WHERE, SELECT DISTINCT, no rows; the rows in the reference's
 * order (first appearance). A GROUP BY past query.memory.limit fails with the limit error and
 * the engine carries on.
 */
import assert from "node:assert/strict";
import type { Engine } from "../../../engine/mod.ts";
import { bothWays } from "../_result_rows.ts";
import { assertSame, explain, rows, run } from "./_parallel_util.ts";
import { assertMemoryLimitError, withTunedEngine } from "./_tuned_engine.ts";

const ROWS = 40_000;

async function makeTable(engine: Engine): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 9_000_000L) ts, " +
      "rnd_symbol('a','b','c','d','e',null) sym, rnd_str('x','yy','zzz',null) str, " +
      "rnd_str('p','q','r',null)::varchar vc, rnd_char() ch, rnd_boolean() b, rnd_byte() bt, " +
      "rnd_short() sh, rnd_int(0, 20000, 3) i, x n, " +
      "CASE WHEN x % 11 = 0 THEN NULL ELSE x % 9000 END l, " +
      "rnd_date(to_date('2020', 'yyyy'), to_date('2024', 'yyyy'), 2) dt, " +
      "CASE WHEN x % 17 = 0 THEN -0.0 WHEN x % 19 = 0 THEN 0.0 WHEN x % 23 = 0 THEN NULL " +
      "ELSE x % 7000 / 4.0 END d, rnd_float(3) f " +
      `FROM long_sequence(${ROWS})) TIMESTAMP(ts) PARTITION BY DAY`,
  );
}

/** Runs `fn` on a 2-worker engine that takes radix aggregation, with 4K-row morsels. */
function withEngine(fn: (e: Engine) => Promise<void>, queryMemoryBytes?: number): Promise<void> {
  return withTunedEngine({ prefix: "qdb_radix_", morselRows: 4096, setUp: makeTable, queryMemoryBytes }, fn);
}

/** Many groups a morsel: each of these runs as radix aggregation. */
const RADIX = [
  "SELECT l, sym, count(*), sum(i), avg(d), min(f), max(ts), count(d) FROM t GROUP BY l, sym",
  "SELECT i, count(*), sum(l), max(dt), min(bt) FROM t GROUP BY i",
  "SELECT d, count(*), sum(f) FROM t GROUP BY d",
  "SELECT f, b, count(*) FROM t GROUP BY f, b",
  "SELECT str, l, bt, count(*) FROM t GROUP BY str, l, bt",
  "SELECT vc, sh, ch, count(*), min(l) FROM t GROUP BY vc, sh, ch",
  "SELECT dt, count(*), max(i), avg(sh) FROM t GROUP BY dt",
  "SELECT ts, sum(d), min(i) FROM t GROUP BY ts",
  "SELECT DISTINCT l, sym FROM t",
  "SELECT DISTINCT d, vc FROM t",
  "SELECT l, count(DISTINCT sym), count(DISTINCT i) FROM t GROUP BY l",
  "SELECT l, count(*), sum(d) FROM t WHERE i > 5000 GROUP BY l",
  "SELECT count(*), sum(n) FROM (SELECT l, sym, count(*) n FROM t GROUP BY l, sym)",
];

Deno.test("radix aggregation over every key type equals the row reference, in its order", async () => {
  await withEngine(async (engine) => {
    for (const sql of RADIX) {
      const jobs = engine.parallel.jobs;
      const { got, want, plan } = await bothWays(engine, sql);
      assert.match(plan, /radix 2/, `${sql}\n${plan}`);
      assert.equal(engine.parallel.jobs, jobs + 1, `${sql}: ran on the workers`);
      assert.ok(want.length >= 1, `${sql}: ${want.length} rows`);
      assertSame(got, want, sql);
    }
    // NULL keys and -0 (grouped with 0, shown as the first row had it) came through.
    const byD = await rows(engine, "SELECT d, count(*) FROM t GROUP BY d");
    assert.ok(byD.some((r) => r[0] === null), "a NULL double key");
    assert.equal(byD.filter((r) => r[0] === 0).length, 1, "-0 and 0 one group");
    const bySym = await rows(engine, "SELECT l, sym, count(*) FROM t GROUP BY l, sym");
    assert.ok(
      bySym.some((r) => r[0] === null) && bySym.some((r) => r[1] === null),
      "NULL long and symbol keys",
    );
  });
});

Deno.test("radix aggregation with a worker of no groups, and of no rows at all, answers as the reference", async () => {
  await withEngine(async (engine) => {
    // Five DAY partitions, morsels by partition (p % 2): only days 1, 3 and 5 pass, so the
    // worker of partitions 1 and 3 folds no group.
    const oneSide = "SELECT n, l, count(*), sum(d) FROM t WHERE day(ts) IN (1, 3, 5) GROUP BY n, l";
    const { got, want, plan } = await bothWays(engine, oneSide);
    assert.match(plan, /radix 2/, `${oneSide}\n${plan}`);
    assert.ok(want.length > 20_000, `${want.length} rows`);
    assertSame(got, want, oneSide);
    // No rows at all (the plan saw none pass: morsels on the workers, no groups either way).
    const none = "SELECT l, count(*), sum(d) FROM t WHERE i < -5 GROUP BY l";
    const empty = await bothWays(engine, none);
    assert.equal(empty.want.length, 0);
    assert.deepEqual(empty.got, empty.want);
  });
});

Deno.test("radix aggregation past query.memory.limit fails with the limit error; the engine carries on", async () => {
  const limit = 1024 * 1024;
  await withEngine(async (engine) => {
    const sql = "SELECT ts, count(*) FROM t GROUP BY ts";
    assert.match(await explain(engine, sql), /radix 2/);
    for (let attempt = 0; attempt < 2; attempt++) {
      await assertMemoryLimitError(rows(engine, sql), limit);
    }
    // Few groups fit; a radix job that fits still answers as the reference does.
    assert.equal((await rows(engine, "SELECT b, count(*) FROM t GROUP BY b")).length, 2);
    const small = "SELECT l, count(*) FROM t WHERE i < 300 GROUP BY l";
    const { got, want } = await bothWays(engine, small);
    assert.ok(want.length > 100);
    assertSame(got, want, small);
  }, limit);
});
