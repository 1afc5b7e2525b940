import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { caseResultType, CONDITIONAL_FUNCTIONS } from "../../../engine/functions/conditional.ts";
import { bind, c, call, col, find, lit, returns, run } from "./_helpers.ts";

const fn = (name: string) => find(CONDITIONAL_FUNCTIONS, name);

Deno.test("coalesce returns the first non-NULL argument in the common type", () => {
  assert.equal(run(fn("coalesce"), null, 2, 3), 2);
  assert.equal(run(fn("coalesce"), null, null), null);
  assert.equal(returns(fn("coalesce"), [col(T.INT), lit(0.5)]), "DOUBLE");
  assert.deepEqual(bind(fn("coalesce"), [col(T.INT), lit(0.5)]).argTypes?.map((t) => t.tag), [
    "DOUBLE",
    "DOUBLE",
  ]);
  assert.equal(call(fn("coalesce"), [col(T.INT), lit(0.5)], [null, 0.5]), 0.5);
  assert.equal(call(fn("coalesce"), [col(T.STRING), c(T.STRING, "dflt")], ["x", "dflt"]), "x");
  assert.equal(returns(fn("coalesce"), [lit(null), lit(null)]), "STRING");
});

Deno.test("nullif is NULL when both sides are equal", () => {
  assert.equal(run(fn("nullif"), 5, 5), null);
  assert.equal(run(fn("nullif"), 5, 6), 5);
  assert.equal(run(fn("nullif"), "a", "a"), null);
  assert.equal(run(fn("nullif"), null, 1), null);
});

Deno.test("ifnull, nvl and isnull are two-argument coalesce", () => {
  for (const name of ["ifnull", "nvl", "isnull"]) {
    assert.equal(run(fn(name), null, 7), 7, name);
    assert.equal(typeof fn(name).bind([lit(1)]), "string", name);
  }
});

Deno.test("caseResultType unifies branch types like set operations (§7.11)", () => {
  assert.equal(caseResultType([T.INT, T.DOUBLE]).tag, "DOUBLE");
  assert.equal(caseResultType([T.NULL, T.LONG]).tag, "LONG");
  assert.equal(caseResultType([T.NULL]).tag, "STRING");
  assert.equal(caseResultType([T.STRING, T.STRING]).tag, "STRING");
});
