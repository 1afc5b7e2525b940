/**
 * QuestDB behaviours from its sqllogictest files (issue #19): INSERT narrows LONG/DOUBLE into
 * INT as its row copier does (insert_narrowing.ts) while UPDATE stays strict; an aggregate used
 * only in ORDER BY; changed DEDUP UPSERT KEYS replacing every existing row of a key;
 * long_sequence() refusing a DOUBLE count.
 */
import assert from "node:assert/strict";
import { Engine, SqlError } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

async function withEngine(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_narrowing_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function fails(engine: Engine, sql: string, message: string): Promise<void> {
  await assert.rejects(rows(engine, sql), (e: unknown) => {
    assert.ok(e instanceof SqlError, String(e));
    assert.equal(e.message, message, sql);
    return true;
  });
}

Deno.test("INSERT narrows LONG and DOUBLE into integer columns when the value fits", async () => {
  await withEngine(async (engine) => {
    await rows(engine, "CREATE TABLE n (i INT, s SHORT, l LONG, ts TIMESTAMP) TIMESTAMP(ts)");
    await rows(engine, "INSERT INTO n SELECT x, x * 2, x * 3.5, x::timestamp FROM long_sequence(2)");
    await rows(engine, "INSERT INTO n VALUES (5.0885, 7.9, -3.7, 10)");
    await rows(
      engine,
      "INSERT INTO n SELECT NULL::long, NULL::double, NULL::double, 11::timestamp FROM long_sequence(1)",
    );
    assert.deepEqual(await rows(engine, "SELECT i, s, l FROM n"), [
      [1, 2, 3n],
      [2, 4, 7n],
      [5, 7, -3n],
      [null, 0, null],
    ]);
    await fails(
      engine,
      "INSERT INTO n SELECT 5000000000, 1, 1, 12::timestamp FROM long_sequence(1)",
      "inconvertible value: 5000000000 [LONG -> INT]",
    );
    await fails(
      engine,
      "INSERT INTO n SELECT 1, 1e10, 1, 12::timestamp FROM long_sequence(1)",
      "inconvertible value: 1.0E10 [DOUBLE -> SHORT]",
    );
    // The designated timestamp takes a TIMESTAMP, text or NULL only (InsertTest
    // #testInsertWithoutDesignatedTimestampAndTypeDoesNotMatch).
    await fails(
      engine,
      "INSERT INTO n SELECT 1, 1, 1, 12 FROM long_sequence(1)",
      "expected timestamp column but type is INT",
    );
    // UPDATE keeps §3.4's rule.
    await fails(engine, "UPDATE n SET i = l", "inconvertible types: LONG -> INT [from=l, to=i]");
    assert.equal((await rows(engine, "SELECT count() FROM n"))[0][0], 4n);
  });
});

Deno.test("an aggregate only in ORDER BY is computed but not selected", async () => {
  await withEngine(async (engine) => {
    await rows(engine, "CREATE TABLE g (a INT, b INT)");
    await rows(engine, "INSERT INTO g VALUES (1, 21), (2, 21), (3, 22), (4, 22), (5, 22)");
    assert.deepEqual(await rows(engine, "SELECT b, sum(a) FROM g GROUP BY b ORDER BY count(a) DESC"), [
      [22, 12n],
      [21, 3n],
    ]);
    assert.deepEqual(
      await rows(engine, "SELECT b FROM g GROUP BY b ORDER BY max(a) - min(a) DESC, b LIMIT 1"),
      [[22]],
    );
    await fails(engine, "SELECT b, sum(a) FROM g GROUP BY b ORDER BY a", "Invalid column: a");
  });
});

Deno.test("DEDUP UPSERT KEYS changed to fewer keys replaces every existing row of a key", async () => {
  await withEngine(async (engine) => {
    await rows(engine, "CREATE TABLE d (x INT, y LONG, ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY WAL");
    await rows(engine, "ALTER TABLE d DEDUP ENABLE UPSERT KEYS(ts, y)");
    await rows(
      engine,
      "INSERT INTO d VALUES (1, 100, '2020-01-01'), (1, 101, '2020-01-01'), (1, 200, '2020-01-01T00:10')",
    );
    await rows(engine, "ALTER TABLE d DEDUP ENABLE UPSERT KEYS(ts)");
    await rows(engine, "INSERT INTO d VALUES (1, 103, '2020-01-01'), (1, 203, '2020-01-01T00:10')");
    assert.deepEqual(await rows(engine, "SELECT y FROM d ORDER BY ts, y"), [[103n], [103n], [203n]]);
  });
});

Deno.test("long_sequence() takes integer counts only", async () => {
  await withEngine(async (engine) => {
    await fails(
      engine,
      "SELECT * FROM long_sequence(60 * 60 * 2.5)",
      "argument type DOUBLE is not supported",
    );
    assert.deepEqual(await rows(engine, "SELECT count() FROM long_sequence(CAST(2.5 * 2 AS LONG))"), [[5n]]);
  });
});
