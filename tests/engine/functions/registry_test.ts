import assert from "node:assert/strict";
import {
  functionNames,
  isAggregateName,
  lookupAggregate,
  lookupScalar,
  registerAggregate,
  registerScalar,
} from "../../../engine/functions/registry.ts";
import { T } from "../../../engine/base/types.ts";
import { run } from "./_helpers.ts";

Deno.test("registry resolves operators, families and datetime functions case-insensitively", () => {
  for (
    const name of ["+", "-", "*", "/", "%", "neg", "~", "!~", "=", "!=", "<>", "<", "<=", ">", ">=", "||"]
  ) {
    assert.ok(lookupScalar(name), name);
  }
  for (const name of ["&", "|", "^", "like", "ilike", "<<", "<<=", ">>", ">>=", "not", "and", "or"]) {
    assert.ok(lookupScalar(name), name);
  }
  assert.ok(lookupScalar("ROUND"));
  assert.ok(lookupScalar("Concat"));
  assert.ok(lookupScalar("coalesce"));
  assert.ok(lookupScalar("rnd_int"));
  assert.ok(lookupScalar("current_user"));
  assert.ok(lookupScalar("now"));
  assert.equal(lookupScalar("no_such_function"), undefined);
});

Deno.test("the ~ operator is bitwise NOT with one argument and regex find with two", () => {
  const tilde = lookupScalar("~")!;
  assert.equal(run(tilde, 0), -1);
  assert.equal(run(tilde, "abc", "b"), true);
});

Deno.test("aggregates are looked up separately from scalars", () => {
  for (
    const name of ["count", "SUM", "avg", "min", "max", "first", "last", "string_agg", "var_pop", "mode"]
  ) {
    assert.ok(lookupAggregate(name), name);
    assert.ok(isAggregateName(name), name);
  }
  assert.equal(isAggregateName("round"), false);
  assert.equal(lookupScalar("count"), undefined);
});

Deno.test("functionNames lists callable names without operator symbols", () => {
  const names = functionNames();
  assert.ok(names.includes("abs") && names.includes("count") && names.includes("now"));
  for (const op of ["+", "neg", "like", "and", "not"]) assert.ok(!names.includes(op), op);
  assert.deepEqual(names, [...names].sort());
});

Deno.test("later families can register functions", () => {
  registerScalar({ name: "Test_Only_Fn", bind: () => ({ returns: T.INT, eval: () => 42 }) });
  assert.equal(run(lookupScalar("test_only_fn")!), 42);
  registerAggregate({
    name: "test_only_agg",
    bind: () => ({ returns: T.LONG, create: () => ({ add() {}, result: () => 0n }) }),
  });
  assert.ok(isAggregateName("TEST_ONLY_AGG"));
});
