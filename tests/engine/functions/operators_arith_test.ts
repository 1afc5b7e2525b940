import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { ARITHMETIC_OPERATORS } from "../../../engine/functions/operators_arith.ts";
import { c, call, col, find, lit, returns, run } from "./_helpers.ts";

const op = (name: string) => find(ARITHMETIC_OPERATORS, name);

Deno.test("arithmetic reproduces the §4.3 example row", () => {
  // SELECT 7 / 2 a, -7 / 2 b, -7 % 2 c, 1 / 0 d, 1.0 / 0 e, 2147483647 + 1 f, 2147483647 + 2 g, 5.0 / 2 h
  assert.equal(run(op("/"), 7, 2), 3);
  assert.equal(run(op("/"), -7, 2), -3);
  assert.equal(run(op("%"), -7, 2), -1);
  assert.equal(run(op("/"), 1, 0), null);
  assert.equal(call(op("/"), [c(T.DOUBLE, 1.0), lit(0)]), null);
  assert.equal(run(op("+"), 2147483647, 1), null);
  assert.equal(run(op("+"), 2147483647, 2), -2147483647);
  assert.equal(call(op("/"), [c(T.DOUBLE, 5.0), lit(2)]), 2.5);
  assert.equal(returns(op("/"), [lit(7), lit(2)]), "INT");
  assert.equal(returns(op("/"), [c(T.DOUBLE, 5), lit(2)]), "DOUBLE");
});

Deno.test("arithmetic widens operand types per §3.3", () => {
  assert.equal(returns(op("+"), [col(T.BYTE), col(T.BYTE)]), "INT");
  assert.equal(returns(op("*"), [col(T.SHORT), col(T.SHORT)]), "INT");
  assert.equal(returns(op("+"), [col(T.INT), col(T.LONG)]), "LONG");
  assert.equal(returns(op("+"), [col(T.LONG), col(T.FLOAT)]), "DOUBLE");
  assert.equal(returns(op("+"), [col(T.FLOAT), col(T.FLOAT)]), "FLOAT");
  assert.equal(returns(op("-"), [col(T.INT), col(T.DOUBLE)]), "DOUBLE");
  assert.equal(call(op("+"), [col(T.INT), col(T.LONG)], [5, 10n]), 15n);
  assert.equal(call(op("*"), [col(T.LONG), col(T.DOUBLE)], [3n, 0.5]), 1.5);
});

Deno.test("integer arithmetic wraps and maps the sentinel to NULL", () => {
  assert.equal(run(op("+"), 9223372036854775807n, 1n), null);
  assert.equal(run(op("+"), 9223372036854775807n, 2n), -9223372036854775807n);
  assert.equal(run(op("*"), 65536, 65536), 0);
  assert.equal(run(op("/"), 7n, 0n), null);
  assert.equal(run(op("%"), 7n, 0n), null);
  assert.equal(run(op("/"), -7n, 2n), -3n);
});

Deno.test("NULL operands give NULL", () => {
  assert.equal(run(op("+"), null, 1), null);
  assert.equal(returns(op("+"), [lit(null), lit(1)]), "INT");
  assert.equal(call(op("-"), [col(T.DOUBLE), lit(1)], [null, 1]), null);
});

Deno.test("float arithmetic rounds to float32 and division by zero is NULL", () => {
  assert.equal(call(op("+"), [col(T.FLOAT), col(T.FLOAT)], [0.1, 0.2]), Math.fround(0.1 + 0.2));
  assert.equal(call(op("%"), [col(T.DOUBLE), col(T.DOUBLE)], [5.5, 0]), null);
});

Deno.test("timestamp plus or minus an integer adds ticks and keeps the type", () => {
  const ts = c(T.TIMESTAMP, 1_000_000n);
  assert.equal(call(op("+"), [ts, lit(1)]), 1_000_001n);
  assert.equal(returns(op("+"), [ts, lit(1)]), "TIMESTAMP");
  assert.equal(call(op("+"), [lit(5), ts]), 1_000_005n);
  assert.equal(call(op("-"), [ts, c(T.LONG, 1_000_000n)]), 0n);
  assert.equal(returns(op("+"), [c(T.DATE, 0n), lit(1)]), "DATE");
  assert.equal(returns(op("+"), [c(T.TIMESTAMP_NS, 0n), lit(1)]), "TIMESTAMP_NS");
});

Deno.test("timestamp minus timestamp is a LONG in the finer unit", () => {
  assert.equal(call(op("-"), [c(T.TIMESTAMP, 5_000_000n), c(T.TIMESTAMP, 2_000_000n)]), 3_000_000n);
  assert.equal(returns(op("-"), [c(T.TIMESTAMP, 5n), c(T.TIMESTAMP, 2n)]), "LONG");
  assert.equal(call(op("-"), [c(T.TIMESTAMP, 5_000n), c(T.DATE, 2n)]), 3_000n);
});

Deno.test("IPv4 plus an integer moves the address", () => {
  const ip = c(T.IPV4, 0x01020304);
  assert.equal(call(op("+"), [ip, lit(1)]), 0x01020305);
  assert.equal(returns(op("+"), [ip, lit(1)]), "IPV4");
  assert.equal(call(op("-"), [ip, lit(0x01020304)]), null);
  // QuestDB's IPv4PlusInt: a sum outside the address space is NULL, not wrapped.
  assert.equal(call(op("+"), [c(T.IPV4, 0xffffffff), lit(2)]), null);
  assert.equal(call(op("-"), [ip, lit(0x01020305)]), null);
});

Deno.test("unary minus keeps the type and wraps narrow integers", () => {
  assert.equal(call(op("neg"), [col(T.INT)], [5]), -5);
  assert.equal(call(op("neg"), [col(T.LONG)], [5n]), -5n);
  assert.equal(call(op("neg"), [col(T.BYTE)], [-128]), -128);
  assert.equal(call(op("neg"), [col(T.DOUBLE)], [null]), null);
  assert.equal(returns(op("neg"), [col(T.SHORT)]), "SHORT");
});

Deno.test("text operands convert to the other operand's number type", () => {
  // SqlCodeGeneratorTest#testFunctionArgsImplicitCast / #testImplicitCastStrToDouble.
  assert.equal(call(op("-"), [lit("256"), lit(1)]), 255);
  assert.equal(returns(op("-"), [lit("256"), lit(1)]), "INT");
  assert.equal(call(op("*"), [lit("100"), c(T.DOUBLE, 0.5)]), 50);
  assert.equal(call(op("-"), [c(T.CHAR, "2"), lit(1)]), 1);
  // Row text that does not convert fails too (SqlUtil.implicitCastStrAsInt); NULL stays NULL.
  assert.throws(
    () => call(op("+"), [col(T.STRING), lit(1)], ["x"]),
    /inconvertible value: `x` \[STRING -> INT\]/,
  );
  assert.equal(call(op("+"), [col(T.STRING), lit(1)], [null]), null);
  assert.throws(() => op("+").bind([lit("a"), lit(1)]), /inconvertible value: `a` \[STRING -> INT\]/);
  assert.throws(() => op("-").bind([c(T.CHAR, "m"), lit(1)]), /inconvertible value: m \[CHAR -> INT\]/);
  assert.match(op("*").bind([lit("a"), lit("b")]) as string, /no matching operator `\*`/);
});
