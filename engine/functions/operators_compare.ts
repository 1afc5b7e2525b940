/**
 * Comparison operators `= != < <= > >=` with QuestDB's two-valued NULL rules (spec/sql.md §4):
 *
 * - `=` is true for two NULLs and false for one (`x = NULL` is an IS NULL test); `!=` negates.
 * - `<` and `>` are false when either side is NULL.
 * - `<=` and `>=` are true when both sides are NULL (the same sentinel) and false when one is;
 *   for text, UUID, IPv4 and LONG256 every ordering comparison with a NULL is false, as in
 *   QuestDB's string comparison functions.
 *
 * `NOT (a < b)` is folded to `a >= b` by the binder (§4.2); these functions never see NOT.
 * How the two operands meet is decided by compare_domain.ts.
 */
import { T } from "../base/types.ts";
import { noMatchOp, scalar } from "./_util.ts";
import { planComparison } from "./compare_domain.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import { bindArrayEquality } from "./array_ops.ts";
import { decimalComparator } from "./decimal_ops.ts";
import { compareValues } from "./value_compare.ts";

type CmpOp = "=" | "!=" | "<" | "<=" | ">" | ">=";

/** QuestDB's Numbers.DOUBLE_TOLERANCE: DOUBLE/FLOAT values this close are equal. */
export const DOUBLE_TOLERANCE = 1e-10;

/** The result for operands that are both non-NULL, from their comparison `c`. */
const TEST: Record<CmpOp, (c: number) => boolean> = {
  "=": (c) => c === 0,
  "!=": (c) => c !== 0,
  "<": (c) => c < 0,
  "<=": (c) => c <= 0,
  ">": (c) => c > 0,
  ">=": (c) => c >= 0,
};

/** The result when at least one operand is NULL; `both` tells whether both are. */
function nullResult(op: CmpOp, both: boolean, sentinelNull: boolean): boolean {
  switch (op) {
    case "=":
      return both;
    case "!=":
      return !both;
    case "<":
    case ">":
      return false;
    default:
      return both && sentinelNull;
  }
}

function bindComparison(op: CmpOp, args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2) return noMatchOp(op, args);
  const arrays = bindArrayEquality(op, args);
  if (arrays !== undefined) return arrays;
  const decimal = decimalComparator(args);
  if (typeof decimal === "string") return decimal;
  if (decimal) {
    const test = TEST[op];
    const bothNull = nullResult(op, true, true), oneNull = nullResult(op, false, true);
    return {
      returns: T.BOOLEAN,
      eval: ([a, b]) => {
        if (a === null) return b === null ? bothNull : oneNull;
        if (b === null) return oneNull;
        return test(decimal(a, b));
      },
    };
  }
  const [ta, tb] = [args[0].type, args[1].type];
  if (
    ta.tag === "GEOHASH" && tb.tag === "GEOHASH" && ta.geoBits !== tb.geoBits && (op === "=" || op === "!=")
  ) {
    // Geohashes of different precision are never equal (QuestDB's EqGeoHashGeoHashFunctionFactory;
    // GeoHashQueryTest#testGeoHashNotEqualsNullTest: `cast(geo4 as geohash(5c)) != geo4` is true).
    return { returns: T.BOOLEAN, eval: () => op === "!=" };
  }
  const plan = planComparison(op, args);
  if (typeof plan === "string") return plan;
  const { left, right, sentinelNull } = plan;
  const test = TEST[op];
  const floating = (t: BoundArg) => t.type.tag === "DOUBLE" || t.type.tag === "FLOAT";
  if ((op === "=" || op === "!=") && (floating(args[0]) || floating(args[1]))) {
    // QuestDB's double equality allows DOUBLE_TOLERANCE (Numbers.equals: |a - b| <= 1e-10), so
    // `sin(x) / cos(x) = tan(x)` holds (TrigonometryTest#testSimple).
    const eq = op === "=";
    return {
      returns: T.BOOLEAN,
      eval: ([a, b]) => {
        const x = left(a), y = right(b);
        if (x === null || y === null) return (x === null && y === null) === eq;
        return (Math.abs(Number(x) - Number(y)) <= DOUBLE_TOLERANCE) === eq;
      },
    };
  }
  const bothNull = nullResult(op, true, sentinelNull), oneNull = nullResult(op, false, sentinelNull);
  return {
    returns: T.BOOLEAN,
    eval: ([a, b]) => {
      const x = left(a), y = right(b);
      if (x === null) return y === null ? bothNull : oneNull;
      if (y === null) return oneNull;
      return test(compareValues(x, y));
    },
  };
}

function comparison(op: CmpOp, name: string = op): ScalarFunction {
  return scalar(name, (args) => bindComparison(op, args));
}

/** `=`, `!=`, `<>`, `<`, `<=`, `>`, `>=`. */
export const COMPARISON_OPERATORS: ScalarFunction[] = [
  comparison("="),
  comparison("!="),
  comparison("!=", "<>"),
  comparison("<"),
  comparison("<="),
  comparison(">"),
  comparison(">="),
];
