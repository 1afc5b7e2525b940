import assert from "node:assert/strict";
import type { FromClause } from "../../../engine/sql/ast.ts";
import { parseError, select, stripPositions } from "./_helpers.ts";

const from = (sql: string): FromClause => select(sql).from!;

Deno.test("from table names may be quoted, single quoted or schema-qualified", () => {
  assert.deepEqual(stripPositions(from('SELECT * FROM "my table" t').first), {
    kind: "table",
    name: "my table",
    alias: "t",
  });
  assert.deepEqual(stripPositions(from("SELECT * FROM 'my.table'").first), {
    kind: "table",
    name: "my.table",
  });
  assert.deepEqual(stripPositions(from("SELECT * FROM pg_catalog.pg_class c").first), {
    kind: "table",
    name: "pg_catalog.pg_class",
    alias: "c",
  });
  assert.equal(from("SELECT * FROM  trades AS t").first.pos, 15);
});

Deno.test("from subquery with alias and TIMESTAMP in either order", () => {
  for (
    const sql of [
      "SELECT * FROM (SELECT * FROM t) x TIMESTAMP(ts)",
      "SELECT * FROM (SELECT * FROM t) TIMESTAMP(ts) x",
    ]
  ) {
    const src = from(sql).first;
    assert.equal(src.kind, "subquerySource");
    assert.equal(src.alias, "x");
    assert.equal(src.kind === "subquerySource" && src.timestamp?.name, "ts");
  }
});

Deno.test("from TIMESTAMP on a table wraps it in a subquery", () => {
  const src = from("SELECT * FROM t TIMESTAMP(ts) x").first;
  assert.equal(src.kind, "subquerySource");
  assert.equal(src.alias, "x");
  if (src.kind !== "subquerySource") return;
  assert.equal(src.timestamp?.name, "ts");
  assert.deepEqual(stripPositions((src.query.body as { from: unknown }).from), {
    first: { kind: "table", name: "t" },
    joins: [],
  });
});

Deno.test("from table functions and (SHOW ...) are sources", () => {
  const f = from("SELECT * FROM long_sequence(10) x, (SHOW TABLES) s");
  assert.equal(f.first.kind, "functionSource");
  assert.equal(f.first.alias, "x");
  assert.equal(f.joins[0].source.kind, "showSource");
  assert.equal(f.joins[0].source.alias, "s");
  assert.equal(from("SELECT * FROM pg_catalog.pg_get_keywords()").first.kind, "functionSource");
});

Deno.test("from comma makes an implicit cross join", () => {
  const f = from("SELECT * FROM a, b WHERE a.id = b.id");
  assert.deepEqual(stripPositions(f.joins), [{
    kind: "cross",
    source: { kind: "table", name: "b" },
    implicit: true,
  }]);
});

Deno.test("from join kinds", () => {
  const f = from(
    "SELECT * FROM a JOIN b ON a.x = b.x INNER JOIN c ON c.x = a.x LEFT JOIN d ON d.x = a.x LEFT OUTER JOIN e ON e.x = a.x " +
      "RIGHT JOIN f ON f.x = a.x RIGHT OUTER JOIN g ON g.x = a.x FULL JOIN h ON h.x = a.x FULL OUTER JOIN i ON i.x = a.x " +
      "CROSS JOIN j ASOF JOIN k LT JOIN l SPLICE JOIN m",
  );
  assert.deepEqual(f.joins.map((j) => j.kind), [
    "inner",
    "inner",
    "left",
    "left",
    "right",
    "right",
    "full",
    "full",
    "cross",
    "asof",
    "lt",
    "splice",
  ]);
  assert.ok(f.joins.slice(0, 8).every((j) => j.on?.kind === "binary"));
});

Deno.test("from ON (col, col) is the same-name shorthand", () => {
  const j = from("SELECT * FROM t JOIN q ON (sym, venue)").joins[0];
  assert.equal(j.on, undefined);
  assert.deepEqual(j.using, [{ name: "sym", pos: 27 }, { name: "venue", pos: 32 }]);
  assert.deepEqual(from("SELECT * FROM t ASOF JOIN q ON sym").joins[0].using?.map((u) => u.name), ["sym"]);
  assert.equal(from("SELECT * FROM t JOIN q ON (t.a = q.b)").joins[0].on?.kind, "binary");
});

Deno.test("from TOLERANCE keeps amount and unit letter", () => {
  const j = from("SELECT * FROM t ASOF JOIN q ON (sym) TOLERANCE 15m").joins[0];
  assert.deepEqual(j.tolerance, { amount: 15, unit: "m", pos: 47 });
  assert.deepEqual(from("SELECT * FROM t LT JOIN q TOLERANCE 2s").joins[0].tolerance?.unit, "s");
});

Deno.test("from join words are not taken as aliases", () => {
  const f = from("SELECT * FROM trades t LEFT JOIN instruments i ON t.sym = i.sym");
  assert.equal(f.first.alias, "t");
  assert.equal(f.joins[0].source.alias, "i");
  assert.equal(from("SELECT * FROM lt_t1 LT JOIN lt_t2").first.alias, undefined);
});

Deno.test("from errors", () => {
  assert.equal(parseError("SELECT * FROM t JOIN").message, "table name or sub-query expected");
  assert.equal(parseError("SELECT * FROM t LEFT q").message, "'join' expected");
  assert.equal(parseError("SELECT * FROM t ASOF JOIN q TOLERANCE x").message, "tolerance expected, e.g. 15m");
  assert.equal(parseError("SELECT * FROM (SELECT 1").message, "missing closing ')'");
});
