import assert from "node:assert/strict";
import type { Literal } from "../../../engine/sql/ast.ts";
import { expr, parseError } from "./_helpers.ts";

function lit(text: string): Literal {
  const e = expr(text);
  assert.equal(e.kind, "literal");
  return e as Literal;
}

Deno.test("literal integers are int when they fit in 32 bits, else long", () => {
  assert.deepEqual([lit("2147483647").type, lit("2147483647").value], ["int", 2147483647]);
  assert.deepEqual([lit("2147483648").type, lit("2147483648").value], ["long", 2147483648n]);
  assert.deepEqual([lit("1_000_000").type, lit("1_000_000").value], ["int", 1000000]);
  assert.deepEqual([lit("123L").type, lit("123l").value], ["long", 123n]);
});

Deno.test("literal suffixes give float, double and decimal", () => {
  assert.deepEqual([lit("1.5").type, lit("1.5").value], ["double", 1.5]);
  assert.deepEqual([lit(".5").type, lit(".5").value], ["double", 0.5]);
  assert.deepEqual([lit("1e10").type, lit("1e10").value], ["double", 1e10]);
  assert.deepEqual([lit("1.5f").type, lit("1.5f").value], ["float", 1.5]);
  assert.deepEqual([lit("3d").type, lit("3.0D").value], ["double", 3]);
  assert.deepEqual([lit("123.45m").type, lit("123.45m").value], ["decimal", "123.45"]);
});

Deno.test("literal keeps the text as written", () => {
  assert.equal(lit("1_000L").text, "1_000L");
  assert.equal(lit("'it''s'").text, "'it''s'");
  assert.equal(lit("NaN").text, "NaN");
});

Deno.test("literal hex is long256", () => {
  const l = lit("0xff");
  assert.equal(l.type, "long256");
  assert.equal(l.value, 255n);
});

Deno.test("literal one-character string is a char, others are strings", () => {
  assert.deepEqual([lit("'a'").type, lit("'a'").value], ["char", "a"]);
  assert.deepEqual([lit("''").type, lit("''").value], ["string", ""]);
  assert.deepEqual([lit("'it''s'").type, lit("'it''s'").value], ["string", "it's"]);
});

Deno.test("literal NULL and NaN are null, true and false are boolean", () => {
  assert.deepEqual([lit("NULL").type, lit("null").value], ["null", null]);
  assert.equal(lit("nan").type, "null");
  assert.deepEqual([lit("TRUE").type, lit("TRUE").value, lit("false").value], ["boolean", true, false]);
});

Deno.test("literal geohash reads chars, truncated chars and bits", () => {
  assert.deepEqual(lit("#u33d8").value, { bits: 25, value: (855148n << 5n) | 8n });
  assert.deepEqual(lit("#u33d/18").value, { bits: 18, value: 855148n >> 2n });
  assert.deepEqual(lit("##0101").value, { bits: 4, value: 5n });
});

Deno.test("an integer beyond LONG is a DOUBLE (ModeLongGroupByFunctionFactoryTest#testModeWithLargeValues)", () => {
  assert.equal(lit("9223372036854775807").type, "long");
  assert.deepEqual([lit("9223372036854775808").type, lit("9223372036854775808").value], [
    "double",
    9223372036854775808,
  ]);
  assert.equal(lit("99999999999999999999").value, 1e20);
});

Deno.test("literal errors point at the bad constant", () => {
  const e = parseError("select 1, 12abc from t");
  assert.equal(e.kind, "syntax");
  assert.equal(e.position, 10);
  assert.equal(e.message, "invalid constant: 12abc");
  assert.equal(parseError("select 1.5L").message, "invalid constant: 1.5L");
  assert.equal(parseError("select #aio").message, "invalid constant: #aio");
  assert.equal(parseError("select #u3/11").position, 7);
  // SqlCompilerImplTest#testCreateAsSelectGeoHashCharsLiteralWithWrongBits.
  assert.equal(parseError("select #sp052w92p1p8/ R").position, 22);
  assert.equal(parseError("select #sp052w92p1p8/").position, 20);
  assert.equal(
    parseError("select #sp052w92p1p8/ 61").message,
    "invalid bits size for GEOHASH constant: #sp052w92p1p8/61",
  );
  assert.equal(parseError("select #sp052w92p1p8/045").message, "invalid constant: #sp052w92p1p8/045");
});
