/**
 * `round(DOUBLE[], scale)`: every element rounded half up as QuestDB's
 * DoubleArrayRoundFunctionFactory does it (Numbers.roundHalfUp): the digits are cut from the
 * scaled value and multiplied back by a power of ten, so `round(ARRAY[1.23], 1)` is
 * [1.2000000000000002] there and here (DoubleArrayRoundFunctionFactoryTest). A scale whose
 * power of ten leaves a long's range (from 16, or -18 and below) and NULL elements or scale
 * give NULL elements.
 */
import { DoubleArray } from "../base/double_array.ts";
import { isIntegral } from "../base/types.ts";
import { toDouble } from "./_util.ts";
import type { BoundArg, ScalarBinding } from "./registry_types.ts";

/** QuestDB's Numbers.pow10max: 10^18 is the largest power of ten in its table of longs. */
const POW10_MAX = 18;
/** Numbers.roundHalfUp's tolerance against a scaled value just under its digit; 1e-10 would make
 * round(ARRAY[14.7778], 11) 14.7778000001 where QuestDB answers 14.7778. */
const TOLERANCE = 1e-15;

/** One element, half up at `scale` (negative: left of the point), NaN out of range. */
export function roundHalfUpElement(value: number, scale: number): number {
  if (!Number.isFinite(value)) return NaN;
  if (!(scale + 2 < POW10_MAX && scale > -POW10_MAX)) return NaN;
  const a = Math.abs(value);
  let r: number;
  if (scale >= 0) {
    const up = 10 ** scale, down = Number(`1e-${scale}`);
    const digits = Math.trunc((a + TOLERANCE) * 10 ** (scale + 2));
    r = digits % 100 < 50
      ? Math.trunc((a + TOLERANCE) * up) * down
      : Math.trunc(a * up + 1 - TOLERANCE) * down;
  } else {
    const s = -scale, up = 10 ** s, down = Number(`1e-${s}`);
    const digits = Math.trunc(a * down * 100 + TOLERANCE);
    r = digits % 100 < 50
      ? Math.trunc((a + TOLERANCE) * down) * up
      : Math.trunc(a * down + 1 - TOLERANCE) * up;
  }
  return value < 0 ? -r : r;
}

/** The binding for an array first argument, else undefined (the scalar round applies). */
export function bindArrayRound(args: BoundArg[]): ScalarBinding | undefined {
  if (args.length !== 2 || args[0].type.tag !== "ARRAY") return undefined;
  if (!isIntegral(args[1].type) && args[1].type.tag !== "NULL" && args[1].type.tag !== "STRING") {
    return undefined;
  }
  return {
    returns: args[0].type,
    eval: ([a, s]) => {
      if (a === null) return null;
      const arr = a as DoubleArray;
      const scale = toDouble(s);
      const out = new Float64Array(arr.data.length);
      for (let i = 0; i < out.length; i++) {
        out[i] = scale === null ? NaN : roundHalfUpElement(arr.data[i], scale);
      }
      return new DoubleArray(arr.shape, out);
    },
  };
}
