/**
 * Date parts of a designated timestamp (`hour(ts)`, `day_of_week(ts)`, `year(ts)`, ...) filled
 * run by run over its ascending values (engine/exec/vector/time_field_runs.ts): GROUP BY and
 * DISTINCT on this heap's hash aggregation and on the workers' fused dense-key loop
 * (dense_groups.ts), against the row-at-a-time reference. Covers several partitions, filters
 * through the WASM kernels (selection), through a batch loop (gathered rows stay ascending),
 * intervals, rows of 1970-01-01 (times below 2^32), a sparse table (the runs path declines and the
 * generated loop answers), a TIMESTAMP column that is not the designated one (never ascending:
 * the loop answers), and an empty table.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { groupEstimate } from "../../../engine/exec/vector/group_estimate.ts";
import { timeFieldRunCounters } from "../../../engine/exec/vector/time_field_runs.ts";
import { bothWays } from "../_result_rows.ts";

const GROUP_SHARE = groupEstimate.share;
const PARTS = ["hour", "minute", "second", "day_of_week", "day_of_week_sunday_first", "year", "month", "day"];

const QUERIES = [
  ...PARTS.map((p) => `SELECT ${p}(ts) AS k, count(*), sum(q) FROM t GROUP BY ${p}(ts) ORDER BY k`),
  "SELECT day_of_week(ts) AS a, hour(ts) AS b, count(*), min(q), max(d) FROM t GROUP BY day_of_week(ts), hour(ts) ORDER BY a, b",
  "SELECT s AS a, hour(ts) AS b, avg(d), count(*) FROM t WHERE q BETWEEN 100 AND 600 GROUP BY s, hour(ts) ORDER BY a, b",
  "SELECT hour(ts) AS k, count(*) FROM t WHERE q % 3 = 1 GROUP BY hour(ts) ORDER BY k",
  "SELECT month(ts) AS k, day(ts) AS j, count(*) FROM t WHERE ts IN '1970-01-01' OR q > 900 GROUP BY month(ts), day(ts) ORDER BY k, j",
  "SELECT hour(ts) AS k, count(*) FROM t WHERE ts >= '2024-03-02T05' AND ts < '2024-03-03T07' GROUP BY hour(ts) ORDER BY k",
  "SELECT DISTINCT day_of_week(ts) AS a, hour(ts) AS b FROM t ORDER BY a, b",
  "SELECT hour(other) AS k, count(*) FROM t GROUP BY hour(other) ORDER BY k",
];

/** Rows every ~`stepSec` seconds from `start`, over several daily partitions. */
function rowsFrom(start: number, count: number, stepSec: number, seed: number): string {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: string[] = [];
  let t = start;
  for (let i = 0; i < count; i++) {
    t += Math.floor(rnd() * stepSec * 2e6);
    const other = Math.floor(rnd() * 4e15) - 1e15;
    const s = ["'a'", "'b'", "NULL"][Math.floor(rnd() * 3)];
    out.push(`(${t}::timestamp, ${other}::timestamp, ${s}, ${Math.floor(rnd() * 1000)}, ${rnd() * 100})`);
  }
  return out.join(", ");
}

async function agreeAll(engine: Engine, parallel: boolean): Promise<void> {
  let dense = 0;
  for (const sql of QUERIES) {
    const { got, want, plan } = await bothWays(engine, sql);
    if (/dense keys/.test(plan)) dense++;
    assert.deepEqual(
      got.map((r) => r.map((v) => (typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v))),
      want.map((r) => r.map((v) => (typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v))),
      sql,
    );
  }
  // The workers' fused loop takes most of these (year is not a dense key).
  if (parallel) assert.ok(dense >= 10, `only ${dense} queries on dense keys`);
}

for (const parallel of [false, true]) {
  Deno.test(`date parts of a designated timestamp by runs equal the row path (${parallel ? 2 : 0} workers)`, async () => {
    const root = await Deno.makeTempDir({ prefix: "qdb_time_runs_" });
    const engine = await Engine.open({
      root,
      cacheBytes: 32 * 1024 * 1024,
      ...(parallel ? { parallelWorkers: 2, parallelValuesMin: 1 } : { parallelWorkers: 0 }),
    });
    const exec = (sql: string) => engine.execute(sql, adminSession());
    if (parallel) groupEstimate.share = Infinity;
    try {
      await exec(
        "CREATE TABLE t (ts TIMESTAMP, other TIMESTAMP, s SYMBOL, q LONG, d DOUBLE) TIMESTAMP(ts) PARTITION BY DAY",
      );
      await agreeAll(engine, false);
      // Dense: ~3 s apart over days from 2024-03-01 and from 1970-01-01T01 (small times).
      await exec(`INSERT INTO t VALUES ${rowsFrom(Date.UTC(2024, 2, 1) * 1000, 9000, 3, 1)}`);
      await exec(`INSERT INTO t VALUES ${rowsFrom(3_600_000_000, 6000, 3, 2)}`);
      const before = timeFieldRunCounters.batches;
      await agreeAll(engine, parallel);
      // On this heap the hash aggregation filled keys by runs (the workers count their own).
      if (!parallel) assert.ok(timeFieldRunCounters.batches > before, "runs filled no batch");
      // Sparse: hours apart, a run per row: the runs path declines, the loop answers.
      await exec(`INSERT INTO t VALUES ${rowsFrom(Date.UTC(2025, 0, 1) * 1000, 1500, 7200, 3)}`);
      await agreeAll(engine, parallel);
    } finally {
      groupEstimate.share = GROUP_SHARE;
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}
