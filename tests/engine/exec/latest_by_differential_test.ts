/**
 * LATEST ON read backwards (latest_by.ts, latest_by_keys.ts, latest_by_filtered.ts) against
 * the forward row read (`setReferenceExecution`): SYMBOL keys alone or in pairs, with WHERE
 * filters the kernels take (symbol =, numeric comparisons), filters only the generated batch
 * loop or rows take, filters that match nothing, NULL keys (recent, only in the oldest rows,
 * absent), equal timestamps (the last stored row wins), many keys, non-SYMBOL keys, time
 * intervals and empty tables. EXPLAIN names the backward operator the executor runs.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { explain, rows } from "../_result_rows.ts";
import { nullSearch } from "../../../engine/exec/latest_by_keys.ts";

const show = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x));

async function both(engine: Engine, sql: string, op: string): Promise<unknown[][]> {
  const plan = await explain(engine, sql);
  assert.ok(plan.includes(`LatestBy [${op}]`), `${sql}\n${plan}`);
  const got = await rows(engine, sql);
  setReferenceExecution(true);
  let want: unknown[][];
  try {
    assert.ok((await explain(engine, sql)).includes("LatestBy [row at a time]"));
    want = await rows(engine, sql);
  } finally {
    setReferenceExecution(false);
  }
  assert.equal(show(got), show(want), sql);
  return got;
}

Deno.test("LATEST ON backwards equals the forward row read", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_latest_diff_" });
  const engine = await Engine.open({ root, cacheBytes: 128 * 1024 * 1024 });
  try {
    const x = (sql: string) => engine.execute(sql, adminSession());
    // 200k rows over ~56 hourly partitions; `o` is NULL only in the oldest rows, `m` has 3000 values.
    await x(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 1000000) ts, " +
        "rnd_symbol('a','b','c','d','e',NULL) s, rnd_symbol('buy','sell') side, " +
        "CAST(CASE WHEN x < 50 THEN NULL ELSE rnd_symbol('p','q','r') END AS SYMBOL) o, " +
        "rnd_symbol(3000, 4, 6, 0) m, rnd_int(0, 100, 9) i, rnd_double(5) d, x " +
        "FROM long_sequence(200000)) TIMESTAMP(ts) PARTITION BY HOUR",
    );
    // Equal timestamps across keys and within a key.
    await x("CREATE TABLE dup (ts TIMESTAMP, s SYMBOL, v INT) TIMESTAMP(ts) PARTITION BY DAY");
    await x(
      "INSERT INTO dup VALUES ('2024-01-01T00:00:00Z', 'a', 1), ('2024-01-01T00:00:00Z', 'a', 2), " +
        "('2024-01-01T00:00:00Z', NULL, 3), ('2024-01-02T00:00:00Z', 'b', 4), ('2024-01-02T00:00:00Z', 'b', 5), " +
        "('2024-01-02T00:00:00Z', NULL, 6), ('2024-01-02T00:00:00Z', 'a', 7)",
    );
    await x("CREATE TABLE e (ts TIMESTAMP, s SYMBOL, v INT) TIMESTAMP(ts) PARTITION BY DAY");
    const sym = "backward symbol keys";
    for (
      const where of [
        "",
        "WHERE side = 'buy'",
        "WHERE i > 90",
        "WHERE d < 0.01 AND side = 'sell'",
        "WHERE i = 1000",
      ]
    ) {
      for (const keys of ["s", "s, side", "o", "side, o", "m", "m, s"]) {
        const got = await both(engine, `SELECT * FROM t ${where} LATEST ON ts PARTITION BY ${keys}`, sym);
        if (where === "WHERE i = 1000") assert.equal(got.length, 0);
      }
    }
    const nulls = await both(
      engine,
      "SELECT o, x FROM t WHERE side = 'sell' LATEST ON ts PARTITION BY o",
      sym,
    );
    assert.ok(nulls.some((r) => r[0] === null), "the NULL key, met only in the oldest rows");
    // Filters the kernels do not take: an OR, arithmetic, a function of the timestamp.
    await both(engine, "SELECT * FROM t WHERE i % 7 = 3 OR d > 0.99 LATEST ON ts PARTITION BY s, side", sym);
    await both(engine, "SELECT * FROM t WHERE hour(ts) = 3 LATEST ON ts PARTITION BY m", sym);
    await both(engine, "SELECT * FROM t WHERE s IS NULL LATEST ON ts PARTITION BY side", sym);
    // A time interval with a filter; keys that are not SYMBOL columns.
    await both(
      engine,
      "SELECT * FROM t WHERE ts < '2024-01-02' AND side = 'buy' LATEST ON ts PARTITION BY s",
      sym,
    );
    await both(engine, "SELECT * FROM t WHERE side = 'buy' LATEST ON ts PARTITION BY i", "backward hashed");
    await both(
      engine,
      "SELECT * FROM t WHERE side = 'buy' LATEST ON ts PARTITION BY i, s",
      "backward hashed",
    );
    for (const where of ["", "WHERE v > 1", "WHERE v > 100"]) {
      await both(engine, `SELECT * FROM dup ${where} LATEST ON ts PARTITION BY s`, sym);
      await both(engine, `SELECT * FROM e ${where} LATEST ON ts PARTITION BY s`, sym);
    }
    // The last stored of equal timestamps wins; equal timestamps come out in storage order.
    assert.equal(
      show(await rows(engine, "SELECT s, v FROM dup WHERE v < 7 LATEST ON ts PARTITION BY s")),
      show([["a", 2], ["b", 5], [null, 6]]),
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("LATEST ON a growing table searches only new rows for a NULL key", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_latest_nulls_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  const x = (sql: string) => engine.execute(sql, adminSession());
  const append = (from: number, n: number) =>
    x(
      `INSERT INTO g SELECT ('2024-01-01'::timestamp + x * 100000), CASE x % 3 WHEN 0 THEN 'a' WHEN 1 THEN 'b' ` +
        `ELSE 'c' END, x FROM (SELECT x + ${from - 1} x FROM long_sequence(${n}))`,
    );
  const sql = "SELECT * FROM g LATEST ON ts PARTITION BY s";
  try {
    await x("CREATE TABLE g (ts TIMESTAMP, s SYMBOL, v LONG) TIMESTAMP(ts) PARTITION BY MONTH");
    await append(1, 200_000);
    const before = nullSearch.rows;
    await both(engine, sql, "backward symbol keys");
    assert.ok(nullSearch.rows - before >= 199_990, "the first run searches every older row");
    await append(200_001, 50_000);
    const again = nullSearch.rows;
    await both(engine, sql, "backward symbol keys");
    assert.ok(nullSearch.rows - again <= 50_010, "a rerun searches only the rows added since");
    const same = nullSearch.rows;
    await both(engine, sql, "backward symbol keys");
    assert.equal(nullSearch.rows, same, "nothing added: nothing searched");
    // A NULL key in old rows is still found after they were known NULL-free (a new version).
    await x("INSERT INTO g VALUES ('2024-01-01T00:00:00.05', NULL, -1)");
    assert.equal(
      show((await both(engine, sql, "backward symbol keys")).find((r) => r[1] === null)),
      show([1704067200050000n, null, -1n]),
    );
    await append(250_001, 70_000);
    await both(engine, sql, "backward symbol keys");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
