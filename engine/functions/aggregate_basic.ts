/**
 * The core aggregates of spec/sql.md §13.1: count, count_distinct, sum, avg, min, max, first,
 * last, first_not_null, last_not_null.
 *
 * NULL inputs are skipped except by count(*), first and last (§4.6); over no rows (or only
 * NULLs) count is 0 and the others NULL. BYTE, SHORT and BOOLEAN results cannot be NULL and
 * give their NULL stand-in (0 / false) instead (§2.1).
 */
import {
  type ColumnType,
  DECIMAL_PRECISION_MAX,
  decimalType,
  isIntegral,
  isNumeric,
  T,
} from "../base/types.ts";
import { int64, nullValueOf, type Value } from "../base/values.ts";
import { SqlError } from "../base/errors.ts";
import { aggregate, noMatch } from "./_util.ts";
import type { Accumulator, AggregateBinding, AggregateFunction, BoundArg } from "./registry_types.ts";
import { compareValues, keyPart } from "./value_compare.ts";

/** count(), count(*), count(x) (non-NULL x), count(DISTINCT x): LONG. */
function bindCount(
  args: BoundArg[],
  options: { distinct: boolean; star: boolean },
): AggregateBinding | string {
  if (options.star || args.length === 0) {
    return { returns: T.LONG, create: () => counter((_a) => true) };
  }
  if (args.length !== 1) return noMatch("count", args);
  return { returns: T.LONG, create: () => counter((a) => a[0] !== null) };
}

function counter(counts: (args: Value[]) => boolean): Accumulator {
  let n = 0;
  return {
    add: (a) => {
      if (counts(a)) n++;
    },
    result: () => BigInt(n),
  };
}

/** count_distinct(x): distinct non-NULL values (§13.1); count(DISTINCT x) reaches the same via aggregates.ts. */
function bindCountDistinct(args: BoundArg[]): AggregateBinding | string {
  if (args.length !== 1) return noMatch("count_distinct", args);
  return {
    returns: T.LONG,
    create: () => {
      const seen = new Set<string>();
      return {
        add: ([v]) => {
          if (v !== null) seen.add(keyPart(v));
        },
        result: () => BigInt(seen.size),
      };
    },
  };
}

/** Integer sums: a JS number while exact, spilled into a bigint before it could lose digits. */
function integerSum(): Accumulator {
  let small = 0, big = 0n, n = 0;
  return {
    add: ([v]) => {
      if (v === null) return;
      n++;
      if (typeof v === "bigint") big += v;
      else {
        small += v as number;
        if (small > 2 ** 52 || small < -(2 ** 52)) {
          big += BigInt(small);
          small = 0;
        }
      }
    },
    // Wrapping once at the end equals wrapping at every step (§4.3: sum() does not check overflow).
    result: () => (n === 0 ? null : int64(big + BigInt(small))),
  };
}

function doubleSum(float: boolean): Accumulator {
  let sum = 0, n = 0;
  return {
    add: ([v]) => {
      if (v === null) return;
      n++;
      sum += v as number;
    },
    result: () => (n === 0 || !Number.isFinite(sum) ? null : float ? Math.fround(sum) : sum),
  };
}

/** sum of DECIMAL: exact, precision widened to the maximum, scale kept (§23.3). */
function decimalSumType(t: ColumnType): ColumnType {
  return decimalType(DECIMAL_PRECISION_MAX, t.scale ?? 0);
}

/** The largest magnitude a DECIMAL sum holds: 76 digits. */
export const DECIMAL_SUM_LIMIT = 10n ** BigInt(DECIMAL_PRECISION_MAX);
export const DECIMAL_SUM_OVERFLOW =
  "sum aggregation failed: Overflow in addition: result exceeds maximum precision";

/**
 * avg of DECIMAL adds into QuestDB's Decimal256, a signed 256-bit accumulator: a running sum
 * outside it fails, at the call (AvgDecimalGroupByFunctionFactoryTest#testAvgOverflow: ten
 * DECIMAL(76, 0) values of 76 nines).
 */
export const DECIMAL_AVG_OVERFLOW =
  "avg aggregation failed: Overflow in addition: result exceeds 256-bit capacity";

/** Whether a DECIMAL avg's running sum has left Decimal256's range. */
export function decimalAvgOverflows(sum: bigint): boolean {
  return sum >= 1n << 255n || sum < -(1n << 255n);
}

/**
 * The exact sum of bigints. `checked`: a running sum leaving 76 digits fails, as the sum of
 * DECIMAL does in QuestDB's Decimal256 accumulator (SumDecimalGroupByFunctionFactoryTest#testSumOverflow;
 * the planner places the error at the call).
 */
function decimalSum(checked = false): Accumulator {
  let sum = 0n, any = false;
  return {
    add: ([v]) => {
      if (v === null) return;
      sum += v as bigint;
      any = true;
      if (checked && (sum >= DECIMAL_SUM_LIMIT || sum <= -DECIMAL_SUM_LIMIT)) {
        throw new SqlError(DECIMAL_SUM_OVERFLOW);
      }
    },
    result: () => (any ? sum : null),
  };
}

/**
 * avg of DECIMAL: the exact sum over the count at the argument's scale, rounded half to even as
 * QuestDB's AvgDecimal*GroupByFunction (DecimalGroupByTest#testDecimal16Avg: 3711.5 gives 3712,
 * 3710.5 gives 3710); §23.3 said truncated.
 */
export function decimalAvgOf(sum: bigint, count: bigint): bigint {
  const q = sum / count;
  const twice = 2n * (sum - q * count);
  const r = twice < 0n ? -twice : twice;
  if (r < count || (r === count && q % 2n === 0n)) return q;
  return sum < 0n ? q - 1n : q + 1n;
}

/**
 * avg(d, scale): the average at `scale` digits, DECIMAL(p - s + scale, scale), rounded half to
 * even (QuestDB AvgDecimalRescaleGroupByFunctionFactoryTest; its errors point at the scale).
 */
function decimalAvgRescaled(t: ColumnType, scaleArg: BoundArg): AggregateBinding {
  const target = Number(scaleArg.value);
  if (target < 0) throw new SqlError(`non-negative scale required: ${target}`, scaleArg.pos);
  if (target > DECIMAL_PRECISION_MAX) {
    throw new SqlError(`scale exceeds maximum of ${DECIMAL_PRECISION_MAX}: ${target}`, scaleArg.pos);
  }
  const scale = t.scale ?? 0, precision = (t.precision ?? DECIMAL_PRECISION_MAX) - scale + target;
  if (precision > DECIMAL_PRECISION_MAX) {
    throw new SqlError(
      `rescaled decimal has precision that exceeds maximum of ${DECIMAL_PRECISION_MAX}: ${precision}`,
      scaleArg.pos,
    );
  }
  const up = 10n ** BigInt(Math.max(0, target - scale)), down = 10n ** BigInt(Math.max(0, scale - target));
  return {
    returns: decimalType(precision, target),
    create: (): Accumulator => {
      const acc = decimalSum();
      let n = 0n;
      return {
        add: (args) => {
          if (args[0] === null) return;
          acc.add(args);
          n++;
          if (decimalAvgOverflows(acc.result() as bigint)) throw new SqlError(DECIMAL_AVG_OVERFLOW);
        },
        result: () => (n === 0n ? null : decimalAvgOf((acc.result() as bigint) * up, n * down)),
      };
    },
  };
}

function decimalAvg(): Accumulator {
  let sum = 0n, n = 0n;
  return {
    add: ([v]) => {
      if (v === null) return;
      sum += v as bigint;
      n++;
      if (decimalAvgOverflows(sum)) throw new SqlError(DECIMAL_AVG_OVERFLOW);
    },
    result: () => (n === 0n ? null : decimalAvgOf(sum, n)),
  };
}

/** sum(x): BYTE/SHORT/INT/LONG → LONG (wrapping), FLOAT → FLOAT, DOUBLE → DOUBLE, LONG256 → LONG256. */
function bindSum(args: BoundArg[]): AggregateBinding | string {
  if (args.length !== 1) return noMatch("sum", args);
  const t = args[0].type;
  if (isIntegral(t)) return { returns: T.LONG, create: integerSum };
  if (t.tag === "FLOAT") return { returns: T.FLOAT, create: () => doubleSum(true) };
  if (t.tag === "DOUBLE" || t.tag === "NULL") return { returns: T.DOUBLE, create: () => doubleSum(false) };
  if (t.tag === "DECIMAL") return { returns: decimalSumType(t), create: () => decimalSum(true) };
  if (t.tag === "LONG256") return { returns: T.LONG256, create: long256Sum };
  return noMatch("sum", args);
}

/** sum of LONG256 (QuestDB SumLong256GroupByFunction): wraps modulo 2^256, NULLs skipped. */
function long256Sum(): Accumulator {
  const acc = decimalSum();
  return {
    add: acc.add,
    result: () => {
      const v = acc.result();
      return v === null ? null : BigInt.asUintN(256, v as bigint);
    },
  };
}

/** avg(x): DOUBLE mean of the non-NULL values. */
function bindAvg(args: BoundArg[]): AggregateBinding | string {
  if (args.length === 1 && args[0].type.tag === "DECIMAL") {
    return { returns: args[0].type, create: decimalAvg };
  }
  if (args.length === 2 && args[0].type.tag === "DECIMAL" && isIntegral(args[1].type) && args[1].constant) {
    return decimalAvgRescaled(args[0].type, args[1]);
  }
  // BOOLEAN averages as 1/0 (QuestDB AvgBooleanGroupByFunctionFactoryTest: the share of true).
  const t = args[0]?.type.tag;
  if (args.length !== 1 || !(isNumeric(args[0].type) || t === "NULL" || t === "BOOLEAN")) {
    return noMatch("avg", args);
  }
  return {
    returns: T.DOUBLE,
    create: () => {
      let sum = 0, n = 0;
      return {
        add: ([v]) => {
          if (v === null) return;
          n++;
          sum += Number(v);
        },
        result: () => (n === 0 || !Number.isFinite(sum / n) ? null : sum / n),
      };
    },
  };
}

const ORDERED = new Set([
  "BYTE",
  "SHORT",
  "INT",
  "LONG",
  "FLOAT",
  "DOUBLE",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
  "CHAR",
  "STRING",
  "VARCHAR",
  "SYMBOL",
  "IPV4",
  "UUID",
  "BOOLEAN",
  "LONG256",
  "DECIMAL",
  "NULL",
]);

/** min(x) / max(x): the extreme non-NULL value, in the type of x (SYMBOL stays SYMBOL). */
function bindExtreme(name: string, sign: 1 | -1) {
  return (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== 1 || !ORDERED.has(args[0].type.tag)) return noMatch(name, args);
    // QuestDB's max(T) is its max(DOUBLE) over the boolean, and min(T) reaches min(DOUBLE):
    // a BOOLEAN's extreme is the DOUBLE 1.0 / 0.0 (AvgBooleanGroupByFunctionFactoryTest#testAll).
    const bool = args[0].type.tag === "BOOLEAN";
    const returns = bool ? T.DOUBLE : resultType(args[0].type);
    const empty = nullValueOf(returns);
    return {
      returns,
      create: () => {
        let best: Value = null;
        return {
          add: ([v]) => {
            if (bool && v !== null) v = v ? 1 : 0;
            if (v !== null && (best === null || sign * compareValues(v, best) > 0)) best = v;
          },
          result: () => best ?? empty,
        };
      },
    };
  };
}

/** An untyped NULL argument aggregates as DOUBLE. */
function resultType(t: ColumnType): ColumnType {
  return t.tag === "NULL" ? T.DOUBLE : t;
}

/** first/last (NULL values count) and first_not_null/last_not_null, all in the type of x. */
function bindPick(name: string, last: boolean, skipNull: boolean) {
  return (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== 1 || args[0].type.tag === "CURSOR") return noMatch(name, args);
    // QuestDB has no first/last over LONG256: its LONG256 argument goes to first(LONG) through
    // the implicit LONG256 -> LONG cast (SampleByFillTest#testFillConstLong256Value answers
    // first(val) = 1, 66, 3 for 0x01, FILL(0x42), 0x03).
    const long256 = args[0].type.tag === "LONG256" && (name === "first" || name === "last");
    const returns = long256 ? T.LONG : resultType(args[0].type);
    const empty = nullValueOf(returns);
    return {
      returns,
      ...(long256 ? { argTypes: [T.LONG] } : {}),
      create: () => {
        let seen = false, value: Value = null;
        return {
          add: ([v]) => {
            if (skipNull && v === null) return;
            if (!seen || last) value = v;
            seen = true;
          },
          result: () => value ?? empty,
        };
      },
    };
  };
}

/** The aggregates of this file. */
export const BASIC_AGGREGATES: AggregateFunction[] = [
  aggregate("count", bindCount),
  aggregate("count_distinct", bindCountDistinct),
  aggregate("sum", bindSum),
  aggregate("avg", bindAvg),
  aggregate("min", bindExtreme("min", -1)),
  aggregate("max", bindExtreme("max", 1)),
  aggregate("first", bindPick("first", false, false)),
  aggregate("last", bindPick("last", true, false)),
  aggregate("first_not_null", bindPick("first_not_null", false, true)),
  aggregate("last_not_null", bindPick("last_not_null", true, true)),
];
