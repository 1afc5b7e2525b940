/**
 * touch(SELECT ...): QuestDB's page count of the frames a table query reads (TouchTableFunctionFactory):
 * each partition slice inside an interval, each selected column ceil(bytes / 4096) pages.
 */
import assert from "node:assert/strict";
import { adminSession } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";
import { withTempEngine } from "../_temp_engine.ts";

const pages = (n: number) => `{"data_pages": ${n}, "index_key_pages":0, "index_values_pages": 0}`;

Deno.test("touch counts the pages of each partition slice and column a table query reads", async () => {
  await withTempEngine({ prefix: "qdb_touch_", cacheBytes: 16 * 1024 * 1024 }, async (engine) => {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, v LONG, s STRING, w VARCHAR) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    // Day 1: 1000 rows (8000 bytes of LONG: 2 pages); day 2: one row.
    await engine.execute(
      "INSERT INTO t SELECT timestamp_sequence('2024-01-01', 60000000), x, 'abc', 'a longer varchar' FROM long_sequence(1000)",
      adminSession(),
    );
    await engine.execute("INSERT INTO t VALUES ('2024-01-02T05:00:00', 1, null, 'short')", adminSession());
    const touch = async (q: string) => (await rows(engine, `SELECT touch(${q})`))[0][0];
    // 1000 × (4 + 2 × 3) STRING bytes: 3 pages; 1000 × 16 VARCHAR bytes: 4 pages; day 2: 1 + 1 + 1 + 0.
    assert.equal(await touch("SELECT * FROM t"), pages(2 + 2 + 3 + 4 + 3));
    assert.equal(await touch("SELECT v FROM t"), pages(2 + 1));
    // The first 100 minutes of day 1: 100 rows, one page each column.
    assert.equal(await touch("SELECT ts, v FROM t WHERE ts < '2024-01-01T01:40'"), pages(2));
    assert.equal(await touch("SELECT v FROM t WHERE ts IN '2024-01-02'"), pages(1));
    await assert.rejects(
      () => rows(engine, "SELECT touch(SELECT * FROM t WHERE v > 1)"),
      /query does not support framing execution and cannot be pre-touched/,
    );
    await assert.rejects(() => rows(engine, "SELECT touch(SELECT v + 1 FROM t)"), /cannot be pre-touched/);
  });
});
