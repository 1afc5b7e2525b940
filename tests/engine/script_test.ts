/**
 * splitScript (engine/script.ts): a script's statements as the engine's lexer splits them,
 * with their offsets, `$n` counts, kinds and parses; what pgwire's simple query and Parse use
 * instead of reading SQL text themselves (issue #18).
 */
import assert from "node:assert/strict";
import { splitScript } from "../../engine/mod.ts";

Deno.test("a script splits at `;` tokens only: strings, quoted names, dollar quotes and comments are the lexer's", () => {
  const parts = splitScript("select ';'; -- c;\n select \"a;b\" from t; ;  select $$x;y$$ /* ; */");
  assert.deepEqual(parts.map((p) => [p.text, p.offset]), [
    ["select ';'", 0],
    ['select "a;b" from t', 19],
    ["select $$x;y$$", 43],
  ]);
  assert.deepEqual(splitScript("  -- only a comment\n ; "), []);
  assert.deepEqual(splitScript(""), []);
});

Deno.test("each statement carries its kind and parse; text that does not parse is kind other", () => {
  const [a, b, c] = splitScript("SET x = 1; insert into t values (1) returning *; selec 1");
  assert.deepEqual([a.kind, a.statement?.kind], ["set", "noop"]);
  assert.equal(b.kind, "insertReturning");
  assert.deepEqual([c.kind, c.statement], ["other", undefined]);
});

Deno.test("placeholders: the highest $n outside literals, per statement", () => {
  const [a, b, c] = splitScript("select $1, $3 where x = '$4'; select 1; select $2 -- $9");
  assert.deepEqual([a.paramCount, b.paramCount, c.paramCount], [3, 0, 2]);
});

Deno.test("text the lexer cannot read ends the script as one statement, after the ones before it", () => {
  const parts = splitScript("select 1; select 'open; select 2");
  assert.deepEqual(parts.map((p) => [p.text, p.offset, p.kind]), [
    ["select 1", 0, "query"],
    ["select 'open; select 2", 10, "other"],
  ]);
  // E'' strings are the dialect's plain strings (spec/sql.md §1.3): a backslash escapes nothing.
  assert.deepEqual(splitScript("select E'a\\'; select 2").map((p) => p.text), ["select E'a\\'", "select 2"]);
});
