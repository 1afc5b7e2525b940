import assert from "node:assert/strict";
import { geohashType, T } from "../../../engine/base/types.ts";
import { GEOHASH_OPERATORS } from "../../../engine/functions/operators_geohash.ts";
import { bindError, c, call, col, find } from "./_helpers.ts";

const within = find(GEOHASH_OPERATORS, "within");
const g8 = geohashType(8);

Deno.test("within matches geohashes that start with a constant prefix", () => {
  const prefixes = [c(geohashType(4), 0b1011n), c(geohashType(4), 0b0001n)];
  assert.equal(call(within, [col(g8), ...prefixes], [0b10110000n, null, null]), true);
  assert.equal(call(within, [col(g8), ...prefixes], [0b00011111n, null, null]), true);
  assert.equal(call(within, [col(g8), ...prefixes], [0b11110000n, null, null]), false);
  assert.equal(call(within, [col(g8), ...prefixes], [null, null, null]), false);
  assert.equal(call(within, [col(geohashType(2)), c(geohashType(4), 0n)], [0n, null]), false);
});

Deno.test("within needs a geohash and constant prefixes", () => {
  assert.match(bindError(within, [col(T.INT), c(g8, 1n)]), /no matching function/);
  assert.match(bindError(within, [col(g8), col(g8)]), /constant/);
});
