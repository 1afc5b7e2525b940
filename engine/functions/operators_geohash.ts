/**
 * `g WITHIN (#prefix, …)` (spec/sql.md §15.4, P2): true when geohash `g` starts with one of the
 * constant prefixes, i.e. its leading bits equal the prefix's bits. A prefix longer than `g`
 * never matches; a NULL geohash never matches. Prefixes that are not all constants: withinColumns.
 */
import { SqlError } from "../base/errors.ts";
import { T, typeName } from "../base/types.ts";
import { noMatch, scalar } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

function bindWithin(args: BoundArg[]): ScalarBinding | string {
  // A NULL prefix has no geohash type to compare with, reported at the first one, whatever
  // the left operand (WithinGeohashFunctionFactoryTest#testNullRhs, #testNullAllArgs).
  const nullArg = args.slice(1).find((a) => a.type.tag === "NULL");
  if (nullArg) throw new SqlError("cannot compare GEOHASH with type NULL", nullArg.pos);
  if (args.length < 2 || args[0].type.tag !== "GEOHASH") return noMatch("within", args);
  const bits = args[0].type.geoBits;
  // A prefix of another type fails at it (WithinGeohashFunctionFactory: 'cannot compare GEOHASH with type').
  const wrong = args.slice(1).find((a) => a.type.tag !== "GEOHASH");
  if (wrong) throw new SqlError(`cannot compare GEOHASH with type ${typeName(wrong.type)}`, wrong.pos);
  if (args.slice(1).some((a) => !a.constant)) return withinColumns(args);
  const prefixes: { shift: bigint; value: bigint }[] = [];
  for (const a of args.slice(1)) {
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

/**
 * WITHIN whose prefixes are not all constants (`#dr5reff6hu5e WITHIN (pickup_geohash)`): per row,
 * the left geohash cut to each prefix's precision equals the prefix's value, as QuestDB's
 * WithinGeohashVarVarFunction compares the raw values, so a NULL (all bits set) equals a NULL
 * prefix (WithinGeohashFunctionFactoryTest#testConstVarFilter).
 */
function withinColumns(args: BoundArg[]): ScalarBinding {
  const bits = args[0].type.geoBits;
  const shifts = args.slice(1).map((a) => BigInt(bits - a.type.geoBits));
  return {
    returns: T.BOOLEAN,
    eval: ([g, ...prefixes]) => {
      for (let i = 0; i < prefixes.length; i++) {
        if (shifts[i] < 0n) continue;
        const p = prefixes[i] as bigint | null;
        if (g === null || p === null) {
          if (g === null && p === null) return true;
          continue;
        }
        if (((g as bigint) >> shifts[i]) === p) return true;
      }
      return false;
    },
  };
}

/** `within`. */
export const GEOHASH_OPERATORS: ScalarFunction[] = [scalar("within", bindWithin)];
