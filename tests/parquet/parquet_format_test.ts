/**
 * FORMAT PARQUET tables (issue #21; spec/sql.md §26.5): CREATE TABLE ... FORMAT PARQUET and
 * ALTER TABLE SET FORMAT. Appends go to native files in the active partition; a partition
 * becomes Parquet once a newer one exists, and every answer equals a native table's.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, type SqlError } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";

async function failure(engine: Engine, sql: string): Promise<SqlError> {
  try {
    await engine.execute(sql, adminSession());
  } catch (e) {
    return e as SqlError;
  }
  throw new Error(`expected an error from ${sql}`);
}

const run = (engine: Engine, sql: string) => engine.execute(sql, adminSession());

async function withEngine(
  fn: (engine: Engine, reopen: () => Promise<Engine>) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_format_" });
  let engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    await fn(engine, async () => {
      await engine.close();
      engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
      return engine;
    });
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

const COLUMNS = "(ts TIMESTAMP, sym SYMBOL, d DOUBLE, l LONG, vc VARCHAR)";

/** Rows of day `day` (1-based, January 2024), 48 per day, NULLs included. */
function dayInsert(table: string, day: number): string {
  const start = `2024-01-${String(day).padStart(2, "0")}`;
  return `INSERT INTO ${table} SELECT timestamp_sequence('${start}', 1800000000L) ts,
    rnd_symbol('A','B','C', NULL) sym,
    CASE WHEN x % 7 = 0 THEN NULL ELSE x * 1.5 + ${day} END d,
    x + ${day * 1000} l,
    CASE WHEN x % 5 = 0 THEN NULL ELSE 'v' || x END vc
  FROM long_sequence(48)`;
}

const QUERIES = (t: string) => [
  `SELECT ts, d, l, vc FROM ${t}`,
  `SELECT count(), sum(d), min(l), max(l), count(vc) FROM ${t}`,
  `SELECT ts, sum(l), count(d) FROM ${t} SAMPLE BY 1d`,
  `SELECT count() FROM ${t} WHERE ts IN '2024-01-02' AND d > 10`,
];

async function answers(engine: Engine, table: string): Promise<string> {
  const out = [];
  for (const q of QUERIES(table)) out.push(await rows(engine, q));
  return JSON.stringify(out, (_, v) => typeof v === "bigint" ? `${v}n` : v);
}

const formats = async (engine: Engine, t: string) =>
  (await rows(engine, `SELECT name, isParquet FROM table_partitions('${t}')`)).map((r) => `${r[0]}:${r[1]}`);

Deno.test("CREATE TABLE ... FORMAT PARQUET: partitions become Parquet once not active, answers as native", async () => {
  await withEngine(async (engine, reopen) => {
    await run(engine, `CREATE TABLE p ${COLUMNS} TIMESTAMP(ts) PARTITION BY DAY FORMAT PARQUET WAL`);
    await run(engine, `CREATE TABLE n ${COLUMNS} TIMESTAMP(ts) PARTITION BY DAY WAL`);
    for (let day = 1; day <= 4; day++) {
      await run(engine, dayInsert("p", day));
      await run(engine, dayInsert("n", day));
      const expected = Array.from({ length: day }, (_, i) => `2024-01-0${i + 1}:${i + 1 < day}`);
      assert.deepEqual(await formats(engine, "p"), expected, `after day ${day}`);
    }
    assert.deepEqual(await formats(engine, "n"), [1, 2, 3, 4].map((d) => `2024-01-0${d}:false`));
    const native = await answers(engine, "n");
    assert.equal(await answers(engine, "p"), native.replaceAll('"n"', '"p"'));
    assert.equal(await answers(engine, "p"), native);

    // A batch spanning days converts every partition it ends, in one go.
    const span = `INSERT INTO %t SELECT timestamp_sequence('2024-01-04T12', 3600000000L), 'A', x, x, 'w'
      FROM long_sequence(60)`;
    await run(engine, span.replace("%t", "p"));
    await run(engine, span.replace("%t", "n"));
    assert.deepEqual(await formats(engine, "p"), [
      "2024-01-01:true",
      "2024-01-02:true",
      "2024-01-03:true",
      "2024-01-04:true",
      "2024-01-05:true",
      "2024-01-06:false",
    ]);

    // Late rows into a Parquet partition: merged into a new Parquet version in one commit.
    const late = "INSERT INTO %t VALUES ('2024-01-02T07:15:00Z', 'C', 99.5, 7, 'late')";
    await run(engine, late.replace("%t", "p"));
    await run(engine, late.replace("%t", "n"));
    assert.ok((await formats(engine, "p")).includes("2024-01-02:true"));
    assert.equal(await answers(engine, "p"), await answers(engine, "n"));

    const ddl = (await rows(engine, "SHOW CREATE TABLE p"))[0][0] as string;
    assert.match(ddl, /\nFORMAT PARQUET\n/);
    assert.doesNotMatch((await rows(engine, "SHOW CREATE TABLE n"))[0][0] as string, /FORMAT/);

    engine = await reopen();
    assert.equal(await answers(engine, "p"), await answers(engine, "n"), "same answers after reopening");
    await run(engine, dayInsert("p", 8));
    assert.deepEqual((await formats(engine, "p")).slice(-2), ["2024-01-06:true", "2024-01-08:false"]);
  });
});

Deno.test("SET FORMAT PARQUET applies to partitions written afterwards; SET FORMAT NATIVE stops converting", async () => {
  await withEngine(async (engine) => {
    await run(engine, `CREATE TABLE t ${COLUMNS} TIMESTAMP(ts) PARTITION BY DAY WAL`);
    await run(engine, `CREATE TABLE n ${COLUMNS} TIMESTAMP(ts) PARTITION BY DAY WAL`);
    for (const day of [1, 2, 3]) {
      await run(engine, dayInsert("t", day));
      await run(engine, dayInsert("n", day));
    }
    await run(engine, "ALTER TABLE t SET FORMAT PARQUET");
    // Existing partitions are not converted, nor the active one until it stops being active.
    assert.deepEqual(await formats(engine, "t"), [
      "2024-01-01:false",
      "2024-01-02:false",
      "2024-01-03:false",
    ]);
    assert.match((await rows(engine, "SHOW CREATE TABLE t"))[0][0] as string, /FORMAT PARQUET/);
    await run(engine, dayInsert("t", 4));
    await run(engine, dayInsert("n", 4));
    assert.deepEqual(await formats(engine, "t"), [
      "2024-01-01:false",
      "2024-01-02:false",
      "2024-01-03:true",
      "2024-01-04:false",
    ]);
    // Setting it again keeps the point it was set at.
    await run(engine, "ALTER TABLE t SET FORMAT PARQUET");
    await run(engine, dayInsert("t", 5));
    await run(engine, dayInsert("n", 5));
    assert.deepEqual((await formats(engine, "t")).slice(0, 4), [
      "2024-01-01:false",
      "2024-01-02:false",
      "2024-01-03:true",
      "2024-01-04:true",
    ]);
    assert.equal(await answers(engine, "t"), await answers(engine, "n"));

    await run(engine, "ALTER TABLE t SET FORMAT NATIVE");
    assert.doesNotMatch((await rows(engine, "SHOW CREATE TABLE t"))[0][0] as string, /FORMAT/);
    await run(engine, dayInsert("t", 6));
    await run(engine, dayInsert("n", 6));
    // Nothing converted back, nothing new converted.
    assert.deepEqual(await formats(engine, "t"), [
      "2024-01-01:false",
      "2024-01-02:false",
      "2024-01-03:true",
      "2024-01-04:true",
      "2024-01-05:false",
      "2024-01-06:false",
    ]);
    // Rows into a Parquet partition of a native-format table merge and it stays Parquet, as
    // after CONVERT PARTITION (parquet_merge.ts).
    await run(engine, "INSERT INTO t VALUES ('2024-01-03T01:00:00Z', 'A', 1.0, 1, 'x')");
    await run(engine, "INSERT INTO n VALUES ('2024-01-03T01:00:00Z', 'A', 1.0, 1, 'x')");
    assert.deepEqual((await formats(engine, "t")).slice(2, 4), ["2024-01-03:true", "2024-01-04:true"]);
    assert.equal(await answers(engine, "t"), await answers(engine, "n"));
  });
});

Deno.test("FORMAT PARQUET needs a partitioned WAL table; bad format words fail with a position", async () => {
  await withEngine(async (engine) => {
    const bypassSql = `CREATE TABLE b ${COLUMNS} TIMESTAMP(ts) PARTITION BY DAY FORMAT PARQUET BYPASS WAL`;
    const bypass = await failure(engine, bypassSql);
    assert.match(bypass.message, /FORMAT PARQUET is only supported on partitioned WAL tables/);
    assert.equal(bypass.position, bypassSql.indexOf("FORMAT"));
    const none = await failure(engine, `CREATE TABLE b ${COLUMNS} FORMAT PARQUET`);
    assert.match(none.message, /only supported on partitioned WAL tables/);
    const wordSql = `CREATE TABLE b ${COLUMNS} TIMESTAMP(ts) PARTITION BY DAY FORMAT CSV`;
    const word = await failure(engine, wordSql);
    assert.match(word.message, /'native' or 'parquet' expected/);
    assert.equal(word.position, wordSql.indexOf("CSV"));
    await run(engine, `CREATE TABLE b ${COLUMNS} TIMESTAMP(ts) PARTITION BY DAY FORMAT NATIVE BYPASS WAL`);
    assert.match(
      (await failure(engine, "ALTER TABLE b SET FORMAT PARQUET")).message,
      /only supported on partitioned WAL tables/,
    );
    const alterWord = await failure(engine, "ALTER TABLE b SET FORMAT ORC");
    assert.match(alterWord.message, /'native' or 'parquet' expected/);
    assert.equal(alterWord.position, 25);
    await run(engine, "ALTER TABLE b SET FORMAT NATIVE");
    assert.deepEqual(await rows(engine, "SELECT count() FROM tables() WHERE table_name = 'b'"), [[1n]]);
  });
});
