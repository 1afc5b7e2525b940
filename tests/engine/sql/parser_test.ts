import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import { SQL_LENGTH_MAX } from "../../../engine/base/limits.ts";
import { parseStatement, parseStatements } from "../../../engine/sql/parser.ts";
import { CORPUS } from "./_corpus.ts";
import { parseError, sqlError } from "./_helpers.ts";

Deno.test("parser reads several statements, skipping empty ones", () => {
  const list = parseStatements("SELECT 1;; ;SELECT 2; -- done\n");
  assert.deepEqual(list.map((s) => [s.kind, s.pos]), [["query", 0], ["query", 12]]);
  assert.deepEqual(parseStatements(" ; -- nothing"), []);
});

Deno.test("parser parseStatement takes exactly one statement", () => {
  assert.equal(parseStatement("SELECT 1;").kind, "query");
  const e = parseError("SELECT 1; SELECT 2");
  assert.deepEqual([e.kind, e.position, e.message], ["syntax", 10, "unexpected token [SELECT]"]);
  assert.equal(parseError("  -- only a comment").message, "empty query");
});

Deno.test("parser dispatches on the first words of a statement", () => {
  const kinds = [
    ["select 1", "query"],
    ["trades", "query"],
    ["(select 1)", "query"],
    ["'my table'", "query"],
    ["create table t (a int)", "createTable"],
    ["drop table t", "dropTable"],
    ["truncate table t", "truncateTable"],
    ["rename table a to b", "renameTable"],
    ["alter table t drop column a", "alterTable"],
    ["insert into t values (1)", "insert"],
    ["update t set a = 1", "update"],
    ["delete from t", "delete"],
    ["show tables", "show"],
    ["explain select 1", "explain"],
    ["declare @a := 1 select @a", "query"], // variables substituted when parsed
    ["set a = 1", "noop"],
    ["copy t from stdin", "copy"],
    ["grant select on t to u", "acl"],
  ];
  for (const [sql, kind] of kinds) assert.equal(parseStatement(sql).kind, kind, sql);
});

Deno.test("parser rejects an unknown statement start at its token", () => {
  const a = parseError("123 select");
  assert.deepEqual([a.kind, a.position, a.message], ["syntax", 0, "unexpected token [123]"]);
  assert.equal(parseError("  ) x").position, 2);
  assert.equal(parseError("frobnicate the tables now").message, "unexpected token [tables]");
  assert.equal(parseError("where x").message, "table name expected");
});

Deno.test("parser refuses SQL-level PREPARE and EXECUTE plainly, and keeps tables of those names", () => {
  const prepare = parseError("PREPARE v1 AS SELECT 1");
  assert.deepEqual([prepare.message, prepare.position], ["PREPARE statements are not supported", 0]);
  assert.equal(parseError("prepare v2 (int) AS SELECT $1").message, "PREPARE statements are not supported");
  const execute = parseError("  EXECUTE v1(0)");
  assert.deepEqual([execute.message, execute.position], ["EXECUTE statements are not supported", 2]);
  assert.equal(parseStatement("execute v1").kind, "query");
  assert.equal(parseStatement("prepare WHERE x = 1").kind, "query");
});

Deno.test("parser rejects text longer than the limit before reading it", () => {
  const e = sqlError(() => parseStatements("select 1" + " ".repeat(SQL_LENGTH_MAX)));
  assert.equal(e.kind, "limit");
});

Deno.test("parser nesting limit covers subqueries", () => {
  const deep = "select * from (".repeat(5_000) + "t" + ")".repeat(5_000);
  assert.equal(sqlError(() => parseStatement(deep)).kind, "limit");
  const ok = "select * from (".repeat(100) + "t" + ")".repeat(100);
  assert.equal(parseStatement(ok).kind, "query");
});

Deno.test("parser keeps statement positions relative to the whole text", () => {
  const [, second] = parseStatements("select 1;\n  insert into t values (1)");
  assert.equal(second.pos, 12);
  const e = sqlError(() => parseStatements("select 1;\nselect (2"));
  assert.equal(e.position, 17);
});

Deno.test("parser nesting limit covers EXPLAIN chains and set-operation chains", () => {
  assert.equal(sqlError(() => parseStatement("explain ".repeat(10_000) + "select 1")).kind, "limit");
  assert.equal(sqlError(() => parseStatement("select 1" + " union select 1".repeat(10_000))).kind, "limit");
  assert.equal(parseStatement("select 1" + " union select 1".repeat(100)).kind, "query");
});

Deno.test("parser throws only positioned SqlErrors on every prefix of the corpus", () => {
  for (const sql of CORPUS) {
    for (let i = 0; i < sql.length; i++) {
      const text = sql.slice(0, i);
      try {
        parseStatements(text);
      } catch (e) {
        assert.ok(e instanceof SqlError, `${JSON.stringify(text)}: ${e}`);
        assert.ok(e.position >= 0 && e.position <= text.length, `${JSON.stringify(text)}: ${e.position}`);
      }
    }
  }
});
