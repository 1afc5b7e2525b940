import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import { geohashType, T, typeName } from "../../../engine/base/types.ts";
import {
  assignable,
  canCast,
  castValue,
  commonType,
  convertForAssign,
} from "../../../engine/functions/cast.ts";

const constant = { constant: true, pos: 7 };

Deno.test("the §3.2 worked example casts", () => {
  assert.equal(castValue(3.99, T.DOUBLE, T.INT), 3);
  assert.equal(castValue(-3.99, T.DOUBLE, T.INT), -3);
  assert.equal(castValue(300, T.INT, T.BYTE), 44);
  assert.equal(castValue(7234623, T.INT, T.SHORT), 25663);
  assert.equal(castValue(2334444.323, T.DOUBLE, T.SHORT), -24852);
  assert.equal(castValue(true, T.BOOLEAN, T.INT), 1);
  assert.equal(castValue(1578506142000000, T.INT, T.TIMESTAMP), 1578506142000000n);
  assert.equal(castValue(1578506142000000n, T.LONG, T.TIMESTAMP), 1578506142000000n);
  assert.equal(castValue(5n, T.LONG, T.INT), 5);
  assert.equal(castValue(5.5, T.DOUBLE, T.INT), 5);
  assert.equal(castValue("10.2", T.STRING, T.DOUBLE, constant), 10.2);
  assert.equal(castValue("1", T.STRING, T.INT, constant), 1);
});

Deno.test("narrowing keeps the low bits; doubles out of INT/LONG range are NULL", () => {
  assert.equal(castValue(2147483648n, T.LONG, T.INT), null); // low bits are INT_MIN: the NULL sentinel
  assert.equal(castValue(4294967297n, T.LONG, T.INT), 1);
  // QuestDB's CastDoubleToIntFunctionFactory: outside [INT_MIN, INT_MAX] is NULL.
  assert.equal(castValue(3e10, T.DOUBLE, T.INT), null);
  assert.equal(castValue(2147483647.5, T.DOUBLE, T.INT), null);
  assert.equal(castValue(2147483646.5, T.DOUBLE, T.INT), 2147483646);
  assert.equal(castValue(1e300, T.DOUBLE, T.LONG), null);
  assert.equal(castValue(-1e300, T.DOUBLE, T.LONG), null);
  assert.equal(castValue(-129, T.INT, T.BYTE), 127);
  assert.equal(castValue(1.5e40, T.DOUBLE, T.FLOAT), null);
  assert.equal(castValue(0.1, T.DOUBLE, T.FLOAT), Math.fround(0.1));
  assert.equal(castValue(9007199254740993n, T.LONG, T.DOUBLE), 9007199254740992);
});

Deno.test("BOOLEAN converts to and from numbers", () => {
  assert.equal(castValue(0, T.INT, T.BOOLEAN), false);
  assert.equal(castValue(-3, T.INT, T.BOOLEAN), true);
  assert.equal(castValue(0.5, T.DOUBLE, T.BOOLEAN), true);
  assert.equal(castValue(2n, T.LONG, T.BOOLEAN), true);
  assert.equal(castValue(null, T.INT, T.BOOLEAN), false);
  assert.equal(castValue(false, T.BOOLEAN, T.LONG), 0n);
  assert.equal(castValue("TRUE", T.STRING, T.BOOLEAN), true);
  assert.equal(castValue("yes", T.STRING, T.BOOLEAN), false);
});

Deno.test("CHAR parses digits and anything else is an error (§3.2)", () => {
  assert.equal(castValue("7", T.CHAR, T.INT), 7);
  assert.equal(castValue("7", T.CHAR, T.LONG), 7n);
  assert.equal(castValue("7", T.CHAR, T.DOUBLE), 7);
  assert.throws(
    () => castValue("m", T.CHAR, T.INT, constant),
    // QuestDB reports it at position 0 (CastTest#testCharToNumbersException).
    (e) => e instanceof SqlError && e.message === "inconvertible value: m [CHAR -> INT]" && e.position === 0,
  );
  assert.equal(castValue("t", T.CHAR, T.BOOLEAN), true);
  assert.equal(castValue("0", T.CHAR, T.BOOLEAN), false);
  assert.equal(castValue("7", T.CHAR, T.DATE), 7n);
  assert.equal(castValue(49n, T.LONG, T.CHAR), "1"); // cast(x + 48 as char) with x = 1
  // The code point, also for 0-9: (char) value as QuestDB (InTest#testInChar_const).
  assert.equal(castValue(7, T.INT, T.CHAR), "\u0007");
  assert.equal(castValue(0n, T.LONG, T.CHAR), null);
  assert.equal(castValue(65, T.INT, T.CHAR), "A");
  // Per row, longer text keeps its first character (QuestDB CastTest#testStrToChar: 'BC' is 'B').
  assert.equal(castValue("ab", T.STRING, T.CHAR), "a");
  assert.throws(
    () => castValue("ab", T.STRING, T.CHAR, constant),
    /inconvertible value: `ab` \[STRING -> CHAR\]/,
  );
});

Deno.test("time types convert by unit; integers are ticks of the target", () => {
  assert.equal(castValue(1n, T.LONG, T.DATE), 1n);
  assert.equal(castValue(1n, T.LONG, T.TIMESTAMP_NS), 1n);
  assert.equal(castValue(1500n, T.TIMESTAMP, T.DATE), 1n);
  assert.equal(castValue(-1n, T.TIMESTAMP, T.DATE), -1n); // floor, not truncation
  assert.equal(castValue(2n, T.DATE, T.TIMESTAMP), 2000n);
  assert.equal(castValue(2n, T.TIMESTAMP, T.TIMESTAMP_NS), 2000n);
  assert.equal(castValue(2999n, T.TIMESTAMP_NS, T.TIMESTAMP), 2n);
  assert.equal(castValue(1704067200000000n, T.TIMESTAMP, T.LONG), 1704067200000000n);
  assert.equal(castValue(1704067200000000n, T.TIMESTAMP, T.STRING), "2024-01-01T00:00:00.000000Z");
  assert.equal(castValue(1n, T.DATE, T.VARCHAR), "1970-01-01T00:00:00.001Z");
});

Deno.test("text parses into timestamps, UUID, IPv4, LONG256 and geohash", () => {
  assert.equal(
    castValue("2026-01-12T12:35:26.123456+01:30", T.STRING, T.TIMESTAMP, constant),
    1768215926123456n,
  );
  assert.equal(castValue("2024-02-27T00:00:00", T.VARCHAR, T.TIMESTAMP), 1708992000000000n);
  assert.equal(
    castValue("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", T.STRING, T.UUID),
    "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
  );
  assert.equal(castValue("192.168.0.1", T.STRING, T.IPV4), 3232235521);
  assert.equal(castValue("0.0.0.0", T.STRING, T.IPV4), null);
  assert.equal(castValue("0x01", T.STRING, T.LONG256), 1n);
  assert.equal(
    castValue("u33d8", T.STRING, geohashType(25)),
    (26n << 20n) | (3n << 15n) | (3n << 10n) | (12n << 5n) | 8n,
  );
  assert.equal(castValue("u33d8", T.STRING, geohashType(10)), (26n << 5n) | 3n);
  assert.equal(castValue(1n, T.LONG, T.LONG256), 1n);
  assert.equal(castValue(0b1101n, geohashType(4), geohashType(2)), 0b11n);
  // Only the first 12 characters are read, as QuestDB's GeoHashes.fromStringTruncatingNl
  // (GeoHashQueryTest#testGeoHashReadAllCharLengths).
  assert.equal(
    castValue("1234567890quest", T.STRING, geohashType(60)),
    castValue("1234567890qu", T.STRING, geohashType(60)),
  );
  assert.equal(castValue("1234567890quest", T.STRING, geohashType(5)), 1n);
});

Deno.test("unparseable constant text is an error; column text becomes NULL", () => {
  for (
    const [to, text] of [[T.INT, "abc"], [T.LONG, "2023-10-17"], [T.TIMESTAMP, "nope"], [
      T.UUID,
      "a0eebc11-110b-11f8-116d",
    ], [T.DOUBLE, "1.2.3"]] as const
  ) {
    assert.throws(
      () => castValue(text, T.STRING, to, constant),
      (e) =>
        e instanceof SqlError && e.message === `inconvertible value: \`${text}\` [STRING -> ${typeName(to)}]`,
    );
    assert.equal(castValue(text, T.STRING, to, { constant: false }), null);
  }
  assert.throws(
    () => castValue("300", T.VARCHAR, T.BYTE, constant),
    /inconvertible value: `300` \[VARCHAR -> BYTE\]/,
  );
  assert.equal(castValue("bad", T.STRING, T.SHORT), 0); // SHORT has no NULL
  assert.equal(castValue("", T.STRING, T.INT, constant), null);
});

Deno.test("NULL casts to the target's NULL, or false/0 for BOOLEAN, BYTE, SHORT", () => {
  assert.equal(castValue(null, T.NULL, T.INT), null);
  assert.equal(castValue(null, T.UUID, T.STRING), null);
  assert.equal(castValue(null, T.INT, T.BYTE), 0);
  assert.equal(castValue(null, T.STRING, T.SHORT), 0);
  assert.equal(castValue(null, T.NULL, T.BOOLEAN), false);
});

Deno.test("any value renders to STRING and VARCHAR as §18.3 text", () => {
  assert.equal(castValue(15, T.DOUBLE, T.STRING), "15.0");
  assert.equal(castValue(1e7, T.DOUBLE, T.VARCHAR), "1.0E7");
  assert.equal(castValue(true, T.BOOLEAN, T.STRING), "true");
  assert.equal(castValue(3232235521, T.IPV4, T.STRING), "192.168.0.1");
  assert.equal(castValue("s", T.SYMBOL, T.STRING), "s");
  assert.equal(castValue("x", T.STRING, T.SYMBOL), "x");
  assert.equal(castValue(12, T.INT, T.SYMBOL), "12");
});

Deno.test("canCast refuses pairs without a conversion", () => {
  assert.ok(canCast(T.STRING, T.TIMESTAMP));
  assert.ok(canCast(T.DOUBLE, T.SHORT));
  assert.ok(canCast(T.NULL, T.UUID));
  assert.ok(!canCast(T.UUID, T.INT));
  assert.ok(!canCast(T.BINARY, T.STRING));
  assert.ok(!canCast(T.INTERVAL, T.TIMESTAMP));
  assert.ok(canCast(T.INTERVAL, T.STRING));
});

Deno.test("assignable follows §3.4", () => {
  assert.ok(assignable(T.INT, T.LONG));
  assert.ok(assignable(T.INT, T.DOUBLE));
  assert.ok(assignable(T.LONG, T.FLOAT));
  assert.ok(assignable(T.SHORT, T.INT));
  assert.ok(!assignable(T.LONG, T.INT)); // UPDATE t SET xint = xlong is an error
  assert.ok(assignable(T.INT, T.BYTE, 5));
  assert.ok(!assignable(T.INT, T.BYTE, 300));
  assert.ok(assignable(T.LONG, T.INT, 5n));
  assert.ok(!assignable(T.DOUBLE, T.INT));
  assert.ok(!assignable(T.DOUBLE, T.LONG, 5));
  for (
    const to of [
      T.TIMESTAMP,
      T.TIMESTAMP_NS,
      T.DATE,
      T.UUID,
      T.IPV4,
      T.LONG256,
      T.BOOLEAN,
      T.INT,
      T.DOUBLE,
      T.SYMBOL,
      T.CHAR,
      geohashType(10),
    ]
  ) {
    assert.ok(assignable(T.STRING, to), typeName(to));
    assert.ok(assignable(T.VARCHAR, to), typeName(to));
  }
  assert.ok(assignable(T.LONG, T.TIMESTAMP));
  assert.ok(assignable(T.TIMESTAMP, T.LONG));
  assert.ok(assignable(T.TIMESTAMP, T.DATE));
  assert.ok(assignable(T.DATE, T.TIMESTAMP));
  assert.ok(assignable(T.CHAR, T.STRING));
  assert.ok(assignable(T.NULL, T.INT));
  assert.ok(!assignable(T.BOOLEAN, T.INT));
  assert.ok(!assignable(T.UUID, T.IPV4));
  assert.ok(!assignable(geohashType(10), geohashType(20)));
});

Deno.test("convertForAssign raises the §20 messages", () => {
  assert.equal(convertForAssign(5, T.INT, T.BYTE, 3), 5);
  assert.throws(
    () => convertForAssign(300, T.INT, T.BYTE, 3),
    (e) =>
      e instanceof SqlError && e.message === "inconvertible value: 300 [INT -> BYTE]" && e.position === 3,
  );
  assert.throws(
    () => convertForAssign("abc", T.STRING, T.INT, 3),
    /^SqlError: inconvertible value: `abc` \[STRING -> INT\]$/,
  );
  assert.throws(
    () => convertForAssign("a0eebc11-110b-11f8-116d", T.STRING, T.UUID, 0),
    /inconvertible value: `a0eebc11-110b-11f8-116d` \[STRING -> UUID\]/,
  );
  assert.throws(() => convertForAssign(1.5, T.DOUBLE, T.INT, 3), /inconvertible types: DOUBLE -> INT/);
  assert.throws(
    () => convertForAssign("maybe", T.STRING, T.BOOLEAN, 3),
    /inconvertible value: `maybe` \[STRING -> BOOLEAN\]/,
  );
  assert.throws(
    () => convertForAssign("ab", T.STRING, T.CHAR, 3),
    /inconvertible value: `ab` \[STRING -> CHAR\]/,
  );
  assert.equal(convertForAssign("", T.STRING, T.CHAR, 0), null);
  assert.equal(convertForAssign("True", T.STRING, T.BOOLEAN, 0), true);
  assert.equal(convertForAssign("2021-01-03", T.VARCHAR, T.TIMESTAMP, 0), 1609632000000000n);
  assert.equal(convertForAssign(null, T.NULL, T.SHORT, 0), 0);
  assert.equal(convertForAssign(7n, T.LONG, T.TIMESTAMP, 0), 7n);
  assert.equal(convertForAssign(1n, T.TIMESTAMP, T.LONG, 0), 1n);
  assert.equal(convertForAssign(2, T.SHORT, T.INT, 0), 2);
  assert.equal(convertForAssign(2, T.INT, T.FLOAT, 0), 2);
  assert.equal(convertForAssign("x", T.STRING, T.SYMBOL, 0), "x");
});

Deno.test("commonType unifies CASE branches, UNION columns and coalesce arguments", () => {
  const tag = (a: Parameters<typeof commonType>[0], b: Parameters<typeof commonType>[1]) =>
    commonType(a, b).tag;
  assert.equal(tag(T.INT, T.DOUBLE), "DOUBLE");
  assert.equal(tag(T.INT, T.LONG), "LONG");
  assert.equal(tag(T.BYTE, T.SHORT), "SHORT");
  assert.equal(tag(T.LONG, T.FLOAT), "DOUBLE");
  assert.equal(tag(T.SYMBOL, T.STRING), "STRING");
  assert.equal(tag(T.SYMBOL, T.SYMBOL), "STRING");
  assert.equal(tag(T.VARCHAR, T.STRING), "STRING");
  assert.equal(tag(T.VARCHAR, T.IPV4), "VARCHAR");
  assert.equal(tag(T.STRING, T.TIMESTAMP), "STRING");
  assert.equal(tag(T.NULL, T.INT), "INT");
  assert.equal(tag(T.DOUBLE, T.NULL), "DOUBLE");
  assert.equal(tag(T.NULL, T.CHAR), "STRING");
  assert.equal(tag(T.TIMESTAMP, T.LONG), "TIMESTAMP");
  assert.equal(tag(T.TIMESTAMP, T.TIMESTAMP_NS), "TIMESTAMP_NS");
  assert.equal(tag(T.DATE, T.LONG), "DATE");
  assert.equal(tag(T.BOOLEAN, T.INT), "STRING");
  assert.equal(tag(T.INT, T.INT), "INT");
  assert.equal(tag(T.CHAR, T.STRING), "STRING");
  assert.equal(commonType(geohashType(10), geohashType(20)).geoBits, 10);
});
