/**
 * Interval strings (spec/sql.md §8): the text after `ts IN` denotes a set of closed intervals.
 *
 * `'2024-01'` covers the whole month (§8.1); `'2024-01-01T10;2h'` starts at the prefix's low
 * bound and lasts the duration (§8.2, the TICK rule); `'2024-01-01;1d;1y;2'` repeats it
 * (§8.3); the date part may use the §8.5 extensions (lists, brackets, weeks, `$today`, `@tz`,
 * `#workday`). The result is sorted and merged, with inclusive upper bounds.
 *
 * Errors carry position -1; the binder knows where the string sits in the query and re-raises
 * them there.
 */
import type { Interval } from "../base/values.ts";
import { addMonths, type TimeUnit } from "./datetime_calendar.ts";
import {
  addDuration,
  addTerm,
  type Duration,
  type DurationTerm,
  parseDuration,
  parsePeriod,
} from "./interval_duration.ts";
import { normalizeIntervals } from "./interval_ops.ts";
import { type DateSpan, expandDatePart, splitTopLevel, tickError } from "./interval_tick.ts";
import { localToUtcTicks } from "./timezone.ts";

export {
  complementIntervals,
  intersectIntervals,
  normalizeIntervals,
  unionIntervals,
} from "./interval_ops.ts";

/** At most this many intervals after merging (§8.5 `too many intervals`). */
export const INTERVALS_MAX = 1024;

/** What an interval string is evaluated against. */
export interface IntervalStringOptions {
  /** The query's now(), microseconds: `$now`, `$today`. */
  nowMicros: bigint;
  /** Unit of the filtered column: TIMESTAMP ("us") or TIMESTAMP_NS ("ns"). */
  unit: "us" | "ns";
}

/**
 * Parses an interval string into sorted, merged, inclusive intervals in ticks of `unit`.
 * Throws SqlError (position -1) with the §8 messages: `Invalid date`,
 * `Invalid interval format`, `Unclosed '[' in interval`, `too many intervals`, …
 */
export function parseIntervalString(text: string, opts: IntervalStringOptions): Interval[] {
  const unit: TimeUnit = opts.unit;
  const parts = splitTopLevel(text, ";");
  if (parts.length === 3 || parts.length > 4) throw tickError("Invalid interval format");
  const duration = parts.length >= 2 ? durationOf(parts[1]) : undefined;
  let period: DurationTerm | undefined;
  let count = 1;
  if (parts.length === 4) {
    period = parsePeriod(parts[2]);
    if (!period) {
      throw tickError(
        /^[+-]?\d/.test(parts[2].trim()) ? `Unknown period: ${parts[2].trim()}` : "Period not a number",
      );
    }
    const c = parts[3].trim();
    if (!/^\d+$/.test(c)) throw tickError("Count not a number");
    count = Number(c);
    if (count < 1) throw tickError("Invalid count");
  }
  const spans = expandDatePart(parts[0], {
    nowTicks: unit === "ns" ? opts.nowMicros * 1000n : opts.nowMicros,
    unit,
    expandToDays: duration !== undefined,
    maxSpans: INTERVALS_MAX * 64,
  });
  if (spans.length * count > INTERVALS_MAX * 64) throw tickError("too many intervals");
  const out: Interval[] = [];
  for (const span of spans) {
    for (let k = 0; k < count; k++) out.push(intervalOf(span, k, period, duration, unit));
  }
  const merged = normalizeIntervals(out);
  if (merged.length > INTERVALS_MAX) throw tickError("too many intervals");
  return merged;
}

function durationOf(text: string): Duration {
  const d = parseDuration(text);
  if (!d) throw tickError("Range not a number");
  return d;
}

/**
 * The k-th repetition of a span: its local start moved by k periods (months and years counted
 * from the base each time, so days do not drift), converted to UTC, then extended by the
 * duration (a negative one ends just before the start) or to the span's own end.
 */
function intervalOf(
  span: DateSpan,
  k: number,
  period: DurationTerm | undefined,
  d: Duration | undefined,
  unit: TimeUnit,
): Interval {
  const shift = (t: bigint) => (period && k > 0 ? shiftBy(t, period, k, unit) : t);
  const toUtc = (t: bigint) => (span.utc || !span.zone ? t : localToUtcTicks(span.zone, t, unit));
  const lo = toUtc(shift(span.lo));
  if (!d) return { lo, hi: toUtc(shift(span.end)) - 1n };
  if (d.negative) return { lo: addDuration(lo, d, unit), hi: lo - 1n };
  const hi = addDuration(lo, d, unit) - 1n;
  if (hi < lo) throw tickError("Invalid date");
  return { lo, hi };
}

function shiftBy(t: bigint, period: DurationTerm, k: number, unit: TimeUnit): bigint {
  if (period.unit === "M") return addMonths(t, period.count * k, unit);
  if (period.unit === "y") return addMonths(t, period.count * k * 12, unit);
  return addTerm(t, period.count * k, period.unit, unit);
}
