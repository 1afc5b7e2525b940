import assert from "node:assert/strict";
import type { Query, SelectCore, SetOperation } from "../../../engine/sql/ast.ts";
import { parseError, query, select, stripPositions } from "./_helpers.ts";

Deno.test("query bare table name is a SELECT block without items", () => {
  const core = select("trades;");
  assert.equal(core.items, undefined);
  assert.deepEqual(stripPositions(core.from), { first: { kind: "table", name: "trades" }, joins: [] });
});

Deno.test("query clauses without SELECT on a table", () => {
  const q = query("trades WHERE sym = 'A' LIMIT 2");
  const core = q.body as SelectCore;
  assert.equal(core.items, undefined);
  assert.equal(core.where?.kind, "binary");
  assert.equal(q.limit?.lo?.kind, "literal");
  assert.equal(select("trades LATEST ON ts PARTITION BY sym").latestOn?.ts?.name, "ts");
});

Deno.test("query parenthesised query with WHERE becomes the source of a SELECT block", () => {
  const core = select("(SELECT sym, sum(qty) total FROM trades) WHERE total > 7");
  assert.equal(core.items, undefined);
  assert.equal(core.from?.first.kind, "subquerySource");
  assert.equal(core.where?.kind, "binary");
});

Deno.test("query parenthesised query with TIMESTAMP declares the designated timestamp", () => {
  const core = select("(SELECT * FROM t) TIMESTAMP(ts)");
  const src = core.from!.first;
  assert.equal(src.kind, "subquerySource");
  assert.equal(src.kind === "subquerySource" && src.timestamp?.name, "ts");
});

Deno.test("query parenthesised query alone stays a nested query", () => {
  const q = query("(SELECT 1) ORDER BY 1");
  assert.equal(q.body.kind, "query");
  assert.equal(q.orderBy.length, 1);
});

Deno.test("query table functions are sources, also bare", () => {
  const ls = select("long_sequence(3);").from!.first;
  assert.equal(ls.kind, "functionSource");
  assert.equal(ls.kind === "functionSource" && ls.call.name, "long_sequence");
  assert.equal(select("tables()").from!.first.kind, "functionSource");
});

Deno.test("query SELECT without FROM", () => {
  const core = select("SELECT 1, now()");
  assert.equal(core.from, undefined);
  assert.equal(core.items?.length, 2);
});

Deno.test("query DISTINCT and DISTINCT ON", () => {
  assert.equal(select("SELECT DISTINCT sym FROM t").distinct, true);
  const on = select("SELECT DISTINCT ON (a, b) a, b, c FROM t");
  assert.equal(on.distinctOn?.length, 2);
});

Deno.test("query select items take AS aliases, bare aliases and t.*", () => {
  const core = select("SELECT a AS x, b y, c \"Z\", d AS 'w', t.*, * FROM t");
  const items = core.items!;
  assert.deepEqual(items.map((i) => i.alias), ["x", "y", "Z", "w", undefined, undefined]);
  // An alias written after AS is placed at AS (QuestDB reports a duplicate alias there).
  assert.deepEqual(items.map((i) => i.aliasPos), [9, 17, 22, 29, undefined, undefined]);
  assert.deepEqual(stripPositions(items[4].expr), { kind: "star", qualifier: "t" });
  assert.deepEqual(stripPositions(items[5].expr), { kind: "star" });
});

Deno.test("query words ending a select list are not taken as aliases", () => {
  assert.equal(select("SELECT a FROM t").items![0].alias, undefined);
  assert.equal(select("SELECT 1 UNION SELECT 2".split(" UNION")[0]).items![0].alias, undefined);
  assert.equal(select("SELECT a, by, timestamp FROM t").items!.length, 3);
  assert.equal(select("SELECT x timestamp FROM t").items![0].alias, "timestamp");
});

Deno.test("query WITH holds several CTEs in order", () => {
  const q = query("WITH a AS (SELECT 1 x), b AS (SELECT x FROM a) SELECT * FROM b");
  assert.deepEqual(q.with.map((c) => [c.name, c.pos]), [["a", 5], ["b", 24]]);
  assert.equal(q.pos, 0);
});

Deno.test("query set operations chain left to right", () => {
  const q = query("SELECT 1 UNION ALL SELECT 2 EXCEPT SELECT 3 INTERSECT SELECT 4");
  const top = q.body as SetOperation;
  assert.equal(top.op, "intersect");
  const mid = top.left as SetOperation;
  assert.deepEqual([mid.op, mid.all], ["except", false]);
  const low = mid.left as SetOperation;
  assert.deepEqual([low.op, low.all], ["union", true]);
});

Deno.test("query trailing ORDER BY and LIMIT after a set operation go on the whole query", () => {
  const q = query("SELECT a FROM t UNION SELECT a FROM u ORDER BY a DESC LIMIT 5");
  assert.equal(q.body.kind, "setop");
  assert.deepEqual(q.orderBy.map((o) => o.desc), [true]);
  assert.ok(q.limit);
});

Deno.test("query trailing WHERE belongs to the last operand", () => {
  const q = query("so_binance UNION so_coinbase WHERE base = 'NONEXISTENT'");
  const op = q.body as SetOperation;
  assert.equal((op.left as SelectCore).where, undefined);
  assert.equal((op.right as SelectCore).where?.kind, "binary");
});

Deno.test("query parenthesised operands of a set operation", () => {
  const op = query("(SELECT 42 e1, 42 e2) UNION (SELECT DISTINCT event e1, event e2 FROM so_d3)")
    .body as SetOperation;
  assert.equal(op.left.kind, "query");
  assert.equal(op.right.kind, "query");
});

Deno.test("query ORDER BY with ASC, DESC and NULLS", () => {
  const q = query("SELECT a FROM t ORDER BY a, b ASC, c DESC NULLS LAST, 2 NULLS FIRST");
  assert.deepEqual(q.orderBy.map((o) => [o.desc, o.nulls]), [
    [false, undefined],
    [false, undefined],
    [true, "last"],
    [false, "first"],
  ]);
});

Deno.test("query LIMIT forms", () => {
  const limit = (sql: string) =>
    stripPositions(query(`SELECT x FROM t ${sql}`).limit) as Record<string, unknown>;
  const n = (v: number) => ({ kind: "literal", type: "int", value: v, text: String(v) });
  assert.deepEqual(limit("LIMIT 5"), { comma: false, lo: n(5) });
  assert.deepEqual(limit("LIMIT -5"), { comma: false, lo: { kind: "unary", op: "-", operand: n(5) } });
  assert.deepEqual(limit("LIMIT 2, 5"), { comma: true, lo: n(2), hi: n(5) });
  assert.deepEqual(limit("LIMIT 2,"), { comma: true, lo: n(2) });
  assert.deepEqual(limit("LIMIT , 5"), { comma: true, hi: n(5) });
  assert.deepEqual(limit("LIMIT 5 OFFSET 2"), { comma: false, lo: n(5), offset: n(2) });
  assert.deepEqual(limit("LIMIT $1, $2"), {
    comma: true,
    lo: { kind: "param", index: 1 },
    hi: { kind: "param", index: 2 },
  });
});

Deno.test("query scalar subqueries and EXISTS", () => {
  const core = select("SELECT * FROM t WHERE ts > (SELECT max(ts) FROM o) AND EXISTS (SELECT 1)");
  const where = core.where;
  assert.ok(where?.kind === "binary");
  assert.equal(where.left.kind === "binary" && where.left.right.kind, "subquery");
  assert.equal(where.right.kind, "exists");
});

Deno.test("query GROUP BY and HAVING are read for the binder", () => {
  const core = select("SELECT sym, count() FROM t GROUP BY sym, 2 HAVING count() > 1");
  assert.equal(core.groupBy?.length, 2);
  assert.equal(core.having?.kind, "binary");
});

Deno.test("query a second WHERE is an error at its position", () => {
  const e = parseError(
    "with example as (select * from long_sequence(1))\nselect * from example where true where false;",
  );
  assert.deepEqual([e.kind, e.position, e.message], ["syntax", 82, "unexpected token [where]"]);
});

Deno.test("query missing FROM target is an error", () => {
  const e = parseError("select * from ");
  // QuestDB's text at the end of the statement (SqlParserTest#testMissingTable).
  assert.deepEqual([e.position, e.message], [14, "table name or sub-query expected"]);
  assert.equal(parseError("select * from where").message, "table name expected");
});

Deno.test("query keeps the position of the query and its body", () => {
  const q: Query = query("  (SELECT a FROM t) WHERE a > 1");
  assert.equal(q.pos, 2);
  assert.equal(q.body.pos, 2);
});
