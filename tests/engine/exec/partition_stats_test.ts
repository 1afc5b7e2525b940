/**
 * Partition statistics (engine/exec/partition_stats.ts): unfiltered and interval-filtered
 * count/sum/avg/min/max answer whole partitions from memoized statistics. Every answer is compared with
 * the row-at-a-time reference over the same data, across NULLs, all-NULL and empty partitions,
 * appends into the last partition, UPDATE, DELETE, DROP PARTITION and ALTER COLUMN TYPE; and a
 * repeated query scans no whole partition (counter).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { partitionStatsCounters } from "../../../engine/exec/partition_stats.ts";
import { rows } from "../_result_rows.ts";

let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

const QUERIES = [
  "SELECT count(*), min(d), max(d), count(d) FROM t",
  "SELECT count(*), min(i), max(i), count(i), min(l), max(l), count(l) FROM t",
  "SELECT min(ts), max(ts), count(f), min(f), max(f) FROM t",
  "SELECT count(*), min(d), max(i), count(l) FROM t WHERE ts IN '2024-01-02'",
  "SELECT count(*), min(d), max(l), count(i) FROM t WHERE ts BETWEEN '2024-01-01T12:00:00' AND '2024-01-03T06:00:00'",
  "SELECT count(*), min(d), max(d), count(d) FROM t WHERE ts < '2024-01-02T01:00:00' OR ts > '2024-01-03'",
  // sum and avg: floats equal the reference within 1e-9 relative (the kernels add in SIMD lanes).
  "SELECT sum(d), avg(d), sum(f), avg(f), count(*) FROM t",
  "SELECT sum(i), avg(d), sum(l), min(l) FROM t",
  "SELECT sum(d), avg(f), sum(l) FROM t WHERE ts IN '2024-01-02'",
  "SELECT avg(d), sum(f), sum(l) FROM t WHERE ts BETWEEN '2024-01-01T12:00:00' AND '2024-01-03T06:00:00'",
];

/** Equal, doubles of sum/avg queries within 1e-9 relative; everything else exact. */
function assertAnswer(got: unknown[][], want: unknown[][], sql: string, what: string): void {
  if (!/sum|avg/.test(sql)) return assert.deepEqual(got, want, what);
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

async function exec(engine: Engine, sql: string): Promise<void> {
  await engine.execute(sql, adminSession());
}

async function explainOf(engine: Engine, sql: string): Promise<string> {
  return (await rows(engine, `EXPLAIN ${sql}`)).map((r) => r[0]).join("\n");
}

async function reference(engine: Engine, sql: string): Promise<unknown[][]> {
  setReferenceExecution(true);
  try {
    return await rows(engine, sql);
  } finally {
    setReferenceExecution(false);
  }
}

/** Every query twice (second from statistics) against the reference; returns scans of run 2. */
async function check(engine: Engine, label: string): Promise<number> {
  let scanned = 0;
  for (const sql of QUERIES) {
    const want = await reference(engine, sql);
    const first = await rows(engine, sql);
    assertAnswer(first, want, sql, `${label}: ${sql} (first run)`);
    const before = partitionStatsCounters.scannedPartitions, hits = partitionStatsCounters.statsHits;
    // From statistics: exactly the first run's answer (the same partials, merged in the same order).
    assert.deepEqual(await rows(engine, sql), first, `${label}: ${sql} (second run)`);
    if (!sql.includes("WHERE")) {
      scanned += partitionStatsCounters.scannedPartitions - before;
      assert.ok(partitionStatsCounters.statsHits > hits, `${label}: ${sql} read statistics`);
    }
  }
  return scanned;
}

function values(day: number, n: number, allNull: boolean): string {
  const out: string[] = [];
  for (let r = 0; r < n; r++) {
    const ts = new Date(Date.UTC(2024, 0, day) + Math.floor((r * 86_400_000) / n)).toISOString();
    const pick = (v: string) => (allNull || rnd() < 0.2 ? "NULL" : v);
    const d = pick(String(Math.round((rnd() - 0.5) * 1e6) / 100));
    const f = pick(String(Math.round((rnd() - 0.5) * 1e4) / 10));
    const i = pick(String(Math.floor((rnd() - 0.5) * 2e9)));
    const l = pick(String(Math.floor((rnd() - 0.5) * 1e15)));
    out.push(`('${ts}', ${d}, ${f}, ${i}, ${l})`);
  }
  return out.join(", ");
}

Deno.test("partition stats: answers equal the reference through writes; repeats scan no whole partition", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pstats_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await exec(
      engine,
      "CREATE TABLE t (ts TIMESTAMP, d DOUBLE, f FLOAT, i INT, l LONG) TIMESTAMP(ts) PARTITION BY DAY",
    );
    // Empty table: count 0, NULL min/max.
    assert.deepEqual(await rows(engine, QUERIES[0]), [[0n, null, null, 0n]]);
    assert.deepEqual(await rows(engine, QUERIES[0]), await reference(engine, QUERIES[0]));

    const plan = (await rows(engine, `EXPLAIN ${QUERIES[0]}`)).map((r) => r[0]).join("\n");
    assert.match(plan, /GroupBy values: count,min,max,count \[wasm kernels, partition stats\]/);
    const keyed = (await rows(engine, "EXPLAIN SELECT count(*), min(d) FROM t WHERE d > 0")).map((r) => r[0]);
    assert.doesNotMatch(keyed.join("\n"), /partition stats/, "a filter other than time scans");
    assert.match(await explainOf(engine, QUERIES[6]), /\[wasm kernels, partition stats\]/, "sum and avg");
    const expr = "SELECT sum(d - f), count(*) FROM t";
    assert.doesNotMatch(await explainOf(engine, expr), /partition stats/, "an expression argument scans");

    for (let day = 1; day <= 3; day++) await exec(engine, `INSERT INTO t VALUES ${values(day, 400, false)}`);
    await exec(engine, `INSERT INTO t VALUES ${values(4, 300, true)}`); // all-NULL partition
    assert.equal(await check(engine, "initial"), 0, "second runs scan no whole partition");

    // Appends into the last partition: its statistics cover the old prefix only, recomputed.
    await exec(engine, `INSERT INTO t VALUES ('2024-01-04T23:59:59.000000Z', 1e9, 5.5, 7, -1)`);
    await check(engine, "append");
    // Out-of-order append into an old partition (new version folder).
    await exec(engine, `INSERT INTO t VALUES ('2024-01-02T00:00:00.500000Z', -1e9, -9999.5, -2000000000, 9)`);
    await check(engine, "o3 append");

    await exec(engine, "UPDATE t SET d = 5e8, i = 2100000000 WHERE ts IN '2024-01-03'");
    await check(engine, "update");
    await exec(engine, "DELETE FROM t WHERE ts IN '2024-01-01' AND i > 0");
    await check(engine, "delete");
    await exec(engine, "ALTER TABLE t DROP PARTITION LIST '2024-01-02'");
    await check(engine, "drop partition");
    await exec(engine, "ALTER TABLE t ALTER COLUMN i TYPE LONG");
    await check(engine, "alter column type");
    await exec(engine, "ALTER TABLE t ADD COLUMN extra DOUBLE");
    const added = "SELECT count(extra), min(extra), max(extra) FROM t";
    assert.deepEqual(await rows(engine, added), [[0n, null, null]]);
    await exec(engine, "INSERT INTO t (ts, extra) VALUES ('2024-01-05T01:00:00.000000Z', 3.5)");
    assert.deepEqual(await rows(engine, added), [[1n, 3.5, 3.5]]);
    assert.deepEqual(await rows(engine, added), await reference(engine, added));

    await exec(engine, "TRUNCATE TABLE t");
    assert.deepEqual(await rows(engine, QUERIES[0]), [[0n, null, null, 0n]]);
    await exec(engine, `INSERT INTO t (ts, d, f, i, l) VALUES ${values(1, 50, false)}`);
    await check(engine, "after truncate");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
