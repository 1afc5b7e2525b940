/**
 * The PostgreSQL spellings the engine's parser reads itself (engine/sql/pg_spellings.ts, issue
 * #18; server/pg rewrote them as text before): OPERATOR(schema.op), COLLATE, casts to oid /
 * name / text / bpchar / "char" (schema-qualified too), bare current_user & co, `= ANY (array)`
 * over DOUBLE[] and catalog vectors, substring(s FROM a FOR b), trim(BOTH 'c' FROM s).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { query } from "./_engine_query.ts";

Deno.test("the engine parses the PostgreSQL spellings of catalog queries", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_pgspell_" });
  const engine = await Engine.open({ root, parallelWorkers: 0 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, x LONG, s SYMBOL INDEX) TIMESTAMP(ts)",
      adminSession(),
    );
    assert.deepEqual(
      (await query(engine, "select relname from pg_class c where c.relname OPERATOR(pg_catalog.~) '^t$'"))
        .rows,
      [["t"]],
    );
    assert.deepEqual(
      (await query(engine, "select relname from pg_class where relname = 't' COLLATE pg_catalog.\"default\""))
        .rows,
      [["t"]],
    );
    const casts = await query(
      engine,
      `select 23::oid, 'a'::name, 'b'::bpchar, 'c'::text, 'x'::"char", 'y'::pg_catalog.text, 'z'::char`,
    );
    assert.deepEqual(casts.types, ["INT", "VARCHAR", "VARCHAR", "STRING", "VARCHAR", "STRING", "CHAR"]);
    assert.deepEqual(
      (await query(engine, "select current_user, session_user, current_schema, current_catalog")).rows,
      [["admin", "admin", "public", "qdb"]],
    );
    assert.deepEqual(
      (await query(engine, "select x from long_sequence(4) where x = ANY(ARRAY[2.0, 4.0])")).rows,
      [[2n], [4n]],
    );
    // Catalog vectors are text here (pg_index.indkey is `'2 4'`): SQLAlchemy's `attnum = ANY(ix.indkey)`.
    assert.deepEqual(
      (await query(engine, "select x from long_sequence(4) where x = ANY('2 4'::int2vector)")).rows,
      [[2n], [4n]],
    );
    assert.deepEqual(
      (await query(engine, "select substring('hello' FROM 2 FOR 3), substring('hello' from 2)")).rows,
      [["ell", "ello"]],
    );
    assert.deepEqual(
      (await query(engine, `select trim(both '"' from '"x"'), trim('x' from 'xax'), trim(' a ')`)).rows,
      [["x", "a", "a"]],
    );
    // The words stay names where they are not these spellings.
    assert.deepEqual((await query(engine, "select 1 as current_user")).rows, [[1]]);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
