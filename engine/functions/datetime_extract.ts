/**
 * Field extraction (spec/sql.md §14.3): year … nanos, day_of_week, week_of_year, is_leap_year,
 * is_end_of_month and extract(field FROM ts). The parser turns `extract(year FROM ts)` into
 * `extract('year', ts)`.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { constText, fn, isTextArg, noMatch, timeArg } from "./datetime_args.ts";
import {
  civilFromDays,
  dayOfWeek,
  dayOfYear,
  daysInMonth,
  isLeapYear,
  isoWeekOf,
  NANOS_PER_TICK,
  splitDay,
  TICKS_PER_SECOND,
  TICKS_PER_SECOND_NUM,
  type TimeUnit,
} from "./datetime_calendar.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** Computes one field of a non-null time value of the given unit. */
type Extractor = (t: bigint, unit: TimeUnit) => Value;

const year: Extractor = (t, u) => civilFromDays(splitDay(t, u)[0])[0];
const month: Extractor = (t, u) => civilFromDays(splitDay(t, u)[0])[1];
const day: Extractor = (t, u) => civilFromDays(splitDay(t, u)[0])[2];
const secondOfDay = (t: bigint, u: TimeUnit) => Math.floor(splitDay(t, u)[1] / TICKS_PER_SECOND_NUM[u]);
/** Nanoseconds within the second. */
const nanoOfSecond = (t: bigint, u: TimeUnit) =>
  (splitDay(t, u)[1] % TICKS_PER_SECOND_NUM[u]) * NANOS_PER_TICK[u];
const hour: Extractor = (t, u) => Math.floor(secondOfDay(t, u) / 3600);
const minute: Extractor = (t, u) => Math.floor(secondOfDay(t, u) / 60) % 60;
const second: Extractor = (t, u) => secondOfDay(t, u) % 60;
const isoDow: Extractor = (t, u) => dayOfWeek(splitDay(t, u)[0]);
const isoWeek: Extractor = (t, u) => isoWeekOf(splitDay(t, u)[0])[1];

function ymd(t: bigint, u: TimeUnit): [number, number, number] {
  return civilFromDays(splitDay(t, u)[0]);
}

/**
 * Sub-second fields as QuestDB extracts them: the part within the second (`milliseconds` of
 * 22:00:30.555555 is 555, `microseconds` 555555; ExtractFunctionTest), not PostgreSQL's
 * seconds × 1000 + ms.
 */
function ofSecond(nanosPerOut: number): Extractor {
  return (t, u) => BigInt(Math.floor(nanoOfSecond(t, u) / nanosPerOut));
}

/** The 14.3 functions: name, extractor, result type. */
const FIELD_FUNCTIONS: [string, Extractor, ColumnType][] = [
  ["year", year, T.INT],
  ["month", month, T.INT],
  ["day", day, T.INT],
  ["hour", hour, T.INT],
  ["minute", minute, T.INT],
  ["second", second, T.INT],
  ["millis", (t, u) => Math.floor(nanoOfSecond(t, u) / 1e6), T.INT],
  ["micros", (t, u) => Math.floor(nanoOfSecond(t, u) / 1e3) % 1000, T.INT],
  ["nanos", (t, u) => nanoOfSecond(t, u) % 1000, T.INT],
  ["day_of_week", isoDow, T.INT],
  ["day_of_week_sunday_first", (t, u) => (dayOfWeek(splitDay(t, u)[0]) % 7) + 1, T.INT],
  ["days_in_month", (t, u) => {
    const [y, m] = ymd(t, u);
    return daysInMonth(y, m);
  }, T.INT],
  ["week_of_year", isoWeek, T.INT],
  ["is_leap_year", (t, u) => isLeapYear(year(t, u) as number), T.BOOLEAN],
  ["is_end_of_month", (t, u) => {
    const [y, m, d] = ymd(t, u);
    return d === daysInMonth(y, m);
  }, T.BOOLEAN],
];

/** Java-style truncating division, as QuestDB's Micros.getCentury/getMillennium compute. */
function tdiv(a: number, b: number): number {
  return Math.trunc(a / b);
}

/** extract() parts (§14.3), after QuestDB's ExtractFromTimestampFunctionFactory. */
const EXTRACT_PARTS: Record<string, [Extractor, ColumnType]> = {
  millennium: [(t, u) => tdiv(tdiv((year(t, u) as number) + 999, 1000) * 1000 - 999, 1000) + 1, T.INT],
  century: [(t, u) => {
    const y = year(t, u) as number;
    const c = tdiv(y, 100);
    const century = y > c * 100 ? c + 1 : c;
    return y >= 1 ? century : century - 1;
  }, T.INT],
  decade: [(t, u) => tdiv(year(t, u) as number, 10), T.INT],
  year: [year, T.INT],
  isoyear: [(t, u) => isoWeekOf(splitDay(t, u)[0])[0], T.INT],
  quarter: [(t, u) => Math.floor(((month(t, u) as number) - 1) / 3) + 1, T.INT],
  month: [month, T.INT],
  week: [isoWeek, T.INT],
  doy: [(t, u) => dayOfYear(...ymd(t, u)), T.INT],
  day: [day, T.INT],
  dow: [(t, u) => dayOfWeek(splitDay(t, u)[0]) % 7, T.INT],
  isodow: [isoDow, T.INT],
  hour: [hour, T.INT],
  minute: [minute, T.INT],
  second: [second, T.INT],
  milliseconds: [ofSecond(1e6), T.LONG],
  microseconds: [ofSecond(1e3), T.LONG],
  nanoseconds: [ofSecond(1), T.LONG],
  epoch: [(t, u) => t / TICKS_PER_SECOND[u], T.LONG], // truncates toward zero, like QuestDB
};

/** Non-nullable results (BOOLEAN) read NULL input as false (§14.3 is_end_of_month). */
function nullResult(t: ColumnType): Value {
  return t.tag === "BOOLEAN" ? false : null;
}

function fieldFunction(name: string, extract: Extractor, returns: ColumnType): ScalarFunction {
  return fn(name, (args): ScalarBinding | string => {
    const ta = args.length === 1 ? timeArg(args[0]) : undefined;
    if (!ta) return noMatch(name, args);
    return {
      returns,
      argTypes: [ta.type],
      eval: ([t]) => (t === null ? nullResult(returns) : extract(t as bigint, ta.unit)),
    };
  });
}

function bindExtract(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isTextArg(args[0])) return noMatch("extract", args);
  const ta = timeArg(args[1]);
  const part = constText(args[0]);
  if (!ta || typeof part !== "string") return noMatch("extract", args);
  const entry = EXTRACT_PARTS[part.toLowerCase()];
  if (!entry) throw new SqlError(`unsupported timestamp part: ${part}`, args[0].pos);
  const [extract, returns] = entry;
  return {
    returns,
    argTypes: [args[0].type, ta.type],
    eval: ([, t]) => (t === null ? null : extract(t as bigint, ta.unit)),
  };
}

/** §14.3 field extraction functions. */
export const EXTRACT_FUNCTIONS: ScalarFunction[] = [
  ...FIELD_FUNCTIONS.map(([name, extract, returns]) => fieldFunction(name, extract, returns)),
  fn("extract", bindExtract),
];
