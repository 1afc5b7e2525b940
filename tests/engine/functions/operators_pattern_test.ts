import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import {
  bindRegexMatch,
  likeToRegExp,
  PATTERN_OPERATORS,
} from "../../../engine/functions/operators_pattern.ts";
import { bindError, c, call, col, find, lit, run } from "./_helpers.ts";

const like = find(PATTERN_OPERATORS, "like");
const ilike = find(PATTERN_OPERATORS, "ilike");
const notMatch = find(PATTERN_OPERATORS, "!~");
const match = { name: "~", bind: bindRegexMatch };

Deno.test("LIKE matches the whole value with % and _ (§7.12)", () => {
  assert.equal(run(like, "abc", "%c"), true);
  assert.equal(run(like, "abc", "a_c"), true);
  assert.equal(run(like, "abc", "b"), false);
  assert.equal(run(like, "abc", "%b%"), true);
  assert.equal(run(like, "ABC", "a%"), false);
  assert.equal(run(ilike, "ABC", "a%"), true);
  assert.equal(run(like, "a\nb", "a%b"), true);
});

Deno.test("LIKE treats backslash as escape and regex characters literally", () => {
  assert.equal(run(like, "a%b", "a\\%b"), true);
  assert.equal(run(like, "axb", "a\\%b"), false);
  assert.equal(run(like, "a_b", "a\\_b"), true);
  assert.equal(run(like, "a.c", "a.c"), true);
  assert.equal(run(like, "abc", "a.c"), false);
  assert.equal(run(like, "(x)", "(%)"), true);
  assert.equal(likeToRegExp("5$", false).test("5$"), true);
});

Deno.test("LIKE with a NULL side is false and works on columns and per-row patterns", () => {
  assert.equal(run(like, null, "%"), false);
  assert.equal(run(like, "a", null), false);
  assert.equal(call(like, [col(T.SYMBOL), lit("A%")], ["AB", null]), true);
  assert.equal(call(like, [col(T.VARCHAR), col(T.STRING)], ["xy", "x_"]), true);
  assert.equal(call(like, [col(T.VARCHAR), col(T.STRING)], ["xy", "y%"]), false);
});

Deno.test("~ finds the pattern anywhere; !~ negates (§7.4)", () => {
  assert.equal(run(match, "hello", "ell"), true);
  assert.equal(run(match, "hello", "^ell"), false);
  assert.equal(run(match, "hello", "^h.*o$"), true);
  assert.equal(run(match, "HELLO", "(?i)hello"), true);
  assert.equal(run(notMatch, "hello", "xyz"), true);
  assert.equal(run(notMatch, "hello", "ell"), false);
  assert.equal(run(match, null, "a"), false);
  assert.equal(call(match, [col(T.STRING), col(T.STRING)], ["abc", "b+"]), true);
});

Deno.test("an invalid constant regex is a bind error", () => {
  assert.match(bindError(match, [col(T.STRING), lit("(")]), /invalid regex/);
  assert.match(bindError(like, [col(T.INT), lit("%")]), /no matching operator/);
  assert.equal(call(match, [c(T.CHAR, "a"), lit("a")]), true);
});
