/**
 * Aggregates that collect or select values rather than compute a number (spec/sql.md §13.1,
 * §13.2): string_agg, string_distinct_agg, approx_percentile, approx_median, arg_min,
 * arg_max, bool_and, bool_or, bit_and, bit_or, bit_xor, mode, approx_count_distinct, isOrdered,
 * array_agg.
 */
import { SqlError } from "../base/errors.ts";
import { arrayType, type ColumnType, isIntegral, isNumeric, T } from "../base/types.ts";
import { DoubleArray } from "../base/double_array.ts";
import { DoubleHistogram } from "./hdr_double_histogram.ts";
import { int32, int64, nullValueOf, type Value } from "../base/values.ts";
import { aggregate, isText, noMatch, textOf } from "./_util.ts";
import type { Accumulator, AggregateBinding, AggregateFunction, BoundArg } from "./registry_types.ts";
import { compareValues, keyPart } from "./value_compare.ts";
import { approxCountDistinct, sketchBytes } from "./hyperloglog.ts";

/** The constant delimiter of string_agg-like calls; undefined when not a constant string. */
function constDelimiter(a: BoundArg | undefined): string | undefined {
  if (!a || !a.constant || !(isText(a.type) || a.type.tag === "NULL")) return undefined;
  return (a.value ?? "") as string;
}

/**
 * string_agg(x, delim) / string_distinct_agg(x, delim): NULLs skipped, no values → NULL. VARCHAR
 * over a VARCHAR, else STRING, as QuestDB's two forms (string_agg(Sa) is a StrFunction,
 * string_agg(Øa) a VarcharFunction).
 */
function bindStringAgg(name: string, distinct: boolean) {
  return (args: BoundArg[]): AggregateBinding | string => {
    const delim = constDelimiter(args[1]);
    if (args.length !== 2 || delim === undefined) return noMatch(name, args);
    const type = args[0].type;
    return {
      returns: type.tag === "VARCHAR" ? T.VARCHAR : T.STRING,
      create: () => {
        const parts: string[] = [];
        const seen = distinct ? new Set<string>() : undefined;
        return {
          add: ([v]) => {
            const s = textOf(v, type);
            if (s === null || seen?.has(s)) return;
            seen?.add(s);
            parts.push(s);
          },
          result: () => (parts.length === 0 ? null : parts.join(delim)),
        };
      },
    };
  };
}

/**
 * approx_percentile(x, p [, precision]) / approx_median(x [, precision]): DOUBLE, answered as
 * QuestDB's HdrHistogram answers it (hdr_double_histogram.ts): DOUBLE/FLOAT through a
 * DoubleHistogram, integers through an integer Histogram, `precision` significant digits
 * (0..5, default 1). A constant ARRAY of percentiles answers a DOUBLE[] of them from the one
 * histogram (ApproxPercentileParallelTest: `approx_percentile(x, ARRAY[0.5, 0.6], 3)`).
 */
function bindPercentile(name: string, median: boolean) {
  return (args: BoundArg[]): AggregateBinding | string => {
    const pArg = median ? undefined : args[1];
    const maxArgs = median ? 2 : 3;
    if (
      args.length < maxArgs - 1 || args.length > maxArgs ||
      !(isNumeric(args[0].type) || args[0].type.tag === "NULL")
    ) {
      return noMatch(name, args);
    }
    const ps = pArg ? percentilesOf(name, pArg) : [0.5];
    if (typeof ps === "string") return ps;
    const many = pArg?.type.tag === "ARRAY";
    let digits = 1;
    const precArg = args[maxArgs - 1];
    if (args.length === maxArgs && precArg) {
      if (!precArg.constant || !isIntegral(precArg.type)) return "precision must be a constant integer";
      digits = Number(precArg.value);
      // At the precision argument (ApproxMedianDoubleGroupByFunctionFactoryTest#testInvalidPrecision1: 32).
      if (!(digits >= 0 && digits <= 5)) throw new SqlError("precision must be between 0 and 5", precArg.pos);
    }
    const integers = isIntegral(args[0].type);
    return {
      returns: many ? arrayType(1) : T.DOUBLE,
      create: () => {
        const h = new DoubleHistogram(digits, integers, name);
        return {
          add: ([v]) => {
            if (v === null) return;
            const x = Number(v);
            if (Number.isNaN(x)) return;
            if (x < 0) throw new SqlError(`${name}: negative values are not supported [value=${x}]`);
            h.record(x);
          },
          result: () => {
            const values = ps.map((p) => h.valueAtPercentile(p * 100) ?? null);
            if (!many) return values[0];
            return values.includes(null) ? null : DoubleArray.of1(values as number[]);
          },
        };
      },
    };
  };
}

/** approx_percentile's constant percentile, or its constant ARRAY of them, each in [0, 1]. */
function percentilesOf(name: string, pArg: BoundArg): number[] | string {
  const many = pArg.type.tag === "ARRAY";
  // At the argument (ApproxPercentileDoubleGroupByFunctionFactoryTest#testInvalidPercentile3: 37).
  if (!pArg.constant || (many ? !(pArg.value instanceof DoubleArray) : !isNumeric(pArg.type))) {
    throw new SqlError(`percentile must be a constant [function=${name}]`, pArg.pos);
  }
  const ps = many ? [...(pArg.value as DoubleArray).data] : [Number(pArg.value)];
  const bad = ps.find((p) => !(p >= 0 && p <= 1));
  if (bad === undefined) return ps;
  return `percentile must be between 0.0 and 1.0 [value=${many ? bad : pArg.value}]`;
}

/** arg_min(value, key) / arg_max(value, key): value at the extreme non-NULL key; ties keep the first. */
function bindArgExtreme(name: string, sign: 1 | -1) {
  return (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== 2) return noMatch(name, args);
    const returns = args[0].type.tag === "NULL" ? T.DOUBLE : args[0].type;
    return {
      returns,
      create: () => {
        let bestKey: Value = null, value: Value = null;
        return {
          add: ([v, k]) => {
            if (k === null) return;
            if (bestKey === null || sign * compareValues(k, bestKey) > 0) [bestKey, value] = [k, v];
          },
          result: () => value ?? nullValueOf(returns),
        };
      },
    };
  };
}

/** bool_and / bool_or over BOOLEAN; an empty group is false, as in QuestDB (BOOLEAN has no NULL). */
function bindBool(name: string, and: boolean) {
  return (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== 1 || args[0].type.tag !== "BOOLEAN") return noMatch(name, args);
    return {
      returns: T.BOOLEAN,
      create: () => {
        let acc = and, n = 0;
        return {
          add: ([v]) => {
            n++;
            acc = and ? acc && v === true : acc || v === true;
          },
          result: () => n > 0 && acc,
        };
      },
    };
  };
}

/**
 * isOrdered(x): true while every value is at least the one before it, in scan order (QuestDB's
 * IsOrdered group-by functions, IPv4Test#testIPv4IsOrdered*). NULL sorts first, as QuestDB's
 * NULL sentinels (0 for IPv4, the minimum for LONG / TIMESTAMP) do.
 */
function bindIsOrdered(args: BoundArg[]): AggregateBinding | string {
  const t = args[0]?.type;
  const ok = t && (isNumeric(t) || t.tag === "IPV4" || t.tag === "TIMESTAMP" || t.tag === "TIMESTAMP_NS" ||
    t.tag === "DATE");
  if (args.length !== 1 || !ok) return noMatch("isOrdered", args);
  return {
    returns: T.BOOLEAN,
    create: () => {
      let ordered = true, seen = false;
      let prev: number | bigint | null = null;
      return {
        add: ([v]) => {
          const cur = v as number | bigint | null;
          if (ordered && seen && prev !== null && (cur === null || cur < prev)) ordered = false;
          prev = cur;
          seen = true;
        },
        result: () => ordered,
      };
    },
  };
}

type BitOp = "and" | "or" | "xor";

/** bit_and / bit_or / bit_xor: a bitwise fold of non-NULL integers in the type of x. */
function bindBits(name: string, op: BitOp) {
  return (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== 1 || !isIntegral(args[0].type)) return noMatch(name, args);
    const returns = args[0].type;
    const long = returns.tag === "LONG";
    const fold = (a: bigint, b: bigint) => (op === "and" ? a & b : op === "or" ? a | b : a ^ b);
    return {
      returns,
      create: () => {
        let acc: bigint | null = null;
        return {
          add: ([v]) => {
            if (v === null) return;
            const x = BigInt(v as number | bigint);
            acc = acc === null ? x : fold(acc, x);
          },
          result: () => {
            if (acc === null) return nullValueOf(returns);
            if (long) return int64(acc);
            const n = Number(BigInt.asIntN(32, acc));
            return returns.tag === "INT" ? int32(n) : n;
          },
        };
      },
    };
  };
}

/** QuestDB has mode(L) and mode(D): narrower integers widen to LONG, FLOAT to DOUBLE. */
const MODE_WIDENED: Partial<Record<string, ColumnType>> = {
  BYTE: T.LONG,
  SHORT: T.LONG,
  INT: T.LONG,
  FLOAT: T.DOUBLE,
};

/** mode(x): the most frequent non-NULL value; ties go to the first seen, for BOOLEAN to true. */
function bindMode(args: BoundArg[]): AggregateBinding | string {
  if (args.length !== 1 || args[0].type.tag === "BINARY") return noMatch("mode", args);
  const returns: ColumnType = args[0].type.tag === "NULL"
    ? T.DOUBLE
    : MODE_WIDENED[args[0].type.tag] ?? args[0].type;
  const isBool = returns.tag === "BOOLEAN";
  const toLong = returns.tag === "LONG" && args[0].type.tag !== "LONG";
  return {
    returns,
    create: () => {
      const counts = new Map<string, { value: Value; count: number }>();
      return {
        add: ([v]) => {
          if (v === null) return;
          const k = keyPart(v);
          const e = counts.get(k);
          if (e) e.count++;
          else counts.set(k, { value: v, count: 1 });
        },
        result: () => {
          let best: { value: Value; count: number } | undefined;
          for (const e of counts.values()) {
            const better = !best || e.count > best.count ||
              (isBool && e.count === best.count && e.value === true);
            if (better) best = e;
          }
          if (!best) return nullValueOf(returns);
          return toLong && typeof best.value === "number" ? BigInt(best.value) : best.value;
        },
      };
    },
  };
}

/**
 * approx_count_distinct(x [, precision]): QuestDB's HyperLogLog++ estimate (hyperloglog.ts) for
 * the integer, IPv4 and time types its factories take (INT-sized values hashed as 4 bytes, the
 * rest as 8); other types count exactly, which §13.2 accepts.
 */
function bindApproxCountDistinct(args: BoundArg[]): AggregateBinding | string {
  if (args.length < 1 || args.length > 2) return noMatch("approx_count_distinct", args);
  // ApproxCountDistinctLongGroupByFunctionFactoryTest#testPrecisionOutOfRange.
  const precision = args[1]?.constant ? Number(args[1].value) : undefined;
  if (precision !== undefined && !(precision >= 4 && precision <= 18)) {
    return "precision must be between 4 and 18";
  }
  const bytes = sketchBytes(args[0].type.tag);
  // QuestDB's IPv4 form checks the precision but builds its sketch at the default 14
  // (ApproxCountDistinctIPv4GroupByFunctionFactoryTest#testDifferentPrecisionsDenseHLL).
  const bits = args[0].type.tag === "IPV4" ? 14 : precision ?? 14;
  return {
    returns: T.LONG,
    create: (): Accumulator => {
      const seen = new Set<Value>();
      return {
        add: ([v]) => {
          if (v !== null) seen.add(bytes ? v : keyPart(v));
        },
        result: () => (bytes ? approxCountDistinct(seen, bytes, bits) : BigInt(seen.size)),
      };
    },
  };
}

/**
 * array_agg(x): the group's values as a DOUBLE[] in input order, NULLs kept as NULL elements;
 * no rows → NULL (QuestDB ArrayAggDoubleGroupByFunctionFactoryTest: integers widen to DOUBLE).
 */
function bindArrayAgg(args: BoundArg[]): AggregateBinding | string {
  if (args.length === 1 && args[0].type.tag === "ARRAY") return bindArrayAggArrays(args[0]);
  if (args.length !== 1 || !(isNumeric(args[0].type) || args[0].type.tag === "NULL")) {
    return noMatch("array_agg", args);
  }
  return {
    returns: arrayType(1),
    argTypes: [T.DOUBLE],
    create: (): Accumulator => {
      const values: number[] = [];
      return {
        add: ([v]) => {
          values.push(v === null ? NaN : Number(v));
        },
        result: () => (values.length === 0 ? null : DoubleArray.of1(values)),
      };
    },
  };
}

/**
 * array_agg(arr) over DOUBLE[]: the group's one-dimensional arrays concatenated in input order,
 * NULL and empty arrays skipped, NULL elements kept (ArrayAggDoubleArrayGroupByFunctionFactoryTest).
 */
function bindArrayAggArrays(arg: BoundArg): AggregateBinding | string {
  // At the argument (ArrayOperationsTest: `array_agg(m)` fails at `m`).
  if (arg.type.dims !== 1) throw new SqlError("array is not one-dimensional", arg.pos);
  return {
    returns: arrayType(1),
    create: (): Accumulator => {
      const values: number[] = [];
      return {
        add: ([v]) => {
          if (v === null) return;
          for (const x of (v as DoubleArray).data) values.push(x);
        },
        result: () => (values.length === 0 ? null : DoubleArray.of1(values)),
      };
    },
  };
}

/**
 * asum / amin / amax / aavg over DOUBLE[] (QuestDB AsumArrayGroupByFunctionFactoryTest and its
 * siblings): element by element over the group's arrays, NULL arrays and NULL elements skipped,
 * a shorter array adds nothing past its end; the result is as long as the longest array; no
 * non-NULL, non-empty array -> NULL. One-dimensional arrays.
 */
function bindArrayElementwise(name: string, op: "sum" | "min" | "max" | "avg") {
  return (args: BoundArg[]): AggregateBinding | string => {
    if (args.length !== 1 || args[0].type.tag !== "ARRAY" || args[0].type.dims !== 1) {
      return noMatch(name, args);
    }
    return {
      returns: arrayType(1),
      create: (): Accumulator => {
        const acc: number[] = [];
        const counts: number[] = [];
        let any = false;
        return {
          add: ([v]) => {
            // Empty arrays are skipped like NULL ones (AavgArrayGroupByFunctionFactoryTest#testEmptyArray).
            if (v === null || (v as DoubleArray).data.length === 0) return;
            any = true;
            const data = (v as DoubleArray).data;
            for (let i = 0; i < data.length; i++) {
              const x = data[i];
              if (counts.length <= i) {
                counts.push(0);
                acc.push(NaN);
              }
              if (Number.isNaN(x)) continue;
              if (counts[i] === 0) acc[i] = x;
              else if (op === "sum" || op === "avg") acc[i] += x;
              else if (op === "min" ? x < acc[i] : x > acc[i]) acc[i] = x;
              counts[i]++;
            }
          },
          result: () => {
            if (!any) return null;
            return DoubleArray.of1(op === "avg" ? acc.map((x, i) => counts[i] ? x / counts[i] : NaN) : acc);
          },
        };
      },
    };
  };
}

/** The aggregates of this file. */
export const COLLECT_AGGREGATES: AggregateFunction[] = [
  aggregate("string_agg", bindStringAgg("string_agg", false)),
  aggregate("string_distinct_agg", bindStringAgg("string_distinct_agg", true)),
  aggregate("approx_percentile", bindPercentile("approx_percentile", false)),
  aggregate("approx_median", bindPercentile("approx_median", true)),
  aggregate("arg_min", bindArgExtreme("arg_min", -1)),
  aggregate("arg_max", bindArgExtreme("arg_max", 1)),
  aggregate("bool_and", bindBool("bool_and", true)),
  aggregate("bool_or", bindBool("bool_or", false)),
  aggregate("bit_and", bindBits("bit_and", "and")),
  aggregate("bit_or", bindBits("bit_or", "or")),
  aggregate("bit_xor", bindBits("bit_xor", "xor")),
  aggregate("mode", bindMode),
  aggregate("approx_count_distinct", bindApproxCountDistinct),
  aggregate("isOrdered", bindIsOrdered),
  aggregate("array_agg", bindArrayAgg),
  aggregate("asum", bindArrayElementwise("asum", "sum")),
  aggregate("amin", bindArrayElementwise("amin", "min")),
  aggregate("amax", bindArrayElementwise("amax", "max")),
  aggregate("aavg", bindArrayElementwise("aavg", "avg")),
];
