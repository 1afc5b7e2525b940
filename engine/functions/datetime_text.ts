/**
 * Parsing, formatting and time-zone conversion (spec/sql.md §14.4): to_timestamp,
 * to_timestamp_ns, to_date, to_str, to_timezone, to_utc. Constant patterns and zones are
 * compiled once at bind time; per-row ones go through a small cache.
 */
import { type ColumnType, isNumeric, T } from "../base/types.ts";
import type { Interval, Value } from "../base/values.ts";
import { SqlError } from "../base/errors.ts";
import {
  constText,
  fn,
  isTextArg,
  memo,
  noMatch,
  timeArg,
  timeArgKeepingDate,
  timeArgOfUnit,
} from "./datetime_args.ts";
import type { TimeUnit } from "./datetime_calendar.ts";
import {
  type CompiledPattern,
  compilePattern,
  formatWithPattern,
  parseWithPattern,
} from "./datetime_format.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import { parseTimestamp } from "./timestamp_parse.ts";
import {
  localToUtcTicks,
  requireTimeZone,
  resolveTimeZone,
  utcToLocalTicks,
  type ZoneRules,
} from "./timezone.ts";

const compileCached = memo(compilePattern);

/** A pattern argument: compiled now when constant, per distinct value otherwise. */
function patternOf(arg: BoundArg): (v: Value) => CompiledPattern | undefined {
  const text = constText(arg);
  if (typeof text === "string") {
    const compiled = compilePattern(text);
    return () => compiled;
  }
  return (v) => (v === null ? undefined : compileCached(v as string));
}

/**
 * to_timestamp(str, fmt), to_timestamp_ns, to_date (§14.4): a mismatch is NULL. The one-argument
 * form parses the §3.5 ISO grammar.
 */
function parser(name: string, returns: ColumnType, unit: TimeUnit): ScalarFunction {
  return fn(name, (args): ScalarBinding | string => {
    if (name === "to_timestamp" && args.length === 1 && isNumeric(args[0].type)) return fromEpochSeconds();
    if (args.length < 1 || args.length > 2 || !args.every(isTextArg)) return noMatch(name, args);
    if (args.length === 1) {
      return { returns, eval: ([s]) => (s === null ? null : parseTimestamp(s as string, unit) ?? null) };
    }
    // ToTimestampVCFunctionFactoryTest#testNullPattern, ToDateVCFunctionFactoryTest#testNullPattern
    if (constText(args[1]) === null) throw new SqlError("pattern is required", args[1].pos);
    const pattern = patternOf(args[1]);
    return {
      returns,
      eval: ([s, f]) => {
        const p = pattern(f);
        return s === null || !p ? null : parseWithPattern(p, s as string, { unit }) ?? null;
      },
    };
  });
}

/**
 * to_pg_date(text): a DATE from PostgreSQL's `y-MM-dd` date text, NULL when it does not parse
 * (QuestDB's ToPgDateFunctionFactory; VarcharFunctionsTest#testToPgDate).
 */
function bindToPgDate(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1 || !isTextArg(args[0])) return noMatch("to_pg_date", args);
  const pattern = compilePattern("y-MM-dd");
  return {
    returns: T.DATE,
    eval: ([s]) => (s === null ? null : parseWithPattern(pattern, s as string, { unit: "ms" }) ?? null),
  };
}

/**
 * PostgreSQL's to_timestamp(epoch seconds), which Grafana's and Superset's epoch queries send
 * (`to_timestamp(1704067200)`): fractional seconds kept to the microsecond, NULL for NULL
 * (and for NaN, QuestDB's double NULL). QuestDB has only the text forms, so no meaning changes.
 */
function fromEpochSeconds(): ScalarBinding {
  return {
    returns: T.TIMESTAMP,
    argTypes: [T.DOUBLE],
    eval: (
      [s],
    ) => (s === null || !Number.isFinite(s as number) ? null : BigInt(Math.round((s as number) * 1e6))),
  };
}

/** to_str(ts, fmt) (§14.4): DATE values print in their own unit, unknown letters are literal. */
function bindToStr(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isTextArg(args[1])) return noMatch("to_str", args);
  const ta = timeArgKeepingDate(args[0]);
  if (!ta) return noMatch("to_str", args);
  // ToCharTimestampVCFunctionFactoryTest#testNullFormat
  if (constText(args[1]) === null) throw new SqlError("format must not be null", args[1].pos);
  const pattern = patternOf(args[1]);
  return {
    returns: T.STRING,
    argTypes: [ta.type, args[1].type],
    eval: ([t, f]) => {
      const p = pattern(f);
      return t === null || !p ? null : formatWithPattern(p, t as bigint, { unit: ta.unit });
    },
  };
}

/**
 * to_timezone(ts, tz) and to_utc(ts, tz) (§14.4). A constant zone must be valid (error at bind);
 * a per-row zone that is unknown or NULL leaves the value unchanged, as QuestDB's variable-zone
 * functions do.
 */
function zoneShift(name: string, toLocal: boolean): ScalarFunction {
  return fn(name, (args): ScalarBinding | string => {
    if (args.length !== 2 || !isTextArg(args[1])) return noMatch(name, args);
    // to_timezone also shifts both bounds of an INTERVAL (ToTimezoneIntervalFunctionFactory).
    const interval = toLocal && args[0].type.tag === "INTERVAL";
    const ta = interval ? timeArgOfUnit("us") : timeArg(args[0]);
    if (!ta) return noMatch(name, args);
    const tz = constText(args[1]);
    // A NULL constant zone is refused (ToUTCTimestampFunctionFactoryTest#testNullConstantTimeZone).
    if (tz === null) throw new SqlError("timezone must not be null", args[1].pos);
    const zone = typeof tz === "string" ? requireTimeZone(tz, args[1].pos) : undefined;
    const shift = (rules: ZoneRules, t: bigint) =>
      toLocal ? utcToLocalTicks(rules, t, ta.unit) : localToUtcTicks(rules, t, ta.unit);
    const shiftValue = (rules: ZoneRules, v: Value): Value => {
      if (!interval) return shift(rules, v as bigint);
      const { lo, hi } = v as Interval;
      return { lo: shift(rules, lo), hi: shift(rules, hi) };
    };
    return {
      returns: interval ? args[0].type : ta.type,
      argTypes: [interval ? args[0].type : ta.type, args[1].type],
      eval: ([t, z]) => {
        if (t === null) return null;
        if (z === null) return t;
        const rules = zone ?? resolveTimeZone(z as string);
        return rules ? shiftValue(rules, t) : t;
      },
    };
  });
}

/** §14.4 parse/format/zone functions. */
export const PARSE_FORMAT_FUNCTIONS: ScalarFunction[] = [
  parser("to_timestamp", T.TIMESTAMP, "us"),
  parser("to_timestamp_ns", T.TIMESTAMP_NS, "ns"),
  parser("to_date", T.DATE, "ms"),
  fn("to_pg_date", bindToPgDate),
  fn("to_str", bindToStr),
  zoneShift("to_timezone", true),
  zoneShift("to_utc", false),
];
