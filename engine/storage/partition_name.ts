/**
 * Partition names and time ranges (spec/sql.md §5.1): HOUR `YYYY-MM-DDTHH`, DAY `YYYY-MM-DD`,
 * WEEK `YYYY-Www` (ISO week, Monday start), MONTH `YYYY-MM`, YEAR `YYYY`, NONE `default`.
 *
 * All arithmetic is on whole days held in plain numbers (exact far beyond any plausible
 * timestamp), with the civil-calendar conversions of Howard Hinnant's `chrono` paper, so that
 * no `Date` range limits or time zones are involved.
 */
import type { PartitionUnit } from "../sql/ast.ts";
import { civilFromDays as civilTuple, daysFromCivil, floorDiv } from "../base/calendar.ts";

export { daysFromCivil };

/** The date of a day number as named fields (partition names read better with them). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const [year, month, day] = civilTuple(days);
  return { year, month, day };
}

const MICROS_PER_HOUR = 3_600_000_000n;
const MICROS_PER_DAY = 86_400_000_000n;
/** The name of the only partition of a PARTITION BY NONE table (and of tables without a timestamp). */
export const DEFAULT_PARTITION = "default";
/** NONE covers the whole time line; LONG_MIN is NULL, so the range starts one above it. */
const TIME_MIN = -9_223_372_036_854_775_807n;
const TIME_MAX = 9_223_372_036_854_775_807n;

/** A partition's time range [lo, hi) in microseconds. */
export interface PartitionRange {
  lo: bigint;
  hi: bigint;
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, "0");
  return n < 0 ? "-" + s : s;
}

/** Monday (day number) of ISO week 1 of `isoYear`: the week holding January 4th. */
function isoWeekOneMonday(isoYear: number): number {
  const jan4 = daysFromCivil(isoYear, 1, 4);
  return jan4 - mondayOffset(jan4);
}

/** Days since the Monday of the week of `days` (1970-01-01 was a Thursday). */
function mondayOffset(days: number): number {
  return (((days + 3) % 7) + 7) % 7;
}

/** The range [lo, hi) of the partition holding `tsMicros`. */
export function partitionRangeOf(unit: PartitionUnit, tsMicros: bigint): PartitionRange {
  switch (unit) {
    case "NONE":
      return { lo: TIME_MIN, hi: TIME_MAX };
    case "HOUR": {
      const lo = floorDiv(tsMicros, MICROS_PER_HOUR) * MICROS_PER_HOUR;
      return { lo, hi: lo + MICROS_PER_HOUR };
    }
    case "DAY": {
      const lo = floorDiv(tsMicros, MICROS_PER_DAY) * MICROS_PER_DAY;
      return { lo, hi: lo + MICROS_PER_DAY };
    }
    case "WEEK": {
      const days = Number(floorDiv(tsMicros, MICROS_PER_DAY));
      const monday = days - mondayOffset(days);
      return dayRange(monday, monday + 7);
    }
    case "MONTH": {
      const { year, month } = civilFromDays(Number(floorDiv(tsMicros, MICROS_PER_DAY)));
      const next = month === 12 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, month + 1, 1);
      return dayRange(daysFromCivil(year, month, 1), next);
    }
    case "YEAR": {
      const { year } = civilFromDays(Number(floorDiv(tsMicros, MICROS_PER_DAY)));
      return dayRange(daysFromCivil(year, 1, 1), daysFromCivil(year + 1, 1, 1));
    }
  }
}

function dayRange(loDays: number, hiDays: number): PartitionRange {
  return { lo: BigInt(loDays) * MICROS_PER_DAY, hi: BigInt(hiDays) * MICROS_PER_DAY };
}

/** The name of the partition holding `tsMicros` (spec/sql.md §5.1). */
export function partitionNameOf(unit: PartitionUnit, tsMicros: bigint): string {
  if (unit === "NONE") return DEFAULT_PARTITION;
  const days = Number(floorDiv(tsMicros, MICROS_PER_DAY));
  if (unit === "WEEK") {
    const thursday = days - mondayOffset(days) + 3;
    const isoYear = civilFromDays(thursday).year;
    const week = Math.floor((thursday - 3 - isoWeekOneMonday(isoYear)) / 7) + 1;
    return `${pad(isoYear, 4)}-W${pad(week, 2)}`;
  }
  const { year, month, day } = civilFromDays(days);
  switch (unit) {
    case "YEAR":
      return pad(year, 4);
    case "MONTH":
      return `${pad(year, 4)}-${pad(month, 2)}`;
    case "DAY":
      return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
    case "HOUR": {
      const hour = Number(floorDiv(tsMicros, MICROS_PER_HOUR) - BigInt(days) * 24n);
      return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}`;
    }
  }
}

const NAME_PATTERNS: Record<Exclude<PartitionUnit, "NONE">, RegExp> = {
  HOUR: /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2})$/,
  DAY: /^(-?\d{4,})-(\d{2})-(\d{2})$/,
  WEEK: /^(-?\d{4,})-W(\d{2})$/,
  MONTH: /^(-?\d{4,})-(\d{2})$/,
  YEAR: /^(-?\d{4,})$/,
};

/**
 * The range [lo, hi) in microseconds of the partition called `name`, or undefined when
 * `name` is not a well-formed partition name for `unit` (e.g. `2024-02-30`).
 */
export function partitionRange(unit: PartitionUnit, name: string): PartitionRange | undefined {
  if (unit === "NONE") return name === DEFAULT_PARTITION ? partitionRangeOf("NONE", 0n) : undefined;
  const m = NAME_PATTERNS[unit].exec(name);
  if (!m) return undefined;
  const [year, a, b, c] = [Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1), Number(m[4] ?? 0)];
  let lo: bigint;
  if (unit === "WEEK") {
    if (a < 1 || a > 53) return undefined;
    lo = BigInt(isoWeekOneMonday(year) + (a - 1) * 7) * MICROS_PER_DAY;
  } else {
    lo = BigInt(daysFromCivil(year, a, b)) * MICROS_PER_DAY + BigInt(c) * MICROS_PER_HOUR;
  }
  // A round trip rejects out-of-range fields (month 13, day 31 of a 30-day month, week 53 of a
  // 52-week year, hour 24) without a table of calendar rules here.
  if (partitionNameOf(unit, lo) !== name) return undefined;
  return partitionRangeOf(unit, lo);
}
