import assert from "node:assert/strict";
import { formatDouble, formatFloat } from "../../../engine/functions/double_format.ts";

Deno.test("formatDouble prints the §18.3 examples as Java Double.toString does", () => {
  assert.equal(formatDouble(15), "15.0");
  assert.equal(formatDouble(0.1), "0.1");
  assert.equal(formatDouble(100 / 3), "33.333333333333336");
  assert.equal(formatDouble(1e7), "1.0E7");
  assert.equal(formatDouble(123456789), "1.23456789E8");
  assert.equal(formatDouble(1e-4), "1.0E-4");
  assert.equal(formatDouble(-0), "-0.0");
  assert.equal(formatDouble(0), "0.0");
});

Deno.test("formatDouble switches notation at 1e-3 and 1e7", () => {
  assert.equal(formatDouble(0.001), "0.001");
  assert.equal(formatDouble(0.00099), "9.9E-4");
  assert.equal(formatDouble(9999999), "9999999.0");
  assert.equal(formatDouble(9999999.5), "9999999.5");
  assert.equal(formatDouble(10000000.5), "1.00000005E7");
  assert.equal(formatDouble(-1234.5), "-1234.5");
  assert.equal(formatDouble(2.5), "2.5");
  assert.equal(formatDouble(1e21), "1.0E21");
  assert.equal(formatDouble(-1.5e-10), "-1.5E-10");
});

Deno.test("formatDouble keeps shortest round-trip digits and Java's subnormal rule", () => {
  assert.equal(formatDouble(0.1 + 0.2), "0.30000000000000004");
  assert.equal(formatDouble(1e23), "1.0E23");
  assert.equal(formatDouble(Number.MAX_VALUE), "1.7976931348623157E308");
  assert.equal(formatDouble(Number.MIN_VALUE), "4.9E-324");
  assert.equal(formatDouble(2 * Number.MIN_VALUE), "9.9E-324");
  for (const x of [Math.PI, 1 / 7, 123.456, 5e-7, 6.02214076e23]) assert.equal(Number(formatDouble(x)), x);
});

Deno.test("formatDouble prints non-finite values as Java does", () => {
  assert.equal(formatDouble(NaN), "NaN");
  assert.equal(formatDouble(Infinity), "Infinity");
  assert.equal(formatDouble(-Infinity), "-Infinity");
});

Deno.test("formatFloat prints the shortest digits that round-trip through float32", () => {
  assert.equal(formatFloat(0.1), "0.1");
  assert.equal(formatFloat(Math.fround(0.1)), "0.1");
  assert.equal(formatFloat(1.5), "1.5");
  assert.equal(formatFloat(100 / 3), "33.333332");
  assert.equal(formatFloat(16777216), "1.6777216E7");
  assert.equal(formatFloat(3.4028234663852886e38), "3.4028235E38");
  assert.equal(formatFloat(1.401298464324817e-45), "1.4E-45");
  assert.equal(formatFloat(-0), "-0.0");
  assert.equal(formatFloat(1e7), "1.0E7");
  for (const x of [0.3, 2.2, 1234.5678, 7e-5]) {
    assert.equal(Math.fround(Number(formatFloat(x))), Math.fround(x));
  }
});
