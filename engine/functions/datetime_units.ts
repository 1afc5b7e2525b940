/**
 * Unit arithmetic behind dateadd, datediff, date_trunc, timestamp_floor and timestamp_ceil
 * (spec/sql.md §14.2, Appendix A), on tick values of any unit.
 *
 * Unit letters: `n` ns, `u`/`U` µs, `T` ms, `s`, `m`, `h`, `d`, `w`, `M` month, `y` year
 * (dateadd/datediff write µs as `u`, timestamp_floor as `U`; both are accepted everywhere).
 */
import {
  addMonths,
  civilFromDays,
  daysFromCivil,
  floorDiv,
  floorMod,
  monthsBetween,
  NANOS_PER_TICK,
  splitDay,
  TICKS_PER_DAY,
  type TimeUnit,
} from "./datetime_calendar.ts";

/** Nanoseconds per fixed-length unit letter. */
export const FIXED_NANOS: Readonly<Record<string, bigint>> = {
  n: 1n,
  u: 1_000n,
  U: 1_000n,
  T: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
  w: 604_800_000_000_000n,
};

/** True for the letters dateadd/datediff/timestamp_floor know. */
export function isUnitLetter(letter: string): boolean {
  return letter === "M" || letter === "y" || FIXED_NANOS[letter] !== undefined;
}

/**
 * Adds `n` units to `t` (§14.2 dateadd). Months and years clamp the day to the target month.
 * Nanoseconds added to a microsecond value are truncated to whole microseconds, as QuestDB does.
 */
export function addUnits(t: bigint, letter: string, n: number, unit: TimeUnit): bigint {
  if (letter === "M") return addMonths(t, n, unit);
  if (letter === "y") return addMonths(t, n * 12, unit);
  const nanos = FIXED_NANOS[letter] * BigInt(n);
  const perTick = BigInt(NANOS_PER_TICK[unit]);
  return t + nanos / perTick;
}

/** Whole units between `a` and `b`, absolute and truncated (§14.2 datediff). */
export function unitsBetween(a: bigint, b: bigint, letter: string, unit: TimeUnit): bigint {
  if (letter === "M") return BigInt(monthsBetween(a, b, unit));
  if (letter === "y") return BigInt(Math.trunc(monthsBetween(a, b, unit) / 12));
  const diffNanos = (a > b ? a - b : b - a) * BigInt(NANOS_PER_TICK[unit]);
  return diffNanos / FIXED_NANOS[letter];
}

/** A `timestamp_floor` stride: an optional count and one unit letter (`'15m'`, `'h'`). */
export interface Stride {
  count: number;
  letter: string;
}

/** Parses `[n]unit`; undefined for a bad letter, a zero count or extra text. */
export function parseStride(text: string): Stride | undefined {
  const m = /^(\d*)([a-zA-Z])$/.exec(text.trim());
  if (!m || !isUnitLetter(m[2])) return undefined;
  const count = m[1] === "" ? 1 : Number(m[1]);
  return count > 0 && Number.isSafeInteger(count) ? { count, letter: m[2] } : undefined;
}

/**
 * Floors `t` to a multiple of the stride counted from the epoch (§14.2 timestamp_floor):
 * fixed units relative to 1970-01-01, weeks relative to Mondays, months and years counted in
 * calendar units from 1970.
 */
export function floorStride(t: bigint, stride: Stride, unit: TimeUnit): bigint {
  const { count, letter } = stride;
  if (letter === "M") {
    const [days] = splitDay(t, unit);
    const [y, m] = civilFromDays(days);
    const k = Math.floor(((y - 1970) * 12 + m - 1) / count) * count;
    const year = 1970 + Math.floor(k / 12);
    return BigInt(daysFromCivil(year, k - Math.floor(k / 12) * 12 + 1, 1)) * TICKS_PER_DAY[unit];
  }
  if (letter === "y") {
    const [y] = civilFromDays(splitDay(t, unit)[0]);
    const year = 1970 + Math.floor((y - 1970) / count) * count;
    return BigInt(daysFromCivil(year, 1, 1)) * TICKS_PER_DAY[unit];
  }
  // 1970-01-01 was a Thursday: shifting by three days puts week boundaries on Mondays.
  const shift = letter === "w" ? 3n * TICKS_PER_DAY[unit] : 0n;
  return floorFixed(t + shift, BigInt(count) * FIXED_NANOS[letter], unit) - shift;
}

/** Floors to a multiple of `strideNanos`; strides below one tick are floored in nanoseconds. */
function floorFixed(t: bigint, strideNanos: bigint, unit: TimeUnit): bigint {
  const perTick = BigInt(NANOS_PER_TICK[unit]);
  if (strideNanos % perTick === 0n) return t - floorMod(t, strideNanos / perTick);
  const nanos = t * perTick;
  return floorDiv(nanos - floorMod(nanos, strideNanos), perTick);
}

/**
 * Floors relative to an origin (timestamp_floor's third argument), following QuestDB's
 * Micros.floorXX(value, stride, offset): an origin of 0 is the plain epoch floor, and a value
 * before the origin floors to the origin itself.
 */
export function floorStrideFrom(t: bigint, stride: Stride, origin: bigint, unit: TimeUnit): bigint {
  if (origin === 0n) return floorStride(t, stride, unit);
  if (t < origin) return origin;
  const { count, letter } = stride;
  if (letter === "M" || letter === "y") {
    const perUnit = letter === "M" ? 1 : 12;
    const units = Math.floor(monthsBetween(t, origin, unit) / perUnit);
    return addMonths(origin, (units - (units % count)) * perUnit, unit);
  }
  const strideNanos = BigInt(count) * FIXED_NANOS[letter];
  const perTick = BigInt(NANOS_PER_TICK[unit]);
  if (strideNanos % perTick === 0n) return t - floorMod(t - origin, strideNanos / perTick);
  // A stride finer than a tick floors in nanoseconds, then to the tick at or before it, as
  // floorFixed does (TimestampFloorFromFunctionFactoryTest#testNanosecondsFloorWithStride).
  const nanos = (t - origin) * perTick;
  return origin + floorDiv(nanos - floorMod(nanos, strideNanos), perTick);
}

/** The smallest unit boundary at or after `t` (§14.2 timestamp_ceil: aligned values stay). */
export function ceilUnit(t: bigint, letter: string, unit: TimeUnit): bigint {
  const f = floorStride(t, { count: 1, letter }, unit);
  if (f === t) return t;
  if (letter === "M") return addMonths(f, 1, unit);
  if (letter === "y") return addMonths(f, 12, unit);
  const perTick = BigInt(NANOS_PER_TICK[unit]);
  const size = FIXED_NANOS[letter] / perTick;
  return f + (size > 0n ? size : 1n);
}

const TRUNC_ALIASES: Readonly<Record<string, string>> = {
  milliseconds: "millisecond",
  microseconds: "microsecond",
  nanoseconds: "nanosecond",
  seconds: "second",
  minutes: "minute",
  hours: "hour",
  days: "day",
  weeks: "week",
  months: "month",
  quarters: "quarter",
  years: "year",
  // Plurals of DateTruncFunctionFactoryTest#testSimple.
  decades: "decade",
  centuries: "century",
  millenniums: "millennium",
};

export const TRUNC_LETTERS: Readonly<Record<string, string>> = {
  week: "w",
  day: "d",
  hour: "h",
  minute: "m",
  second: "s",
  millisecond: "T",
  microsecond: "U",
  nanosecond: "n",
};

/** Normalizes a date_trunc unit word (case-insensitive, plurals allowed); undefined if unknown. */
export function truncUnit(word: string): string | undefined {
  const w = word.toLowerCase();
  const n = TRUNC_ALIASES[w] ?? w;
  const known = ["millennium", "century", "decade", "year", "quarter", "month"];
  return known.includes(n) || TRUNC_LETTERS[n] !== undefined ? n : undefined;
}

/**
 * date_trunc (§14.2). Centuries and millennia start at years ending in 01 (2001, not 2000) and
 * decades at years ending in 0, as in QuestDB's Micros.floorCentury / floorDecade.
 */
export function truncate(t: bigint, word: string, unit: TimeUnit): bigint {
  const letter = TRUNC_LETTERS[word];
  if (letter !== undefined) return floorStride(t, { count: 1, letter }, unit);
  const [days] = splitDay(t, unit);
  const [y, m] = civilFromDays(days);
  let year = y;
  let month = 1;
  switch (word) {
    case "millennium":
      year = Math.floor((y + 999) / 1000) * 1000 - 999;
      break;
    case "century":
      year = Math.floor((y + 99) / 100) * 100 - 99;
      break;
    case "decade":
      year = Math.floor(y / 10) * 10;
      break;
    case "quarter":
      month = Math.floor((m - 1) / 3) * 3 + 1;
      break;
    case "month":
      month = m;
      break;
  }
  return BigInt(daysFromCivil(year, month, 1)) * TICKS_PER_DAY[unit];
}
