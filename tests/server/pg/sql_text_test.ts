/**
 * What the wire layer learns of SQL text, all from the engine (issue #18): statement kinds
 * (classifyStatement), setting SHOWs; splitting and placeholders: tests/engine/script_test.ts.
 */
import assert from "node:assert/strict";
import { statementText, wireSetting } from "../../../server/pg/run_statement.ts";
import { clientPosition } from "../../../server/pg/sqlstate.ts";

const kind = (sql: string) => statementText(sql).kind;

Deno.test("statement kinds drive command tags and session statements", () => {
  assert.equal(kind("SELECT 1"), "query");
  assert.equal(kind("(select 1)"), "query");
  assert.equal(kind("with a as (select 1) select * from a"), "query");
  assert.equal(kind("trades"), "query");
  assert.equal(kind("SET extra_float_digits = 3"), "set");
  assert.equal(kind("START TRANSACTION"), "begin");
  assert.equal(kind("end"), "commit");
  assert.equal(kind("DECLARE c SCROLL CURSOR FOR select 1"), "cursor");
  assert.equal(kind("DECLARE @x := 1 SELECT @x"), "query");
  assert.equal(kind("FETCH 10 FROM c"), "cursor");
  assert.equal(kind("insert into t values (1)"), "insert");
  assert.equal(kind("insert into t values (1) returning *"), "insertReturning");
  assert.equal(kind("insert into t values ('returning')"), "insert");
  // Kinds come from the engine's parse (engine/statement_kind.ts), not from first words.
  assert.equal(kind("fetch"), "query"); // a table named fetch
  assert.equal(kind("MOVE ALL IN c"), "cursor");
  assert.equal(kind("close c"), "cursor");
  assert.equal(kind("rollback to savepoint a"), "rollback");
  assert.equal(kind("savepoint a"), "other");
  assert.equal(kind("reset time zone"), "discard");
  assert.equal(kind("DEALLOCATE PREPARE s1"), "deallocate");
  assert.equal(kind("COPY t FROM STDIN (FORMAT csv)"), "copy");
  assert.equal(kind("COPY (select 1) TO STDOUT WITH CSV HEADER"), "copy");
  assert.equal(kind("COPY t TO 'out_dir' WITH FORMAT PARQUET"), "query");
  assert.equal(kind("delete from t where x = 1"), "other");
  assert.equal(kind("explain select 1"), "explain");
  assert.equal(kind("selec 1"), "other"); // does not parse: the engine reports it when run
  // `select 'set x = 1'`: a string is not a statement's first word.
  assert.equal(kind("select 'set x = 1'"), "query");
});

Deno.test("SHOW of a setting is recognised from the engine's parse", () => {
  const show = (sql: string, settings = new Map<string, string>()) =>
    wireSetting(statementText(sql), settings);
  assert.deepEqual(show("SHOW extra_float_digits"), ["extra_float_digits", "3"]);
  assert.deepEqual(show("show server_version"), ["server_version", "12.3 (questdb)"]);
  assert.deepEqual(show("SHOW TIME ZONE", new Map([["timezone", "Europe/Berlin"]])), [
    "TimeZone",
    "Europe/Berlin",
  ]);
  assert.equal(show("SHOW TABLES"), undefined);
  assert.equal(show("SHOW COLUMNS FROM t"), undefined);
  assert.equal(show("select 1"), undefined);
});

Deno.test("error positions become 1-based code point positions", () => {
  assert.equal(clientPosition("select * from nope", 14), 15);
  assert.equal(clientPosition("select '😀', nope", 13), 13);
});
