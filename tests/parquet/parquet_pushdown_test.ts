/**
 * read_parquet pushdown (issue #21): only the columns a query uses are decoded, and row groups
 * whose min/max statistics exclude every row a filter keeps are not decoded at all; answers
 * stay those of the same query over the table (and DuckDB's over the file).
 */
import assert from "node:assert/strict";
import { adminSession, Engine, type Value } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { parquetDecodeCounts } from "../../engine/parquet/reader.ts";
import { openDuck } from "./duckdb.ts";

/** The query's rows and how many row groups / column chunks it decoded. */
async function counted(engine: Engine, sql: string): Promise<[Value[][], number, number]> {
  const g = parquetDecodeCounts.rowGroups, c = parquetDecodeCounts.columnChunks;
  const r = await rows(engine, sql);
  return [r, parquetDecodeCounts.rowGroups - g, parquetDecodeCounts.columnChunks - c];
}

Deno.test("read_parquet skips row groups by statistics and decodes only used columns", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_push_" });
  // Files exported by COPY land where read_parquet reads.
  const engine = await Engine.open({ root, copyExportRoot: `${root}/import`, cacheBytes: 64 * 1024 * 1024 });
  try {
    // 10 row groups of 1,000 rows; ts one second apart, x = row number, d = x / 2, s text.
    await engine.execute(
      `CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 1000000L) ts, x, x / 2.0 d,
         cast(x % 1000 as int) i, 's' || (x % 7) s FROM long_sequence(10000)) TIMESTAMP(ts) PARTITION BY DAY`,
      adminSession(),
    );
    await engine.execute("COPY t TO 'f' WITH FORMAT PARQUET ROW_GROUP_SIZE 1000", adminSession());
    const cases: [string, string, number][] = [
      // [query over the file, same over the table, row groups decoded]
      ["x > 9500", "x > 9500", 1],
      ["x >= 2001 AND x <= 3000", "x >= 2001 AND x <= 3000", 1],
      ["x BETWEEN 1500 AND 2500", "x BETWEEN 1500 AND 2500", 2],
      ["3000 < x AND d < 2000.0", "3000 < x AND d < 2000.0", 1],
      ["x = 4242", "x = 4242", 1],
      ["x > 20000", "x > 20000", 0],
      ["i = 5", "i = 5", 10], // i repeats in every group
      ["x > 9500 OR x < 10", "x > 9500 OR x < 10", 10], // OR is not pushed
      ["ts IN '2024-01-01T00:10'", "ts IN '2024-01-01T00:10'", 1],
      [
        "ts >= '2024-01-01T02:00:00.000000Z' AND ts < '2024-01-01T02:10:00.000000Z'",
        "ts >= '2024-01-01T02:00:00.000000Z' AND ts < '2024-01-01T02:10:00.000000Z'",
        1,
      ],
      ["s = 's3'", "s = 's3'", 10], // strings are not bounded
    ];
    for (const [where, tableWhere, groups] of cases) {
      const [got, decoded] = await counted(
        engine,
        `SELECT x, d, s FROM read_parquet('f.parquet') WHERE ${where}`,
      );
      const want = await rows(engine, `SELECT x, d, s FROM t WHERE ${tableWhere}`);
      assert.deepEqual(got, want, where);
      assert.equal(decoded, groups, `row groups decoded for ${where}`);
    }
    // Projection: one column of five is decoded per row group.
    const [sum, groups, chunks] = await counted(engine, "SELECT sum(x) FROM read_parquet('f.parquet')");
    assert.deepEqual(sum, [[50005000n]]);
    assert.deepEqual([groups, chunks], [10, 10]);
    const [cnt, , chunks2] = await counted(engine, "SELECT count() FROM read_parquet('f.parquet')");
    assert.deepEqual([cnt, chunks2], [[[10000n]], 10]);
    const duck = await openDuck();
    try {
      const [d] = await duck.rows(
        `SELECT sum(x)::VARCHAR s FROM read_parquet('${root}/import/f.parquet') WHERE x > 9500`,
      );
      const [[mine]] = await rows(engine, "SELECT sum(x) FROM read_parquet('f.parquet') WHERE x > 9500");
      assert.equal(d.s, String(mine));
    } finally {
      duck.close();
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
