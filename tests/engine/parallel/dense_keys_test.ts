/**
 * Dense keys on the workers (engine/exec/vector/dense_groups.ts): aggregations and DISTINCTs
 * whose keys all have small domains (SYMBOL codes, BOOLEAN, BYTE, date parts, integer `% c`)
 * group each morsel in one fused loop. EXPLAIN must show `dense keys`, and the answers must
 * equal the main thread's vectorized operators row for row (the same first-appearance order)
 * and the row-by-row reference as sets, with NULL keys (a NULL timestamp's hour, a NULL INT's
 * remainder, NULL symbols), NULL arguments, groups of only NULL arguments, filters matching
 * nothing and an empty table.
 */
import assert from "node:assert/strict";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { hashTuning } from "../../../engine/parallel/worker_pool.ts";
import {
  assertSame,
  explain,
  parallelEngine,
  rows,
  rowsWithJobs,
  run,
  singleEngine,
} from "./_parallel_util.ts";

/** [query, whether the plan chooses dense keys]. */
const SHAPES: [string, boolean][] = [
  ["SELECT hour(t2) k0, s k1, count(*), sum(d), min(i * 2 + 1), max(l) FROM t GROUP BY hour(t2), s", true],
  ["SELECT day_of_week(ts) k0, side k1, min(d), count(*), max(i), avg(i) FROM t GROUP BY 1, 2", true],
  [
    "SELECT day_of_week(ts) k0, side k1, avg(i * 2 + 1), count(*), min(i), sum(d * f) FROM t " +
    "WHERE side = 'sell' GROUP BY day_of_week(ts), side",
    true,
  ],
  ["SELECT side k0, hour(ts) k1, s k2, count(*), avg(d - f), max(d) FROM t GROUP BY 1, 2, 3", true],
  ["SELECT s, avg(i * 2 + 1), sum(f), sum(i), sum(l * 3), count(l) FROM t GROUP BY s", true],
  ["SELECT i % 7 m, l % 3 n, count(*), sum(l), min(ts), max(t2) FROM t GROUP BY m, n", true],
  ["SELECT flag, b, month(ts) mo, count(*), sum(b), max(f), min(f) FROM t GROUP BY flag, b, mo", true],
  // Only NULL arguments in some groups (nn is NULL wherever s is 'c' or NULL).
  ["SELECT s, side, count(nn), sum(nn), avg(nn), min(nn), max(nn) FROM t GROUP BY s, side", true],
  ["SELECT minute(t2) mi, second(ts) se, count(*) FROM t WHERE i > 900 GROUP BY mi, se", true],
  ["SELECT s, side, count(*), sum(d) FROM t WHERE s = 'no such symbol' GROUP BY s, side", true],
  // A WHERE the kernels do not take (the generated select loop, then a gathered batch).
  ["SELECT s, hour(ts) h, count(*), max(d - f) FROM t WHERE i * 2 > 100 OR s = 'a' GROUP BY s, h", true],
  ["SELECT DISTINCT hour(t2) k0, i % 7 k1 FROM t", true],
  ["SELECT DISTINCT s, side, flag FROM t WHERE d > 0.5", true],
  // FILTER clauses (NULL conditions count as false), on symbols and expressions.
  [
    "SELECT day_of_week(ts) k0, count(*), avg(d), count(*) FILTER (WHERE side = 'buy'), " +
    "sum(i) FILTER (WHERE d > 0.5), min(l) FILTER (WHERE s != 'b'), max(f) FILTER (WHERE i % 2 = 0) " +
    "FROM t GROUP BY day_of_week(ts)",
    true,
  ],
  // Not dense: a STRING key, count(DISTINCT), a key without a small domain.
  ["SELECT k, s, count(*) FROM t GROUP BY k, s", false],

  ["SELECT s, count(DISTINCT b) FROM t GROUP BY s", false],
  ["SELECT year(ts) y, s, count(*), sum(d) FROM t GROUP BY y, s", false],
];

/** Ten DAY partitions with NULLs in every nullable column. */
async function makeTable(engine: Awaited<ReturnType<typeof parallelEngine>>): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 14_000_000L) ts, " +
      "rnd_timestamp(to_timestamp('2024-01-01', 'yyyy-MM-dd'), to_timestamp('2024-12-31', 'yyyy-MM-dd'), 5) t2, " +
      "rnd_symbol('a','b','c',null) s, rnd_symbol('buy','sell') side, rnd_str('x','yy',null) k, " +
      "rnd_double(4) d, rnd_float(4) f, rnd_int(-1000, 1000, 4) i, rnd_long(-5_000_000_000, 5_000_000_000, 4) l, " +
      "rnd_boolean() flag, rnd_byte(-3, 3) b FROM long_sequence(62500)) TIMESTAMP(ts) PARTITION BY DAY",
  );
  await run(engine, "ALTER TABLE t ADD COLUMN nn DOUBLE");
  await run(engine, "UPDATE t SET nn = d * 10 WHERE s IN ('a', 'b')");
  await run(
    engine,
    "CREATE TABLE e (ts TIMESTAMP, s SYMBOL, i INT, d DOUBLE) TIMESTAMP(ts) PARTITION BY DAY",
  );
}

Deno.test("dense keys on the workers: the main thread's rows in its order, the reference's as sets", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_dense_keys_" });
  const morselRows = hashTuning.morselRows;
  // 62,500 rows in morsels of 4,096: every shape merges 16 partials.
  hashTuning.morselRows = 4096;
  try {
    const par = await parallelEngine(root);
    const got: unknown[][][] = [];
    try {
      await makeTable(par);
      for (const [sql, dense] of SHAPES) {
        const plan = await explain(par, sql).catch((e) => assert.fail(`${sql}: ${e}`));
        assert.match(plan, /parallel 2/, `${sql}\n${plan}`);
        if (dense) assert.match(plan, /parallel 2, dense keys\]/, `${sql}\n${plan}`);
        else assert.doesNotMatch(plan, /dense keys/, `${sql}\n${plan}`);
        got.push(await rowsWithJobs(par, sql, 1));
      }
      // An empty table scans no rows: the main thread answers (with its own dense ids since
      // ee0611c), not the workers' dense loop.
      const empty = "SELECT s, i % 7 m, count(*), sum(d) FROM e GROUP BY s, m";
      assert.doesNotMatch(await explain(par, empty), /parallel/);
      assert.deepEqual(await rows(par, empty), []);
    } finally {
      await par.close();
    }
    const single = await singleEngine(root);
    try {
      for (let q = 0; q < SHAPES.length; q++) {
        const sql = SHAPES[q][0];
        // One heap: no workers (its own dense ids may show, ee0611c).
        assert.doesNotMatch(await explain(single, sql), /parallel/);
        assertSame(got[q], await rows(single, sql), sql);
        setReferenceExecution(true);
        try {
          assertSame(sorted(got[q]), sorted(await rows(single, sql)), `${sql} (reference)`);
        } finally {
          setReferenceExecution(false);
        }
      }
    } finally {
      await single.close();
    }
    // The shapes exercise what they claim.
    const of = (part: string) => got[SHAPES.findIndex(([q]) => q.includes(part))];
    assert.ok(of("hour(t2) k0, s k1").some((r) => r[0] === null && r[1] === null), "NULL hour and symbol");
    assert.ok(of("i % 7 m, l % 3").some((r) => r[0] === null), "a NULL remainder key");
    assert.ok(
      of("count(nn)").some((r) => r[2] === 0n && r[3] === null && r[5] === null),
      "only NULL arguments",
    );
    assert.ok(of("count(nn)").some((r) => (r[2] as bigint) > 0n), "some arguments");
    assert.equal(of("no such symbol").length, 0);
    assert.equal(of("DISTINCT hour(t2)").length, 25 * 14, "every hour and remainder, and NULLs");
  } finally {
    hashTuning.morselRows = morselRows;
    await Deno.remove(root, { recursive: true });
  }
});

function sorted(rs: unknown[][]): unknown[][] {
  const key = (r: unknown[]) => JSON.stringify(r, (_k, v) => typeof v === "bigint" ? `${v}n` : v);
  return [...rs].sort((a, b) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}
