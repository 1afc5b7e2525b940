/**
 * Numeric functions of spec/sql.md §15.1: abs, sign, ceil/floor, the round family, sqrt, exp,
 * ln, log (base 10), power, greatest/least, trigonometry, size_pretty and mod.
 *
 * Results that leave the real domain (sqrt(-1), ln(0)) are NaN or infinite, which is NULL
 * (§2.1); `dbl()` normalizes them.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, isIntegral, isNumeric, numericRank, T, typeName } from "../base/types.ts";
import { dbl, int32, type Value } from "../base/values.ts";
import {
  aliases,
  doublesOf,
  isIntArg,
  isNumArg,
  isText,
  noMatch,
  scalar,
  toBigInt,
  toDouble,
  toIntArg,
} from "./_util.ts";
import { castValue } from "./cast.ts";
import { asDecimal, decimalCommonType } from "./decimal_types.ts";
import { bindDecimalAbsSign, bindDecimalRounding, type DecimalRoundMode } from "./decimal_rounding.ts";
import { questRound, roundDecimal, type RoundMode, roundTo } from "./numeric_round.ts";
import { bindArrayRound } from "./array_round.ts";
import { bindNumeric } from "./operators_arith.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** Binds `name(x, …)` of numeric arguments to a DOUBLE computed by `f`. */
export function doubleFn(name: string, arity: number, f: (...xs: number[]) => number) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== arity || !args.every((a) => isNumArg(a.type) || isImplicitDouble(a.type))) {
      return noMatch(name, args);
    }
    // Text is read as DOUBLE, as QuestDB's overload matrix takes STRING/VARCHAR/CHAR for DOUBLE:
    // `atan('-Infinity')` (docs query/functions/trigonometric.md#atan), `sqrt('4')`.
    const argTypes = args.some((a) => isImplicitDouble(a.type)) ? args.map(() => T.DOUBLE) : undefined;
    return {
      returns: T.DOUBLE,
      ...(argTypes ? { argTypes } : {}),
      numeric: f,
      eval: (vals) => {
        const xs = doublesOf(vals);
        return xs && dbl(f(...xs));
      },
    };
  };
}

/** Text types QuestDB converts where a DOUBLE is wanted (ColumnType's overload matrix). */
function isImplicitDouble(t: ColumnType): boolean {
  return t.tag === "STRING" || t.tag === "VARCHAR" || t.tag === "CHAR";
}

/**
 * ceil/ceiling/floor: a FLOAT argument gives a FLOAT (QuestDB's CeilFloatFunctionFactory and
 * FloorFloatFunctionFactory: `ceil(13.1f)` prints as the float 14.0000); other numbers a DOUBLE.
 */
function floatKeeping(name: string, f: (x: number) => number) {
  const asDouble = doubleFn(name, 1, f);
  return (args: BoundArg[]): ScalarBinding | string => {
    const b = asDouble(args);
    if (typeof b === "string" || args[0].type.tag !== "FLOAT") return b;
    return { ...b, returns: T.FLOAT };
  };
}

/** `abs(x)` keeps the type of x; BYTE and SHORT wrap in their width like Java narrowing. */
function bindAbs(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1 || !isNumArg(args[0].type)) return noMatch("abs", args);
  const t = args[0].type;
  switch (t.tag) {
    case "BYTE":
      return { returns: t, eval: ([a]) => (Math.abs(a as number) << 24) >> 24 };
    case "SHORT":
      return { returns: t, eval: ([a]) => (Math.abs(a as number) << 16) >> 16 };
    case "INT":
      return { returns: t, eval: ([a]) => (a === null ? null : int32(Math.abs(a as number))) };
    case "LONG":
      return { returns: t, eval: ([a]) => (a === null ? null : (a as bigint) < 0n ? -(a as bigint) : a) };
    case "NULL":
      return { returns: T.DOUBLE, eval: () => null };
    default:
      return { returns: t, eval: ([a]) => (a === null ? null : Math.abs(a as number)) };
  }
}

/** `sign(x)`: -1, 0 or 1 in the type of x. */
function bindSign(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1 || !isNumArg(args[0].type)) return noMatch("sign", args);
  const t = args[0].type;
  if (t.tag === "LONG") {
    return {
      returns: t,
      eval: ([a]) => (a === null ? null : (a as bigint) > 0n ? 1n : (a as bigint) < 0n ? -1n : 0n),
    };
  }
  if (t.tag === "NULL") return { returns: T.DOUBLE, eval: () => null };
  // FLOAT keeps Math.signum's signed zero, sign(-0.0f) is -0.0; DOUBLE's is 0.0
  // (SignFunctionFactoryTest#testSignFloat, #testSignDouble).
  if (t.tag === "FLOAT") return { returns: t, eval: ([a]) => (a === null ? null : Math.sign(a as number)) };
  return { returns: t, eval: ([a]) => (a === null ? null : Math.sign(a as number) + 0) };
}

/**
 * QuestDB rounds doubles only to scales its power-of-ten table holds: round(14.7778, 17) and
 * round(14.7778, -18) are NULL (RoundDoubleFunctionFactoryConstTest), ±16 is the edge taken.
 */
function outOfScale(scale: number): boolean {
  return scale > 16 || scale < -16;
}

/** round-family binder: `name(x [, scale])` → DOUBLE (§15.1). */
function bindRound(name: string, mode: RoundMode, scaleOptional: boolean) {
  return (args: BoundArg[]): ScalarBinding | string => {
    const okArity = args.length === 2 || (scaleOptional && args.length === 1);
    if (!okArity || !isNumArg(args[0].type) || (args.length === 2 && !isIntArg(args[1].type))) {
      return noMatch(name, args);
    }
    if (mode === "up" || mode === "down") {
      // round_up / round_down: QuestDB's own arithmetic, artifacts included.
      return {
        returns: T.DOUBLE,
        numeric: args.length === 2
          ? (x: number, scale: number) => questRound(x, scale, mode)
          : (x: number) => questRound(x, 0, mode),
        eval: ([v, s]) => {
          const x = toDouble(v);
          const scale = args.length === 2 ? toIntArg(s) : 0;
          if (x === null || scale === null) return null;
          return dbl(questRound(x, scale, mode));
        },
      };
    }
    return {
      returns: T.DOUBLE,
      numeric: args.length === 2
        ? (x: number, scale: number) => (outOfScale(scale) ? NaN : roundTo(x, scale, mode))
        : (x: number) => roundTo(x, 0, mode),
      eval: ([v, s]) => {
        const x = toDouble(v);
        const scale = args.length === 2 ? toIntArg(s) : 0;
        if (x === null || scale === null || outOfScale(scale)) return null;
        return dbl(roundDecimal(x, { scale, mode }));
      },
    };
  };
}

const TIME_RANK: Partial<Record<string, number>> = { DATE: 1, TIMESTAMP: 2, TIMESTAMP_NS: 3 };

/**
 * The result type of greatest/least, as QuestDB's GreatestNumericFunctionFactory picks it: the
 * widest of the numeric arguments (BYTE → SHORT → INT → LONG → FLOAT → DOUBLE, so
 * greatest(1::short, 4::byte) is SHORT and greatest(1f, 4) FLOAT); with a DATE/TIMESTAMP argument
 * the widest time type (integers read as timestamps); text only with text.
 */
function extremeType(types: ColumnType[]): ColumnType | undefined {
  const real = types.filter((t) => t.tag !== "NULL");
  if (real.length === 0) return T.DOUBLE;
  if (real.some((t) => t.tag === "DECIMAL")) {
    // Decimals and integers meet in the DECIMAL holding both (scale and integer digits the max);
    // a FLOAT or DOUBLE wins over DECIMAL for its range.
    if (real.every((t) => asDecimal(t))) return real.reduce((a, b) => decimalCommonType(a, b)!);
    return real.every((t) => asDecimal(t) || isNumeric(t)) ? T.DOUBLE : undefined;
  }
  if (real.every(isNumeric)) return real.reduce((a, b) => (numericRank(b) > numericRank(a) ? b : a));
  if (real.some((t) => TIME_RANK[t.tag]) && real.every((t) => TIME_RANK[t.tag] || isIntegral(t))) {
    const times = real.filter((t) => TIME_RANK[t.tag]);
    const widest = times.reduce((a, b) => (TIME_RANK[b.tag]! > TIME_RANK[a.tag]! ? b : a));
    return widest.tag === "DATE" && times.length < real.length ? T.TIMESTAMP : widest;
  }
  if (real.every(isText)) return real.every((t) => t.tag === "VARCHAR") ? T.VARCHAR : T.STRING;
  if (real.every((t) => t.tag === real[0].tag)) return real[0];
  return undefined;
}

/**
 * `greatest(a, …)` / `least(a, …)`: NULL arguments are ignored; NULL only when all are (§15.1).
 * Arguments are converted to the result type by the binder, so values compare directly.
 */
function bindExtreme(name: string, greater: boolean) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length === 0) return "at least one argument is required";
    const returns = extremeType(args.map((a) => a.type));
    if (!returns) {
      // QuestDB names the first argument it cannot compare as a number (greatest(5, 'abc')).
      const bad = args.find((a) => isText(a.type) || a.type.tag === "BOOLEAN");
      if (bad && args.some((a) => isNumeric(a.type) || TIME_RANK[a.type.tag])) {
        throw new SqlError(`unsupported type: ${typeName(bad.type)}`, bad.pos);
      }
      return noMatch(name, args);
    }
    // A constant that does not fit the result type fails at its own position (QuestDB:
    // greatest(123.456::decimal(76,73), 99999::int) points at 99999).
    for (const a of args) {
      if (a.constant) castValue(a.value ?? null, a.type, returns, { constant: true, pos: a.pos });
    }
    return {
      returns,
      argTypes: args.map(() => returns),
      eval: (vals) => {
        let best: Value = null;
        for (const x of vals) {
          if (x === null) continue;
          if (best === null || (greater ? x > best : x < best)) best = x;
        }
        return best;
      },
    };
  };
}

/**
 * `width_bucket(x, lo, hi, count)` (WidthBucketFunctionFactoryTest, as PostgreSQL): the 1-based
 * bucket of x among `count` equal buckets from lo to hi (hi below lo counts downwards); 0 below
 * the range, count + 1 at or past its end; NULL for a NULL/NaN argument or a count below 1.
 */
export function widthBucket(x: number, lo: number, hi: number, count: number): number | null {
  if (!Number.isFinite(x) || !Number.isFinite(lo) || !Number.isFinite(hi) || count < 1 || lo === hi) {
    return null;
  }
  if (lo < hi) {
    if (x < lo) return 0;
    if (x >= hi) return count + 1;
    return Math.floor(((x - lo) / (hi - lo)) * count) + 1;
  }
  if (x > lo) return 0;
  if (x <= hi) return count + 1;
  return Math.floor(((lo - x) / (lo - hi)) * count) + 1;
}

function bindWidthBucket(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 4 || !args.slice(0, 3).every((a) => isNumArg(a.type)) || !isIntArg(args[3].type)) {
    return noMatch("width_bucket", args);
  }
  const c = args[3];
  if (c.constant && c.value !== null && c.value !== undefined && Number(c.value) <= 0) {
    throw new SqlError("bucket count must be greater than 0", c.pos);
  }
  const [l, h] = [args[1], args[2]];
  if (
    l.constant && h.constant && l.value !== null && l.value !== undefined &&
    toDouble(l.value) === toDouble(h.value ?? null)
  ) {
    throw new SqlError("bounds cannot be equal", l.pos);
  }
  return {
    returns: T.INT,
    eval: ([x, lo, hi, n]) => {
      const [a, b, d, k] = [toDouble(x), toDouble(lo), toDouble(hi), toIntArg(n)];
      return a === null || b === null || d === null || k === null ? null : widthBucket(a, b, d, k);
    },
  };
}

const RADIANS_TO_DEGREES = 180 / Math.PI;
const DEGREES_TO_RADIANS = Math.PI / 180;

const SIZE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/**
 * `size_pretty(bytes)`: base-1024 value with one decimal and a unit, `390.7 KiB` for 400032.
 * Like QuestDB, the unit is chosen from the highest set bit and the value is a float.
 */
export function sizePretty(bytes: bigint): string {
  const msb = bytes === 0n ? 0 : bytes < 0n ? 63 : bytes.toString(2).length - 1;
  const z = Math.floor(msb / 10);
  const value = Math.fround(Number(bytes) / 2 ** (z * 10));
  return `${roundDecimal(value, { scale: 1, mode: "halfUp" }).toFixed(1)} ${SIZE_UNITS[z]}`;
}

function bindSizePretty(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1 || !isIntArg(args[0].type)) return noMatch("size_pretty", args);
  return { returns: T.STRING, eval: ([v]) => (v === null ? null : sizePretty(toBigInt(v)!)) };
}

/** A rounding binder that takes a DECIMAL first argument exactly (decimal_rounding.ts). */
function decimalFirst(
  name: string,
  mode: DecimalRoundMode,
  otherwise: (args: BoundArg[]) => ScalarBinding | string,
): (args: BoundArg[]) => ScalarBinding | string {
  return (args) => bindDecimalRounding(name, mode, args) ?? otherwise(args);
}

/** The numeric functions. */
export const NUMERIC_FUNCTIONS: ScalarFunction[] = [
  scalar("abs", (args) => bindDecimalAbsSign("abs", args) ?? bindAbs(args)),
  scalar("sign", (args) => bindDecimalAbsSign("sign", args) ?? bindSign(args)),
  ...aliases(["ceil", "ceiling"], decimalFirst("ceil", "ceil", floatKeeping("ceil", Math.ceil))),
  scalar("floor", decimalFirst("floor", "floor", floatKeeping("floor", Math.floor))),
  scalar(
    "round",
    (args) =>
      bindArrayRound(args) ?? decimalFirst("round", "halfUp", bindRound("round", "halfUp", true))(args),
  ),
  scalar(
    "round_half_even",
    decimalFirst("round_half_even", "halfEven", bindRound("round_half_even", "halfEven", true)),
  ),
  scalar("round_down", decimalFirst("round_down", "down", bindRound("round_down", "down", false))),
  scalar("round_up", decimalFirst("round_up", "up", bindRound("round_up", "up", false))),
  scalar("sqrt", doubleFn("sqrt", 1, Math.sqrt)),
  scalar("cbrt", doubleFn("cbrt", 1, Math.cbrt)),
  scalar("exp", doubleFn("exp", 1, Math.exp)),
  scalar("ln", doubleFn("ln", 1, Math.log)),
  // log() is base 10, as in PostgreSQL (§15.1, §21).
  scalar("log", doubleFn("log", 1, Math.log10)),
  scalar("log10", doubleFn("log10", 1, Math.log10)),
  ...aliases(["power", "pow"], doubleFn("power", 2, Math.pow)),
  scalar("greatest", bindExtreme("greatest", true)),
  scalar("least", bindExtreme("least", false)),
  scalar("width_bucket", bindWidthBucket),
  scalar("sin", doubleFn("sin", 1, Math.sin)),
  scalar("cos", doubleFn("cos", 1, Math.cos)),
  scalar("tan", doubleFn("tan", 1, Math.tan)),
  scalar("cot", doubleFn("cot", 1, (x) => 1 / Math.tan(x))),
  scalar("asin", doubleFn("asin", 1, Math.asin)),
  scalar("acos", doubleFn("acos", 1, Math.acos)),
  scalar("atan", doubleFn("atan", 1, Math.atan)),
  scalar("atan2", doubleFn("atan2", 2, Math.atan2)),
  // Java multiplies by the precomputed ratio (Math.toDegrees / toRadians); so do we, for identical bits.
  scalar("degrees", doubleFn("degrees", 1, (x) => x * RADIANS_TO_DEGREES)),
  scalar("radians", doubleFn("radians", 1, (x) => x * DEGREES_TO_RADIANS)),
  scalar("pi", doubleFn("pi", 0, () => Math.PI)),
  scalar("size_pretty", bindSizePretty),
  scalar("mod", (args) => (args.length === 2 ? bindNumeric("%", args) : noMatch("mod", args))),
];
