/**
 * Partition rewrites written a slice at a time (engine/storage/column_rewrite.ts, issue #17):
 * an out-of-order merge, UPDATE, DELETE, ALTER COLUMN TYPE and a conversion from Parquet back
 * to native, and an in-order append of 71,000 rows, over one partition of 271,000 rows (five
 * slices of 65,536) must leave exactly the rows a model of the table says, for fixed-width,
 * SYMBOL, STRING and VARCHAR columns and a column added later (its column top inside the
 * partition), read back after each step and again after a reopen (from the files, not the
 * cache).
 */
import assert from "node:assert/strict";
import { Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

const N = 200_000;
/** Rows appended in order after the first N, in slices too (the added column's files start there). */
const APPENDED = 71_000;
const BASE_US = 1704067200000000n; // 2024-01-01T00:00:00Z

interface Row {
  ts: bigint;
  x: bigint;
  s: string;
  str: string;
  v: string;
  d: number;
  late: number | null;
}

const SELECT = "SELECT ts, x, s, str, v, d, late FROM t";

/** Cells as text, so that an INT turned LONG (number, then bigint) compares by value. */
function lines(table: unknown[][]): string[] {
  return table.map((r) => r.map((c) => String(c)).join("|"));
}

function modelLines(model: Row[]): string[] {
  return [...model].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0))
    .map((r) => [r.ts, r.x, r.s, r.str, r.v, r.d, r.late].map((c) => String(c)).join("|"));
}

async function assertTable(engine: Engine, model: Row[], step: string): Promise<void> {
  const got = lines(await rows(engine, SELECT));
  const want = modelLines(model);
  assert.equal(got.length, want.length, `${step}: row count`);
  const at = got.findIndex((line, i) => line !== want[i]);
  assert.equal(at, -1, `${step}: row ${at} is ${got[at]}, expected ${want[at]}`);
}

Deno.test({
  name: "rewrites of a partition written in slices keep every row exactly",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_rewrite_slices_" });
    let engine = await Engine.open({ root, parallelWorkers: 0 });
    try {
      await rows(
        engine,
        "CREATE TABLE t AS (SELECT dateadd('u', (x * 1000)::int, '2024-01-01'::timestamp) ts, x, " +
          "cast('k' || (x % 7) AS SYMBOL) s, cast(x AS STRING) str, cast('v' || x AS VARCHAR) v, x * 0.5 d " +
          `FROM long_sequence(${N})) TIMESTAMP(ts) PARTITION BY DAY`,
      );
      const model: Row[] = [];
      for (let i = 1n; i <= BigInt(N); i++) {
        model.push({
          ts: BASE_US + i * 1000n,
          x: i,
          s: `k${i % 7n}`,
          str: `${i}`,
          v: `v${i}`,
          d: Number(i) * 0.5,
          late: null,
        });
      }
      // A column added later: its first N rows are a column top.
      await rows(engine, "ALTER TABLE t ADD COLUMN late INT");
      await rows(
        engine,
        "INSERT INTO t SELECT dateadd('u', (x * 1000)::int, '2024-01-01'::timestamp), x, " +
          "cast('k' || (x % 7) AS SYMBOL), cast(x AS STRING), cast('v' || x AS VARCHAR), x * 0.5, x::int " +
          `FROM long_sequence(${N + APPENDED}) WHERE x > ${N}`,
      );
      for (let i = BigInt(N + 1); i <= BigInt(N + APPENDED); i++) {
        model.push({
          ts: BASE_US + i * 1000n,
          x: i,
          s: `k${i % 7n}`,
          str: `${i}`,
          v: `v${i}`,
          d: Number(i) * 0.5,
          late: Number(i),
        });
      }
      await assertTable(engine, model, "setup");

      // Out of order: 1,000 rows spread over the whole partition, so nearly all of it is merged.
      await rows(
        engine,
        "INSERT INTO t SELECT dateadd('u', (x * 200_000 + 500)::int, '2024-01-01'::timestamp), -x, " +
          "cast('o3' AS SYMBOL), 'o' || x, cast('ov' AS VARCHAR), -x * 0.25, x::int FROM long_sequence(1000)",
      );
      for (let i = 1n; i <= 1000n; i++) {
        model.push({
          ts: BASE_US + i * 200_000n + 500n,
          x: -i,
          s: "o3",
          str: `o${i}`,
          v: "ov",
          d: -Number(i) * 0.25,
          late: Number(i),
        });
      }
      await assertTable(engine, model, "out-of-order merge");

      await rows(engine, "UPDATE t SET str = 'u' || x, d = d + 1 WHERE x % 5 = 0");
      await rows(engine, "UPDATE t SET late = 7 WHERE x % 11 = 0");
      for (const r of model) {
        if (r.x % 5n === 0n) [r.str, r.d] = [`u${r.x}`, r.d + 1];
        if (r.x % 11n === 0n) r.late = 7;
      }
      await assertTable(engine, model, "update");

      await rows(engine, "DELETE FROM t WHERE x % 3 = 0");
      const kept = model.filter((r) => r.x % 3n !== 0n);
      await assertTable(engine, kept, "delete");

      await rows(engine, "ALTER TABLE t ALTER COLUMN str TYPE VARCHAR");
      await rows(engine, "ALTER TABLE t ALTER COLUMN late TYPE LONG");
      await rows(engine, "ALTER TABLE t ALTER COLUMN s TYPE STRING");
      await assertTable(engine, kept, "alter column type");

      // To Parquet and back: the native files are written from the Parquet values in slices.
      // A row in the next day first: the active (last) partition is not converted.
      await rows(engine, "INSERT INTO t VALUES ('2024-01-02T00:00:00', 424242, 'n', 'n', 'n', 0.5, 1)");
      kept.push({ ts: BASE_US + 86_400_000_000n, x: 424242n, s: "n", str: "n", v: "n", d: 0.5, late: 1 });
      await rows(engine, "ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-01'");
      await rows(engine, "ALTER TABLE t CONVERT PARTITION TO NATIVE LIST '2024-01-01'");
      await assertTable(engine, kept, "parquet and back");

      await engine.close();
      engine = await Engine.open({ root, parallelWorkers: 0 });
      await assertTable(engine, kept, "after reopen");
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
