/**
 * Parsing text with a compiled date pattern (spec/sql.md §14.4 `to_timestamp`, `to_date`,
 * `to_timestamp_ns`), following QuestDB's GenericMicrosFormat.parse: fields default to
 * 1970-01-01T00:00:00, each field reads its digits or name, literals must match exactly, and
 * the whole text must be used. Range checks happen once at the end.
 */
import {
  daysFromCivil,
  daysInMonth,
  isoWeeksInYear,
  isoWeekStart,
  NANOS_PER_TICK,
  TICKS_PER_SECOND,
  type TimeUnit,
} from "./datetime_calendar.ts";
import type { CompiledPattern } from "./datetime_format.ts";
import { DAY_NAMES, DAY_NAMES_SHORT, MONTH_NAMES, MONTH_NAMES_SHORT } from "./datetime_names.ts";
import { localToUtcTicks, parseOffsetSeconds, resolveTimeZone } from "./timezone.ts";

const TIME_ZONE_OPS = new Set(["z", "zz", "zzz", "Z", "x", "xx", "xxx"]);

/** Fields collected while parsing, with QuestDB's defaults (1970-01-01T00:00:00). */
interface ParseState {
  pos: number;
  era: number;
  year: number;
  month: number;
  day: number;
  week: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  micros: number;
  nanos: number;
  hourType: "24" | "AM" | "PM";
  offsetSeconds: number | undefined;
  zone: string | undefined;
}

/**
 * Parses `text` with a compiled pattern into ticks of `unit` (default µs). Returns undefined
 * when the text does not match, a field is out of range, or text remains after the pattern
 * (§14.4: `to_timestamp('2024-03-05', 'yyyy')` is NULL).
 */
export function parseWithPattern(
  compiled: CompiledPattern,
  text: string,
  options: { unit?: TimeUnit } = {},
): bigint | undefined {
  const st: ParseState = {
    pos: 0,
    era: 1,
    year: 1970,
    month: 1,
    day: 1,
    week: -1,
    hour: 0,
    minute: 0,
    second: 0,
    millis: 0,
    micros: 0,
    nanos: 0,
    hourType: "24",
    offsetSeconds: undefined,
    zone: undefined,
  };
  for (const op of compiled.ops) {
    let ok: boolean;
    if (op.kind === "literal") {
      ok = text.startsWith(op.text, st.pos);
      st.pos += op.text.length;
    } else if (op.kind === "optionalFraction") {
      ok = true;
      if (text[st.pos] === "." && isDigitAt(text, st.pos + 1)) {
        st.pos++;
        ok = parseField(op.op, true, text, st);
      }
    } else {
      ok = parseField(op.op, op.greedy, text, st);
    }
    if (!ok) return undefined;
  }
  if (st.pos !== text.length) return undefined;
  return computeParsed(st, options.unit ?? "us");
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** Reads between `min` and `max` digits at st.pos; returns [value, count] or undefined. */
function readDigits(text: string, st: ParseState, min: number, max: number): [number, number] | undefined {
  let v = 0;
  let n = 0;
  while (n < max && isDigitAt(text, st.pos + n)) v = v * 10 + text.charCodeAt(st.pos + n++) - 48;
  if (n < min) return undefined;
  st.pos += n;
  return [v, n];
}

/** Reads a number field: greedy (1-9 digits), else exactly `width` digits. */
function readNumber(text: string, st: ParseState, greedy: boolean, width: number): number | undefined {
  const r = greedy ? readDigits(text, st, 1, 9) : readDigits(text, st, width, width);
  return r?.[0];
}

/** Reads up to `width` fraction digits and scales them as if right-padded with zeros. */
function readPadded(text: string, st: ParseState, width: number, maxDigits = width): number | undefined {
  const r = readDigits(text, st, 1, maxDigits);
  if (!r) return undefined;
  const [v, n] = r;
  return n <= width ? v * 10 ** (width - n) : Math.floor(v / 10 ** (n - width));
}

function matchName(
  text: string,
  st: ParseState,
  longNames: readonly string[],
  shortNames: readonly string[],
): number {
  const rest = text.slice(st.pos).toLowerCase();
  for (const names of [longNames, shortNames]) {
    const i = names.findIndex((n) => rest.startsWith(n.toLowerCase()));
    if (i >= 0) {
      st.pos += names[i].length;
      return i;
    }
  }
  return -1;
}

function parseField(op: string, greedy: boolean, text: string, st: ParseState): boolean {
  let v: number | undefined;
  switch (op) {
    case "G": {
      const era = text.startsWith("AD", st.pos) ? 1 : text.startsWith("BC", st.pos) ? 0 : -1;
      st.pos += 2;
      st.era = era;
      return era >= 0;
    }
    case "y": {
      // Greedy `y` reads any number of digits; exactly two mean 20xx (§14.5).
      const r = greedy ? readDigits(text, st, 1, 9) : readDigits(text, st, 1, 1);
      return set(st, "year", r === undefined ? r : r[1] === 2 && greedy ? 2000 + r[0] : r[0]);
    }
    case "yy":
      v = readNumber(text, st, false, 2);
      return set(st, "year", v === undefined ? v : 2000 + v);
    case "yyy":
      return set(st, "year", readNumber(text, st, false, 3));
    case "yyyy":
    case "YYYY": {
      const negative = text[st.pos] === "-";
      if (negative) st.pos++;
      v = readNumber(text, st, false, 4);
      return set(st, "year", v === undefined ? v : negative ? -v : v);
    }
    case "M":
    case "MM":
      return set(st, "month", readNumber(text, st, greedy, op.length));
    case "MMM":
    case "MMMM": {
      const i = matchName(text, st, MONTH_NAMES, MONTH_NAMES_SHORT);
      return set(st, "month", i < 0 ? undefined : i + 1);
    }
    case "d":
    case "dd":
      return set(st, "day", readNumber(text, st, greedy, op.length));
    case "E":
    case "EE":
      return matchName(text, st, DAY_NAMES, DAY_NAMES_SHORT) >= 0; // the weekday is ignored
    case "u":
      return readNumber(text, st, greedy, 1) !== undefined;
    case "D":
    case "w":
    case "F":
      return readDigits(text, st, 1, 9) !== undefined;
    case "ww":
      return set(st, "week", readNumber(text, st, false, 2));
    case "a": {
      const i = matchName(text, st, ["AM", "PM"], ["AM", "PM"]);
      if (i < 0) return false;
      st.hourType = i === 0 ? "AM" : "PM";
      return true;
    }
    case "H":
    case "HH":
    case "k":
    case "kk":
      return set(st, "hour", readNumber(text, st, greedy, op.length));
    case "K":
    case "KK":
    case "h":
    case "hh":
      if (st.hourType === "24") st.hourType = "AM";
      return set(st, "hour", readNumber(text, st, greedy, op.length));
    case "m":
    case "mm":
      return set(st, "minute", readNumber(text, st, greedy, op.length));
    case "s":
    case "ss":
      return set(st, "second", readNumber(text, st, greedy, op.length));
    case "S":
      return set(st, "millis", greedy ? readPadded(text, st, 3) : readNumber(text, st, false, 1));
    case "SSS":
      return set(st, "millis", readNumber(text, st, false, 3));
    case "U":
      return set(st, "micros", greedy ? readPadded(text, st, 3) : readNumber(text, st, false, 1));
    case "UUU":
      return set(st, "micros", readNumber(text, st, false, 3));
    case "U+":
      // Microseconds of the second; digits past the sixth are accepted and truncated.
      return setFraction(st, readPadded(text, st, 9, 9), false);
    case "N+":
      return setFraction(st, readPadded(text, st, 9, 9), true);
    case "N":
      return set(st, "nanos", greedy ? readPadded(text, st, 3) : readNumber(text, st, false, 1));
    case "NNN":
      return set(st, "nanos", readNumber(text, st, false, 3));
    default:
      return TIME_ZONE_OPS.has(op) && parseZone(text, st);
  }
}

function set(
  st: ParseState,
  field: "year" | "month" | "day" | "week" | "hour" | "minute" | "second" | "millis" | "micros" | "nanos",
  v: number | undefined,
): boolean {
  if (v === undefined) return false;
  st[field] = v;
  return true;
}

/** A whole fraction of the second (U+, N+) lands in micros (and nanos), as QuestDB does. */
function setFraction(st: ParseState, nanosOfSecond: number | undefined, keepNanos: boolean): boolean {
  if (nanosOfSecond === undefined) return false;
  st.micros = Math.floor(nanosOfSecond / 1000);
  st.nanos = keepNanos ? nanosOfSecond % 1000 : 0;
  return true;
}

const ZONE_NAME_RE = /^[A-Za-z][A-Za-z0-9_/+-]*/;
const OFFSET_PREFIX_RE = /^(?:Z|(?:UTC|GMT)?[+-]\d{1,2}(?::?\d{2})?|UTC|GMT)/i;

function parseZone(text: string, st: ParseState): boolean {
  const rest = text.slice(st.pos);
  const off = OFFSET_PREFIX_RE.exec(rest);
  if (off) {
    const seconds = parseOffsetSeconds(off[0]);
    if (seconds !== undefined) {
      st.offsetSeconds = seconds;
      st.pos += off[0].length;
      return true;
    }
  }
  const name = ZONE_NAME_RE.exec(rest);
  if (!name || !resolveTimeZone(name[0])) return false;
  st.zone = name[0];
  st.pos += name[0].length;
  return true;
}

function computeParsed(st: ParseState, unit: TimeUnit): bigint | undefined {
  let { year, month, day, hour } = st;
  if (st.era === 0) year = -(year - 1);
  if (month < 1 || month > 12) return undefined;
  if (st.hourType === "24") {
    if (hour < 0 || hour > 24) return undefined;
    hour %= 24;
  } else {
    if (hour < 0 || hour > 12) return undefined;
    hour = (hour % 12) + (st.hourType === "PM" ? 12 : 0);
  }
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  if (st.minute > 59 || st.second > 59) return undefined;
  let days = daysFromCivil(year, month, day);
  if (st.week !== -1) {
    if (st.week < 1 || st.week > isoWeeksInYear(year)) return undefined;
    days = isoWeekStart(year, st.week);
  }
  const secs = hour * 3600 + st.minute * 60 + st.second;
  const nanos = st.millis * 1e6 + st.micros * 1e3 + st.nanos;
  const local = (BigInt(days) * 86400n + BigInt(secs)) * TICKS_PER_SECOND[unit] +
    BigInt(Math.floor(nanos / NANOS_PER_TICK[unit]));
  if (st.offsetSeconds !== undefined) return local - BigInt(st.offsetSeconds) * TICKS_PER_SECOND[unit];
  if (st.zone !== undefined) return localToUtcTicks(resolveTimeZone(st.zone)!, local, unit);
  return local;
}
