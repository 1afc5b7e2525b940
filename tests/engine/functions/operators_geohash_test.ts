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

Deno.test("within needs a geohash left and geohash prefixes", () => {
  assert.match(bindError(within, [col(T.INT), c(g8, 1n)]), /no matching function/);
  assert.throws(
    () => within.bind([col(g8), { ...col(T.INT), pos: 7 }]),
    /cannot compare GEOHASH with type INT/,
  );
});

Deno.test("within compares each row with prefixes that are not constants", () => {
  // WithinGeohashFunctionFactoryTest#testConstVarFilter: `#dr5reff6hu5e WITHIN (pickup_geohash)`.
  const g4 = geohashType(4);
  assert.equal(call(within, [col(g8), col(g4)], [0b10110000n, 0b1011n]), true);
  assert.equal(call(within, [col(g8), col(g4)], [0b10110000n, 0b1010n]), false);
  assert.equal(call(within, [col(g4), col(g8)], [0b1011n, 0b10110000n]), false);
  assert.equal(call(within, [col(g8), col(g8)], [null, null]), true);
  assert.equal(call(within, [col(g8), col(g8)], [0n, null]), false);
});
