/**
 * Issue #16: OR / AND / NOT of kernel comparisons run as selection-vector kernels
 * (kernel_predicates.ts runPred: the table-scan aggregates of fast_aggregate.ts, the filter
 * operator and the worker heaps' hash aggregation through filter.ts kernelSelect), and
 * count(DISTINCT s) / count_distinct(s) of a SYMBOL column beside plain aggregates on the WASM
 * kernels (a bitmap of the visited keys per heap). Every query is compared with the
 * row-at-a-time reference (bothWays) over a table full of NULLs (NULL keys, NULL values, NULL
 * in OR branches and in constants), over an empty table, and on the main heap and on two
 * worker heaps that take every scan.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { bothWays, explain, resultKey, rows } from "../_result_rows.ts";
import { withTempEngine } from "../_temp_engine.ts";

const OR_FILTERS = [
  "d < 0.1 OR i > 900",
  "d < 0.1 OR i > 900 OR s = 'k3'",
  "(i BETWEEN 10 AND 400) OR (d > 50 AND l < 0)",
  "s IN ('k1', 'k2') OR d IS NULL",
  "s = NULL OR i = NULL",
  // Branches selecting mostly the same rows: their merges add up to more rows than the batch.
  "s = 'k1' OR s IS NULL OR s != 'k2'",
  "i > -900 OR d > -90 OR l > -45",
  "d >= NULL OR i > 0",
  "NOT (d < 0.1 OR i > 900)",
  "NOT (i BETWEEN 10 AND 400)",
  "i NOT BETWEEN -100 AND 100",
  "NOT (s = 'k1' OR s IS NULL) AND i > -500",
  "(s != 'k2' OR l > 10) AND NOT (d IS NULL)",
  "f < 2.5 OR sh > 40 OR b = 3",
  "ts < '2024-01-02' OR i < -900",
  "d < -1e300 OR i > 100000",
  // Symbol conditions of up to four keys compare keys (SIMD), larger ones use the key table.
  "s IN ('k1', 'k2', 'k3', 'k4', 'k5', 'k6') AND i > 0",
  "s NOT IN ('k1', 'zz', NULL)",
  "s IN ('zz', 'yy') OR i > 990",
  "s NOT IN ('zz') AND side IS NOT NULL AND s IN ('k0', 'k7', NULL, 'k3')",
  "s NOT IN ('k0', 'k1', 'k2', 'k3', 'k4') OR side = NULL",
  // A column's >= and <= run as one range scan: BETWEEN, both orders, empty, every type.
  "d BETWEEN -50 AND 50.5 AND l >= -10 AND l <= 10",
  "f <= 5 AND i > -900 AND f >= 2.5",
  "sh BETWEEN -10 AND 10 OR b >= 2 AND b <= 5",
  "i >= 300 AND i <= 200",
  "ts BETWEEN '2024-01-02' AND '2024-01-03T12:00:00' AND i >= -500 AND i <= 500",
];

const UNKEYED = [
  "sum(i), avg(d * e), count(DISTINCT s)",
  "max(d), avg(d), min(d * e), count(DISTINCT s)",
  "sum(d), max(i), avg(d * e), max(d - e), count(DISTINCT s)",
  "count(*), count_distinct(s)",
  "count(DISTINCT s)",
  "sum(d), sum(l), sum(d - e), avg(d), count(*)",
  "min(i), max(l), count(d), count(DISTINCT side), count(DISTINCT s)",
];

/** The shapes: unkeyed (WASM kernels), keyed by a SYMBOL (keyed kernels), keyed otherwise (hash). */
function queries(): string[] {
  const out: string[] = [];
  for (const aggs of UNKEYED) {
    out.push(`SELECT ${aggs} FROM t`);
    for (const f of OR_FILTERS) out.push(`SELECT ${aggs} FROM t WHERE ${f}`);
  }
  for (const f of OR_FILTERS) {
    out.push(`SELECT s, count(*), sum(i), max(d) FROM t WHERE ${f} GROUP BY s`);
    out.push(`SELECT i % 7 k, side, count(*), avg(d), min(l) FROM t WHERE ${f} GROUP BY i % 7, side`);
    out.push(`SELECT ts, i, d FROM t WHERE ${f} ORDER BY ts, i LIMIT 20`);
  }
  // FILTER (WHERE ...) aggregates and DISTINCT aggregates of other types stay on other operators.
  out.push("SELECT count(DISTINCT s) FILTER (WHERE i > 0), sum(d) FROM t WHERE d < 0.1 OR i > 900");
  out.push("SELECT count(DISTINCT i), sum(d) FROM t WHERE NOT (d < 0.1 OR i > 900)");
  out.push("SELECT side, count(DISTINCT s), sum(d) FROM t WHERE s = 'k1' OR i > 0 GROUP BY side");
  // avg of LONGs near 2^62 beside DISTINCT: their mean, never a wrapped 64-bit sum divided.
  out.push("SELECT avg(w), count(DISTINCT s) FROM t WHERE w > 0 OR i < 0");
  return out;
}

function rowLiterals(day: number, n: number, seed: number): string {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const nul = () => rnd() < 0.15;
  const out: string[] = [];
  for (let r = 0; r < n; r++) {
    const ts = new Date(Date.UTC(2024, 0, day) + Math.floor((r * 86_400_000) / n)).toISOString();
    const s = nul() ? "NULL" : `'k${Math.floor(rnd() * 8)}'`;
    const side = nul() ? "NULL" : rnd() < 0.5 ? "'buy'" : "'sell'";
    const i = nul() ? "NULL" : String(Math.floor(rnd() * 2000) - 1000);
    const l = nul() ? "NULL" : String(Math.floor(rnd() * 100) - 50);
    const d = nul() ? "NULL" : rnd() < 0.05 ? "0.05" : (rnd() * 200 - 100).toFixed(3);
    const f = nul() ? "NULL" : (rnd() * 10).toFixed(2);
    const e = nul() ? "NULL" : (rnd() * 10 - 5).toFixed(2);
    const sh = String(Math.floor(rnd() * 100) - 50);
    const b = String(Math.floor(rnd() * 10));
    // Near 2^62: an avg over these must not divide a wrapped 64-bit sum.
    const w = nul() ? "NULL" : rnd() < 0.5 ? "4611686018427387904" : String(Math.floor(rnd() * 1000));
    out.push(`('${ts}', ${s}, ${side}, ${i}, ${l}, ${d}, ${f}, ${sh}, ${b}, ${w}, ${e})`);
  }
  return out.join(", ");
}

/** Doubles within 1e-9 relative (kernels add in another order); rows as multisets. */
function assertSameRows(got: unknown[][], want: unknown[][], what: string): void {
  assert.equal(got.length, want.length, `${what}: row count`);
  const norm = (rs: unknown[][]) =>
    rs.map((r) => r.map((v) => (typeof v === "number" && Number.isFinite(v) ? Number(v.toPrecision(9)) : v)))
      .map(resultKey).sort();
  const g = norm(got), w = norm(want);
  for (let i = 0; i < g.length; i++) assert.equal(g[i], w[i], `${what}: row ${i}`);
}

async function checkAll(engine: Engine, label: string): Promise<void> {
  for (const sql of queries()) {
    const { got, want } = await bothWays(engine, sql);
    assertSameRows(got, want, `${label}: ${sql}`);
  }
}

for (const workers of [0, 2]) {
  Deno.test(`OR/NOT kernel filters and count(DISTINCT symbol) equal the reference (${workers} workers)`, async () => {
    const root = await Deno.makeTempDir({ prefix: "qdb_or_distinct_" });
    const engine = await Engine.open({
      root,
      cacheBytes: 32 * 1024 * 1024,
      parallelWorkers: workers,
      parallelValuesMin: workers ? 1 : undefined,
    });
    const exec = (sql: string) => engine.execute(sql, adminSession());
    try {
      await exec(
        "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, side SYMBOL, i INT, l LONG, d DOUBLE, f FLOAT, sh SHORT, " +
          "b BYTE, w LONG, e DOUBLE) TIMESTAMP(ts) PARTITION BY DAY",
      );
      await checkAll(engine, "empty");
      assert.deepEqual(await rows(engine, "SELECT count(DISTINCT s), sum(d) FROM t WHERE d < 0.1 OR i > 9"), [
        [
          0n,
          null,
        ],
      ]);
      for (let day = 1; day <= 4; day++) await exec(`INSERT INTO t VALUES ${rowLiterals(day, 1500, day)}`);
      // A day of NULL symbols only: its keys add nothing to count(DISTINCT s).
      await exec(
        "INSERT INTO t VALUES ('2024-01-05T01:00:00', NULL, NULL, 5, 5, 0.01, 1.0, 1, 1, 1, 2.0), " +
          "('2024-01-05T02:00:00', NULL, 'buy', 950, NULL, NULL, NULL, 2, 2, NULL, NULL)",
      );
      // The plain and DISTINCT aggregates share the kernels' scan; EXPLAIN names it.
      for (const aggs of UNKEYED) {
        for (const f of ["", " WHERE d < 0.1 OR i > 900", " WHERE NOT (d < 0.1 OR s = 'k1')"]) {
          const sql = `SELECT ${aggs} FROM t${f}`;
          const plan = await explain(engine, sql);
          assert.match(plan, /GroupBy values: .* \[wasm kernels/, sql);
          if (/DISTINCT|count_distinct/.test(aggs)) {
            assert.match(plan, /wasm kernels, distinct symbol keys/, sql);
          } else assert.doesNotMatch(plan, /distinct/, sql);
        }
      }
      await checkAll(engine, "loaded");
      assert.deepEqual(
        await rows(engine, "SELECT count(DISTINCT s), count(*) FROM t WHERE ts >= '2024-01-05'"),
        [[0n, 2n]],
      );
      await exec("UPDATE t SET s = 'k9' WHERE i = 7");
      await exec("DELETE FROM t WHERE i = 8");
      await checkAll(engine, "after UPDATE and DELETE");
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}

/**
 * ANDs of kernel conditions (refinements of one selection vector, range pairs merged into one
 * scan) over partitions whose selective conjunct changes from day to day (day 1: few `a`, day 2:
 * few `b`, day 3: few `c`), plain, grouped and ordered, with NULLs: each answer must equal the
 * reference.
 */
for (const workers of [0, 2]) {
  Deno.test(`AND conjuncts with changing selectivity equal the reference (${workers} workers)`, async () => {
    const options = {
      prefix: "qdb_and_order_",
      cacheBytes: 32 * 1024 * 1024,
      parallelWorkers: workers,
      parallelValuesMin: workers ? 1 : undefined,
    };
    await withTempEngine(options, async (engine) => {
      const exec = (sql: string) => engine.execute(sql, adminSession());
      await exec(
        "CREATE TABLE o (ts TIMESTAMP, s SYMBOL, a INT, b LONG, c DOUBLE) TIMESTAMP(ts) PARTITION BY DAY",
      );
      for (let day = 1; day <= 3; day++) {
        const values: string[] = [];
        for (let r = 0; r < 2000; r++) {
          const ts = new Date(Date.UTC(2024, 0, day) + r * 40_000).toISOString();
          // The day's selective column passes 1 row in 50, the others 9 in 10; some NULLs.
          const pass = (col: number) => (col === day ? r % 50 === 1 : r % 10 !== 0);
          const a = r % 97 === 0 ? "NULL" : pass(1) ? "1" : "0";
          const b = pass(2) ? "1" : "0";
          const c = r % 89 === 0 ? "NULL" : pass(3) ? "1.5" : "0.5";
          values.push(`('${ts}', 'k${r % 5}', ${a}, ${b}, ${c})`);
        }
        await exec(`INSERT INTO o VALUES ${values.join(", ")}`);
      }
      for (
        const where of [
          "a = 1 AND b = 1 AND c > 1",
          "c > 1 AND s IN ('k1', 'k2', 'k3', 'k4') AND b = 1 AND a = 1",
          "(a = 1 OR s = 'k0') AND b >= 1 AND b <= 1 AND NOT (c < 1)",
        ]
      ) {
        for (
          const sql of [
            `SELECT count(*), sum(a), sum(c) FROM o WHERE ${where}`,
            `SELECT s, count(*), max(ts) FROM o WHERE ${where} GROUP BY s`,
            `SELECT ts, s, a, b, c FROM o WHERE ${where} ORDER BY ts`,
          ]
        ) {
          const { got, want } = await bothWays(engine, sql);
          assertSameRows(got, want, sql);
          assert.ok(want.length > 0, sql);
        }
      }
    });
  });
}
