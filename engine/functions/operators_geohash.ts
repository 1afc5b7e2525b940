/**
 * `g WITHIN (#prefix, …)` (spec/sql.md §15.4, P2): true when geohash `g` starts with one of the
 * constant prefixes, i.e. its leading bits equal the prefix's bits. A prefix longer than `g`
 * never matches; a NULL geohash never matches.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import { noMatch, scalar } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

function bindWithin(args: BoundArg[]): ScalarBinding | string {
  // A NULL prefix has no geohash type to compare with, reported at the first one, whatever
  // the left operand (WithinGeohashFunctionFactoryTest#testNullRhs, #testNullAllArgs).
  const nullArg = args.slice(1).find((a) => a.type.tag === "NULL");
  if (nullArg) throw new SqlError("cannot compare GEOHASH with type NULL", nullArg.pos);
  if (args.length < 2 || args[0].type.tag !== "GEOHASH") return noMatch("within", args);
  const bits = args[0].type.geoBits;
  const prefixes: { shift: bigint; value: bigint }[] = [];
  for (const a of args.slice(1)) {
    if (a.type.tag !== "GEOHASH" || !a.constant) return "within() expects constant geohash prefixes";
    if (a.value === null || a.value === undefined || a.type.geoBits > bits) continue;
    prefixes.push({ shift: BigInt(bits - a.type.geoBits), value: a.value as bigint });
  }
  return {
    returns: T.BOOLEAN,
    eval: ([g]) => {
      if (g === null) return false;
      for (const p of prefixes) if (((g as bigint) >> p.shift) === p.value) return true;
      return false;
    },
  };
}

/** `within`. */
export const GEOHASH_OPERATORS: ScalarFunction[] = [scalar("within", bindWithin)];
