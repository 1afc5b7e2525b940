/**
 * UPDATE ... FROM (engine/exec/update_from.ts): the hash-chosen candidates (an equality of
 * WHERE between target and source) and every pair (the same condition hidden in an OR, a
 * cross join cut into chunks of pairs) give the same table, and both match a reference that
 * takes each target row's first matching source row, NULL keys matching NULL keys as QuestDB's
 * `=` does. Sizes make the cross join span several chunks.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

async function withEngine(fn: (run: (sql: string) => Promise<unknown>, engine: Engine) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "qdb_update_from_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await fn((sql) => engine.execute(sql, adminSession()), engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("UPDATE ... FROM by hash and over every pair agree with the first-match reference", async () => {
  await withEngine(async (run, engine) => {
    // Keys 0..99 and NULL on the target, 0..79 and NULL on the source with duplicates.
    const tgtSql = "SELECT timestamp_sequence('2024-01-01', 60_000_000L) ts, " +
      "CASE WHEN x % 97 = 0 THEN NULL ELSE (x * 7 % 100)::int END k, 0.0 v FROM long_sequence(3000)";
    await run(`CREATE TABLE a AS (${tgtSql}) TIMESTAMP(ts) PARTITION BY DAY`);
    await run(`CREATE TABLE b AS (${tgtSql}) TIMESTAMP(ts) PARTITION BY DAY`);
    await run(
      "CREATE TABLE s AS (SELECT CASE WHEN x % 53 = 0 THEN NULL ELSE x * 13 % 80 END k, x * 1.0 w FROM long_sequence(400))",
    );
    const src = (await rows(engine, "SELECT k, w FROM s")) as [bigint | null, number][];
    const before = (await rows(engine, "SELECT ts, k, v FROM a")) as [bigint, number | null, number][];

    await run("UPDATE a SET v = s.w + a.k FROM s WHERE a.k = s.k AND s.w > 10");
    await run("UPDATE b SET v = s.w + b.k FROM s WHERE (b.k = s.k OR false) AND s.w > 10");

    const want = before.map(([ts, k, v]) => {
      const m = src.find(([sk, w]) => (sk === null ? k === null : k !== null && Number(sk) === k) && w > 10);
      // INT NULL plus a double is NULL.
      return [ts, k, m ? (k === null ? null : m[1] + k) : v];
    });
    const gotA = await rows(engine, "SELECT ts, k, v FROM a");
    const gotB = await rows(engine, "SELECT ts, k, v FROM b");
    assert.deepEqual(gotA, want);
    assert.deepEqual(gotB, want);
    const updated = want.filter((r, i) => r[2] !== before[i][2]).length;
    assert.ok(updated > 2000 && updated < 3000, `updated ${updated}`);
  });
});

Deno.test("UPDATE ... FROM reports the rows it updated and leaves a failed statement's table unchanged", async () => {
  await withEngine(async (run, engine) => {
    await run("CREATE TABLE t (ts TIMESTAMP, k INT, v DOUBLE) TIMESTAMP(ts) PARTITION BY DAY");
    await run("INSERT INTO t VALUES ('2024-01-01', 1, 0.0), ('2024-01-02', 2, 0.0), ('2024-01-03', 3, 0.0)");
    await run("CREATE TABLE s (k INT, w DOUBLE, txt STRING)");
    await run("INSERT INTO s VALUES (1, 5.0, 'x'), (3, 7.0, 'not a number')");
    const out = await engine.execute("UPDATE t SET v = s.w FROM s WHERE t.k = s.k", adminSession());
    assert.equal((out as { updated?: number }).updated, 2);
    await assert.rejects(
      () => run("UPDATE t SET v = s.txt FROM s WHERE t.k = s.k"),
      /inconvertible value/,
    );
    assert.deepEqual(await rows(engine, "SELECT k, v FROM t"), [[1, 5], [2, 0], [3, 7]]);
  });
});
