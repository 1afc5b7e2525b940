/**
 * Exact quantiles (QuestDB 9): percentile_cont / quantile_cont interpolate between the two
 * nearest values and return DOUBLE; percentile_disc / quantile_disc return the value at
 * index floor(p * (n - 1)) of the sorted non-NULL values, in the argument's type. The
 * percentile_* names also serve as window functions over whole partitions (plan_window.ts).
 * QuestDB's sqllogictest files fix the formulas: quantile_disc(0.75) over six values is the
 * fourth smallest, quantile_cont(0.25) over 2500, 2600, ... is 2650.
 */
import { type ColumnType, isNumeric, T } from "../base/types.ts";
import { nullValueOf } from "../base/values.ts";
import { aggregate, noMatch } from "./_util.ts";
import type { AggregateBinding, AggregateFunction, BoundArg } from "./registry_types.ts";

/**
 * The fraction a percentile argument in [-1, 1] stands for: a negative one counts from the top,
 * `-0.1` is `0.9` (QuestDB's SqlUtil.getPercentileMultiplier: `p >= 0 ? p : 1 - |p|`).
 */
export function percentileFraction(p: number): number {
  return p >= 0 ? p : 1 + p;
}

/** The constant percentile as a fraction in [0, 1], or the error message. */
function percentileOf(name: string, a: BoundArg): number | string {
  if (!a.constant || !isNumeric(a.type)) {
    return `percentile must be a constant numeric value [function=${name}]`;
  }
  const p = Number(a.value);
  if (!(p >= -1 && p <= 1)) return `percentile must be between 0.0 and 1.0 [value=${a.value}]`;
  return percentileFraction(p);
}

function bindQuantile(name: string, continuous: boolean) {
  return (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== 2) return noMatch(name, args);
    const x = args[0].type;
    if (!(isNumeric(x) || x.tag === "NULL")) return noMatch(name, args);
    const p = percentileOf(name, args[1]);
    if (typeof p === "string") return p;
    const returns: ColumnType = continuous || x.tag === "NULL" ? T.DOUBLE : x;
    const big = x.tag === "LONG";
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
            if (values.length === 0) return nullValueOf(returns);
            values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
            const pos = p * (values.length - 1);
            const lo = Math.floor(pos);
            if (!continuous) return values[lo];
            const a = Number(values[lo]);
            const hi = Math.min(lo + 1, values.length - 1);
            return a + (pos - lo) * (Number(values[hi]) - a);
          },
        };
      },
    };
  };
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
