/**
 * Aggregates of a column through + - * with constants (`min(l * 2 + 1)`, `sum(10 - l)`) fold
 * as aggregates of the column and map its states at the end (engine/exec/affine_arg.ts), on the
 * main heap and on two worker heaps, unkeyed and keyed by a SYMBOL, with filters and intervals.
 * Every answer is compared with the row-at-a-time reference: NULL values, negative multipliers
 * and `c - x` (min and max swap), nested steps, LONG values whose mapped extremes leave LONG or
 * hit its NULL (the fast path gives up and the hash aggregate evaluates per row), DOUBLE values
 * whose mapped extremes overflow to Infinity (NULL), an empty table and an all-NULL column.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { affineCounters } from "../../../engine/exec/affine_arg.ts";
import { bothWays } from "../_result_rows.ts";

const QUERIES = [
  "SELECT min(l * 2 + 1), max(l * 2 + 1), sum(l * 2 + 1), avg(l * 2 + 1), count(l * 2 + 1) FROM t",
  "SELECT min(10 - l), max(l * -3 + 7), sum((l + 5) * -2), avg(7 - l * 3), count(*) FROM t",
  "SELECT min(d * 2 + 1), max(1 - d * 0.5), min(d - 3), max(-2 * d), count(d + 1) FROM t",
  "SELECT sum(l), min(l * 2 + 1), count(*) FROM t WHERE l BETWEEN -500 AND 200",
  "SELECT max(l * 2 + 1), sum(l * 2 + 1), min(d * 3) FROM t WHERE d > 10 OR l < -900",
  "SELECT min(l - 1), max(d + 0.25), sum(l * 4) FROM t WHERE ts IN '2024-01-02'",
  "SELECT s, min(l * 2 + 1), max(10 - l), sum(l * -3 + 1), avg(l + 1), max(d * 2) FROM t GROUP BY s ORDER BY s",
  "SELECT s, min(d - 1), count(l * 2) FROM t WHERE s IN ('a', 'b') GROUP BY s ORDER BY s",
  "SELECT min(n * 2 + 1), max(n - 1), sum(n * 3), count(n + 1) FROM t",
];

/** Queries whose mapped extremes leave the type: answered by the per-row path. */
const OVERFLOWING = [
  "SELECT max(big * 4), min(big * 4), sum(big * 4), count(big * 4) FROM t",
  "SELECT min(big + 9223372036854775000), max(big - 9223372036854775000) FROM t",
  "SELECT max(huge * 10), min(huge * 10), count(huge * 10) FROM t",
  "SELECT s, max(big * 4), sum(big * 2) FROM t GROUP BY s ORDER BY s",
];

function values(day: number, count: number, seed: number): string {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const ts = `'2024-01-0${day}T${String(Math.floor(i / 200)).padStart(2, "0")}:00:00.${
      String(i).padStart(6, "0")
    }'`;
    const l = rnd() < 0.1 ? "NULL" : String(Math.floor(rnd() * 2000) - 1000);
    const d = rnd() < 0.1 ? "NULL" : String(Math.round((rnd() * 200 - 100) * 1000) / 1000);
    // big: values whose * 4 wraps; huge: DOUBLEs whose * 10 is Infinity.
    const big = rnd() < 0.5 ? String(BigInt(Math.floor(rnd() * 1000)) * 4611686018427387n) : "NULL";
    const huge = rnd() < 0.5 ? String(rnd() * 1.7e308) : "NULL";
    const s = ["'a'", "'b'", "'c'", "NULL"][Math.floor(rnd() * 4)];
    out.push(`(${ts}, ${s}, ${l}, ${d}, ${big}, ${huge}, NULL)`);
  }
  return out.join(", ");
}

const close = (x: unknown, y: unknown): boolean =>
  typeof x === "number" && typeof y === "number"
    ? x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y))
    : x === y;

async function agree(engine: Engine, sql: string, affine: boolean): Promise<void> {
  const { got, want, plan } = await bothWays(engine, sql);
  if (affine) assert.match(plan, /wasm kernels[^\]]*affine args: /, `${sql}\n${plan}`);
  assert.equal(got.length, want.length, sql);
  got.forEach((row, r) =>
    row.forEach((v, c) => assert.ok(close(v, want[r][c]), `${sql}: row ${r} col ${c}: ${v} vs ${want[r][c]}`))
  );
}

for (const workers of [0, 2]) {
  Deno.test(`affine aggregate arguments equal the row path (${workers} workers)`, async () => {
    const root = await Deno.makeTempDir({ prefix: "qdb_affine_" });
    const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024, parallelWorkers: workers });
    const exec = (sql: string) => engine.execute(sql, adminSession());
    try {
      await exec(
        "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, l LONG, d DOUBLE, big LONG, huge DOUBLE, n LONG) " +
          "TIMESTAMP(ts) PARTITION BY DAY",
      );
      // Empty: NULL extremes and sums, zero counts.
      for (const sql of [...QUERIES, ...OVERFLOWING]) await agree(engine, sql, !sql.includes("GROUP BY"));
      assert.deepEqual((await bothWays(engine, QUERIES[0])).got, [[null, null, null, null, 0n]]);
      for (let day = 1; day <= 3; day++) await exec(`INSERT INTO t VALUES ${values(day, 2500, day)}`);
      const before = { ...affineCounters };
      for (const sql of QUERIES) await agree(engine, sql, true);
      // The mapped states answered, none gave up.
      assert.ok(affineCounters.mapped > before.mapped + 20, "mapped states");
      assert.equal(affineCounters.gaveUp, before.gaveUp, "no overflow in QUERIES");
      // n is NULL in every row: NULL extremes and sums, count 0.
      assert.deepEqual((await bothWays(engine, QUERIES[8])).got, [[null, null, null, 0n]]);
      for (const sql of OVERFLOWING) {
        const gaveUp = affineCounters.gaveUp;
        await agree(engine, sql, true);
        assert.ok(affineCounters.gaveUp > gaveUp, `the fast path gave up: ${sql}`);
      }
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}
