/**
 * GROUP BY one SYMBOL with several aggregates on the WASM kernels (fast_aggregate.ts, the
 * keyedFold kernel: up to four value columns per pass, extremes only where min/max/avg(LONG)
 * need them) against the row-at-a-time reference: every measure type (DOUBLE, FLOAT, LONG,
 * INT), more value columns than one pass takes, NULL values and NULL keys, filters (selection
 * vectors), intervals, several partitions, empty results, an empty table, avg() of LONGs
 * whose sum passes 2^63, and aggregates with FILTER (WHERE ...) (shared, symbol and numeric
 * conditions, none passing). Doubles agree within 1e-9 relative (the kernels add per partition).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rng } from "../../fuzz/prng.ts";
import { bothWays } from "../_result_rows.ts";

const close = (a: unknown, b: unknown): boolean => {
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return a === b;
};

function assertSameRows(got: unknown[][], want: unknown[][], label: string): void {
  assert.equal(got.length, want.length, `${label}: row count`);
  got.forEach((row, i) => {
    row.forEach((cell, j) => {
      assert.ok(
        close(cell, want[i][j]),
        `${label}: row ${i} column ${j}: ${String(cell)} vs ${String(want[i][j])}`,
      );
    });
  });
}

const AGGS = [
  "count(*)",
  "count(d)",
  "sum(d)",
  "avg(d)",
  "min(d)",
  "max(d)",
  "sum(f)",
  "avg(f)",
  "min(f)",
  "max(f)",
  "sum(l)",
  "avg(l)",
  "min(l)",
  "max(l)",
  "count(i)",
  "sum(i)",
  "avg(i)",
  "min(i)",
  "max(i)",
  "sum(d2)",
  "avg(big)",
  "sum(big)",
  "max(big)",
];

Deno.test("keyed GROUP BY symbol with many aggregates on keyedFold equals the row path", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_keyed_fold_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, d DOUBLE, f FLOAT, l LONG, i INT, d2 DOUBLE, big LONG) " +
        "TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await engine.execute(
      "CREATE TABLE empty AS (SELECT * FROM t) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const r = rng(16);
    const nul = () => r.chance(0.15);
    const literals: string[] = [];
    for (let n = 0; n < 1500; n++) {
      const day = 1 + r.int(4);
      const ts = `'2024-01-0${day}T${String(r.int(24)).padStart(2, "0")}:00:00.${
        String(n).padStart(6, "0")
      }Z'`;
      // Keys k5 and k6 only on some days; some keys' values are all NULL in a column.
      const key = nul() ? "NULL" : `'k${day === 1 ? r.int(7) : r.int(5)}'`;
      const allNull = key === "'k4'";
      literals.push(`(${ts}, ${key}, ${
        [
          nul() ? "NULL" : r.pick(["0.0", "-0.0", (r.next() * 200 - 100).toFixed(3)]),
          nul() || allNull ? "NULL" : (r.next() * 10 - 5).toFixed(2),
          nul() ? "NULL" : String(r.int(1000) - 500),
          nul() || allNull ? "NULL" : String(r.int(2_000_000_000) - 1_000_000_000),
          nul() ? "NULL" : (r.next() * 1e6).toFixed(1),
          // Near 2^62: the kernel's 64-bit sum wraps; avg() recovers the exact sum.
          nul()
            ? "NULL"
            : r.pick(["4611686018427387904", "4611686018427387000", "-5", "4000000000000000007"]),
        ].join(", ")
      })`);
    }
    for (let i = 0; i < literals.length; i += 300) {
      await engine.execute(`INSERT INTO t VALUES ${literals.slice(i, i + 300).join(", ")}`, adminSession());
    }
    const select = `SELECT s, ${AGGS.join(", ")}`;
    const queries = [
      `${select} FROM t GROUP BY s ORDER BY s`,
      `${select} FROM t WHERE d > 0 GROUP BY s ORDER BY s`,
      `${select} FROM t WHERE i < 0 OR l > 200 GROUP BY s ORDER BY s`,
      `${select} FROM t WHERE ts IN '2024-01-02' GROUP BY s ORDER BY s`,
      `${select} FROM t WHERE d > 1e300 GROUP BY s ORDER BY s`,
      `${select} FROM empty GROUP BY s ORDER BY s`,
      "SELECT s, min(f), max(i), count(*) FROM t GROUP BY s ORDER BY s",
      "SELECT s, count(*) FROM t WHERE f IS NULL GROUP BY s ORDER BY s",
      "SELECT s, sum(l), sum(i), sum(d), sum(f), sum(d2), sum(big) FROM t GROUP BY s ORDER BY s",
      // FILTER (WHERE ...): the passing rows fold apart; groups exist by the unfiltered rows.
      "SELECT s, count(*) FILTER (WHERE d > 0), avg(d), sum(l) FILTER (WHERE d > 0), " +
      "min(f) FILTER (WHERE i < 0 OR l > 100), max(i) FILTER (WHERE i < 0 OR l > 100), count(*) FROM t " +
      "GROUP BY s ORDER BY s",
      "SELECT s, count(*) FILTER (WHERE s IN ('k1', 'k2')), avg(big) FILTER (WHERE l > 0), " +
      "sum(d2) FILTER (WHERE d IS NULL), count(d) FILTER (WHERE NOT (f > 0)) FROM t WHERE i > -400 " +
      "GROUP BY s ORDER BY s",
      "SELECT s, count(*) FILTER (WHERE d > 1e300), sum(d) FILTER (WHERE d > 1e300), max(l) FROM t " +
      "GROUP BY s ORDER BY s",
      `SELECT s, ${AGGS.map((a) => `${a} FILTER (WHERE l BETWEEN -200 AND 300)`).join(", ")} FROM t ` +
      "GROUP BY s ORDER BY s",
    ];
    for (const sql of queries) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.match(plan, /wasm kernels/, sql);
      assertSameRows(got, want, sql);
    }
    // The data reaches every case: several groups, a NULL key, a key whose FLOAT/INT are all NULL.
    const { got } = await bothWays(engine, `${select} FROM t GROUP BY s ORDER BY s`);
    assert.ok(got.length >= 7, `groups: ${got.length}`);
    assert.ok(got.some((row) => row[0] === null), "a NULL key group");
    const k4 = got.find((row) => row[0] === "k4")!;
    assert.equal(k4[1 + AGGS.indexOf("min(f)")], null);
    assert.equal(k4[1 + AGGS.indexOf("count(i)")], 0n);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the keyed WASM aggregate's SYMBOL key is the table's codes and dictionary; joins on it agree", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_keyed_fold_codes_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024, parallelWorkers: 0 });
  try {
    await engine.execute(
      "CREATE TABLE q AS (SELECT timestamp_sequence('2024-01-01', 60000000L) ts, " +
        "rnd_symbol('a','b','c',NULL) s, rnd_double() * 100 bid FROM long_sequence(400)) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await engine.execute(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 30000000L) ts, " +
        "rnd_symbol('c','b','a','d',NULL) s, rnd_double() * 100 price FROM long_sequence(900)) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const inner = "SELECT s, max(bid) mb FROM q GROUP BY s";
    const out = await engine.execute(inner, adminSession());
    assert.equal(out.kind, "rows");
    if (out.kind === "rows") {
      for await (const b of out.batches) {
        // Codes with the dictionary, as a scan gives them (text per row made joins and GROUP BYs
        // above hash a string a row); NULL is the NULL key.
        assert.ok(b.columns[0].data instanceof Int32Array, "key as codes");
        assert.ok(b.columns[0].dict !== undefined, "key with its dictionary");
      }
    }
    for (
      const sql of [
        `SELECT d.s, count(*), avg(t.price) FROM t JOIN (${inner}) d ON t.s = d.s ` +
        "WHERE t.price > d.mb * 0.5 GROUP BY d.s ORDER BY d.s",
        `SELECT t.s, d.s, count(*) FROM t LEFT JOIN (${inner}) d ON t.s = d.s GROUP BY t.s, d.s ORDER BY 1, 2`,
        `SELECT s, mb FROM (${inner}) ORDER BY s DESC`,
      ]
    ) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.match(plan, /wasm kernels/, sql);
      assertSameRows(got, want, sql);
      assert.ok(got.length >= 3, `${sql}: ${got.length} rows`);
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
