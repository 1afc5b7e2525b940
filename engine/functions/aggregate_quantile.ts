/**
 * Exact quantiles (QuestDB 9): percentile_cont / quantile_cont interpolate between the two
 * nearest values and return DOUBLE; percentile_disc returns the value at index ceil(p * n) - 1
 * and quantile_disc the one at floor(p * (n - 1)) of the sorted non-NULL values, in the
 * argument's type. The
 * percentile_* names also serve as window functions over whole partitions (plan_window.ts).
 * QuestDB's sqllogictest files fix the formulas: quantile_disc(0.75) over six values is the
 * fourth smallest, quantile_cont(0.25) over 2500, 2600, ... is 2650.
 */
import { DoubleArray } from "../base/double_array.ts";
import { arrayType, type ColumnType, isIntegral, isNumeric, T } from "../base/types.ts";
import { nullValueOf } from "../base/values.ts";
import { SqlError } from "../base/errors.ts";
import { formatDouble } from "./double_format.ts";
import { aggregate, noMatch } from "./_util.ts";
import type { AggregateBinding, AggregateFunction, BoundArg } from "./registry_types.ts";

/**
 * The fraction a percentile argument in [-1, 1] stands for: a negative one counts from the top,
 * `-0.1` is `0.9` (QuestDB's SqlUtil.getPercentileMultiplier: `p >= 0 ? p : 1 - |p|`).
 */
export function percentileFraction(p: number): number {
  return p >= 0 ? p : 1 + p;
}

/**
 * The constant percentile as a fraction in [0, 1], or the error message. Out of range is QuestDB's
 * 'invalid percentile [expected=range(0.0, 1.0), actual=1.1]' at the percentile argument
 * (Percentile{Disc,Cont}DoubleGroupByFunctionFactoryTest#testInvalidPercentile1: position 34).
 */
function percentileOf(name: string, a: BoundArg): number | string {
  if (!a.constant || !isNumeric(a.type)) {
    return `percentile must be a constant numeric value [function=${name}]`;
  }
  const p = Number(a.value);
  if (!(p >= -1 && p <= 1)) {
    throw new SqlError(`invalid percentile [expected=range(0.0, 1.0), actual=${formatDouble(p)}]`, a.pos);
  }
  return percentileFraction(p);
}

/**
 * The quantile aggregates, and with `window` percentile_cont / percentile_disc as window
 * functions over a whole partition (PercentileWindowFunctionTest): there percentile_disc takes
 * the value at index ceil(p * n) - 1 of the sorted non-NULL values (0.75 over 1..10 is 8), and
 * an ARRAY of percentiles answers a DOUBLE[] of them. percentile_disc keeps the argument's type:
 * QuestDB's sqllogictest test_percentile_disc.test expects it in five records (42 of an INT, the
 * exact LONG 9223372036854775801) and a DOUBLE in two (51.000000 of long_sequence's x); the
 * larger set wins until QuestDB's factories settle it (its PercentileDiscDoubleWindowFunctionFactory
 * is percentile_disc(DD)).
 */
function bindQuantile(name: string, continuous: boolean, window = false) {
  return (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== 2) return noMatch(name, args);
    const x = args[0].type;
    if (!(isNumeric(x) || x.tag === "NULL")) return noMatch(name, args);
    const many = args[1].type.tag === "ARRAY";
    let ps: number[];
    if (many) {
      if (!args[1].constant || !(args[1].value instanceof DoubleArray)) {
        return `percentile must be a constant numeric value [function=${name}]`;
      }
      ps = [...args[1].value.data];
      if (window) ps = ps.map(percentileFraction);
      else {
        // The aggregate over an array of percentiles (MultiPercentileDiscDoubleGroupByFunction):
        // each in [0, 1], else 'invalid percentile' at the array's `[`.
        const bad = ps.find((p) => !(p >= 0 && p <= 1));
        if (bad !== undefined) {
          throw new SqlError(
            `invalid percentile [expected=range(0.0, 1.0), actual=${formatDouble(bad)}]`,
            args[1].pos,
          );
        }
      }
    } else {
      const p = percentileOf(name, args[1]);
      if (typeof p === "string") return p;
      ps = [p];
    }
    // The percentile_disc aggregate is QuestDB's percentile_disc(LD) over an integer argument:
    // LONG, its values sorted as unsigned 64-bit numbers, so a negative one sorts above every
    // positive one (PercentileDiscLongGroupByFunctionFactoryTest#testNegativeValues: over 1 and -1
    // the median is 1), and percentile_disc(DD), DOUBLE, over any other.
    const discLong = !window && name === "percentile_disc" && isIntegral(x);
    const returns: ColumnType = many
      ? arrayType(1)
      : continuous || x.tag === "NULL"
      ? T.DOUBLE
      : discLong
      ? T.LONG
      : !window && name === "percentile_disc"
      ? T.DOUBLE
      : x;
    const big = x.tag === "LONG" || discLong;
    // percentile_disc takes the value at index ceil(p * n) - 1, as a window function and as an
    // aggregate (PercentileDiscDoubleGroupByFunction: 0.95 over 50 values is the 48th smallest,
    // PercentileDiscDoubleGroupByFunctionFactoryTest#testWithKnownData); quantile_disc keeps
    // floor(p * (n - 1)), which QuestDB's test_percentile_disc.test fixes (0.75 over six values
    // is the fourth smallest).
    const nearestRank = window || name === "percentile_disc";
    const at = (sorted: (number | bigint)[], p: number): number | bigint => {
      const n = sorted.length;
      if (!continuous) return sorted[discIndex(n, p, nearestRank)];
      const pos = p * (n - 1), lo = Math.floor(pos), hi = Math.min(lo + 1, n - 1);
      const a = Number(sorted[lo]);
      return a + (pos - lo) * (Number(sorted[hi]) - a);
    };
    return {
      returns,
      create: () => {
        const values: (number | bigint)[] = [];
        return {
          add: ([v]) => {
            if (v === null || (typeof v === "number" && Number.isNaN(v))) return;
            values.push(big ? BigInt(v as bigint) : Number(v));
          },
          result: () => {
            if (values.length === 0) return many ? null : nullValueOf(returns);
            values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
            const sorted = discLong ? negativesLast(values) : values;
            return many ? DoubleArray.of1(ps.map((p) => Number(at(sorted, p)))) : at(sorted, ps[0]);
          },
        };
      },
    };
  };
}

/**
 * The index of a discrete percentile `p` among `n` sorted values: percentile_disc's nearest rank
 * ceil(p * n) - 1, or quantile_disc's floor(p * (n - 1)). Also the batch path's (collect_states.ts).
 */
export function discIndex(n: number, p: number, nearestRank: boolean): number {
  return nearestRank ? Math.max(0, Math.ceil(n * p) - 1) : Math.floor(p * (n - 1));
}

/**
 * Ascending values reordered as unsigned 64-bit numbers, the negative ones after the others:
 * percentile_disc's order over integers. Also the batch path's (collect_states.ts).
 */
export function negativesLast<T extends number | bigint>(sorted: ArrayLike<T>): T[] {
  const all = Array.from(sorted);
  const k = all.findIndex((v) => v >= 0);
  return k <= 0 ? all : [...all.slice(k), ...all.slice(0, k)];
}

/** The window form of percentile_cont / percentile_disc, or undefined for another name. */
export function windowPercentile(name: string): AggregateFunction | undefined {
  if (name !== "percentile_cont" && name !== "percentile_disc") return undefined;
  return aggregate(name, bindQuantile(name, name === "percentile_cont", true), ["DOUBLE", "DOUBLE"]);
}

/** Names usable as window functions only over a whole partition (no ORDER BY, no frame). */
export const WHOLE_PARTITION_WINDOW_FUNCTIONS = new Set(["percentile_cont", "percentile_disc"]);

/** The aggregates of this file. */
export const QUANTILE_AGGREGATES: AggregateFunction[] = [
  aggregate("percentile_cont", bindQuantile("percentile_cont", true), ["DOUBLE", "DOUBLE"]),
  aggregate("quantile_cont", bindQuantile("quantile_cont", true), ["DOUBLE", "DOUBLE"]),
  aggregate("percentile_disc", bindQuantile("percentile_disc", false), ["DOUBLE", "DOUBLE"]),
  aggregate("quantile_disc", bindQuantile("quantile_disc", false), ["DOUBLE", "DOUBLE"]),
];
