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

Deno.test("formatFloat prints a whole float below 2^63 as JDK 17's Float.toString: its digits past the ulp rounded off", () => {
  // CastDecimalToFloatFunctionFactoryTest: not the shortest 1.234568E15 / 1.2345679E8.
  assert.equal(formatFloat(1234567890123456), "1.23456795E15");
  assert.equal(formatFloat(123456789.123456789), "1.23456792E8");
  assert.equal(formatFloat(123456789012.345678), "1.23456791E11");
  assert.equal(formatFloat(2 ** 30), "1.07374182E9");
  assert.equal(formatFloat(-999999999), "-1.0E9");
  assert.equal(formatFloat(99), "99.0");
});

Deno.test("formatDouble's plain range equals the shortest digits laid out as Java does (random values)", () => {
  // The specification, spelled out independently: shortest digits from toExponential, plain
  // notation with at least one fraction digit.
  const java = (x: number) => {
    const [m, e] = Math.abs(x).toExponential().split("e");
    const digits = m.replace(".", "").replace(/0+$/, "") || "0";
    const exp = Number(e);
    const intLen = exp + 1;
    const body = exp < 0
      ? "0." + "0".repeat(-exp - 1) + digits
      : digits.length <= intLen
      ? digits + "0".repeat(intLen - digits.length) + ".0"
      : digits.slice(0, intLen) + "." + digits.slice(intLen);
    return (x < 0 ? "-" : "") + body;
  };
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < 20000; i++) {
    const x = (next() < 0.5 ? -1 : 1) * 10 ** (next() * 10 - 3) * (i % 7 === 0 ? 1 : next());
    if (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e7) continue;
    assert.equal(formatDouble(x), java(x), String(x));
  }
  for (const x of [0.001, 1, 2.5, 9999999, 9999999.999999998, 1234.5678, 0.0012]) {
    assert.equal(formatDouble(x), java(x));
  }
});
