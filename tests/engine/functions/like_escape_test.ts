/** `LIKE … ESCAPE 'c'` (QuestDB LikeEscapeClauseTest): the pattern rewritten to `\` escapes. */
import assert from "node:assert/strict";
import { globToRegex, withEscape } from "../../../engine/functions/operators_pattern.ts";
import { SqlError } from "../../../engine/base/errors.ts";
import { likeMatcher } from "../../../engine/functions/like_match.ts";

Deno.test("a custom escape character escapes % and _ and itself; a plain backslash is literal", () => {
  const like = (v: string, p: string, esc: string) => likeMatcher(withEscape(p, esc), false)(v);
  assert.equal(like("a_b", "a!_b", "!"), true);
  assert.equal(like("axb", "a!_b", "!"), false);
  assert.equal(like("a%b", "a!%b", "!"), true);
  assert.equal(like("a!b", "a!!b", "!"), true);
  assert.equal(like("a\\b", "a\\b", "!"), true);
  assert.equal(like("a.b", "a..b", "."), true);
  // reported at the escape's offset inside the pattern (LikeEscapeClauseTest#testTrailingEscapeCharIsAnError)
  assert.throws(
    () => withEscape("abc!", "!"),
    (e: unknown) =>
      e instanceof SqlError && /must not end with escape character/.test(e.message) && e.position === 3,
  );
});

Deno.test("glob patterns become whole-value regular expressions (GlobStrFunctionFactoryTest)", () => {
  const glob = (v: string, p: string) => new RegExp(globToRegex(p), "u").test(v);
  assert.equal(glob("file_a.txt", "file_[abc].txt"), true);
  assert.equal(glob("file_x.txt", "file_[!abc].txt"), true);
  assert.equal(glob("file_a.txt", "file_[!abc].txt"), false);
  assert.equal(glob("dir/sub/file.txt", "**/file.txt"), true);
  assert.equal(glob("file.txt", "**/file.txt"), false);
  assert.equal(glob("file12.txt", "file?.txt"), false);
  assert.equal(glob("file!x", "file!*"), true);
  assert.equal(glob("filename.txt", "file.name.txt"), false);
});
