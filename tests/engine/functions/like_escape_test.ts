/** `LIKE … ESCAPE 'c'` (QuestDB LikeEscapeClauseTest): the pattern rewritten to `\` escapes. */
import assert from "node:assert/strict";
import { withEscape } from "../../../engine/functions/operators_pattern.ts";
import { likeMatcher } from "../../../engine/functions/like_match.ts";

Deno.test("a custom escape character escapes % and _ and itself; a plain backslash is literal", () => {
  const like = (v: string, p: string, esc: string) => likeMatcher(withEscape(p, esc, 0), false)(v);
  assert.equal(like("a_b", "a!_b", "!"), true);
  assert.equal(like("axb", "a!_b", "!"), false);
  assert.equal(like("a%b", "a!%b", "!"), true);
  assert.equal(like("a!b", "a!!b", "!"), true);
  assert.equal(like("a\\b", "a\\b", "!"), true);
  assert.equal(like("a.b", "a..b", "."), true);
  assert.throws(() => withEscape("abc!", "!", 3), /must not end with escape character/);
});
