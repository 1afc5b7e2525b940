import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { SqlError } from "../../../engine/base/errors.ts";
import { bindRegexMatch, PATTERN_OPERATORS } from "../../../engine/functions/operators_pattern.ts";
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
  assert.equal(run(like, "5$", "5$"), true);
  // a constant pattern may not end with a lone escape; QuestDB points inside the pattern
  // (LikeFunctionFactoryTest#testLikeEscapeAtEndRegConstFunc)
  assert.throws(
    () => run(like, "a\\", "a\\"),
    (e: unknown) =>
      e instanceof SqlError && /must not end with escape character/.test(e.message) && e.position === 1,
  );
  assert.equal(run(like, "a\\", "a\\\\"), true);
});

Deno.test("an empty LIKE pattern matches nothing, not even the empty value (TextPredicateOwnershipTest)", () => {
  assert.equal(run(like, "", ""), false);
  assert.equal(run(ilike, "", ""), false);
  assert.equal(run(like, "abc", ""), false);
});

Deno.test("LIKE with a NULL side is false and works on columns and per-row patterns", () => {
  assert.equal(run(like, null, "%"), false);
  // on STRING only, a pattern of only % matches NULL too (LikeFunctionFactoryTest, LikeVarcharFunctionFactoryTest)
  assert.equal(call(like, [col(T.STRING), lit("%")], [null, "%"]), true);
  assert.equal(call(like, [col(T.VARCHAR), lit("%%")], [null, "%%"]), false);
  assert.equal(run(like, null, "%a"), false);
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

Deno.test("an invalid constant regex is a bind error at Java's error index in the pattern", () => {
  // pattern offset + index + 1 (RegexUtils.createMatcher): Java reports an unclosed group at the end
  assert.throws(
    () => match.bind([col(T.STRING), { ...lit("("), pos: 17 }]),
    (e: unknown) => e instanceof SqlError && e.message === "Unclosed group" && e.position === 19,
  );
  assert.throws(
    () => match.bind([col(T.STRING), { ...lit("XJ**"), pos: 29 }]),
    (e: unknown) => e instanceof SqlError && e.message === "Dangling meta character '*'" && e.position === 33,
  );
  assert.match(bindError(like, [col(T.INT), lit("%")]), /no matching operator/);
  assert.equal(call(match, [c(T.CHAR, "a"), lit("a")]), true);
});

Deno.test("LIKE pieces between % are placed leftmost, with _ inside them", () => {
  assert.equal(run(like, "abcabc", "%b_a%"), true);
  assert.equal(run(like, "abcabc", "a%c"), true);
  assert.equal(run(like, "ac", "a%c%"), true);
  assert.equal(run(like, "abc", "abc%"), true);
  assert.equal(run(like, "ab", "a%b%c"), false);
  assert.equal(run(like, "aXbXc", "a%b%c"), true);
  assert.equal(run(like, "abab", "%ab%ab%"), true);
  assert.equal(run(like, "aba", "%ab%ab%"), false);
  assert.equal(run(like, "a", "a%a"), false, "the head and the tail may not overlap");
  assert.equal(run(like, "aa", "a%a"), true);
  assert.equal(run(like, "", "%"), true);
  assert.equal(run(like, "", "_"), false);
  assert.equal(run(ilike, "Hello World", "%o w%"), true);
  assert.equal(run(ilike, "Hello World", "h_LLO%"), true);
});

Deno.test("LIKE with many % on a hostile value finishes fast (no backtracking)", () => {
  const value = "a".repeat(20_000);
  const started = performance.now();
  assert.equal(run(like, value, "%a%a%a%a%a%a%a%a%a%a%a%a%b"), false);
  assert.equal(run(like, value, "%a%a%a%a%a%a%a%a%a%a%a%a%"), true);
  assert.ok(performance.now() - started < 1000, "two matches took under a second");
});

Deno.test("~ runs in linear time: (a+)+$ on a long value is fast and correct", () => {
  const started = performance.now();
  assert.equal(run(match, "a".repeat(30) + "!", "(a+)+$"), false);
  assert.equal(run(match, "a".repeat(200_000) + "!", "(a+)+$"), false);
  assert.equal(run(match, "a".repeat(200_000), "(a+)+$"), true);
  assert.ok(performance.now() - started < 1000, "three matches took under a second");
});

Deno.test("Java regex features RE2 lacks fail with a clear error naming them", () => {
  const cases: [string, RegExp][] = [
    ["(a)\\1", /^regex backreference not supported: \\1 \[offset=3\]$/],
    ["(?<n>a)\\k<n>", /^regex backreference not supported/],
    ["a(?=b)", /^regex lookaround not supported: \(\?= \[offset=1\]$/],
    ["(?<!x)a", /^regex lookaround not supported: \(\?<!/],
    ["(?>a+)b", /^regex atomic group not supported/],
    ["a++b", /^regex possessive quantifier not supported: \+\+ \[offset=1\]$/],
    ["a{2}+", /^regex possessive quantifier not supported: \}\+/],
    ["[a-z&&[^e]]", /^regex character class intersection not supported/],
  ];
  for (const [pattern, message] of cases) {
    assert.throws(
      () => match.bind([col(T.STRING), { ...lit(pattern), pos: 9 }]),
      (e: unknown) => e instanceof SqlError && message.test(e.message) && e.position === 9,
      pattern,
    );
  }
  // Look-alikes that are fine: escaped, inside a class, POSIX classes, \\Q...\\E quoting.
  assert.equal(run(match, "a+b", "a\\++b"), true);
  assert.equal(run(match, "+", "[+]+"), true);
  assert.equal(run(match, "x1", "[[:alpha:]][[:digit:]]"), true);
  assert.equal(run(match, "(?=", "\\Q(?=\\E"), true);
  assert.equal(run(match, "ab", "a(?:b)"), true);
  assert.equal(run(match, "ab", "(?<n>a)b"), true);
});

Deno.test("a per-row regex that is invalid fails the row's evaluation with the pattern's position", () => {
  assert.throws(
    () => call(match, [col(T.STRING), { ...col(T.STRING), pos: 4 }], ["abc", "(a)\\1"]),
    (e: unknown) => e instanceof SqlError && /backreference/.test(e.message) && e.position === 4,
  );
});

Deno.test("LIKE refuses a pattern that changes per row, at the pattern (LikeFunctionFactoryTest)", () => {
  assert.throws(
    () => like.bind([col(T.STRING), { ...col(T.STRING), pos: 32, perRow: true }]),
    (e: unknown) =>
      e instanceof SqlError && e.message === "use constant or bind variable" && e.position === 32,
  );
  assert.equal(call(like, [col(T.VARCHAR), { ...col(T.STRING), param: true }], ["xy", "x_"]), true);
});
