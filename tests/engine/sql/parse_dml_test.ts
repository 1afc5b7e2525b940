import assert from "node:assert/strict";
import { parseStatement } from "../../../engine/sql/parser.ts";
import { as, parseError, sqlError, stripPositions } from "./_helpers.ts";

Deno.test("dml insert multi-row VALUES with a column list", () => {
  const s = as(parseStatement("INSERT INTO t (a, b) VALUES (1, 'x'), (2, NULL)"), "insert");
  assert.deepEqual(s.table, { name: "t", pos: 12 });
  assert.deepEqual(s.columns?.map((c) => c.name), ["a", "b"]);
  assert.equal(s.values?.length, 2);
  assert.equal(s.values?.[1][1].kind, "literal");
  assert.equal(s.query, undefined);
});

Deno.test("dml insert select with or without parentheses", () => {
  const plain = as(parseStatement("INSERT INTO t SELECT * FROM u"), "insert");
  const wrapped = as(parseStatement("INSERT INTO t (SELECT * FROM u)"), "insert");
  assert.deepEqual(stripPositions(plain.query), stripPositions(wrapped.query));
  assert.equal(wrapped.columns, undefined);
  const cols = as(parseStatement("INSERT INTO t (a) SELECT 1"), "insert");
  assert.deepEqual(cols.columns?.map((c) => c.name), ["a"]);
});

Deno.test("dml insert ATOMIC and BATCH prefixes", () => {
  assert.equal(as(parseStatement("INSERT ATOMIC INTO t SELECT 1"), "insert").table.name, "t");
  assert.equal(
    as(parseStatement("INSERT BATCH 1000 o3MaxLag '20s' INTO t SELECT 1"), "insert").table.name,
    "t",
  );
});

Deno.test("dml with prefix on insert and update", () => {
  const ins = as(parseStatement("WITH c AS (SELECT 1 a) INSERT INTO t SELECT * FROM c"), "insert");
  assert.deepEqual([ins.pos, ins.with.map((c) => c.name)], [0, ["c"]]);
  const upd = as(parseStatement("WITH c AS (SELECT 1 a) UPDATE t SET x = 1"), "update");
  assert.equal(upd.with.length, 1);
});

Deno.test("dml insert ON CONFLICT and RETURNING", () => {
  const a = as(parseStatement("INSERT INTO t VALUES (1) ON CONFLICT (a, b) DO NOTHING"), "insert");
  assert.deepEqual(stripPositions(a.onConflict), {
    target: [{ name: "a" }, { name: "b" }],
    action: "nothing",
    set: [],
  });
  const b = as(
    parseStatement("INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET b = b + 1 RETURNING a, b AS bb"),
    "insert",
  );
  assert.equal(b.onConflict?.action, "update");
  assert.deepEqual(b.onConflict?.set.map((x) => x.column), ["b"]);
  assert.deepEqual(b.returning?.map((i) => i.alias), [undefined, "bb"]);
});

Deno.test("dml update with alias, FROM with joins and WHERE", () => {
  // QuestDB (UpdateTest#testUpdateWithJoinUnsupported) refuses a JOIN keyword in UPDATE's FROM where
  // it stands, and a query in a SET value (#testUpdateWithSubSelectUnsupported) at its first word.
  assert.deepEqual(
    [
      parseError("UPDATE t SET a = 1 FROM v CROSS JOIN w ON v.x = w.x").message,
      parseError("UPDATE t SET a = 1 FROM v CROSS JOIN w ON v.x = w.x").position,
    ],
    ["JOIN is not supported on UPDATE statement", 26],
  );
  assert.deepEqual(
    [parseError("UPDATE t SET a = (select 1)").message, parseError("UPDATE t SET a = (select 1)").position],
    ["query is not allowed here", 18],
  );
  const s = as(
    parseStatement("UPDATE t u SET a = 1, u.b = v.c FROM v, w WHERE u.id = v.id AND v.id = w.id"),
    "update",
  );
  assert.equal(s.alias, "u");
  assert.deepEqual(s.set.map((x) => [x.column, x.pos]), [["a", 15], ["b", 24]]);
  assert.equal(s.from?.joins.length, 1);
  assert.equal(s.where?.kind, "binary");
  assert.equal(as(parseStatement("UPDATE t SET x = 1"), "update").alias, undefined);
});

Deno.test("dml delete", () => {
  const s = as(parseStatement("DELETE FROM t x WHERE a = 1"), "delete");
  assert.deepEqual([s.table.name, s.alias, s.where?.kind], ["t", "x", "binary"]);
});

Deno.test("dml errors", () => {
  assert.equal(parseError("INSERT t VALUES (1)").message, "'into' expected");
  // As QuestDB (SqlParserTest#testInsertMissingClosingBracket): at the end of the text.
  assert.deepEqual(
    [parseError("INSERT INTO t VALUES (1, 2").message, parseError("INSERT INTO t VALUES (1, 2").position],
    ["',' expected", 26],
  );
  assert.equal(parseError("UPDATE t x = 1").message, "'set' expected");
  assert.equal(sqlError(() => parseStatement("INSERT INTO t VALUES 1")).message, "'(' expected");
});
