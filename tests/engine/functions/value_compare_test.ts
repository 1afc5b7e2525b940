import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { compareValues, hashKey, valuesEqual } from "../../../engine/functions/value_compare.ts";

Deno.test("compareValues puts NULL first and orders strings by code unit (§4.5)", () => {
  const xs = ["b", null, "B", "", "a"];
  xs.sort((a, b) => compareValues(a, b, T.STRING));
  assert.deepEqual(xs, [null, "", "B", "a", "b"]);
  const ns = [3n, null, -1n, 2n];
  ns.sort((a, b) => compareValues(a, b, T.LONG));
  assert.deepEqual(ns, [null, -1n, 2n, 3n]);
  assert.equal(compareValues(1.5, 2n, T.DOUBLE) < 0, true);
  assert.equal(compareValues(false, true, T.BOOLEAN) < 0, true);
  assert.equal(compareValues(new Uint8Array([1, 2]), new Uint8Array([1]), T.BINARY) > 0, true);
});

Deno.test("valuesEqual treats NULL as equal to NULL and INT as equal to LONG", () => {
  assert.equal(valuesEqual(null, null, T.INT), true);
  assert.equal(valuesEqual(null, 0, T.INT), false);
  assert.equal(valuesEqual(5, 5n, T.LONG), true);
  assert.equal(valuesEqual("5", 5, T.STRING), false);
  assert.equal(valuesEqual(0, -0, T.DOUBLE), true);
  assert.equal(valuesEqual({ lo: 1n, hi: 2n }, { lo: 1n, hi: 2n }, T.INTERVAL), true);
});

Deno.test("hashKey gives equal keys to equal tuples only", () => {
  assert.equal(hashKey([1, "a"]), hashKey([1n, "a"]));
  assert.equal(hashKey([null]), hashKey([null]));
  assert.notEqual(hashKey([null]), hashKey([""]));
  assert.notEqual(hashKey(["1"]), hashKey([1]));
  assert.notEqual(hashKey(["a", "b"]), hashKey(["a\u0001s", "b"].slice(0, 1)));
  assert.equal(hashKey([0]), hashKey([-0]));
});
