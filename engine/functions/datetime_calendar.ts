/**
 * Proleptic Gregorian calendar arithmetic on epoch ticks: the shared base of timestamp parsing,
 * formatting, the date/time functions and interval strings.
 *
 * A tick is the smallest unit of a time type (spec/sql.md "tick"): 1 ms for DATE, 1 µs for
 * TIMESTAMP, 1 ns for TIMESTAMP_NS. Values are bigint because nanosecond timestamps do not fit a
 * double; the day/time split is done once in bigint and the rest in plain numbers (a day holds
 * 8.64e13 ns, well under 2^53).
 */

export { civilFromDays, daysFromCivil, floorDiv } from "../base/calendar.ts";
import { civilFromDays, daysFromCivil, floorDiv } from "../base/calendar.ts";

/** The unit of a time value: DATE is "ms", TIMESTAMP "us", TIMESTAMP_NS "ns". */
export type TimeUnit = "ms" | "us" | "ns";

/** Ticks per second as bigint, per unit. */
export const TICKS_PER_SECOND: Readonly<Record<TimeUnit, bigint>> = {
  ms: 1000n,
  us: 1_000_000n,
  ns: 1_000_000_000n,
};
/** Ticks per day as bigint, per unit. */
export const TICKS_PER_DAY: Readonly<Record<TimeUnit, bigint>> = {
  ms: 86_400_000n,
  us: 86_400_000_000n,
  ns: 86_400_000_000_000n,
};
/** Ticks per second as a number, per unit. */
export const TICKS_PER_SECOND_NUM: Readonly<Record<TimeUnit, number>> = { ms: 1e3, us: 1e6, ns: 1e9 };
/** Nanoseconds per tick, per unit (the scale between a unit and ns). */
export const NANOS_PER_TICK: Readonly<Record<TimeUnit, number>> = { ms: 1e6, us: 1e3, ns: 1 };

/** Modulo with the sign of the divisor. */
export function floorMod(a: bigint, b: bigint): bigint {
  const r = a % b;
  return r !== 0n && (r < 0n) !== (b < 0n) ? r + b : r;
}

export function isLeapYear(year: number): boolean {
  return (year & 3) === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS_PER_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_PER_MONTH[month - 1];
}

/** ISO day of week of a day number: 1 = Monday … 7 = Sunday (1970-01-01 was a Thursday). */
export function dayOfWeek(days: number): number {
  return ((((days + 3) % 7) + 7) % 7) + 1;
}

/** Day of year, 1-366. */
export function dayOfYear(year: number, month: number, day: number): number {
  return daysFromCivil(year, month, day) - daysFromCivil(year, 1, 1) + 1;
}

/** Number of ISO weeks (52 or 53) in an ISO week-numbering year. */
export function isoWeeksInYear(year: number): number {
  const jan1 = dayOfWeek(daysFromCivil(year, 1, 1));
  return jan1 === 4 || (jan1 === 3 && isLeapYear(year)) ? 53 : 52;
}

/** ISO-8601 week-numbering [year, week] of a day number. */
export function isoWeekOf(days: number): [number, number] {
  const [year, month, day] = civilFromDays(days);
  const week = Math.floor((10 + dayOfYear(year, month, day) - dayOfWeek(days)) / 7);
  if (week < 1) return [year - 1, isoWeeksInYear(year - 1)];
  if (week > isoWeeksInYear(year)) return [year + 1, 1];
  return [year, week];
}

/** Day number of the Monday that starts ISO week `week` of ISO year `year`. */
export function isoWeekStart(year: number, week: number): number {
  const jan4 = daysFromCivil(year, 1, 4);
  return jan4 - (dayOfWeek(jan4) - 1) + (week - 1) * 7;
}

/** A time value broken into calendar fields (UTC). `sub` is the ticks within the second. */
export interface DateTimeParts {
  /** Days since 1970-01-01 (negative before). */
  days: number;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  sub: number;
}

/** Splits a tick value into its epoch day and the ticks within that day (a number). */
export function splitDay(t: bigint, unit: TimeUnit): [number, number] {
  const perDay = TICKS_PER_DAY[unit];
  const days = floorDiv(t, perDay);
  return [Number(days), Number(t - days * perDay)];
}

/** Breaks a tick value into calendar fields. */
export function toParts(t: bigint, unit: TimeUnit): DateTimeParts {
  const [days, tod] = splitDay(t, unit);
  const [year, month, day] = civilFromDays(days);
  const tps = TICKS_PER_SECOND_NUM[unit];
  const secs = Math.floor(tod / tps);
  return {
    days,
    year,
    month,
    day,
    hour: Math.floor(secs / 3600),
    minute: Math.floor(secs / 60) % 60,
    second: secs % 60,
    sub: tod - secs * tps,
  };
}

/** Builds a tick value from calendar fields (no validation; out-of-range fields carry over). */
export function fromParts(
  p: {
    year: number;
    month: number;
    day: number;
    hour?: number;
    minute?: number;
    second?: number;
    sub?: number;
  },
  unit: TimeUnit,
): bigint {
  const days = daysFromCivil(p.year, p.month, 1) + p.day - 1;
  const secs = (p.hour ?? 0) * 3600 + (p.minute ?? 0) * 60 + (p.second ?? 0);
  return BigInt(days) * TICKS_PER_DAY[unit] + BigInt(secs) * TICKS_PER_SECOND[unit] + BigInt(p.sub ?? 0);
}

/** Adds calendar months, clamping the day to the target month's length (§14.2 dateadd). */
export function addMonths(t: bigint, months: number, unit: TimeUnit): bigint {
  if (months === 0) return t;
  const [days, tod] = splitDay(t, unit);
  const [year, month, day] = civilFromDays(days);
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  const d = Math.min(day, daysInMonth(y, m));
  return BigInt(daysFromCivil(y, m, d)) * TICKS_PER_DAY[unit] + BigInt(tod);
}

/**
 * Whole calendar months between two instants, absolute: the month difference, less one when
 * the earlier value sits later inside its month (day and time) than the other (§14.2 datediff).
 */
export function monthsBetween(a: bigint, b: bigint, unit: TimeUnit): number {
  if (b < a) [a, b] = [b, a];
  const [da, ta] = splitDay(a, unit);
  const [db, tb] = splitDay(b, unit);
  const [ya, ma, dayA] = civilFromDays(da);
  const [yb, mb, dayB] = civilFromDays(db);
  const months = 12 * (yb - ya) + (mb - ma);
  const earlierIsLater = dayA > dayB || (dayA === dayB && ta > tb);
  return earlierIsLater ? months - 1 : months;
}

/** Converts a tick value between units, flooring when the target is coarser. */
export function convertUnit(t: bigint, from: TimeUnit, to: TimeUnit): bigint {
  if (from === to) return t;
  const f = BigInt(NANOS_PER_TICK[from]);
  const g = BigInt(NANOS_PER_TICK[to]);
  return f > g ? t * (f / g) : floorDiv(t, g / f);
}
