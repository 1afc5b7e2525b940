/**
 * `make_geohash(lon, lat, bits)` (QuestDB GeoHashFromCoordinatesFunctionFactory): the geohash of
 * a point with a constant precision of 1..60 bits, longitude and latitude bits interleaved from
 * the longitude's; NULL for a NULL coordinate or a per-row one outside [-180, 180] / [-90, 90].
 */
import { SqlError } from "../base/errors.ts";
import { geohashType } from "../base/types.ts";
import { isIntArg, isNumArg, noMatch, scalar, toDouble, toIntArg } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** Bisects the longitude and latitude ranges `bits` times, longitude first. */
export function makeGeohash(lon: number, lat: number, bits: number): bigint | null {
  if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) return null;
  let lonLo = -180, lonHi = 180, latLo = -90, latHi = 90, v = 0n;
  for (let i = 0; i < bits; i++) {
    if (i % 2 === 0) {
      const mid = (lonLo + lonHi) / 2;
      v = (v << 1n) | (lon >= mid ? 1n : 0n);
      if (lon >= mid) lonLo = mid;
      else lonHi = mid;
    } else {
      const mid = (latLo + latHi) / 2;
      v = (v << 1n) | (lat >= mid ? 1n : 0n);
      if (lat >= mid) latLo = mid;
      else latHi = mid;
    }
  }
  return v;
}

function bindMakeGeohash(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 3 || !isNumArg(args[0].type) || !isNumArg(args[1].type) || !isIntArg(args[2].type)) {
    return noMatch("make_geohash", args);
  }
  if (!args[2].constant) return "make_geohash precision must be a constant";
  const bits = toIntArg(args[2].value ?? null);
  // At the precision argument, as the current GeoHashFromCoordinatesFunctionFactory (older ones
  // pointed at the first argument).
  if (bits === null || bits < 1 || bits > 60) {
    throw new SqlError("precision must be in [1..60] range", args[2].pos);
  }
  // Constant coordinates out of range fail at bind time, at the coordinate; per-row ones are
  // NULL (GeoHashFromCoordinatesFunctionFactory).
  if (args[0].constant && args[1].constant) {
    const [lon, lat] = [toDouble(args[0].value ?? null), toDouble(args[1].value ?? null)];
    if (lon !== null && (lon < -180 || lon > 180)) {
      throw new SqlError("longitude must be in [-180.0..180.0] range", args[0].pos);
    }
    if (lat !== null && (lat < -90 || lat > 90)) {
      throw new SqlError("latitude must be in [-90.0..90.0] range", args[1].pos);
    }
  }
  return {
    returns: geohashType(bits),
    eval: ([lon, lat]) => {
      const x = toDouble(lon), y = toDouble(lat);
      return x === null || y === null ? null : makeGeohash(x, y, bits);
    },
  };
}

export const GEOHASH_MAKE_FUNCTIONS: ScalarFunction[] = [scalar("make_geohash", bindMakeGeohash)];
