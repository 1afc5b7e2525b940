import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import { SPATIAL_FUNCTIONS } from "../../../engine/functions/spatial.ts";
import { call, find, lit } from "./_helpers.ts";

const fn = (name: string) => find(SPATIAL_FUNCTIONS, name);
const run = (name: string, ...xs: (number | null)[]) => call(fn(name), xs.map((x) => lit(x)));

Deno.test("within_box includes its edges; NULL gives NULL (spatial.md)", () => {
  assert.equal(run("within_box", 12.5, 8.3, 10, 5, 20, 15), true);
  assert.equal(run("within_box", 10, 15, 10, 5, 20, 15), true);
  assert.equal(run("within_box", 45.3, 30.2, 10, 5, 20, 15), false);
  assert.equal(run("within_box", null, 1, 0, 0, 2, 2), null);
});

Deno.test("within_radius is Euclidean, boundary included, a negative radius an error", () => {
  assert.equal(run("within_radius", 18.7, 12.8, 15, 10, 10), true);
  assert.equal(run("within_radius", 3, 4, 0, 0, 5), true);
  assert.equal(run("within_radius", 3, 4.01, 0, 0, 5), false);
  assert.throws(() => run("within_radius", 1, 1, 0, 0, -1), SqlError);
});

Deno.test("geo_distance_meters and geo_within_radius_latlon", () => {
  assert.equal(run("geo_distance_meters", 51.5074, -0.1278, 51.5074, -0.1278), 0);
  // QuestDB counts 111,320 m a degree (GeoDistanceMetersFunctionFactoryTest).
  assert.equal(run("geo_distance_meters", 0, 0, 1, 0), 111320);
  assert.equal(run("geo_distance_meters", 0, 180, 0, -180), 40075200);
  assert.equal(run("geo_within_radius_latlon", 51.5095, -0.1245, 51.5074, -0.1278, 500), true);
  assert.equal(run("geo_within_radius_latlon", 51.528, -0.102, 51.5074, -0.1278, 500), false);
  assert.throws(() => run("geo_distance_meters", 91, 0, 0, 0), SqlError);
  assert.equal(run("geo_distance_meters", null, 0, 0, 0), null);
});

Deno.test("geo_within_* (QuestDB's tests): NULL or a negative radius is false, a bad latitude an error", () => {
  assert.equal(run("geo_within_box", 0, 10, 0, 0, 10, 10), true);
  assert.equal(run("geo_within_box", null, 5, 0, 0, 10, 10), false);
  assert.equal(run("geo_within_radius", 3, 4, 0, 0, 5), true);
  assert.equal(run("geo_within_radius", 0, 0, 0, 0, -5), false);
  assert.equal(run("geo_within_radius_latlon", 40, -73, 40, -73, -100), false);
  assert.equal(run("geo_within_radius_latlon", 40, null, 40, -73, 1000), false);
  assert.throws(
    () => run("geo_within_radius_latlon", 40, -73, 91, -73, 1000),
    /latitude must be between -90 and 90/,
  );
});
