/**
 * Engine.prepare types placeholders from their context without running the statement
 * (issue 18: asyncpg's `x > $1` with an int argument needs `$1` described as int8).
 */
import assert from "node:assert/strict";
import { adminSession, Engine, T } from "../../../engine/mod.ts";
import { storageOf } from "../../../engine/engine.ts";

Deno.test("prepare infers placeholder types from their context; declared types win", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_prepare_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    const s = adminSession();
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, x LONG, d DATE, s SYMBOL, v VARCHAR, n INT, f DOUBLE) TIMESTAMP(ts)",
      s,
    );
    const tags = (sql: string, declared?: (typeof T.LONG | undefined)[]) =>
      engine.prepare(sql, { ...s, paramTypes: declared as typeof T.LONG[] }).paramTypes.map((t) => t?.tag);
    assert.deepEqual(tags("select x from long_sequence(100) where x > $1"), ["LONG"]);
    assert.deepEqual(tags("select x from long_sequence(100) where $1 <= x"), ["LONG"]);
    assert.deepEqual(tags("select $1::int, cast($2 as double)"), ["INT", "DOUBLE"]);
    assert.deepEqual(
      tags("select * from t where ts between $1 and $2 and s in ($3, $4) limit $5"),
      ["TIMESTAMP", "TIMESTAMP", "SYMBOL", "SYMBOL", "LONG"],
    );
    assert.deepEqual(
      tags("insert into t values ($1, $2, $3, $4, $5, $6, $7)"),
      ["TIMESTAMP", "LONG", "DATE", "SYMBOL", "VARCHAR", "INT", "DOUBLE"],
    );
    assert.deepEqual(tags("insert into t (n, ts) values ($1, $2)"), ["INT", "TIMESTAMP"]);
    assert.deepEqual(tags("update t set f = $1 where n = $2"), ["DOUBLE", "INT"]);
    assert.deepEqual(tags("delete from t where d < $1"), ["DATE"]);
    assert.deepEqual(tags("select $1 + 1, f * $2 from t"), ["INT", "DOUBLE"]);
    assert.deepEqual(tags("select $1"), [], "nothing types a bare placeholder");
    assert.deepEqual(
      tags("select x from long_sequence(3) where x > $1", [T.DOUBLE]),
      ["DOUBLE"],
      "declared wins",
    );
    assert.throws(
      () => tags("select * from missing where x > $1"),
      /table does not exist \[table=missing\]/,
      "a statement that does not bind is refused when prepared, as PostgreSQL refuses it at Parse",
    );
    const snap = storageOf(engine).table("t")!.snapshot();
    assert.equal(snap.rowCount, 0, "preparing ran nothing");
    snap.release();
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
