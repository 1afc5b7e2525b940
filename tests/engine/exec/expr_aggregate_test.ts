/**
 * Unkeyed aggregates of DOUBLE arithmetic (`sum(a - b)`, `max(a * b)`, issue #16) run on the
 * WASM kernels (fast_aggregate.ts: the `binop` kernel into scratch, folded by `stats`), on the
 * main heap and on two worker heaps. Every answer is compared with the row-at-a-time reference:
 * NULLs (NaN), infinities (NULL in DOUBLE columns), products that overflow to NULL, constants
 * on either side, nested expressions, LONG arithmetic (wrapping, NULL operands), filters,
 * intervals, an empty table and a table changed by writes. Also aggregates of DOUBLE columns
 * under one DOUBLE or LONG comparison (NULL rules of =, != and > against NULL and extremes).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { explain, rows } from "../_result_rows.ts";

const QUERIES = [
  "SELECT sum(a - b), count(*), min(a - b) FROM t",
  "SELECT max(a * b), min(q), max(a), avg(a + b), count(a * b) FROM t",
  "SELECT sum(2 - a), min(b * 0.5), max(a - 1.5), avg(3 * b) FROM t",
  "SELECT sum(a * b), max(a * b), count(*) FROM t WHERE q > 10",
  "SELECT avg(a - b), min(a * b) FROM t WHERE s = 'x' AND q < 50",
  "SELECT sum(a + b), max(a - b) FROM t WHERE ts IN '2024-01-02'",
  "SELECT sum(a * NULL), min(a + NULL), count(a - NULL) FROM t",
  // Nested DOUBLE arithmetic, and LONG arithmetic (wrapping; NULL in gives NULL).
  "SELECT sum((a - b) * 2 + a), max(a * b - 1), min(2 * (b + 1)) FROM t",
  "SELECT sum(l * 2 + 1), min(l), max(l * 3 - 7), count(l * l) FROM t",
  "SELECT sum(l * 2 + 1), max(l - 1), avg(a - b) FROM t WHERE q > 30 AND s = 'y'",
  "SELECT sum(l * NULL), max(l + w), min(w * 2) FROM t",
  // One DOUBLE or LONG comparison and DOUBLE arguments.
  "SELECT count(*), sum(a), min(b), max(a), avg(b) FROM t WHERE a > 10",
  "SELECT count(*), sum(b), max(a), count(a) FROM t WHERE l < 0",
  "SELECT count(*), sum(a), min(a) FROM t WHERE b != 5.5",
  "SELECT count(*), sum(a), max(b) FROM t WHERE b = NULL",
  "SELECT count(*), avg(a) FROM t WHERE w >= 4611686018427387904",
  "SELECT count(*), sum(a) FROM t WHERE a > 1e308",
];

/** Values near the top of the range overflow when multiplied: a NULL product. */
function values(day: number, n: number, seed: number): string {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: string[] = [];
  for (let r = 0; r < n; r++) {
    const ts = new Date(Date.UTC(2024, 0, day) + Math.floor((r * 86_400_000) / n)).toISOString();
    const num = () => {
      const u = rnd();
      if (u < 0.1) return "NULL";
      if (u < 0.12) return "1e300";
      if (u < 0.13) return "-1e300";
      return String(Math.round((rnd() - 0.5) * 1e6) / 100);
    };
    const q = rnd() < 0.1 ? "NULL" : String(Math.floor(rnd() * 100));
    const s = ["'x'", "'y'", "NULL"][Math.floor(rnd() * 3)];
    const l = rnd() < 0.1 ? "NULL" : String(Math.floor((rnd() - 0.5) * 1e12));
    // Near the top of LONG: doubling wraps around, as int64 arithmetic does.
    const w = rnd() < 0.1 ? "NULL" : rnd() < 0.2 ? "4611686018427387904" : String(Math.floor(rnd() * 1e6));
    out.push(`('${ts}', ${num()}, ${num()}, ${q}, ${s}, ${l}, ${w})`);
  }
  return out.join(", ");
}

async function reference(engine: Engine, sql: string): Promise<unknown[][]> {
  setReferenceExecution(true);
  try {
    return await rows(engine, sql);
  } finally {
    setReferenceExecution(false);
  }
}

/** Doubles within 1e-9 relative (the kernels add in SIMD lanes); everything else exact. */
function assertClose(got: unknown[][], want: unknown[][], what: string): void {
  assert.equal(got.length, want.length, what);
  got.forEach((row, r) =>
    row.forEach((x, c) => {
      const y = want[r][c];
      if (typeof x === "number" && typeof y === "number") {
        assert.ok(Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y)), `${what}: col ${c}: ${x} vs ${y}`);
      } else assert.deepEqual(x, y, `${what}: col ${c}`);
    })
  );
}

async function checkAll(engine: Engine, label: string): Promise<void> {
  for (const sql of QUERIES) {
    assertClose(await rows(engine, sql), await reference(engine, sql), `${label}: ${sql}`);
  }
}

for (const workers of [0, 2]) {
  Deno.test(`expression aggregates on the WASM kernels equal the reference (${workers} workers)`, async () => {
    const root = await Deno.makeTempDir({ prefix: "qdb_expr_agg_" });
    const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024, parallelWorkers: workers });
    const exec = (sql: string) => engine.execute(sql, adminSession());
    try {
      await exec(
        "CREATE TABLE t (ts TIMESTAMP, a DOUBLE, b DOUBLE, q INT, s SYMBOL, l LONG, w LONG) TIMESTAMP(ts) PARTITION BY DAY",
      );
      // Empty: NULL sums and extremes, zero counts.
      assert.deepEqual(await rows(engine, QUERIES[0]), [[null, 0n, null]]);
      await checkAll(engine, "empty");
      for (const sql of [...QUERIES.slice(0, 3), ...QUERIES.slice(7, 10)]) {
        assert.match(
          await explain(engine, sql),
          /\[wasm kernels(, block memo)?(, affine args: [^\]]+)?\]/,
          sql,
        );
      }
      for (let day = 1; day <= 4; day++) await exec(`INSERT INTO t VALUES ${values(day, 3000, day)}`);
      // Infinities stored in a DOUBLE column read as NULL.
      await exec("INSERT INTO t VALUES ('2024-01-04T23:59:59', 'Infinity'::double, 1.0, 5, 'x', 1, 2)");
      await checkAll(engine, "loaded");
      await exec("UPDATE t SET a = b * 2 WHERE q = 7");
      await exec("DELETE FROM t WHERE q = 8");
      await checkAll(engine, "after UPDATE and DELETE");
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}
