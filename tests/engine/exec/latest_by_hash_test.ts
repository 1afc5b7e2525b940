/**
 * LATEST ON with keys that are not all SYMBOL columns (latest_by_hash.ts: the backward read
 * through dense key ids) against the forward row read (`setReferenceExecution`): LONG, INT,
 * DOUBLE (NaN, -0), STRING, VARCHAR, TIMESTAMP keys and expressions, alone and with SYMBOLs,
 * with NULL keys of each type, WHERE filters (kernel comparisons, an OR the kernels do not take,
 * a filter on the key, one matching nothing), time intervals, equal timestamps (the last stored
 * row wins), many partitions, keys spread over more than a batch, an empty table, and a
 * predicate over the result. EXPLAIN names the operator. Then LATEST ON over subqueries
 * (latest_by_forward.ts, `forward hashed`): filtered, reversed, with equal timestamps within a
 * key (the last row read wins), from a function table, empty, under a predicate.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { explain, rows } from "../_result_rows.ts";

const show = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x));

async function both(engine: Engine, sql: string, op = "backward hashed"): Promise<unknown[][]> {
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

Deno.test("LATEST ON with keys of any type equals the forward row read", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_latest_hash_" });
  const engine = await Engine.open({ root, cacheBytes: 128 * 1024 * 1024 });
  try {
    const x = (sql: string) => engine.execute(sql, adminSession());
    // 150k rows over ~42 hourly partitions; keys with NULLs of every type.
    await x(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 1000000) ts, " +
        "rnd_symbol('a','b','c',NULL) s, rnd_int(0, 50, 5) i, rnd_long(0, 3000, 4) l, " +
        "CASE WHEN x % 11 = 0 THEN NULL WHEN x % 13 = 0 THEN -0.0 WHEN x % 17 = 0 THEN 0.0 " +
        "ELSE CAST(x % 40 AS DOUBLE) / 4 END d, " +
        "rnd_str('p','q','r',NULL) str, CAST(rnd_str('v1','v2','v3',NULL) AS VARCHAR) vc, " +
        "rnd_timestamp('2020-01-01', '2020-01-01T00:00:00.000200', 3) tk, x " +
        "FROM long_sequence(150000)) TIMESTAMP(ts) PARTITION BY HOUR",
    );
    // Equal timestamps within and across keys.
    await x("CREATE TABLE dup (ts TIMESTAMP, k LONG, s SYMBOL, v INT) TIMESTAMP(ts) PARTITION BY DAY");
    await x(
      "INSERT INTO dup VALUES ('2024-01-01T00:00:00Z', 1, 'a', 1), ('2024-01-01T00:00:00Z', 1, 'a', 2), " +
        "('2024-01-01T00:00:00Z', NULL, 'a', 3), ('2024-01-02T00:00:00Z', 2, NULL, 4), " +
        "('2024-01-02T00:00:00Z', 2, NULL, 5), ('2024-01-02T00:00:00Z', NULL, 'b', 6), " +
        "('2024-01-02T00:00:00Z', 1, 'a', 7)",
    );
    await x("CREATE TABLE e (ts TIMESTAMP, k LONG, v INT) TIMESTAMP(ts) PARTITION BY DAY");
    for (
      const where of [
        "",
        "WHERE s = 'a'",
        "WHERE x > 100000",
        "WHERE i % 7 = 3 OR l > 2900",
        "WHERE l IS NULL",
        "WHERE x < 0",
        "WHERE ts < '2024-01-02' AND i > 10",
      ]
    ) {
      for (const keys of ["l", "i", "d", "str", "vc", "tk", "s, l", "l, s", "i, str, s", "d, vc", "x"]) {
        const got = await both(engine, `SELECT * FROM t ${where} LATEST ON ts PARTITION BY ${keys}`);
        if (where === "WHERE x < 0") assert.equal(got.length, 0);
      }
    }
    // Keys are met both as NULL and as values; -0 and 0 are one key.
    const nulls = await both(engine, "SELECT l, x FROM t LATEST ON ts PARTITION BY l");
    assert.ok(nulls.some((r) => r[0] === null), "the NULL LONG key");
    assert.equal(nulls.length, 3002);
    const doubles = await both(engine, "SELECT d, x FROM t LATEST ON ts PARTITION BY d");
    assert.equal(doubles.length, 41, "40 values (0 and -0 one), and NULL");
    // A column list, an interval, a predicate over the result. Keys are column names, as in
    // QuestDB (SqlParserTest#testLatestBySyntax8): an expression is refused.
    await both(engine, "SELECT ts, i, x FROM t WHERE ts IN '2024-01-01' LATEST ON ts PARTITION BY i");
    await assert.rejects(
      () => rows(engine, "SELECT * FROM t LATEST ON ts PARTITION BY x % 1000"),
      /column name expected/,
    );
    await both(engine, "SELECT * FROM (SELECT * FROM t LATEST ON ts PARTITION BY l) WHERE i > 25");
    // Columns nothing above reads are left out of the gathered rows: only what is read counts.
    await both(
      engine,
      "SELECT x, i FROM (SELECT * FROM t WHERE s = 'a' LATEST ON ts PARTITION BY l, str) WHERE d > 2",
    );
    const sums = await both(
      engine,
      "SELECT count(*), sum(x), max(ts) FROM (SELECT * FROM t LATEST ON ts PARTITION BY i, s)",
    );
    assert.ok(Number(sums[0][0]) > 100);
    for (const where of ["", "WHERE v > 1", "WHERE v > 100"]) {
      await both(engine, `SELECT * FROM dup ${where} LATEST ON ts PARTITION BY k`);
      await both(engine, `SELECT * FROM dup ${where} LATEST ON ts PARTITION BY k, s`);
      assert.equal((await both(engine, `SELECT * FROM e ${where} LATEST ON ts PARTITION BY k`)).length, 0);
    }
    // The last stored of equal timestamps wins; equal timestamps come out in storage order.
    assert.equal(
      show(await rows(engine, "SELECT k, v FROM dup WHERE v < 7 LATEST ON ts PARTITION BY k")),
      show([[1n, 2], [2n, 5], [null, 6]]),
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("LATEST ON over other inputs (forward hashed) equals the forward row read", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_latest_fwd_" });
  const engine = await Engine.open({ root, cacheBytes: 128 * 1024 * 1024 });
  try {
    const x = (sql: string) => engine.execute(sql, adminSession());
    await x(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 1000000) ts, " +
        "rnd_symbol('a','b','c',NULL) s, rnd_int(0, 50, 5) i, rnd_long(0, 3000, 4) l, " +
        "CASE WHEN x % 11 = 0 THEN NULL WHEN x % 13 = 0 THEN -0.0 ELSE CAST(x % 40 AS DOUBLE) / 4 END d, " +
        "rnd_str('p','q','r',NULL) str, x " +
        "FROM long_sequence(150000)) TIMESTAMP(ts) PARTITION BY HOUR",
    );
    const fwd = "forward hashed";
    // Subqueries as the input: timestamps in order, reversed, repeated (ties: the last row read
    // wins), and from a function table.
    for (const keys of ["l", "i", "d", "str", "s", "s, l", "i, str, s", "x"]) {
      await both(
        engine,
        `SELECT * FROM (SELECT * FROM t WHERE i > 10) timestamp(ts) LATEST ON ts PARTITION BY ${keys}`,
        fwd,
      );
      await both(
        engine,
        `SELECT * FROM (SELECT * FROM t ORDER BY ts DESC) timestamp(ts) LATEST ON ts PARTITION BY ${keys}`,
        fwd,
      );
    }
    await both(
      engine,
      "SELECT * FROM (SELECT timestamp_sequence(0, 1000) ts, x % 7 k, x FROM long_sequence(100000)) timestamp(ts) " +
        "LATEST ON ts PARTITION BY k",
      fwd,
    );
    await both(
      engine,
      "SELECT * FROM (SELECT CAST(x / 4 AS TIMESTAMP) ts, x % 2 k, x FROM long_sequence(1000)) timestamp(ts) " +
        "LATEST ON ts PARTITION BY k",
      fwd,
    );
    const empty = await both(
      engine,
      "SELECT * FROM (SELECT * FROM t WHERE x < 0) timestamp(ts) LATEST ON ts PARTITION BY l",
      fwd,
    );
    assert.equal(empty.length, 0);
    await both(
      engine,
      "SELECT * FROM (SELECT * FROM (SELECT * FROM t WHERE i > 10) timestamp(ts) LATEST ON ts PARTITION BY l) WHERE i > 30",
      fwd,
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
