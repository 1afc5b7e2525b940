/**
 * Row writes into Parquet partitions (engine/storage/parquet_merge.ts): INSERTs into the middle,
 * before the first row and after the last row of Parquet partitions, with every column type,
 * new symbols and a column added after the conversion, answer as the same writes into a native
 * twin table; the partitions stay Parquet (also after reopening), each has one version folder
 * once the old ones are collected, and DuckDB reads the merged files. A SIGKILLed writer leaves
 * the table answering as before (the committed Parquet version stays until the new one is).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { answers, typesTable } from "./_tables.ts";
import { openDuck } from "./duckdb.ts";
import { CRASH_TABLE, killRounds } from "./_kill_loop.ts";

const QUERIES = [
  "SELECT * FROM %t",
  "SELECT sym, count(), sum(d), min(l), max(i), avg(f), count(vc), max(st) FROM %t GROUP BY sym ORDER BY sym",
  "SELECT ts, l, vc, st FROM %t WHERE ts IN '2024-01-02'",
  "SELECT ts, sum(l), count(extra) FROM %t SAMPLE BY 6h",
];

/** The same late rows for either table: middle, first, last of Parquet partitions, new symbols. */
const WRITES = [
  `INSERT INTO %t (ts, sym, d, l, i, vc, st, b, sh, by, f, dt, u, g, ip, l256, ch) VALUES
    ('2024-01-02T07:15:00Z', 'NEW', 1.5, -1, 7, 'late é', 'späť 字', true, 3, 4, 2.5, '2024-01-02',
     '11111111-2222-3333-4444-555555555555', #u33dc0, '10.0.0.1', 0x01, 'q')`,
  "INSERT INTO %t (ts, sym, l, vc) VALUES ('2024-01-01T00:00:00Z', 'A', -2, 'first'), ('2024-01-03T23:45:00Z', NULL, -3, NULL)",
  `INSERT INTO %t (ts, sym, l, st) SELECT timestamp_sequence('2024-01-01T00:10:00', 7200000000L), 'S' || (x % 3), -x, 'many ' || x
    FROM long_sequence(50)`,
];

async function formats(engine: Engine, table: string): Promise<string[]> {
  const r = await rows(engine, `SELECT name, isParquet FROM table_partitions('${table}')`);
  return r.map((x) => `${x[0]}:${x[1]}`);
}

async function both(engine: Engine, sql: string): Promise<void> {
  for (const t of ["t", "n"]) await engine.execute(sql.replaceAll("%t", t), adminSession());
}

async function same(engine: Engine, message: string): Promise<void> {
  const ours = await answers(engine, QUERIES.map((q) => q.replaceAll("%t", "t")));
  const twin = await answers(engine, QUERIES.map((q) => q.replaceAll("%t", "n")));
  assert.deepEqual(ours, twin, message);
}

Deno.test("INSERT into Parquet partitions merges the rows, keeps the partitions Parquet, answers as native", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_merge_" });
  const open = () => Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  let engine = await open();
  const duck = await openDuck();
  try {
    await engine.execute(typesTable("t"), adminSession());
    await engine.execute(
      "CREATE TABLE n AS (SELECT * FROM t) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await engine.execute(
      "ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-04'",
      adminSession(),
    );
    await both(engine, "ALTER TABLE %t ADD COLUMN extra LONG");
    const parquet = [
      "2024-01-01:true",
      "2024-01-02:true",
      "2024-01-03:true",
      "2024-01-04:false",
      "2024-01-05:false",
    ];
    assert.deepEqual(await formats(engine, "t"), parquet);
    for (const [k, sql] of WRITES.entries()) {
      await both(engine, sql);
      assert.deepEqual(await formats(engine, "t"), parquet, `write ${k}: the partitions stay Parquet`);
      await same(engine, `write ${k}: same answers as the native twin`);
    }
    await both(engine, "INSERT INTO %t (ts, l, extra) VALUES ('2024-01-02T03:03:00Z', 5, 42)");
    await same(engine, "a value of the column added after the conversion");
    await engine.close();
    engine = await open();
    assert.deepEqual(await formats(engine, "t"), parquet, "Parquet after reopening");
    await same(engine, "same answers after reopening");

    // One folder per partition: the replaced versions (old file, native folders between) are gone.
    const tableDir = [...Deno.readDirSync(root)].find((e) => e.name.startsWith("t~"))!.name;
    const folders = [...Deno.readDirSync(`${root}/${tableDir}`)].filter((e) => e.isDirectory);
    assert.equal(folders.length, 5, folders.map((f) => f.name).join(" "));
    const theirs = await duck.rows(
      `SELECT count(*) n, sum(l) sl, count(st) cs FROM read_parquet('${root}/${tableDir}/*/data.parquet')`,
    );
    const ours = await rows(engine, "SELECT count(), sum(l), count(st) FROM t WHERE ts < '2024-01-04'");
    const t = theirs[0];
    assert.deepEqual([[BigInt(t.n as number), BigInt(t.sl as number), BigInt(t.cs as number)]], ours);
  } finally {
    duck.close();
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "SIGKILL during an INSERT into a Parquet partition leaves the table answering as before",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_pq_merge_crash_" });
    try {
      const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
      // DEDUP on (ts, sym): the child writes rows equal to existing ones, so every commit keeps
      // the answers and only the files change.
      await engine.execute(CRASH_TABLE, adminSession());
      await engine.execute("ALTER TABLE t DEDUP ENABLE UPSERT KEYS(ts, sym)", adminSession());
      await engine.execute(
        "ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-04'",
        adminSession(),
      );
      assert.deepEqual(await formats(engine, "t"), [
        "2024-01-01:true",
        "2024-01-02:true",
        "2024-01-03:true",
        "2024-01-04:false",
        "2024-01-05:false",
      ]);
      await engine.close();
      const rounds = 5;
      const commits = await killRounds(root, {
        script: "./_merge_crash_child.ts",
        args: [root],
        commitWord: "merged",
        label: "writer",
        rounds,
        // A merge of the 21,600-row partition takes ~0.1-0.3 s here: kills land inside and between.
        workMsMax: 2000,
      });
      console.log(`${rounds} kills, ${commits} merges committed in between`);
      assert.ok(commits > 0, "no merge ever committed: the child is too slow for the kill windows");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
