/**
 * ALTER TABLE CONVERT PARTITION TO PARQUET | NATIVE (issue #21): converted partitions answer
 * every query as before (also after a reopen), show their format in table_partitions(), refuse
 * UPDATE, DELETE and column type changes until converted back, and their `data.parquet` is read
 * by DuckDB from the table folder with the same answers.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { answers, failure, typesTable } from "./_tables.ts";
import { openDuck } from "./duckdb.ts";

const TABLE = typesTable("t");

const QUERIES = [
  "SELECT * FROM t",
  "SELECT sym, count(), sum(d), min(l), max(i), avg(f) FROM t GROUP BY sym ORDER BY sym",
  "SELECT ts, l, vc FROM t WHERE d > 50 AND sym = 'B'",
  "SELECT count() FROM t WHERE ts IN '2024-01-02'",
  "SELECT ts, sum(l) FROM t SAMPLE BY 6h",
];

const answersNow = (engine: Engine) => answers(engine, QUERIES);

async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_convert_" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const open = (root: string) => Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });

Deno.test("CONVERT PARTITION TO PARQUET keeps every answer, shows the format, reopens, converts back", async () => {
  await withRoot(async (root) => {
    let engine = await open(root);
    try {
      await engine.execute(TABLE, adminSession());
      const before = await answersNow(engine);
      await engine.execute(
        "ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-01', '2024-01-02'",
        adminSession(),
      );
      const parts = await rows(
        engine,
        "SELECT name, isParquet, parquetFileSize, numRows FROM table_partitions('t')",
      );
      assert.deepEqual(parts.map((p) => [p[0], p[1]]), [
        ["2024-01-01", true],
        ["2024-01-02", true],
        ["2024-01-03", false],
        ["2024-01-04", false],
        ["2024-01-05", false],
      ]);
      assert.ok((parts[0][2] as bigint) > 0n && parts[2][2] === -1n);
      assert.deepEqual(await answersNow(engine), before, "same answers with Parquet partitions");
      await engine.close();
      engine = await open(root);
      assert.deepEqual(await answersNow(engine), before, "same answers after reopening");

      // INSERTs merge into Parquet partitions (parquet_merge_test.ts); other row writes are refused.
      const refused = await failure(engine, "UPDATE t SET l = 0 WHERE ts IN '2024-01-02'");
      assert.match(refused, /partition is in Parquet format; convert it to NATIVE first/);
      assert.match(await failure(engine, "DELETE FROM t WHERE ts IN '2024-01-01'"), /Parquet format/);
      assert.match(await failure(engine, "ALTER TABLE t ALTER COLUMN i TYPE LONG"), /Parquet format/);
      assert.match(
        await failure(engine, "ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-05'"),
        /active partition/,
      );
      assert.deepEqual(await answersNow(engine), before, "refused writes left nothing");

      // Schema changes that touch metadata only keep reading the file by column id.
      await engine.execute("ALTER TABLE t RENAME COLUMN vc TO vc2", adminSession());
      await engine.execute("ALTER TABLE t ADD COLUMN extra LONG", adminSession());
      const renamed = await rows(engine, "SELECT vc2, extra FROM t WHERE ts IN '2024-01-01' LIMIT 3");
      assert.deepEqual(renamed.map((r) => r[1]), [null, null, null]);
      await engine.execute("ALTER TABLE t RENAME COLUMN vc2 TO vc", adminSession());
      await engine.execute("ALTER TABLE t DROP COLUMN extra", adminSession());

      await engine.execute(
        "ALTER TABLE t CONVERT PARTITION TO NATIVE WHERE ts < '2024-01-03'",
        adminSession(),
      );
      const after = await rows(engine, "SELECT isParquet FROM table_partitions('t')");
      assert.deepEqual(after.map((r) => r[0]), [false, false, false, false, false]);
      assert.deepEqual(await answersNow(engine), before, "same answers after converting back");
      await engine.execute("INSERT INTO t (ts, l) VALUES ('2024-01-01T05:00:00Z', 1)", adminSession());
      assert.deepEqual(await rows(engine, "SELECT count() FROM t"), [[201n]]);
    } finally {
      await engine.close();
    }
  });
});

Deno.test("DuckDB reads a converted partition's data.parquet from the table folder with the same answers", async () => {
  await withRoot(async (root) => {
    const engine = await open(root);
    const duck = await openDuck();
    try {
      await engine.execute(TABLE, adminSession());
      await engine.execute(
        "ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-03'",
        adminSession(),
      );
      const tableDir = [...Deno.readDirSync(root)].find((e) => e.name.startsWith("t~"))!.name;
      const glob = `${root}/${tableDir}/*/data.parquet`;
      const files = [...Deno.readDirSync(`${root}/${tableDir}`)]
        .filter((e) =>
          e.isDirectory &&
          [...Deno.readDirSync(`${root}/${tableDir}/${e.name}`)].some((f) => f.name === "data.parquet")
        );
      assert.equal(files.length, 2, "two Parquet partitions");
      const ours = await rows(
        engine,
        "SELECT sym, count(), sum(l), sum(d), count(vc), count(st) FROM t WHERE ts < '2024-01-03' GROUP BY sym ORDER BY sym",
      );
      const theirs = await duck.rows(
        `SELECT sym, count(*) n, sum(l) sl, sum(d) sd, count(vc) cv, count(st) cs FROM read_parquet('${glob}') GROUP BY sym ORDER BY sym NULLS FIRST`,
      );
      assert.deepEqual(
        theirs.map((
          r,
        ) => [
          r.sym,
          BigInt(r.n as number),
          BigInt(r.sl as number),
          r.sd,
          BigInt(r.cv as number),
          BigInt(r.cs as number),
        ]),
        ours,
      );
      const ts = await duck.rows(
        `SELECT min(ts)::VARCHAR lo, max(ts)::VARCHAR hi FROM read_parquet('${glob}')`,
      );
      assert.deepEqual(ts, [{ lo: "2024-01-01 00:00:00+00", hi: "2024-01-02 23:30:00+00" }]);
    } finally {
      duck.close();
      await engine.close();
    }
  });
});

Deno.test("parallel workers read Parquet partitions (symbols re-keyed from the dictionary file) like the main heap", async () => {
  await withRoot(async (root) => {
    const single = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
    await single.execute(TABLE, adminSession());
    await single.execute(
      "ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-04'",
      adminSession(),
    );
    const queries = [
      "SELECT sym, count(), sum(l) FROM t GROUP BY sym ORDER BY sym",
      "SELECT count(*), sum(l), count(d) FROM t WHERE sym = 'B'",
      "SELECT count(*), sum(l), count(d) FROM t",
    ];
    const expected = [];
    for (const q of queries) expected.push(await rows(single, q));
    await single.close();
    const par = await Engine.open({
      root,
      cacheBytes: 64 * 1024 * 1024,
      parallelWorkers: 2,
      parallelValuesMin: 1,
    });
    try {
      const jobs = par.parallel.jobs;
      for (const [i, q] of queries.entries()) assert.deepEqual(await rows(par, q), expected[i], q);
      assert.ok(par.parallel.jobs > jobs, "the queries went to the workers");
    } finally {
      await par.close();
    }
  });
});
