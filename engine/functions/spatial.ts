/**
 * QuestDB's spatial functions over plain coordinates (functions/spatial.md):
 *
 * - `within_box(x, y, min_x, min_y, max_x, max_y)`: the point is in the box, edges included;
 * - `within_radius(x, y, cx, cy, r)`: Euclidean distance to the centre at most `r`;
 * - `geo_distance_meters(lat1, lon1, lat2, lon2)`: metres between two points by the
 *   equirectangular projection (longitude scaled by the cosine of the mean latitude);
 * - `geo_within_radius_latlon(lat, lon, clat, clon, r)`: that distance at most `r` metres.
 *
 * A NULL argument gives NULL. Coordinates out of range and a negative radius are errors, as the
 * page says; their text is ours (QuestDB's messages are not documented).
 *
 * The `geo_within_*` filters follow QuestDB's tests instead (GeoWithinBoxFunctionFactoryTest,
 * GeoWithinRadiusFunctionFactoryTest, GeoWithinRadiusLatLonFunctionFactoryTest): a NULL (NaN)
 * argument or a negative radius is false, never NULL; the lat/lon form refuses a latitude
 * outside [-90, 90] or a longitude outside [-180, 180] at that argument.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import { doublesOf, isNumArg, noMatch, scalar } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** Mean Earth radius in metres. */
const EARTH_RADIUS_M = 6_371_000;
const RAD = Math.PI / 180;

/** A DOUBLE or BOOLEAN function of `arity` numeric arguments; NULL in, NULL out. */
function spatial(
  name: string,
  arity: number,
  returns: typeof T.DOUBLE,
  f: (xs: number[]) => number | boolean,
): ScalarFunction {
  return scalar(name, (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== arity || !args.every((a) => isNumArg(a.type))) return noMatch(name, args);
    return {
      returns,
      eval: (vals) => {
        const xs = doublesOf(vals);
        return xs && f(xs);
      },
    };
  });
}

function checkLatLon(lat: number, lon: number): void {
  if (!(lat >= -90 && lat <= 90)) throw new SqlError(`latitude must be between -90 and 90 [lat=${lat}]`);
  if (!(lon >= -180 && lon <= 180)) throw new SqlError(`longitude must be between -180 and 180 [lon=${lon}]`);
}

function checkRadius(r: number): void {
  if (!(r >= 0)) throw new SqlError(`radius must be non-negative [radius=${r}]`);
}

/** Equirectangular distance in metres. */
export function geoDistanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  checkLatLon(lat1, lon1);
  checkLatLon(lat2, lon2);
  const x = (lon2 - lon1) * RAD * Math.cos(((lat1 + lat2) / 2) * RAD);
  const y = (lat2 - lat1) * RAD;
  return Math.sqrt(x * x + y * y) * EARTH_RADIUS_M;
}

export const SPATIAL_FUNCTIONS: ScalarFunction[] = [
  spatial(
    "within_box",
    6,
    T.BOOLEAN,
    ([x, y, minX, minY, maxX, maxY]) => x >= minX && x <= maxX && y >= minY && y <= maxY,
  ),
  spatial("within_radius", 5, T.BOOLEAN, ([x, y, cx, cy, r]) => {
    checkRadius(r);
    const dx = x - cx, dy = y - cy;
    return dx * dx + dy * dy <= r * r;
  }),
  spatial(
    "geo_distance_meters",
    4,
    T.DOUBLE,
    ([lat1, lon1, lat2, lon2]) => geoDistanceMeters(lat1, lon1, lat2, lon2),
  ),
  geoWithin(
    "geo_within_box",
    6,
    ([x, y, minX, minY, maxX, maxY]) => x >= minX && x <= maxX && y >= minY && y <= maxY,
  ),
  geoWithin("geo_within_radius", 5, ([x, y, cx, cy, r]) => {
    const dx = x - cx, dy = y - cy;
    return r >= 0 && dx * dx + dy * dy <= r * r;
  }),
  geoWithin("geo_within_radius_latlon", 5, ([lat, lon, clat, clon, r], pos) => {
    for (const [i, v] of [lat, lon, clat, clon].entries()) {
      const [limit, what] = i % 2 === 0 ? [90, "latitude"] : [180, "longitude"];
      if (v < -limit || v > limit) {
        throw new SqlError(`${what} must be between -${limit} and ${limit}`, pos[i]);
      }
    }
    return r >= 0 && geoDistanceMeters(lat, lon, clat, clon) <= r;
  }),
];

/** A BOOLEAN filter of `arity` numeric arguments, false when one is NULL; `pos` are their offsets. */
function geoWithin(name: string, arity: number, f: (xs: number[], pos: number[]) => boolean): ScalarFunction {
  return scalar(name, (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== arity || !args.every((a) => isNumArg(a.type))) return noMatch(name, args);
    const pos = args.map((a) => a.pos);
    return {
      returns: T.BOOLEAN,
      eval: (vals) => {
        const xs = doublesOf(vals);
        return xs !== null && f(xs, pos);
      },
    };
  });
}
