/**
 * Block partials of the unkeyed SAMPLE BY (engine/exec/sample_by_blocks.ts): complete 65,536-row
 * blocks are memoized per partition version, so a rerun after an append reduces only the new
 * blocks. Every answer equals the row-at-a-time reference across appends, both alignments,
 * interval filters, FILTER, FROM/TO, LIMIT -n, UPDATE, and a dropped first partition (which
 * moves the first-observation grid).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { sampleBlockCounters } from "../../../engine/exec/sample_by_blocks.ts";
import { explain, rows } from "../_result_rows.ts";

const QUERIES = [
  "SELECT ts, count(), avg(p), min(q), max(p), first(p), last(q), sum(q) FROM t SAMPLE BY 1m",
  "SELECT ts, count(), sum(p) FROM t SAMPLE BY 7s ALIGN TO FIRST OBSERVATION",
  "SELECT ts, count() FILTER (WHERE q > 20), avg(p) FROM t SAMPLE BY 10s",
  "SELECT ts, sum(p), max(q) FROM t WHERE ts BETWEEN '2024-01-01T23:59:00' AND '2024-01-02T00:03:05' SAMPLE BY 30s",
  "SELECT ts, avg(p) FROM t SAMPLE BY 1m LIMIT -5",
  "SELECT ts, count() FROM t SAMPLE BY 1m FROM '2024-01-01T23:58:00' TO '2024-01-02T00:02:00'",
];

/** Equal, doubles within 1e-9 relative (blocks add their sums in another order). */
function assertAnswer(got: unknown[][], want: unknown[][], what: string): void {
  assert.equal(got.length, want.length, what);
  got.forEach((row, r) =>
    row.forEach((x, c) => {
      const y = want[r][c];
      if (typeof x === "number" && typeof y === "number") {
        assert.ok(
          Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y)),
          `${what}: row ${r} col ${c}: ${x} vs ${y}`,
        );
      } else assert.deepEqual(x, y, `${what}: row ${r} col ${c}`);
    })
  );
}

async function check(engine: Engine, what: string): Promise<void> {
  for (const sql of QUERIES) {
    const got = await rows(engine, sql);
    setReferenceExecution(true);
    const want = await rows(engine, sql).finally(() => setReferenceExecution(false));
    assertAnswer(got, want, `${what}: ${sql}`);
  }
}

/** Rows `from`..`from + n - 1`, one per millisecond from 23:56:40 on 2024-01-01; some p NULL. */
const insert = (from: number, n: number) =>
  `INSERT INTO t SELECT ('2024-01-01T23:56:40'::timestamp + x * 1000), ` +
  `CASE WHEN x % 7 = 0 THEN NULL ELSE (x % 101) * 1.25 END, x % 37 ` +
  `FROM (SELECT x + ${from - 1} x FROM long_sequence(${n}))`;

const reset = () => Object.assign(sampleBlockCounters, { hits: 0, reducedBlocks: 0 });

Deno.test("sample by blocks: reruns over a growing table reduce only new blocks, answers equal the reference", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_sample_blocks_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  const exec = (sql: string) => engine.execute(sql, adminSession());
  const sql = QUERIES[0];
  try {
    await exec("CREATE TABLE t (ts TIMESTAMP, p DOUBLE, q LONG) TIMESTAMP(ts) PARTITION BY DAY");
    await check(engine, "empty");
    assert.match(await explain(engine, sql), /SampleBy \[wasm, block memo\]/);

    // 400K rows: 200K on each side of midnight (two partitions, three complete blocks each).
    await exec(insert(1, 400_000));
    reset();
    await rows(engine, sql);
    assert.equal(sampleBlockCounters.reducedBlocks, 6);
    reset();
    await rows(engine, sql);
    assert.deepEqual(
      sampleBlockCounters,
      { hits: 8, reducedBlocks: 0 },
      "a rerun takes every block and both partitions' tails",
    );
    await check(engine, "400K rows");

    await exec(insert(400_001, 100_000));
    reset();
    await rows(engine, sql);
    assert.deepEqual(
      sampleBlockCounters,
      { hits: 7, reducedBlocks: 1 },
      "an append completes one more block and makes a new tail",
    );
    await check(engine, "after an append");

    await exec("UPDATE t SET p = 999.5 WHERE q = 4 AND ts > '2024-01-02T00:00:01'");
    await check(engine, "after UPDATE");
    // The first partition goes: the first-observation grid starts at midnight now.
    await exec("ALTER TABLE t DROP PARTITION LIST '2024-01-01'");
    await check(engine, "after DROP PARTITION");
  } finally {
    setReferenceExecution(false);
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
