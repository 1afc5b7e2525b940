import assert from "node:assert/strict";
import { parseStatement } from "../../../engine/sql/parser.ts";
import { as, parseError } from "./_helpers.ts";

Deno.test("ddl drop table with IF EXISTS takes one name", () => {
  const s = as(parseStatement('DROP TABLE IF EXISTS "b c"'), "dropTable");
  assert.deepEqual(s.names, [{ name: "b c", pos: 21 }]);
  assert.deepEqual([s.ifExists, s.all], [true, false]);
  // QuestDB SqlParserTest#testDropTablesTableIsSingular: a second name is an unexpected token.
  const e = parseError("drop table tab1, tab2");
  assert.deepEqual([e.message, e.position], ["unexpected token [,]", 15]);
});

Deno.test("ddl drop all tables", () => {
  const s = as(parseStatement("DROP ALL TABLES"), "dropTable");
  assert.deepEqual([s.names, s.all, s.ifExists], [[], true, false]);
});

Deno.test("ddl truncate table", () => {
  const s = as(parseStatement("TRUNCATE TABLE IF EXISTS t"), "truncateTable");
  assert.deepEqual([s.names, s.ifExists], [[{ name: "t", pos: 25 }], true]);
  assert.equal(as(parseStatement("truncate table t keep symbol maps"), "truncateTable").names.length, 1);
});

Deno.test("ddl rename table with quoted names", () => {
  const s = as(parseStatement("RENAME TABLE 'old one' TO \"new\""), "renameTable");
  assert.deepEqual([s.from, s.to], [{ name: "old one", pos: 13 }, { name: "new", pos: 26 }]);
  assert.equal(parseError("RENAME TABLE a b").message, "'to' expected");
});
