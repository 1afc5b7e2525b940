import assert from "node:assert/strict";
import type { BinaryExpr, Expr, InExpr, UnaryExpr } from "../../../engine/sql/ast.ts";
import { parseStatement } from "../../../engine/sql/parser.ts";
import { exprToText } from "../../../engine/sql/printer.ts";
import { expr, parseError, sqlError, stripPositions } from "./_helpers.ts";

/** The tree as a fully parenthesised string, to check grouping. */
function shape(e: Expr): string {
  switch (e.kind) {
    case "binary":
      return `(${shape(e.left)} ${e.op} ${shape(e.right)})`;
    case "unary":
      return `(${e.op} ${shape(e.operand)})`;
    case "cast":
      return `(${shape(e.expr)}::${e.type.text})`;
    case "in":
      return `(${shape(e.expr)} ${e.not ? "not in" : "in"} ${
        Array.isArray(e.list) ? e.list.map(shape).join(",") : "query"
      })`;
    case "between":
      return `(${shape(e.expr)} ${e.not ? "not between" : "between"} ${shape(e.lo)} ${shape(e.hi)})`;
    case "like":
      return `(${shape(e.expr)} ${e.not ? "not " : ""}${e.caseInsensitive ? "ilike" : "like"} ${
        shape(e.pattern)
      })`;
    case "isNull":
      return `(${shape(e.expr)} is${e.not ? " not" : ""} null)`;
    default:
      return exprToText(e);
  }
}

const s = (text: string) => shape(expr(text));

Deno.test("expression multiplication binds tighter than addition, left to right", () => {
  assert.equal(s("1 + 2 * 3 - 4 / 5 % 6"), "((1 + (2 * 3)) - ((4 / 5) % 6))");
  assert.equal(s("a - b - c"), "((a - b) - c)");
});

Deno.test("expression cast binds tighter than unary minus", () => {
  assert.equal(s("-5::short"), "(- (5::short))");
  assert.equal(s("-a * b"), "((- a) * b)");
  assert.equal(s("~a + 1"), "((~ a) + 1)");
  assert.equal(s("a::int::long"), "((a::int)::long)");
});

Deno.test("expression bit and concat levels follow spec §1.4", () => {
  assert.equal(s("a | b ^ c & d || e << f + g"), "(a | (b ^ (c & (d || (e << (f + g))))))");
  assert.equal(s("2 ^ 3"), "(2 ^ 3)");
});

Deno.test("expression IN, BETWEEN bind tighter than comparison, which binds tighter than equality", () => {
  assert.equal(s("a = b < c"), "(a = (b < c))");
  assert.equal(s("a < b in (1)"), "(a < (b in 1))");
  assert.equal(s("x between 1 and 2 and y"), "((x between 1 2) and y)");
  assert.equal(s("a like 'x' = b"), "((a like 'x') = b)");
});

Deno.test("expression NOT is below comparison and above AND", () => {
  assert.equal(s("not a = b and c or d"), "(((not (a = b)) and c) or d)");
  assert.equal(s("NOT x IN (1, 2)"), "(not (x in 1,2))");
  assert.equal(s("a = b and not c or not d"), "(((a = b) and (not c)) or (not d))");
});

Deno.test("expression negated keyword operators", () => {
  assert.equal(s("x NOT IN (1, 2)"), "(x not in 1,2)");
  assert.equal(s("x NOT BETWEEN 1 AND 5"), "(x not between 1 5)");
  assert.equal(s("s NOT LIKE 'a%'"), "(s not like 'a%')");
  assert.equal(s("s NOT ILIKE 'a%'"), "(s not ilike 'a%')");
  assert.equal(s("x IS NOT NULL"), "(x is not null)");
  assert.equal(s("a = b IS NULL"), "((a = b) is null)");
});

Deno.test("expression IN with one string is a one-element list", () => {
  const e = expr("ts IN '2024-01'") as InExpr;
  assert.equal(e.kind, "in");
  assert.ok(Array.isArray(e.list));
  assert.equal(e.list.length, 1);
  assert.deepEqual(stripPositions(e.list[0]), {
    kind: "literal",
    type: "string",
    value: "2024-01",
    text: "'2024-01'",
  });
  const p = expr("ts IN $1") as InExpr;
  assert.deepEqual(stripPositions(p.list), [{ kind: "param", index: 1 }]);
});

Deno.test("expression IN with a subquery holds a Query", () => {
  const e = expr("x IN (SELECT y FROM t)") as InExpr;
  assert.ok(!Array.isArray(e.list));
  assert.equal(e.list.kind, "query");
});

Deno.test("expression WITHIN keeps the whole list", () => {
  const e = expr("g WITHIN (#u33d, #u33e)") as BinaryExpr;
  assert.equal(e.op, "within");
  assert.equal(e.list?.length, 2);
  assert.equal(e.right, e.list?.[0]);
  const one = expr("g within #u33d") as BinaryExpr;
  assert.equal(one.list?.length, 1);
});

Deno.test("expression regex, IPv4 and comparison operators", () => {
  for (
    const op of ["~", "!~", "<<", "<<=", ">>", ">>=", "<>", "!=", "<=", ">=", "=", "<", ">", "%", "&", "|"]
  ) {
    const e = expr(`a ${op} b`) as BinaryExpr;
    assert.equal(e.kind, "binary");
    assert.equal(e.op, op);
  }
});

Deno.test("expression nodes keep the offset of their text", () => {
  const e = expr("a + f(b, c::int)") as BinaryExpr;
  assert.equal(e.pos, 9);
  assert.equal(e.left.pos, 7);
  const call = e.right;
  assert.equal(call.kind, "call");
  assert.equal(call.pos, 11);
  if (call.kind !== "call") return;
  assert.equal(call.args[1].pos, 17);
  assert.equal(call.args[1].kind === "cast" && call.args[1].type.pos, 19);
  const u = expr("not x") as UnaryExpr;
  assert.deepEqual([u.pos, u.operand.pos], [7, 11]);
});

Deno.test("expression keywords are case-insensitive", () => {
  assert.deepEqual(stripPositions(expr("a AND b OR NOT c")), stripPositions(expr("a and b or not c")));
  assert.deepEqual(stripPositions(expr("x Between 1 aNd 2")), stripPositions(expr("x between 1 and 2")));
});

Deno.test("expression errors point at the offending token", () => {
  const unclosed = parseError("select (1 + 2");
  assert.deepEqual([unclosed.kind, unclosed.position, unclosed.message], [
    "syntax",
    7,
    "missing closing ')'",
  ]);
  const wrong = parseError("select (1 + 2 from t");
  assert.deepEqual([wrong.position, wrong.message], [14, "')' expected"]);
  // A missing right operand is reported at the operator (QuestDB SqlParserTest#testMissingArgument).
  assert.deepEqual([parseError("select 1 +").position, parseError("select 1 +").message], [
    9,
    "too few arguments for '+' [found=1,expected=2]",
  ]);
  assert.equal(parseError("select x from t where not (x != 1 and)").position, 34);
  // BETWEEN is a three-argument operator: no AND leaves it an argument short, at BETWEEN
  // (SqlParserTest#testBetweenUnfinished).
  assert.deepEqual([
    parseError("select a between 1 or 2").message,
    parseError("select a between 1 or 2").position,
  ], [
    "too few arguments for 'between' [found=2,expected=3]",
    9,
  ]);
  // QuestDB's texts, at IS (SqlParserTest#testInvalidIsNull, #testInvalidIsNotNull).
  assert.deepEqual([parseError("select x is 5").position, parseError("select x is 5").message], [
    9,
    "IS must be followed by NULL",
  ]);
  assert.equal(parseError("select x is not 5").message, "IS NOT must be followed by NULL");
  assert.equal(parseError("select x is").message, "IS must be followed by [NOT] NULL");
  // At IN, an argument short (SqlCompilerImplTest#testFailOnEmptyInClause).
  assert.equal(parseError("select x in ()").position, 9);
  assert.equal(parseError("select x in )").message, "too few arguments for 'in' [found=1,expected=2]");
  // SqlCompilerImplTest#testOrderByEmptyIdentifier.
  assert.equal(parseError("select 1 from long_sequence(1) order by ''").position, 40);
  assert.equal(parseError('select 1 from long_sequence(1) order by ""').position, 40);
  assert.equal(parseError("select from t").message, "unexpected token [from]");
});

Deno.test("expression nesting of 10,000 parentheses is a limit error, not a crash", () => {
  const sql = "select " + "(".repeat(10_000) + "1" + ")".repeat(10_000);
  const e = sqlError(() => parseStatement(sql));
  assert.equal(e.kind, "limit");
  assert.ok(e.position > 7 && e.position < 7 + 10_000);
});

Deno.test("expression nesting limit also covers prefix operators and long chains", () => {
  assert.equal(sqlError(() => parseStatement("select " + "- ".repeat(10_000) + "1")).kind, "limit");
  assert.equal(sqlError(() => parseStatement("select " + "not ".repeat(10_000) + "x")).kind, "limit");
  assert.equal(sqlError(() => parseStatement("select 1" + " + 1".repeat(10_000))).kind, "limit");
  assert.equal(sqlError(() => parseStatement("select x" + "::int".repeat(10_000))).kind, "limit");
});

Deno.test("expression nesting below the limit parses", () => {
  const e = expr("(".repeat(200) + "1" + ")".repeat(200));
  assert.equal(e.kind, "literal");
  assert.equal(expr("1" + " + 1".repeat(200)).kind, "binary");
});

Deno.test("expression all(...) is a call although ALL is reserved", () => {
  const e = expr("a = all(b)") as BinaryExpr;
  assert.equal(e.right.kind, "call");
  // `a <> ALL (array)` is QuestDB's AllNotEqStrFunctionFactory, read as pg_all_not_equal(a, array).
  assert.equal((expr("a <> all(b)") as { name?: string }).name, "pg_all_not_equal");
  assert.equal(parseError("select all from t").message, "unexpected token [from]");
});

Deno.test("expression extract(field FROM ts) is a call with the field as a string", () => {
  assert.deepEqual(stripPositions(expr("EXTRACT(YEAR FROM ts)")), {
    kind: "call",
    name: "EXTRACT",
    args: [{ kind: "literal", type: "string", value: "year", text: "YEAR" }, { kind: "column", name: "ts" }],
    distinct: false,
    star: false,
  });
});

Deno.test("expression calls may be named by words that are keywords elsewhere", () => {
  for (
    const name of [
      "left",
      "right",
      "replace",
      "timestamp",
      "to_str",
      "now",
      "position",
      "substring",
      "trim",
      "date",
    ]
  ) {
    const e = expr(`${name}(a, 1)`);
    assert.equal(e.kind === "call" && e.name, name);
  }
  const q = expr("pg_catalog.version()");
  assert.equal(q.kind === "call" && q.name, "pg_catalog.version");
});

Deno.test("expression typed prefix literals are casts with prefix syntax", () => {
  for (
    const [text, type] of [
      ["TIMESTAMP '2024-01-01'", "TIMESTAMP"],
      ["date '2024'", "DATE"],
      ["ipv4 '1.2.3.4'", "IPV4"],
      ["uuid 'a'", "UUID"],
      ["INTERVAL '1d'", "INTERVAL"],
    ]
  ) {
    const e = expr(text);
    assert.ok(e.kind === "cast", text);
    assert.deepEqual([e.syntax, e.type.name, e.expr.kind], ["prefix", type, "literal"]);
  }
  assert.equal(expr("timestamp").kind, "column");
});

Deno.test("expression CAST, CASE, ARRAY and indexing", () => {
  const c = expr("cast (cast (null as uuid) as string)");
  assert.ok(c.kind === "cast" && c.syntax === "cast" && c.expr.kind === "cast");
  const simple = expr("CASE x WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE 'c' END");
  assert.ok(simple.kind === "case");
  assert.deepEqual([simple.operand?.kind, simple.whens.length, simple.else?.kind], ["column", 2, "literal"]);
  const searched = expr("CASE WHEN a > 0 THEN 1 END");
  assert.ok(searched.kind === "case" && searched.operand === undefined && searched.else === undefined);
  const arr = expr("ARRAY[[1, 2], [3, 4]]");
  assert.ok(arr.kind === "array" && arr.elements[0].kind === "array");
  assert.deepEqual(stripPositions(expr("arr[1][2]")), {
    kind: "index",
    expr: { kind: "column", name: "arr" },
    indexes: [{ kind: "literal", type: "int", value: 1, text: "1" }, {
      kind: "literal",
      type: "int",
      value: 2,
      text: "2",
    }],
  });
  assert.equal(parseError("select case when a then 1").message, "'end' expected");
  assert.equal(parseError("select case end").message, "'when' expected");
});

Deno.test("expression bind variables number themselves", () => {
  const core = expr("f($2, ?, ?, :a, :b, :a)");
  assert.ok(core.kind === "call");
  assert.deepEqual(stripPositions(core.args), [
    { kind: "param", index: 2 },
    { kind: "param", index: 1 },
    { kind: "param", index: 2 },
    { kind: "param", index: 1, name: "a" },
    { kind: "param", index: 2, name: "b" },
    { kind: "param", index: 1, name: "a" },
  ]);
});

Deno.test("expression DECLARE variables are names marked as variables", () => {
  assert.deepEqual(stripPositions(expr("@x + 1")), {
    kind: "binary",
    op: "+",
    left: { kind: "column", name: "@x", variable: true },
    right: { kind: "literal", type: "int", value: 1, text: "1" },
  });
});
