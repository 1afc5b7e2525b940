/**
 * The text of a value (spec/sql.md §18.3): what CAST(x AS STRING) produces and what the REST
 * endpoint renders inside its quotes. Listeners add their own quoting and escaping.
 */
import type { ColumnType } from "../base/types.ts";
import type { DoubleArray, Interval, Value } from "../base/values.ts";
import { formatArrayJson } from "./array_text.ts";
import { formatDecimal } from "./decimal_math.ts";
import { formatDouble, formatFloat } from "./double_format.ts";
import { civilFromDays, splitDay, TICKS_PER_SECOND_NUM, type TimeUnit } from "./datetime_calendar.ts";

/** Fraction digits printed per unit: DATE 3, TIMESTAMP 6, TIMESTAMP_NS 9 (§18.3). */
const FRACTION_DIGITS: Readonly<Record<TimeUnit, number>> = { ms: 3, us: 6, ns: 9 };

/** The geohash base-32 alphabet (no a, i, l, o). */
export const GEOHASH_ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz";

/** `2024-01-01T00:00:00.000000Z` for a TIMESTAMP value (microseconds). */
export function formatTimestampMicros(us: bigint): string {
  return formatTicks(us, "us");
}

/** `2024-01-01T00:00:00.000Z` for a DATE value (milliseconds). */
export function formatDateMillis(ms: bigint): string {
  return formatTicks(ms, "ms");
}

/** `2024-01-01T00:00:00.000000000Z` for a TIMESTAMP_NS value (nanoseconds). */
export function formatTimestampNanos(ns: bigint): string {
  return formatTicks(ns, "ns");
}

/**
 * ISO-8601 UTC text of a tick value with the unit's fixed number of fraction digits. Years are
 * four digits, zero padded (`0005-03-01…`); years before 0 get a leading minus (`-0001-…`) and
 * years past 9999 print all their digits.
 */
export function formatTicks(t: bigint, unit: TimeUnit): string {
  let days: number, tod: number;
  if (unit !== "ns" && t > -EXACT && t < EXACT) {
    // Exact as a double: no bigint division (an export formats millions of these).
    const n = Number(t), perDay = TICKS_PER_DAY_NUM[unit];
    days = Math.floor(n / perDay);
    tod = n - days * perDay;
  } else [days, tod] = splitDay(t, unit);
  let prefix = lastDay.prefix;
  if (days !== lastDay.days || unit !== lastDay.unit) {
    // Rows of a time series share their day: its text is kept from the previous call.
    const [year, month, day] = civilFromDays(days);
    prefix = formatYear(year) + "-" + TWO_DIGITS[month] + "-" + TWO_DIGITS[day] + "T";
    lastDay.days = days;
    lastDay.unit = unit;
    lastDay.prefix = prefix;
  }
  const tps = TICKS_PER_SECOND_NUM[unit];
  const secs = Math.floor(tod / tps);
  const sub = tod - secs * tps;
  return prefix + TWO_DIGITS[Math.floor(secs / 3600)] + ":" + TWO_DIGITS[Math.floor(secs / 60) % 60] + ":" +
    TWO_DIGITS[secs % 60] + "." + padN(sub, FRACTION_DIGITS[unit]) + "Z";
}

/** Tick values below this magnitude convert to doubles exactly. */
const EXACT = 2n ** 53n;
const TICKS_PER_DAY_NUM: Readonly<Record<TimeUnit, number>> = {
  ms: 86_400_000,
  us: 86_400_000_000,
  ns: 86_400e9,
};
/** "00" to "99". */
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => (i < 10 ? "0" : "") + i);
/** The day of the last formatted value and its `YYYY-MM-DDT` text. */
const lastDay = { days: NaN, unit: "", prefix: "" };

/** Four-digit zero-padded year, with a sign before year 0. */
export function formatYear(year: number): string {
  return year < 0 ? "-" + padN(-year, 4) : padN(year, 4);
}

function padN(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : "0".repeat(width - s.length) + s;
}

/** Dotted-quad text of an unsigned IPv4 number. */
export function formatIpv4(ip: number): string {
  return `${(ip >>> 24) & 255}.${(ip >>> 16) & 255}.${(ip >>> 8) & 255}.${ip & 255}`;
}

/**
 * `0x` hex of a LONG256. QuestDB prints whole bytes without further leading zeros
 * (Numbers.appendLong256: `0x01`, `0x0fff`), so the digit count is padded to even.
 */
export function formatLong256(v: bigint): string {
  let hex = v.toString(16);
  if (hex.length % 2 === 1) hex = "0" + hex;
  return "0x" + hex;
}

/** Geohash text: base-32 characters when the precision is whole characters, else the bit string. */
export function formatGeohash(v: bigint, bits: number): string {
  if (bits % 5 === 0) {
    let s = "";
    for (let i = bits - 5; i >= 0; i -= 5) s += GEOHASH_ALPHABET[Number((v >> BigInt(i)) & 31n)];
    return s;
  }
  return v.toString(2).padStart(bits, "0");
}

/**
 * `('lo', 'hi')` (§18.3 INTERVAL) with each end in milliseconds, as QuestDB's Interval.toSink
 * writes it (`toMSecString`; SampleByFillTest#testFillPrevIntervalMultiKey prints
 * `('2020-01-01T00:00:00.000Z', '2020-02-01T00:00:00.000Z')`); a missing end is `null`.
 */
export function formatInterval(i: Interval, unit: TimeUnit = "us"): string {
  const perMs = unit === "ns" ? 1_000_000n : unit === "us" ? 1000n : 1n;
  const end = (t: bigint) => {
    if (t === INTERVAL_END_NULL) return "null";
    const q = t / perMs;
    return `'${formatTicks(q * perMs > t ? q - 1n : q, "ms")}'`;
  };
  return `(${end(i.lo)}, ${end(i.hi)})`;
}

/** The NULL end of an interval: the least 64-bit value (QuestDB's Numbers.LONG_NULL). */
const INTERVAL_END_NULL = -(2n ** 63n);

/**
 * The §18.3 text of value `v` of type `t`; null for SQL NULL and for BINARY (whose content is
 * never rendered as text).
 */
export function formatValue(v: Value, t: ColumnType): string | null {
  if (v === null) return null;
  switch (t.tag) {
    case "BOOLEAN":
      return v ? "true" : "false";
    case "BYTE":
    case "SHORT":
    case "INT":
    case "LONG":
      return String(v);
    case "FLOAT":
      return formatFloat(v as number);
    case "DOUBLE":
      return formatDouble(v as number);
    case "DATE":
      return formatTicks(v as bigint, "ms");
    case "TIMESTAMP":
      return formatTicks(v as bigint, "us");
    case "TIMESTAMP_NS":
      return formatTicks(v as bigint, "ns");
    case "IPV4":
      return formatIpv4(v as number);
    case "LONG256":
      return formatLong256(v as bigint);
    case "GEOHASH":
      return formatGeohash(v as bigint, t.geoBits);
    case "INTERVAL":
      return formatInterval(v as Interval);
    case "ARRAY":
      return formatArrayJson(v as DoubleArray);
    case "DECIMAL":
      return formatDecimal(v as bigint, t.scale ?? 0);
    case "BINARY":
    case "CURSOR":
      return null;
    default:
      // CHAR, SYMBOL, STRING, VARCHAR, UUID and untyped NULL carry their text already.
      return typeof v === "string" ? v : String(v);
  }
}
