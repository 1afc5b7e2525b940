/** ILP number parsing from bytes (server/line_protocol/_numbers.ts): timestamps in every unit, the fused plain-number scan. */
import assert from "node:assert/strict";
import {
  parseDoubleBytes,
  parseMicrosBytes,
  scanPlainNumber,
} from "../../../server/line_protocol/_numbers.ts";

const enc = new TextEncoder();
const micros = (text: string, per: number) => {
  const b = enc.encode(text);
  return parseMicrosBytes(b, 0, b.length, per);
};
/** The exact answer through bigints: floor(v / 1000) for nanoseconds, v * per otherwise, NaN beyond ±2^53. */
const expected = (text: string, per: number) => {
  if (!/^-?\d{1,19}$/.test(text)) return NaN;
  const v = BigInt(text);
  let r: bigint;
  if (per < 0) {
    const d = BigInt(-per);
    r = v / d - (v % d < 0n ? 1n : 0n);
  } else r = v * BigInt(per);
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  // The digits above a microsecond must fit too (an intermediate bound the parser keeps).
  if (r > max || r < -max) return NaN;
  return Number(r);
};

Deno.test("timestamps of 19 digits in nanoseconds floor to microseconds", () => {
  assert.equal(micros("1704067202007036000", -1000), 1704067202007036);
  assert.equal(micros("1704067202007036999", -1000), 1704067202007036);
  assert.equal(micros("9007199254740991999", -1000), 9007199254740991);
  assert.ok(Number.isNaN(micros("9007199254740992000", -1000))); // beyond 2^53 µs
  assert.ok(Number.isNaN(micros("9999999999999999999", -1000)));
});

Deno.test("negative nanosecond timestamps floor towards minus infinity", () => {
  assert.equal(micros("-1", -1000), -1);
  assert.equal(micros("-1000", -1000), -1);
  assert.equal(micros("-1001", -1000), -2);
  assert.equal(micros("-1704067202007036001", -1000), -1704067202007037);
  assert.equal(micros("-999", -1000), -1);
  assert.ok(Object.is(micros("-0", -1000), -0));
});

Deno.test("timestamps keep leading zeros, refuse more than 19 digits, signs and non-digits", () => {
  assert.equal(micros("0000000000000001000", -1000), 1);
  assert.equal(micros("007", 1), 7);
  assert.equal(micros("0", -1000), 0);
  assert.equal(micros("999", -1000), 0);
  for (const bad of ["", "-", "+1", "12345678901234567890", "1a", "1.5", " 1", "1 ", "--1", "1_000"]) {
    assert.ok(Number.isNaN(micros(bad, -1000)), bad);
    assert.ok(Number.isNaN(micros(bad, 1)), bad);
  }
});

Deno.test("timestamps convert every precision and refuse results beyond 2^53 microseconds", () => {
  assert.equal(micros("1704067202007036", 1), 1704067202007036);
  assert.equal(micros("1704067202007", 1000), 1704067202007000);
  assert.equal(micros("1704067202", 1e6), 1704067202000000);
  assert.equal(micros("28401120", 6e7), 1704067200000000);
  assert.equal(micros("473352", 3.6e9), 1704067200000000);
  assert.equal(micros("-1704067202", 1e6), -1704067202000000);
  assert.equal(micros("9007199254740991", 1), 9007199254740991);
  assert.ok(Number.isNaN(micros("9007199254740992", 1)));
  assert.ok(Number.isNaN(micros("9007199254741", 1000)));
  assert.ok(Number.isNaN(micros("9999999999999999999", 1)));
});

Deno.test("timestamps agree with exact bigint arithmetic on random digit strings", () => {
  let seed = 7;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let k = 0; k < 20000; k++) {
    const len = 1 + Math.floor(rnd() * 19);
    let s = rnd() < 0.3 ? "-" : "";
    for (let j = 0; j < len; j++) s += String(Math.floor(rnd() * 10));
    for (const per of [-1000, 1, 1000, 1e6, 6e7, 3.6e9]) {
      const got = micros(s, per), want = expected(s, per);
      if (Number.isNaN(want)) assert.ok(Number.isNaN(got), `${s} ${per}: ${got}`);
      else assert.ok(got === want, `${s} ${per}: ${got} !== ${want}`); // -0 and 0 alike
    }
  }
});

const plain = (text: string) => {
  const b = enc.encode(text);
  const out = new Float64Array(1);
  const end = scanPlainNumber(b, 0, b.length, out);
  return end < 0 ? undefined : { end, x: out[0], long: end > 0 && b[end - 1] === 0x69 };
};

Deno.test("the plain number scan reads decimals and integers up to their separator", () => {
  assert.deepEqual(plain("68.89,"), { end: 5, x: 68.89, long: false });
  assert.deepEqual(plain("-0.5 "), { end: 4, x: -0.5, long: false });
  assert.deepEqual(plain("1.\n"), { end: 2, x: 1, long: false });
  assert.deepEqual(plain("558i,"), { end: 4, x: 558, long: true });
  assert.deepEqual(plain("-7i\r"), { end: 3, x: -7, long: true });
  assert.deepEqual(plain("999999999999999i "), { end: 16, x: 999999999999999, long: true });
  assert.ok(Object.is(plain("-0,")!.x, -0));
  assert.ok(Object.is(plain("-0i,")!.x, -0));
});

Deno.test("the plain number scan leaves everything else to the general path", () => {
  // Exponents, signs, suffixes, more than 15 digits, a missing separator, other types.
  for (
    const text of [
      "1e5,",
      "+3,",
      ".5,",
      "-.5,",
      "1.5i,",
      "1.i,",
      "1234567890123456,",
      "0.1234567890123456,",
      "12i",
      "12",
      "1.5",
      "12ix,",
      "1700000000000000t,",
      "0x1fi,",
      "t,",
      "NaN,",
      "-,",
      ",",
      "1\\,",
    ]
  ) assert.equal(plain(text), undefined, text);
});

Deno.test("the plain number scan gives the general parser's doubles", () => {
  let seed = 11;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let k = 0; k < 20000; k++) {
    let s = rnd() < 0.3 ? "-" : "";
    const a = Math.floor(rnd() * 9), b = Math.floor(rnd() * 7); // at most 15 digits
    for (let j = 0; j <= a; j++) s += String(Math.floor(rnd() * 10));
    if (rnd() < 0.7) {
      s += ".";
      for (let j = 0; j < b; j++) s += String(Math.floor(rnd() * 10));
    }
    const bytes = enc.encode(s + ",");
    const out = new Float64Array(1);
    assert.equal(scanPlainNumber(bytes, 0, bytes.length, out), bytes.length - 1, s);
    assert.ok(Object.is(out[0], parseDoubleBytes(bytes, 0, bytes.length - 1)), s);
    assert.equal(out[0], Number(s), s);
  }
});
