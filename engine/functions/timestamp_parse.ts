/**
 * Text → timestamp parsing (spec/sql.md §3.5): the ISO grammar used wherever a string meets a
 * timestamp, and the prefix-precision variant interval strings build on (§8.1).
 *
 * Grammar: `YYYY[-MM[-DD[(T| )hh[:mm[:ss[.f{1,9}]]]]]][Z|±hh|±hhmm|±hh:mm]`.
 */
import {
  addMonths,
  daysFromCivil,
  daysInMonth,
  NANOS_PER_TICK,
  TICKS_PER_DAY,
  TICKS_PER_SECOND,
  type TimeUnit,
} from "./datetime_calendar.ts";

/** The last field a timestamp text spells out; an interval string covers the rest (§8.1). */
export type TimestampPrecision = "year" | "month" | "day" | "hour" | "minute" | "second" | "fraction";

/** A parsed timestamp text with what interval strings need to know about it. */
export interface ParsedTimestamp {
  /** The instant in the requested unit, UTC (offset applied). */
  value: bigint;
  /** The same instant as local time (before the offset was applied). */
  localValue: bigint;
  /** The explicit offset, in ticks; 0 when none was given. */
  offsetTicks: bigint;
  precision: TimestampPrecision;
  /** Number of fraction digits written (0 unless precision is "fraction"). */
  fractionDigits: number;
  /** True when the text ended with `Z` or a numeric offset. */
  hasOffset: boolean;
}

/**
 * Parses ISO timestamp text into ticks of `unit` (µs for TIMESTAMP, ms for DATE, ns for
 * TIMESTAMP_NS). Missing fields default to their minimum, fraction digits beyond the unit are
 * truncated, offsets convert to UTC, invalid calendar fields give undefined.
 */
export function parseTimestamp(text: string, unit: TimeUnit): bigint | undefined {
  return parseTimestampDetailed(text, unit)?.value;
}

/** parseTimestamp plus the precision and offset details (see ParsedTimestamp). */
export function parseTimestampDetailed(text: string, unit: TimeUnit): ParsedTimestamp | undefined {
  const s = text;
  const n = s.length;
  let p = 0;
  const year = digits(s, p, 4);
  if (year < 0) return undefined;
  p = 4;
  let month = 1, day = 1, hour = 0, minute = 0, second = 0, fracNanos = 0, fractionDigits = 0;
  let precision: TimestampPrecision = "year";
  if (p < n && s[p] === "-" && isDigit(s, p + 1)) {
    month = digits(s, p + 1, 2);
    if (month < 1 || month > 12) return undefined;
    p += 3;
    precision = "month";
    if (p < n && s[p] === "-" && isDigit(s, p + 1)) {
      day = digits(s, p + 1, 2);
      if (day < 1 || day > daysInMonth(year, month)) return undefined;
      p += 3;
      precision = "day";
      if (p < n && (s[p] === "T" || s[p] === " ") && isDigit(s, p + 1)) {
        hour = digits(s, p + 1, 2);
        if (hour < 0 || hour > 23) return undefined;
        p += 3;
        precision = "hour";
        if (p < n && s[p] === ":") {
          minute = digits(s, p + 1, 2);
          if (minute < 0 || minute > 59) return undefined;
          p += 3;
          precision = "minute";
          if (p < n && s[p] === ":") {
            second = digits(s, p + 1, 2);
            if (second < 0 || second > 59) return undefined;
            p += 3;
            precision = "second";
            if (p < n && s[p] === ".") {
              let q = p + 1;
              while (q < n && isDigit(s, q)) q++;
              fractionDigits = q - p - 1;
              if (fractionDigits < 1 || fractionDigits > 9) return undefined;
              fracNanos = Number(s.slice(p + 1, q).padEnd(9, "0"));
              p = q;
              precision = "fraction";
            }
          }
        }
      }
    }
  }
  const offsetSeconds = p < n ? parseOffsetSuffix(s, p) : 0;
  if (offsetSeconds === undefined) return undefined;
  const days = daysFromCivil(year, month, day);
  const secs = hour * 3600 + minute * 60 + second;
  const localValue = BigInt(days) * TICKS_PER_DAY[unit] + BigInt(secs) * TICKS_PER_SECOND[unit] +
    BigInt(Math.floor(fracNanos / NANOS_PER_TICK[unit]));
  const offsetTicks = BigInt(offsetSeconds) * TICKS_PER_SECOND[unit];
  return {
    value: localValue - offsetTicks,
    localValue,
    offsetTicks,
    precision,
    fractionDigits,
    hasOffset: p < n,
  };
}

/**
 * The exclusive end of the span a partial timestamp covers (§8.1): `2024` ends at 2025-01-01,
 * `2024-01-01T10` at 11:00, `…40.28` at `…40.29`. Fractions at or beyond the unit's precision
 * cover a single tick.
 */
export function prefixEnd(parsed: ParsedTimestamp, unit: TimeUnit): bigint {
  const local = parsed.localValue;
  let end: bigint;
  switch (parsed.precision) {
    case "year":
      end = addMonths(local, 12, unit);
      break;
    case "month":
      end = addMonths(local, 1, unit);
      break;
    case "day":
      end = local + TICKS_PER_DAY[unit];
      break;
    case "hour":
      end = local + 3600n * TICKS_PER_SECOND[unit];
      break;
    case "minute":
      end = local + 60n * TICKS_PER_SECOND[unit];
      break;
    case "second":
      end = local + TICKS_PER_SECOND[unit];
      break;
    default: {
      const spanNanos = 10 ** (9 - parsed.fractionDigits);
      const spanTicks = Math.max(1, Math.floor(spanNanos / NANOS_PER_TICK[unit]));
      end = local + BigInt(spanTicks);
    }
  }
  return end - parsed.offsetTicks;
}

/** Parses `Z`, `±hh`, `±hhmm` or `±hh:mm` running to the end of `s`; seconds east of UTC. */
function parseOffsetSuffix(s: string, p: number): number | undefined {
  const n = s.length;
  if ((s[p] === "Z" || s[p] === "z") && p + 1 === n) return 0;
  if (s[p] !== "+" && s[p] !== "-") return undefined;
  const rest = n - p - 1;
  const hh = digits(s, p + 1, 2);
  let mm = 0;
  if (rest === 4) mm = digits(s, p + 3, 2);
  else if (rest === 5 && s[p + 3] === ":") mm = digits(s, p + 4, 2);
  else if (rest !== 2) return undefined;
  if (hh < 0 || hh > 18 || mm < 0 || mm > 59) return undefined;
  const secs = hh * 3600 + mm * 60;
  return s[p] === "-" ? -secs : secs;
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** Value of exactly `count` digits at `p`, or -1 when any is missing or not a digit. */
function digits(s: string, p: number, count: number): number {
  if (p + count > s.length) return -1;
  let v = 0;
  for (let i = p; i < p + count; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}
