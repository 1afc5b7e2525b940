/**
 * TIMESTAMP (microsecond) field extraction and truncation on doubles, for the batch expression
 * compiler (batch_expr.ts). Timestamps reach it as exact integers (|t| < 2^53), so every step
 * below is exact: the day split corrects the rounding of one floating division, and calendar
 * fields (year, month, day, month/year truncation) call the row path's own functions once per
 * distinct day, remembered, since a batch of time-ordered rows stays within few days. The
 * compiler inlines the INT fields (`inlineField`: the day and hour bounds live in the loop's
 * locals); `fieldFn` is their per-row form, the reference its test compares with.
 */
import { civilFromDays, dayOfWeek } from "../../functions/datetime_calendar.ts";
import {
  ceilUnit,
  FIXED_NANOS,
  floorStride,
  type Stride,
  TRUNC_LETTERS,
  truncate,
} from "../../functions/datetime_units.ts";

const DAY = 86_400_000_000;

/** Whole days since the epoch of a µs timestamp (floor), exact. */
export function dayOf(t: number): number {
  let d = Math.floor(t / DAY);
  const rem = t - d * DAY;
  if (rem < 0) d--;
  else if (rem >= DAY) d++;
  return d;
}

/** Microseconds since the start of the timestamp's day. */
export function timeOfDay(t: number): number {
  return t - dayOf(t) * DAY;
}

/**
 * How the batch compiler inlines a field: `tod` fields divide the microseconds since the row's
 * day start, `dow` and `civil` fields depend on the day only. The generated loop keeps the
 * current day's bounds in locals and recomputes the day (and its calendar fields) only when a
 * row leaves them, so a run of rows of one day costs two comparisons and a division per row.
 */
export type InlineField =
  | { kind: "tod"; unit: number; modulo?: number }
  | { kind: "dow"; sundayFirst: boolean }
  | { kind: "civil"; part: 0 | 1 | 2 };

export function inlineField(name: string): InlineField | undefined {
  switch (name) {
    case "hour":
      return { kind: "tod", unit: 3_600_000_000 };
    case "minute":
      return { kind: "tod", unit: 60_000_000, modulo: 60 };
    case "second":
      return { kind: "tod", unit: 1_000_000, modulo: 60 };
    case "millis":
      return { kind: "tod", unit: 1000, modulo: 1000 };
    case "micros":
      return { kind: "tod", unit: 1, modulo: 1000 };
    case "day_of_week":
      return { kind: "dow", sundayFirst: false };
    case "day_of_week_sunday_first":
      return { kind: "dow", sundayFirst: true };
    case "year":
      return { kind: "civil", part: 0 };
    case "month":
      return { kind: "civil", part: 1 };
    case "day":
      return { kind: "civil", part: 2 };
    default:
      return undefined;
  }
}

/** Microseconds in a day, for the generated day bounds. */
export const DAY_MICROS = DAY;

export { civilFromDays, dayOfWeek };

/** A function of a non-NULL µs timestamp giving an INT field. */
export type FieldFn = (t: number) => number;

/** The extractor of a field function, or undefined when the compiler does not carry it. */
export function fieldFn(name: string): FieldFn | undefined {
  switch (name) {
    case "hour":
      return (t) => Math.floor(timeOfDay(t) / 3_600_000_000);
    case "minute":
      return (t) => Math.floor(timeOfDay(t) / 60_000_000) % 60;
    case "second":
      return (t) => Math.floor(timeOfDay(t) / 1_000_000) % 60;
    case "millis":
      return (t) => Math.floor(timeOfDay(t) / 1000) % 1000;
    case "micros":
      return (t) => timeOfDay(t) % 1000;
    case "day_of_week":
      return (t) => dayOfWeek(dayOf(t));
    case "day_of_week_sunday_first":
      return (t) => (dayOfWeek(dayOf(t)) % 7) + 1;
    case "year":
      return civilField(0);
    case "month":
      return civilField(1);
    case "day":
      return civilField(2);
    default:
      return undefined;
  }
}

/** year/month/day through civilFromDays, remembering the last day seen. */
function civilField(part: 0 | 1 | 2): FieldFn {
  let lastDay = NaN, last = 0;
  return (t) => {
    const d = dayOf(t);
    if (d !== lastDay) {
      lastDay = d;
      last = civilFromDays(d)[part];
    }
    return last;
  };
}

/**
 * A function flooring a non-NULL µs timestamp. `span`, on fixed strides: the floor of t holds
 * for [floor, floor + span), which lets a loop keep the current bucket's bounds.
 */
export type FloorFn = ((t: number) => number) & { span?: number };

/**
 * Floors to a fixed stride of `ticks` µs counted from the epoch (shifted by `shift` µs: weeks
 * start on Mondays), as datetime_units.ts floorFixed does when the stride is whole ticks.
 */
function fixedFloor(ticks: number, shift: number): FloorFn {
  const f: FloorFn = (t) => {
    let r = (t + shift) % ticks;
    if (r < 0) r += ticks;
    return t - r;
  };
  f.span = ticks;
  return f;
}

/** A floor whose result depends only on the day: computed by `f` once per distinct day. */
function perDay(f: (dayStart: bigint) => bigint): FloorFn {
  let lastDay = NaN, last = 0;
  return (t) => {
    const d = dayOf(t);
    if (d !== lastDay) {
      lastDay = d;
      last = Number(f(BigInt(d) * BigInt(DAY)));
    }
    return last;
  };
}

/**
 * timestamp_ceil('M' | 'y', t) on non-NULL µs (datetime_units.ts ceilUnit): t itself when it is
 * a bound, else the bound after its day's (every other instant of a day has the same ceiling),
 * computed once per distinct day.
 */
export function ceilPerDay(letter: string): (t: number) => number {
  const floor = strideFloor({ count: 1, letter })!;
  let lastDay = NaN, last = 0;
  return (t) => {
    if (floor(t) === t) return t;
    const d = dayOf(t);
    if (d !== lastDay) {
      lastDay = d;
      last = Number(ceilUnit(BigInt(d) * BigInt(DAY) + 1n, letter, "us"));
    }
    return last;
  };
}

/** timestamp_floor(stride, t) on µs, or undefined when the stride is not whole µs. */
export function strideFloor(stride: Stride): FloorFn | undefined {
  if (stride.letter === "M" || stride.letter === "y") return perDay((s) => floorStride(s, stride, "us"));
  const nanos = BigInt(stride.count) * FIXED_NANOS[stride.letter];
  if (nanos % 1000n !== 0n || nanos / 1000n > 2n ** 52n) return undefined;
  return fixedFloor(Number(nanos / 1000n), stride.letter === "w" ? 3 * DAY : 0);
}

/** date_trunc(word, t) on µs, for a word truncUnit normalized. */
export function truncFloor(word: string): FloorFn | undefined {
  const letter = TRUNC_LETTERS[word];
  if (letter !== undefined) return strideFloor({ count: 1, letter });
  return perDay((s) => truncate(s, word, "us"));
}
