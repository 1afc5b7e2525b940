/**
 * Block partials (engine/exec/block_partials.ts): a `wasm` aggregate folds partitions in
 * 65,536-row blocks and memoizes complete ones, so a repeated query over a table still receiving
 * rows folds only the rows added since. Every answer is compared with the row-at-a-time
 * reference across appends into the memoized partition, interval filters cutting blocks, WHERE
 * and FILTER predicates, NULL keys and values, UPDATE, DELETE, an out-of-order insert and ADD
 * COLUMN; counters show what was folded and what came from the memo.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { BLOCK_ROWS, blockCounters } from "../../../engine/exec/block_partials.ts";
import { explain, resultKey, rows } from "../_result_rows.ts";

const QUERIES = [
  "SELECT s, count(*), sum(q), avg(p), min(p), max(q) FROM t GROUP BY s",
  "SELECT s, count(*) FILTER (WHERE p > 50), avg(p) FROM t WHERE q > 10 GROUP BY s",
  "SELECT count(*), sum(p), min(q), max(p), avg(q) FROM t",
  "SELECT s, sum(p), count(q) FROM t WHERE ts BETWEEN '2024-01-01T00:01:40' AND '2024-01-01T00:04:10' GROUP BY s",
  "SELECT sum(p - q), count(*) FROM t WHERE s IN ('a', 'c') AND ts > '2024-01-01T00:00:30'",
];

/** Rows sorted by their JSON (keyed answers come in different group orders). */
const sorted = (r: unknown[][]) => r.map((x) => [resultKey(x), x] as const).sort().map(([, x]) => x);

/** Equal, doubles within 1e-9 relative (blocks add their sums in another order). */
function assertAnswer(got: unknown[][], want: unknown[][], what: string): void {
  const g = sorted(got), w = sorted(want);
  assert.equal(g.length, w.length, what);
  g.forEach((row, r) =>
    row.forEach((x, c) => {
      const y = w[r][c];
      if (typeof x === "number" && typeof y === "number") {
        assert.ok(Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y)), `${what}: col ${c}: ${x} vs ${y}`);
      } else assert.deepEqual(x, y, `${what}: col ${c}`);
    })
  );
}

async function check(engine: Engine, what: string): Promise<void> {
  for (const sql of QUERIES) {
    const got = await rows(engine, sql);
    setReferenceExecution(true);
    let want: unknown[][];
    try {
      want = await rows(engine, sql);
    } finally {
      setReferenceExecution(false);
    }
    assertAnswer(got, want, `${what}: ${sql}`);
  }
}

/** Rows `from`..`from + n - 1`, one per millisecond; every 7th p and every 11th s NULL. */
const insert = (from: number, n: number) =>
  `INSERT INTO t SELECT (x * 1000)::timestamp, CASE WHEN x % 11 = 0 THEN NULL ELSE ` +
  `CASE x % 3 WHEN 0 THEN 'a' WHEN 1 THEN 'b' ELSE 'c' END END, ` +
  `CASE WHEN x % 7 = 0 THEN NULL ELSE (x % 101) * 1.25 END, x % 37 ` +
  `FROM (SELECT x + ${from - 1} x FROM long_sequence(${n}))`;

Deno.test("block partials: repeated aggregates over a growing table fold only new rows, answers equal the reference", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_block_partials_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  const exec = (sql: string) => engine.execute(sql, adminSession());
  const sql = QUERIES[0];
  try {
    await exec("CREATE TABLE t (ts TIMESTAMP, s SYMBOL, p DOUBLE, q LONG) TIMESTAMP(ts) PARTITION BY DAY");
    await check(engine, "empty");
    assert.match(await explain(engine, sql), /GroupBy keys: 1 .*\[wasm kernels, block memo\]/);

    await exec(insert(1, 200_000));
    const full = Math.floor(200_000 / BLOCK_ROWS);
    Object.assign(blockCounters, { hits: 0, foldedBlocks: 0, foldedRows: 0 });
    await rows(engine, sql);
    assert.equal(blockCounters.foldedBlocks, full, "first run folds every complete block");
    assert.equal(blockCounters.hits, 0);
    Object.assign(blockCounters, { hits: 0, foldedBlocks: 0, foldedRows: 0 });
    await rows(engine, sql);
    assert.equal(
      blockCounters.foldedBlocks + blockCounters.foldedRows,
      0,
      "same committed state: nothing folded",
    );
    assert.equal(blockCounters.hits, 1, "the state's merged partials");
    await check(engine, "200K rows");

    // Appends: the memoized blocks stay, the block they complete is folded once.
    await exec(insert(200_001, 100_000));
    Object.assign(blockCounters, { hits: 0, foldedBlocks: 0, foldedRows: 0 });
    await rows(engine, sql);
    const now = Math.floor(300_000 / BLOCK_ROWS);
    assert.equal(blockCounters.hits, full);
    assert.equal(blockCounters.foldedBlocks, now - full);
    assert.equal(blockCounters.foldedRows, 300_000 - full * BLOCK_ROWS);
    await check(engine, "after an append");

    // Rewrites make a new partition version: nothing stale is read.
    await exec("UPDATE t SET p = 1000.5 WHERE q = 3 AND ts < '2024-01-01T00:00:10'");
    Object.assign(blockCounters, { hits: 0, foldedBlocks: 0, foldedRows: 0 });
    await check(engine, "after UPDATE");
    assert.ok(blockCounters.foldedBlocks >= now, "a rewritten partition folds its blocks again");
    await exec("DELETE FROM t WHERE q = 5");
    await check(engine, "after DELETE");
    await exec("INSERT INTO t VALUES ('2024-01-01T00:00:00.5', 'b', 77.0, 9)");
    await check(engine, "after an out-of-order insert");
    await exec("ALTER TABLE t ADD COLUMN r DOUBLE");
    await exec(insert(300_001, 70_000).replace("x % 37 FROM", "x % 37, x * 0.5 FROM"));
    const added = "SELECT s, sum(r), count(r), max(r) FROM t GROUP BY s";
    for (let i = 0; i < 2; i++) {
      const got = await rows(engine, added);
      setReferenceExecution(true);
      const want = await rows(engine, added).finally(() => setReferenceExecution(false));
      assertAnswer(got, want, `after ADD COLUMN (${i}): ${added}`);
    }
    await check(engine, "after ADD COLUMN");
  } finally {
    setReferenceExecution(false);
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("block partials: many groups fold without blocks", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_block_partials_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  const exec = (sql: string) => engine.execute(sql, adminSession());
  try {
    await exec("CREATE TABLE m (ts TIMESTAMP, s SYMBOL, p DOUBLE) TIMESTAMP(ts) PARTITION BY DAY");
    await exec(
      "INSERT INTO m SELECT (x * 1000)::timestamp, 'k' || (x % 500), x * 0.5 FROM long_sequence(140000)",
    );
    Object.assign(blockCounters, { hits: 0, foldedBlocks: 0, foldedRows: 0 });
    const got = await rows(engine, "SELECT s, count(*), sum(p) FROM m GROUP BY s");
    assert.equal(got.length, 500);
    assert.equal(
      blockCounters.foldedBlocks + blockCounters.foldedRows,
      0,
      "500 groups x 2 aggregates: no blocks",
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("block partials: with cairo.sql.block.memo.enabled off nothing is reused and answers are the same", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_block_partials_" });
  const sql = "SELECT s, count(*), sum(p), avg(q) FROM t GROUP BY s ORDER BY s";
  const sample = "SELECT ts, count(), sum(p) FROM t SAMPLE BY 1m";
  const answers: unknown[][][] = [];
  try {
    for (const blockMemo of [true, false]) {
      const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0, blockMemo });
      const exec = (q: string) => engine.execute(q, adminSession());
      try {
        if (blockMemo) {
          await exec(
            "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, p DOUBLE, q LONG) TIMESTAMP(ts) PARTITION BY DAY",
          );
          await exec(insert(1, 150_000));
        }
        Object.assign(blockCounters, { hits: 0, foldedBlocks: 0, foldedRows: 0 });
        const got = [await rows(engine, sql), await rows(engine, sql), await rows(engine, sample)];
        assert.equal(blockCounters.hits > 0, blockMemo, `hits with blockMemo=${blockMemo}`);
        assert.equal(/block memo/.test(await explain(engine, sql)), blockMemo);
        assert.equal(/block memo/.test(await explain(engine, sample)), blockMemo);
        answers.push(got.flat());
      } finally {
        await engine.close();
      }
    }
    assert.deepEqual(answers[1], answers[0]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
