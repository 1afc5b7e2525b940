import { SqlError } from "../../../engine/base/errors.ts";
import assert from "node:assert/strict";
import { geohashType, T } from "../../../engine/base/types.ts";
import { COMPARISON_OPERATORS } from "../../../engine/functions/operators_compare.ts";
import { bindError, c, call, col, find, lit, run } from "./_helpers.ts";

const op = (name: string) => find(COMPARISON_OPERATORS, name);

Deno.test("NULL equals NULL and differs from any value (§4.1)", () => {
  assert.equal(run(op("="), null, null), true);
  assert.equal(run(op("="), 5, null), false);
  assert.equal(run(op("!="), 5, null), true);
  assert.equal(run(op("<>"), null, null), false);
  assert.equal(call(op("="), [col(T.DOUBLE), col(T.DOUBLE)], [null, null]), true);
  assert.equal(call(op("="), [col(T.STRING), col(T.STRING)], [null, null]), true);
});

Deno.test("ordering comparisons follow the §4.2 NULL table", () => {
  assert.equal(run(op("<"), 5, null), false);
  assert.equal(run(op(">"), null, 5), false);
  assert.equal(run(op("<="), null, null), true);
  assert.equal(run(op(">="), null, null), true);
  assert.equal(run(op(">="), 5, null), false);
  assert.equal(run(op("<="), null, 5), false);
  assert.equal(call(op("<="), [col(T.LONG), col(T.LONG)], [null, null]), true);
  assert.equal(run(op("<"), 1, 2), true);
});

Deno.test("string ordering is by code unit; <= and >= hold for two NULLs (§4.4, LtNullComparisonTest)", () => {
  assert.equal(run(op("<"), "B", "a"), true);
  assert.equal(run(op("<"), "abc", "abd"), true);
  assert.equal(run(op("<"), "ab", "abc"), true);
  assert.equal(run(op("="), "a", "A"), false);
  assert.equal(call(op("<="), [col(T.STRING), col(T.STRING)], [null, null]), true);
  assert.equal(call(op(">="), [col(T.VARCHAR), lit(null)], [null, null]), true);
  assert.equal(call(op(">="), [col(T.VARCHAR), lit(null)], ["a", null]), false);
  assert.equal(call(op("<"), [col(T.VARCHAR), col(T.STRING)], ["a", null]), false);
});

Deno.test("STRING, VARCHAR, SYMBOL and CHAR inter-compare by text", () => {
  assert.equal(call(op("="), [c(T.CHAR, "a"), c(T.STRING, "a")]), true);
  assert.equal(call(op("="), [col(T.SYMBOL), c(T.VARCHAR, "x")], ["x", "x"]), true);
  assert.equal(call(op(">"), [col(T.SYMBOL), c(T.CHAR, "b")], ["c", "b"]), true);
});

Deno.test("mixed numerics compare by value", () => {
  assert.equal(call(op("="), [lit(5), c(T.DOUBLE, 5.0)]), true);
  assert.equal(call(op("<"), [col(T.INT), col(T.LONG)], [5, 6n]), true);
  assert.equal(call(op("="), [col(T.LONG), col(T.INT)], [5n, 5]), true);
  assert.equal(call(op(">"), [col(T.LONG), col(T.DOUBLE)], [5n, 4.5]), true);
  assert.equal(call(op("="), [col(T.BYTE), col(T.SHORT)], [3, 3]), true);
});

Deno.test("a string meeting a number is parsed as that number (§4.4)", () => {
  assert.equal(run(op("="), "5", 5), true);
  assert.equal(call(op("="), [col(T.LONG), lit("7")], [7n, "7"]), true);
  assert.equal(call(op("<"), [col(T.DOUBLE), lit("1.5")], [1.25, "1.5"]), true);
  assert.deepEqual(
    thrownAt(op("="), [col(T.LONG), { ...lit("2023-10-17"), pos: 12 }]),
    ["inconvertible value: `2023-10-17` [STRING -> LONG]", 12],
  );
  // Non-constant text that does not parse reads as NULL.
  assert.equal(call(op("="), [col(T.INT), col(T.STRING)], [1, "x"]), false);
});

Deno.test("a CHAR meeting a number is digit-parsed", () => {
  assert.equal(call(op("="), [c(T.CHAR, "7"), lit(7)]), true);
  assert.deepEqual(thrownAt(op(">"), [{ ...c(T.CHAR, "a"), pos: 3 }, lit(2)]), [
    "inconvertible value: a [CHAR -> INT]",
    3,
  ]);
});

Deno.test("a SYMBOL is compared with an INT or LONG but not a DOUBLE (SqlCodeGeneratorTest)", () => {
  assert.match(bindError(op("="), [col(T.SYMBOL), lit(1.5)]), /no matching operator/);
  assert.equal(call(op("="), [col(T.SYMBOL), lit(1)], ["1", 1]), true);
});

Deno.test("a timestamp meeting a string parses it as a point (§3.5)", () => {
  const ts = col(T.TIMESTAMP);
  const jan1 = 1_704_067_200_000_000n; // 2024-01-01T00:00:00Z
  assert.equal(call(op("="), [ts, lit("2024-01-01")], [jan1, "2024-01-01"]), true);
  assert.equal(call(op(">"), [ts, lit("2024-01-01")], [jan1 + 1n, "2024-01-01"]), true);
  assert.equal(call(op("<"), [lit("2024-01-01T00:00:00.000001Z"), ts], [null, jan1]), false);
  // At the constant, as QuestDB (TimestampQueryTest#testTimestampStringComparisonInvalidValue).
  assert.deepEqual(thrownAt(op("="), [ts, { ...lit("nope"), pos: 46 }]), [
    "inconvertible value: `nope` [STRING -> TIMESTAMP]",
    46,
  ]);
  assert.equal(call(op("="), [col(T.DATE), lit("2024-01-01")], [1_704_067_200_000n, null]), true);
  assert.equal(call(op("="), [col(T.TIMESTAMP), col(T.DATE)], [jan1, 1_704_067_200_000n]), true);
});

Deno.test("booleans, UUIDs and IPv4 compare with their own kind and with text", () => {
  assert.equal(run(op("<"), false, true), true);
  assert.equal(call(op("="), [col(T.BOOLEAN), lit("TRUE")], [true, null]), true);
  const u = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";
  assert.equal(call(op("="), [col(T.UUID), lit(u.toUpperCase())], [u, null]), true);
  // QuestDB UuidTest#testEqConstStringToUuid: text that is no UUID equals no UUID (no error).
  assert.equal(call(op("="), [col(T.UUID), lit("zz")], [u, null]), false);
  assert.equal(call(op("!="), [col(T.UUID), lit("zz")], [u, null]), true);
  assert.equal(call(op("="), [col(T.IPV4), lit("1.2.3.4")], [0x01020304, null]), true);
  assert.equal(call(op("<"), [col(T.IPV4), lit("128.0.0.1")], [0x01020304, null]), true);
  // QuestDB IPv4Test#testImplicitCastStrIPv4BadStr: "invalid IPv4 format: ..." at position 0.
  assert.throws(
    () => bindError(op("="), [col(T.IPV4), lit("1.2.3")]),
    (e: unknown) =>
      e instanceof SqlError && e.position === 0 && /invalid IPv4 format: 1\.2\.3/.test(e.message),
  );
});

Deno.test("incompatible operand types do not bind", () => {
  assert.match(bindError(op("="), [col(T.BOOLEAN), lit(1)]), /no matching operator `=`/);
});

// QuestDB's EqGeoHashGeoHashFunctionFactory: geohashes of different precision are never equal
// (GeoHashQueryTest#testGeoHashNotEqualsNullTest: `cast(geo4 as geohash(5c)) != geo4` is true).
Deno.test("geohashes of different precision are never equal", () => {
  const [g5, g7] = [geohashType(25), geohashType(35)];
  assert.equal(call(op("="), [col(g5), col(g7)], [1n, 1n << 10n]), false);
  assert.equal(call(op("!="), [col(g5), col(g7)], [1n, 1n << 10n]), true);
  assert.equal(call(op("="), [col(g5), col(g5)], [1n, 1n]), true);
  assert.match(bindError(op("<"), [col(g5), col(g7)]), /no matching operator/);
});

/** The message and position of the SqlError binding `fn` to `args` throws. */
function thrownAt(fn: ReturnType<typeof op>, args: Parameters<typeof bindError>[1]): [string, number] {
  try {
    fn.bind(args);
  } catch (err) {
    if (err instanceof SqlError) return [err.message, err.position];
    throw err;
  }
  throw new Error("expected a bind error");
}

Deno.test("DOUBLE equality allows QuestDB's 1e-10 tolerance (TrigonometryTest#testSimple)", () => {
  const d = (v: number) => c(T.DOUBLE, v);
  assert.equal(call(op("="), [d(0.1 + 0.2), d(0.3)]), true);
  assert.equal(call(op("!="), [d(0.1 + 0.2), d(0.3)]), false);
  assert.equal(call(op("="), [d(1), d(1.0001)]), false);
  assert.equal(call(op("="), [col(T.LONG), d(3)], [3n, 3]), true);
  assert.equal(call(op("="), [col(T.DOUBLE), col(T.DOUBLE)], [null, 1]), false);
});
