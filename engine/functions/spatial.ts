/**
 * QuestDB's spatial functions over plain coordinates (functions/spatial.md):
 *
 * - `within_box(x, y, min_x, min_y, max_x, max_y)`: the point is in the box, edges included;
 * - `within_radius(x, y, cx, cy, r)`: Euclidean distance to the centre at most `r`;
 * - `geo_distance_meters(lat1, lon1, lat2, lon2)`: metres between two points by the
 *   equirectangular projection at 111,320 m a degree, longitude scaled by the cosine of the mean
 *   latitude, or of `lat1` when `lat1` and `lon1` are both constants (QuestDB's
 *   GeoDistanceMetersFunctionFactory precomputes it so; GeoDistanceMetersFunctionFactoryTest);
 * - `geo_within_radius_latlon(lat, lon, clat, clon, r)`: the same distance, longitude scaled by the
 *   cosine of the centre's latitude (GeoWithinRadiusLatLonFunctionFactory), at most `r` metres.
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
import { formatDouble } from "./double_format.ts";
import { T } from "../base/types.ts";
import { doublesOf, isNumArg, noMatch, scalar } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** QuestDB's metres per degree of latitude (and of longitude at the equator). */
const METERS_PER_DEG = 111_320;
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

function checkLatLon(lat: number, lon: number, latPos?: number, lonPos?: number): void {
  if (!(lat >= -90 && lat <= 90)) {
    throw new SqlError(`latitude must be between -90 and 90 [value=${formatDouble(lat)}]`, latPos);
  }
  if (!(lon >= -180 && lon <= 180)) {
    throw new SqlError(`longitude must be between -180 and 180 [value=${formatDouble(lon)}]`, lonPos);
  }
}

function checkRadius(r: number): void {
  if (!(r >= 0)) throw new SqlError(`radius must be non-negative [radius=${r}]`);
}

/**
 * Equirectangular distance in metres; the longitude difference is scaled by the cosine of
 * `cosLatDeg` (the mean latitude unless given).
 */
export function geoDistanceMeters(
  lat1: number,
  lon1: number,
  lat2: number,
  lon2: number,
  cosLatDeg = (lat1 + lat2) * 0.5,
  pos: number[] = [],
): number {
  checkLatLon(lat1, lon1, pos[0], pos[1]);
  checkLatLon(lat2, lon2, pos[2], pos[3]);
  const dx = (lon2 - lon1) * METERS_PER_DEG * Math.cos(cosLatDeg * RAD);
  const dy = (lat2 - lat1) * METERS_PER_DEG;
  return Math.sqrt(dx * dx + dy * dy);
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
  scalar("geo_distance_meters", (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== 4 || !args.every((a) => isNumArg(a.type))) {
      return noMatch("geo_distance_meters", args);
    }
    const pos = args.map((a) => a.pos);
    // A constant first point scales longitude by its own latitude, as QuestDB's precomputed form does.
    const constFirst = args[0].constant && args[1].constant;
    return {
      returns: T.DOUBLE,
      eval: (vals) => {
        const xs = doublesOf(vals);
        if (!xs) return xs;
        const [lat1, lon1, lat2, lon2] = xs;
        return geoDistanceMeters(lat1, lon1, lat2, lon2, constFirst ? lat1 : (lat1 + lat2) * 0.5, pos);
      },
    };
  }),
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
    return r >= 0 && geoDistanceMeters(lat, lon, clat, clon, clat) <= r;
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
