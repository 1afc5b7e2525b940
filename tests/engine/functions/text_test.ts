import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { TEXT_FUNCTIONS, utf8Length } from "../../../engine/functions/text.ts";
import { bindError, c, call, col, find, lit, returns, run } from "./_helpers.ts";

const fn = (name: string) => find(TEXT_FUNCTIONS, name);

Deno.test("text functions reproduce the §15.2 example row", () => {
  assert.equal(run(fn("concat"), "a", "b", 1), "ab1");
  assert.equal(run(fn("length"), "héllo"), 5);
  assert.equal(call(fn("length"), [c(T.VARCHAR, null)]), -1);
  assert.equal(run(fn("upper"), "QuestDB"), "QUESTDB");
  assert.equal(run(fn("left"), "Thompson", 3), "Tho");
  assert.equal(run(fn("right"), "Thompson", 2), "on");
  assert.equal(run(fn("substring"), "QuestDB", 1, 5), "Quest");
  assert.equal(run(fn("strpos"), "Tim Thompson", "Thompson"), 5);
  assert.equal(run(fn("starts_with"), "QuestDB", "Quest"), true);
});

Deno.test("concat renders non-strings and skips NULLs", () => {
  assert.equal(call(fn("concat"), [lit("x"), c(T.DOUBLE, 1), lit(null), c(T.BOOLEAN, true)]), "x1.0true");
  assert.equal(call(fn("concat"), [col(T.STRING), col(T.STRING)], [null, null]), "");
  assert.equal(call(fn("concat"), [c(T.TIMESTAMP, 0n)]), "1970-01-01T00:00:00.000000Z");
  assert.equal(call(fn("concat"), [c(T.IPV4, 0x01020304), c(T.CHAR, "!")]), "1.2.3.4!");
});

Deno.test("length counts characters, -1 for NULL, bytes for BINARY", () => {
  assert.equal(run(fn("length"), null), -1);
  assert.equal(returns(fn("length"), [lit("a")]), "INT");
  assert.equal(call(fn("length"), [col(T.VARCHAR)], ["a😀"]), 2);
  assert.equal(call(fn("length"), [col(T.STRING)], ["a😀"]), 3);
  assert.equal(call(fn("length"), [col(T.BINARY)], [new Uint8Array(4)]), 4n);
  assert.equal(call(fn("length_bytes"), [col(T.VARCHAR)], ["ДЖЕК"]), 8);
  assert.equal(call(fn("length_bytes"), [col(T.VARCHAR)], [null]), -1);
  assert.equal(utf8Length("a😀é"), 1 + 4 + 2);
});

Deno.test("string results are VARCHAR for VARCHAR input and STRING otherwise", () => {
  assert.equal(returns(fn("upper"), [col(T.VARCHAR)]), "VARCHAR");
  assert.equal(returns(fn("upper"), [col(T.SYMBOL)]), "STRING");
  assert.equal(returns(fn("left"), [col(T.VARCHAR), lit(1)]), "VARCHAR");
  assert.equal(run(fn("to_lowercase"), "questDB"), "questdb");
  assert.equal(run(fn("to_uppercase"), "questDB"), "QUESTDB");
});

Deno.test("substring follows the negative-start rules", () => {
  assert.equal(run(fn("substring"), "Lorem ipsum dolor sit amet", -5, 9), "Lor");
  assert.equal(run(fn("substring"), "Lorem", -5, 5), "");
  assert.equal(run(fn("substring"), "Lorem", -5, 3), null);
  assert.equal(run(fn("substring"), "UK2022072619373", 1, 2), "UK");
  assert.equal(run(fn("substring"), "abc", 2, 10), "bc");
  assert.equal(run(fn("substring"), null, 1, 2), null);
  assert.match(
    bindError(fn("substring"), [lit("abc"), lit(1), lit(-1)]),
    /negative substring length is not allowed/,
  );
  // SubStringFunctionFactoryTest#testZeroOrInvalidLength: a per-row negative length fails too
  assert.throws(
    () => call(fn("substring"), [col(T.STRING), col(T.INT), col(T.INT)], ["foo", 3, -1]),
    /negative substring/,
  );
});

Deno.test("left and right accept negative counts", () => {
  assert.equal(run(fn("left"), "abcd", -1), "abc");
  assert.equal(run(fn("right"), "abcd", -1), "bcd");
  assert.equal(run(fn("left"), "ab", 5), "ab");
  assert.equal(run(fn("left"), null, 1), null);
});

Deno.test("left and right count code points for VARCHAR, UTF-16 units for STRING", () => {
  // LeftVarcharFunctionFactoryTest#testVar / RightVarcharFunctionFactoryTest#testVar
  const s = "0\u{1B3A4}~2";
  assert.equal(call(fn("left"), [c(T.VARCHAR, s), lit(2)]), "0\u{1B3A4}");
  assert.equal(call(fn("right"), [c(T.VARCHAR, s), lit(3)]), "\u{1B3A4}~2");
  assert.equal(call(fn("left"), [c(T.VARCHAR, s), lit(-1)]), "0\u{1B3A4}~");
  assert.equal(call(fn("left"), [c(T.STRING, s), lit(2)]), "0\uD82C");
  // Utf8s.strpos counts UTF-8 characters for VARCHAR
  assert.equal(call(fn("strpos"), [c(T.VARCHAR, s), c(T.VARCHAR, "~")]), 3);
  assert.equal(call(fn("strpos"), [c(T.STRING, s), c(T.STRING, "~")]), 4);
});

Deno.test("strpos, replace, starts_with, reverse and initcap", () => {
  assert.equal(run(fn("position"), "Anna Mason", "Thompson"), 0);
  assert.equal(run(fn("strpos"), null, "a"), null);
  assert.equal(run(fn("replace"), "Hello World", "World", "QuestDB"), "Hello QuestDB");
  assert.equal(run(fn("replace"), "aaa", "a", "b"), "bbb");
  assert.equal(run(fn("replace"), "abc", null, "x"), null);
  assert.equal(run(fn("starts_with"), null, "a"), false);
  assert.equal(run(fn("reverse"), "abc"), "cba");
  assert.equal(run(fn("initcap"), "hello WORLD-wide"), "Hello World-Wide");
});

Deno.test("text functions refuse non-text arguments", () => {
  assert.match(bindError(fn("upper"), [lit(1)]), /no matching function `upper`/);
});
