/** make_geohash (engine/functions/geohash_make.ts) against QuestDB's documented example. */
import assert from "node:assert/strict";
import { makeGeohash } from "../../../engine/functions/geohash_make.ts";

const BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";
const chars = (v: bigint, n: number) =>
  Array.from({ length: n }, (_, i) => BASE32[Number((v >> BigInt(5 * (n - 1 - i))) & 31n)]).join("");

Deno.test("make_geohash interleaves longitude and latitude bits, longitude first", () => {
  assert.equal(chars(makeGeohash(142.89124148, -12.90604153, 40)!, 8), "rjtwedd0"); // geohashes.md
  assert.equal(makeGeohash(0, 0, 2), 3n); // the upper halves take a midpoint
  assert.equal(makeGeohash(181, 0, 10), null);
  assert.equal(makeGeohash(0, -91, 10), null);
});
