import assert from "node:assert/strict";
import type { CastExpr } from "../../../engine/sql/ast.ts";
import { expr, parseError } from "./_helpers.ts";

function typeOf(text: string) {
  const e = expr(`x::${text}`) as CastExpr;
  assert.equal(e.kind, "cast");
  return e.type;
}

Deno.test("type names are canonical upper case and keep their text", () => {
  assert.deepEqual(typeOf("int"), { pos: 10, name: "INT", text: "int" });
  assert.equal(typeOf("Integer").name, "INT");
  assert.equal(typeOf("bigint").name, "LONG");
  assert.equal(typeOf("varchar").name, "VARCHAR");
  assert.equal(typeOf("text").name, "STRING");
  assert.equal(typeOf("timestamp_ns").name, "TIMESTAMP_NS");
  assert.equal(typeOf("symbol").name, "SYMBOL");
  assert.equal(typeOf("ipv4").name, "IPV4");
  assert.equal(typeOf("double precision").name, "DOUBLE");
  assert.equal(typeOf("regclass").name, "REGCLASS");
});

Deno.test("type geohash precision is in bits", () => {
  assert.deepEqual(typeOf("geohash(8c)"), { pos: 10, name: "GEOHASH", text: "geohash(8c)", geoBits: 40 });
  assert.equal(typeOf("GEOHASH(40b)").geoBits, 40);
  assert.equal(parseError("select x::geohash(13c)").position, 18);
  assert.equal(parseError("select x::geohash(8)").position, 18);
  // A missing `)` is reported after the precision (GeoHashQueryTest
  // #testAlterTableAddGeoHashBitsColumnInvalidSyntax5).
  assert.equal(parseError("select x::geohash(11c").position, 21);
});

Deno.test("type decimal takes precision and scale", () => {
  const t = typeOf("decimal(10,2)");
  assert.deepEqual([t.name, t.precision, t.scale, t.text], ["DECIMAL", 10, 2, "decimal(10,2)"]);
  assert.equal(typeOf("DECIMAL").precision, undefined);
  assert.equal(typeOf("numeric(5)").precision, 5);
});

Deno.test("type array dimensions are counted", () => {
  const t = typeOf("double[][]");
  assert.deepEqual([t.name, t.arrayDims, t.text], ["DOUBLE", 2, "double[][]"]);
});

Deno.test("type varchar length is read and dropped", () => {
  const t = typeOf("varchar(255)");
  assert.deepEqual([t.name, t.text], ["VARCHAR", "varchar(255)"]);
});
