/**
 * External engines read a table's Parquet partitions from the table folder (issue #21;
 * docs/storage.md "Other readers"): DuckDB's glob `<table folder>/<star>/data.parquet` with
 * the partition taken from the folder name sees each converted partition once, superseded
 * versions included only while a query still reads them, and `_txn` names the exact set.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { storageOf } from "../../engine/engine.ts";
import { openDuck } from "./duckdb.ts";

const run = (engine: Engine, sql: string) => engine.execute(sql, adminSession());

/** Per partition (from the folder name): rows, sum(l), min and max ts, as docs/storage.md reads them. */
const duckPerPartition = (source: string) =>
  `SELECT regexp_extract(filename, '/([^/]+?)(\\.[0-9]+)?/data\\.parquet$', 1) AS "partition",
     count(*) n, sum(l) sl, min(ts)::VARCHAR lo, max(ts)::VARCHAR hi
   FROM read_parquet(${source}, filename = true) GROUP BY 1 ORDER BY 1`;

Deno.test("DuckDB reads every Parquet partition of a FORMAT PARQUET table by the documented glob", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_external_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  const duck = await openDuck();
  try {
    await run(
      engine,
      "CREATE TABLE p (ts TIMESTAMP, sym SYMBOL, l LONG) TIMESTAMP(ts) PARTITION BY DAY FORMAT PARQUET WAL",
    );
    for (const day of ["01", "02", "03", "04"]) {
      await run(
        engine,
        `INSERT INTO p SELECT timestamp_sequence('2024-01-${day}', 3600000000L), rnd_symbol('A','B'), x
         FROM long_sequence(24)`,
      );
    }
    // Late rows rewrite two Parquet partitions: new versions, the old ones superseded.
    await run(
      engine,
      "INSERT INTO p VALUES ('2024-01-02T05:30:00Z', 'A', 1000), ('2024-01-01T01:30:00Z', 'B', 7)",
    );
    const tableDir = [...Deno.readDirSync(root)].find((e) => e.name.startsWith("p~"))!.name;
    const glob = `'${root}/${tableDir}/*/data.parquet'`;

    const ours = await rows(
      engine,
      `SELECT name, numRows FROM table_partitions('p') WHERE isParquet`,
    );
    assert.deepEqual(ours.map((r) => r[0]), ["2024-01-01", "2024-01-02", "2024-01-03"]);
    const sums = await rows(
      engine,
      "SELECT to_str(ts, 'yyyy-MM-dd') d, count(), sum(l) FROM p WHERE ts < '2024-01-04' ORDER BY d",
    );
    const expected = sums.map((r) => [r[0], Number(r[1]), Number(r[2])]);
    const fileCount = async () =>
      Number(
        (await duck.rows(`SELECT count(DISTINCT filename) n FROM read_parquet(${glob}, filename = true)`))[0]
          .n,
      );
    assert.equal(await fileCount(), 3);
    const read = async (source: string) =>
      (await duck.rows(duckPerPartition(source))).map((r) => [r.partition, Number(r.n), Number(r.sl)]);
    assert.deepEqual(await read(glob), expected, "the glob sees each partition once");
    assert.ok((await read(glob)).some((r) => r[1] === 25), "the late rows are in the rewritten versions");

    // A query still reading the old versions keeps them: the glob sees them, `_txn` does not.
    const table = storageOf(engine).table("p")!;
    const held = table.snapshot();
    try {
      await run(engine, "INSERT INTO p VALUES ('2024-01-03T05:30:00Z', 'A', 5)");
      assert.equal(await fileCount(), 4, "a superseded version is still on disk");
      const txn = await duck.rows(
        `SELECT p->>'name' AS name, p->>'version' AS version
         FROM (SELECT unnest(json_extract(content, '$.partitions[*]')) p FROM read_text('${root}/${tableDir}/_txn'))
         WHERE json_extract(p, '$.parquet') IS NOT NULL AND json_extract(p, '$.parquet.remote') IS NULL ORDER BY 1`,
      );
      const files = txn.map((r) =>
        `'${root}/${tableDir}/${r.name}${Number(r.version) === 0 ? "" : `.${r.version}`}/data.parquet'`
      );
      const exact = await rows(
        engine,
        "SELECT to_str(ts, 'yyyy-MM-dd') d, count(), sum(l) FROM p WHERE ts < '2024-01-04' ORDER BY d",
      );
      assert.deepEqual(
        await read(`[${files.join(", ")}]`),
        exact.map((r) => [r[0], Number(r[1]), Number(r[2])]),
        "_txn names the committed versions",
      );
    } finally {
      held.release();
    }
    // Released: the superseded version goes (deletion runs after the release, under the table lock).
    await run(engine, "SELECT count() FROM p");
    // While the deletion runs, the glob may list a folder that is gone by the time DuckDB opens it.
    const settledCount = () =>
      fileCount().catch((e) => {
        if (/No such file or directory/.test(String(e))) return -1;
        throw e;
      });
    for (let i = 0; i < 40 && await settledCount() !== 3; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await fileCount(), 3, "one version per partition again");
    assert.deepEqual(
      await read(glob),
      (await rows(
        engine,
        "SELECT to_str(ts, 'yyyy-MM-dd') d, count(), sum(l) FROM p WHERE ts < '2024-01-04' ORDER BY d",
      ))
        .map((r) => [r[0], Number(r[1]), Number(r[2])]),
    );
    const span = await duck.rows(
      `SELECT min(ts)::VARCHAR lo, max(ts)::VARCHAR hi FROM read_parquet(${glob})`,
    );
    assert.deepEqual(span, [{ lo: "2024-01-01 00:00:00+00", hi: "2024-01-03 23:00:00+00" }]);
  } finally {
    duck.close();
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
