/**
 * Parser errors and literal handling QuestDB's CaseFunctionFactoryTest pins down: a CASE with
 * nothing before FROM, CASE read as an alias, unary plus, and number literals cast to DECIMAL.
 */
import assert from "node:assert/strict";
import { expr, parseError } from "./_helpers.ts";

Deno.test("CASE with nothing before FROM is unbalanced at the CASE", () => {
  const e = parseError("select case from long_sequence(1)");
  assert.deepEqual([e.position, e.message], [7, "unbalanced 'case'"]);
  // Without FROM it is still a CASE missing its WHEN (testCaseErrors: position of `end`).
  assert.equal(parseError("select case end from long_sequence(1)").position, 12);
});

Deno.test("CASE after a select item is a keyword alias, refused at the CASE", () => {
  const e = parseError("select     x     case end c from long_sequence(1);");
  assert.equal(e.position, 17);
  assert.match(e.message, /SQL keywords have to be enclosed in double quotes, such as "case"/);
});

Deno.test("unary plus is a '+' missing an operand", () => {
  const e = parseError("select x, +125 from t");
  assert.deepEqual([e.position, e.message], [10, "too few arguments for '+' [found=1,expected=2]"]);
  // Binary plus and signed exponents are untouched.
  assert.equal(expr("1 + 2").kind, "binary");
  assert.equal(expr("1e+5").kind, "literal");
});

Deno.test("a plain number literal cast to DECIMAL keeps its digits", () => {
  for (
    const text of ["cast(123456789012345678.123456789012345678 as DECIMAL(36,18))", "12.5::decimal(4,1)"]
  ) {
    const e = expr(text);
    assert.ok(e.kind === "cast" && e.expr.kind === "literal");
    if (e.kind === "cast" && e.expr.kind === "literal") {
      assert.equal(e.expr.type, "decimal");
      assert.equal(e.expr.value, text.startsWith("cast") ? "123456789012345678.123456789012345678" : "12.5");
    }
  }
  // A DOUBLE cast elsewhere, or a suffixed literal, stays as it is.
  const d = expr("cast(1.5d as DECIMAL(4,2))");
  assert.ok(d.kind === "cast" && d.expr.kind === "literal" && d.expr.type === "double");
  const i = expr("cast(1.5 as int)");
  assert.ok(i.kind === "cast" && i.expr.kind === "literal" && i.expr.type === "double");
});
