import assert from "node:assert/strict";
import { exprToText, identToText } from "../../../engine/sql/printer.ts";
import { expr, select, stripPositions } from "./_helpers.ts";

const name = (text: string) => exprToText(expr(text));

Deno.test("printer spaces operators and keeps only needed parentheses (spec §18.1)", () => {
  assert.equal(name("a*2+b/(d-c)"), "a * 2 + b / (d - c)");
  assert.equal(name("a + ((b * c) / d)"), "a + b * c / d");
  assert.equal(name("a - (b - c)"), "a - (b - c)");
  assert.equal(name("(a - b) - c"), "a - b - c");
  assert.equal(name("1 + 1"), "1 + 1");
  assert.equal(name("-(a + b)"), "-(a + b)");
  assert.equal(name("- -5"), "-(-5)");
});

Deno.test("printer writes keywords in lower case", () => {
  assert.equal(name("a > b AND c < d"), "a > b and c < d");
  assert.equal(
    name("CASE WHEN a > 0 THEN 'pos' ELSE 'neg' END"),
    "case when a > 0 then 'pos' else 'neg' end",
  );
  assert.equal(name("CASE x WHEN 1 THEN 'a' END"), "case x when 1 then 'a' end");
  assert.equal(name("x IN (1,2)"), "x in (1, 2)");
  assert.equal(name("x NOT IN (1,2)"), "x not in (1, 2)");
  assert.equal(name("x BETWEEN 1 AND 2"), "x between 1 and 2");
  assert.equal(name("x IS NULL"), "x is null");
  assert.equal(name("x IS NOT NULL"), "x is not null");
  assert.equal(name("NOT (a OR b)"), "not (a or b)");
  assert.equal(name("s NOT ILIKE 'a%'"), "s not ilike 'a%'");
});

Deno.test("printer writes casts in :: form with the type as written", () => {
  assert.equal(name("cast(a as long)"), "a::long");
  assert.equal(name("cast(a + 1 as string)"), "(a + 1)::string");
  assert.equal(name("cast(qty AS DOUBLE)"), "qty::DOUBLE");
  assert.equal(name("-5::short"), "-5::short");
  assert.equal(name("x::geohash(8c)"), "x::geohash(8c)");
});

Deno.test("printer rewrites || to a flat concat", () => {
  assert.equal(name("a || '_' || b"), "concat(a, '_', b)");
  assert.equal(name("'x' || sym"), "concat('x', sym)");
  assert.equal(name("(a || b) || (c || d)"), "concat(a, b, c, d)");
});

Deno.test("printer writes calls, literals and names as written", () => {
  assert.equal(name("avg(price)"), "avg(price)");
  assert.equal(name("count()"), "count()");
  assert.equal(name("count(*)"), "count(*)");
  assert.equal(name("count(DISTINCT sym)"), "count(distinct sym)");
  assert.equal(name("replace(a, 'a', 'b')"), "replace(a, 'a', 'b')");
  assert.equal(name("floor(b * 1.5)"), "floor(b * 1.5)");
  assert.equal(name("'Hello there.'"), "'Hello there.'");
  assert.equal(name("1.5"), "1.5");
  assert.equal(name("t.Price"), "t.Price");
  assert.equal(name("extract(year FROM ts)"), "extract(year from ts)");
});

Deno.test("printer writes arrays and indexing", () => {
  assert.equal(name("ARRAY[1, 2, 3]"), "ARRAY[1, 2, 3]");
  assert.equal(name("ARRAY[[1,2],[3,4]]"), "ARRAY[[1, 2], [3, 4]]");
  // A nested ARRAY keeps its word (QuestDB ColumnAliasExpressionTest#testSelectArray).
  assert.equal(name("array[array[1]]"), "ARRAY[ARRAY[1]]");
  assert.equal(name("arr[10][2]"), "arr[10][2]");
  // `arr[1, 2]` is the same node as `arr[1][2]`, so it gets the same name.
  assert.equal(name("arr[10, 2]"), "arr[10][2]");
  // A range selector keeps the one-bracket form.
  assert.equal(name("arr[1:3, 2]"), "arr[1:3, 2]");
  assert.equal(name("arr[2:]"), "arr[2:]");
});

Deno.test("printed array indexing parses back to the same tree", () => {
  for (
    const text of ["arr[10][2]", "arr[10, 2]", "arr[1:3, 2]", "arr[1][2:]", "(a + b)[1]", "f(x)[i + 1][2]"]
  ) {
    const tree = expr(text);
    assert.deepEqual(stripPositions(expr(exprToText(tree))), stripPositions(tree), text);
  }
});

Deno.test("printer writes window calls", () => {
  assert.equal(
    name("sum(x) OVER (PARTITION BY s ORDER BY ts DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)"),
    "sum(x) over (partition by s order by ts desc rows between 1 preceding and current row)",
  );
  assert.equal(name("avg(x) OVER w"), "avg(x) over w");
});

Deno.test("printer gives the names of the spec §18.1 example list", () => {
  const items = select(
    "SELECT sym, avg(price), count(), price * 2, cast(qty AS DOUBLE), 'x' || sym, avg(price) FROM trades",
  ).items!;
  assert.deepEqual(items.map((i) => exprToText(i.expr)), [
    "sym",
    "avg(price)",
    "count()",
    "price * 2",
    "qty::DOUBLE",
    "concat('x', sym)",
    "avg(price)",
  ]);
});

Deno.test("printer quotes names only when they would not read back", () => {
  assert.equal(identToText("price"), "price");
  assert.equal(identToText("My Col"), '"My Col"');
  assert.equal(identToText("from"), '"from"');
  assert.equal(identToText("null"), '"null"');
  assert.equal(identToText('a"b'), '"a""b"');
  assert.equal(identToText("1abc"), '"1abc"');
});
