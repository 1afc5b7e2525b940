/**
 * The date part of an interval string (spec/sql.md §8.1 and the TICK extensions of §8.5):
 * `<date>[T<time>][@<timezone>][#<day filter>]`, where the date may be an ISO prefix with
 * bracket expansion (`2024-01-[10..15]`), a list (`[2024-01-15, 2024-02]T10:00`), an ISO week
 * (`2024-W01-3`) or a variable (`$today - 3d`, `$now - 2h..$now`).
 *
 * The result is a list of spans `[lo, end)` in local time of their zone (or already UTC when the
 * text fixed the instant: an explicit offset, `$now`, epoch digits). interval_string.ts applies
 * durations and periods and converts to UTC.
 */
import { SqlError } from "../base/errors.ts";
import {
  civilFromDays,
  dayOfWeek,
  floorDiv,
  isoWeeksInYear,
  isoWeekStart,
  splitDay,
  TICKS_PER_DAY,
  type TimeUnit,
} from "./datetime_calendar.ts";
import { addTerm, parseDuration } from "./interval_duration.ts";
import { parseTimestampDetailed, prefixEnd, type TimestampPrecision } from "./timestamp_parse.ts";
import { resolveTimeZone, utcToLocalTicks, type ZoneRules } from "./timezone.ts";

/** A covered range `[lo, end)`; local to `zone` unless `utc` is set. */
export interface DateSpan {
  lo: bigint;
  end: bigint;
  precision: TimestampPrecision;
  /** The instant is fixed already (offset in the text, `$now`, epoch digits): no zone applies. */
  utc: boolean;
  zone: ZoneRules | undefined;
}

/** What a date part is expanded with. */
export interface TickContext {
  nowTicks: bigint;
  unit: TimeUnit;
  /** A duration follows: month and year elements expand to their days first (§8.5). */
  expandToDays: boolean;
  /** Safety cap on the number of spans produced before merging. */
  maxSpans: number;
}

interface Inherited {
  zone: ZoneRules | undefined;
  days: Set<number> | undefined;
  timeSuffix: string | undefined;
}

const MAX_BRACKET_GROUPS = 8;

export function tickError(message: string): SqlError {
  return new SqlError(message, -1, "semantic");
}

/** Expands the date part of an interval string into spans (see DateSpan). */
export function expandDatePart(text: string, ctx: TickContext): DateSpan[] {
  const out: DateSpan[] = [];
  expandInto(text.trim(), ctx, { zone: undefined, days: undefined, timeSuffix: undefined }, out);
  return out;
}

function expandInto(text: string, ctx: TickContext, inherited: Inherited, out: DateSpan[]): void {
  const { main, tz, filter } = splitSuffixes(text);
  const zone = tz === undefined ? inherited.zone : resolveZone(tz);
  const days = filter === undefined ? inherited.days : parseDayFilter(filter);
  if (main.startsWith("[")) {
    const close = matchingBracket(main, 0);
    const rest = main.slice(close + 1);
    if (!/^\d/.test(rest) && !rest.startsWith("-")) {
      const suffix = rest.trim() === "" ? inherited.timeSuffix : rest.trim();
      for (const element of splitTopLevel(main.slice(1, close), ",")) {
        if (element.trim() === "") throw tickError("Empty bracket expansion");
        expandInto(element.trim(), ctx, { zone, days, timeSuffix: suffix }, out);
      }
      return;
    }
  }
  const scope: Inherited = { zone, days, timeSuffix: inherited.timeSuffix };
  if (main.startsWith("$")) {
    for (const span of variableSpans(main, ctx, zone)) {
      const timed = scope.timeSuffix !== undefined && span.precision === "day"
        ? withTime(span, scope.timeSuffix, ctx)
        : [span];
      for (const t of timed) emit(t, scope, ctx, out);
    }
    return;
  }
  for (const s of expandBrackets(main, ctx.maxSpans)) {
    // A time-list item with its own zone (`T[09:30@America/New_York,08:00@Europe/London]`).
    if (s.includes("@")) {
      expandInto(s, ctx, scope, out);
      continue;
    }
    for (const span of isoSpans(s, scope, ctx)) emit(span, scope, ctx, out);
  }
}

/** Splits `main@tz#filter` at the top level (outside brackets). */
function splitSuffixes(text: string): { main: string; tz?: string; filter?: string } {
  let depth = 0;
  let at = -1;
  let hash = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (depth === 0 && c === "@" && at < 0 && hash < 0) at = i;
    else if (depth === 0 && c === "#" && hash < 0) hash = i;
  }
  const mainEnd = at >= 0 ? at : hash >= 0 ? hash : text.length;
  return {
    main: text.slice(0, mainEnd).trim(),
    tz: at >= 0 ? text.slice(at + 1, hash >= 0 ? hash : text.length).trim() : undefined,
    filter: hash >= 0 ? text.slice(hash + 1).trim() : undefined,
  };
}

function resolveZone(tz: string): ZoneRules {
  const zone = resolveTimeZone(tz);
  if (!zone) throw tickError("Invalid timezone");
  return zone;
}

const DAY_NAMES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const FULL_DAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** `#workday`/`#wd`, `#weekend`, `#Mon,Wed` (case-insensitive, full names too) → ISO weekdays. */
function parseDayFilter(filter: string): Set<number> {
  const days = new Set<number>();
  for (const raw of filter.split(",")) {
    const name = raw.trim().toLowerCase();
    if (name === "workday" || name === "wd") [1, 2, 3, 4, 5].forEach((d) => days.add(d));
    else if (name === "weekend") [6, 7].forEach((d) => days.add(d));
    else {
      const i = Math.max(DAY_NAMES.indexOf(name), FULL_DAY_NAMES.indexOf(name));
      if (i < 0) throw tickError("Invalid day name");
      days.add(i + 1);
    }
  }
  return days;
}

/** Index of the `]` matching the `[` at `open`. */
function matchingBracket(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === "[") depth++;
    else if (s[i] === "]" && --depth === 0) return i;
  }
  throw tickError("Unclosed '[' in interval");
}

/** Splits on `sep` outside brackets. */
export function splitTopLevel(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "[") depth++;
    else if (s[i] === "]") depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      parts.push(s.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/**
 * Bracket expansion inside fields (§8.5): `[10,15]`, `[10..15]`, `[5,10..12,20]`, several
 * groups as a Cartesian product. A bracket holding `:` is a time list whose items are copied
 * as written. Numbers are zero-padded to the field's width (two digits after the year).
 */
export function expandBrackets(s: string, max: number, groups = 0, lead = ""): string[] {
  const open = s.indexOf("[");
  if (open < 0) return [s];
  if (groups >= MAX_BRACKET_GROUPS) throw tickError(`Too many bracket groups (max ${MAX_BRACKET_GROUPS})`);
  const close = matchingBracket(s, open);
  const prefix = s.slice(0, open);
  const tails = expandBrackets(s.slice(close + 1), max, groups + 1, lead + s.slice(0, close + 1));
  const out: string[] = [];
  for (const value of bracketValues(s.slice(open + 1, close), padWidth(lead + prefix))) {
    for (const tail of tails) {
      out.push(prefix + value + tail);
      if (out.length > max) throw tickError("too many intervals");
    }
  }
  return out;
}

function padWidth(prefix: string): number {
  if (prefix.includes(".")) return 0;
  // The ISO weekday after `W01-` is one digit (`2024-W[01..04]-[1,5]`, tick.md "Week bracket expansion").
  if (/W(\d{2}|\[[^\]]*\])-$/.test(prefix)) return 1;
  if (prefix.includes("T") || prefix.includes(" ") || prefix.includes("-")) return 2;
  return 0;
}

function bracketValues(content: string, width: number): string[] {
  if (content.includes(":")) {
    const items = content.split(",").map((x) => x.trim()).filter((x) => x !== "");
    if (items.length === 0) throw tickError("Empty bracket expansion");
    return items;
  }
  const values: string[] = [];
  for (const raw of content.split(",")) {
    const item = raw.trim();
    if (item === "") continue;
    const m = /^(\d+)\s*(?:\.\.\s*(\d*))?$/.exec(item);
    if (!m) throw tickError("Expected number in bracket expansion");
    if (m[2] === "") throw tickError("Expected number after '..'");
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) throw tickError(`Range must be ascending: ${from}..${to}`);
    for (let v = from; v <= to; v++) values.push(String(v).padStart(width, "0"));
  }
  if (values.length === 0) throw tickError("Empty bracket expansion");
  return values;
}

/** One expanded ISO element (date, date+time, week, epoch digits) → spans. */
function isoSpans(s: string, scope: Inherited, ctx: TickContext): DateSpan[] {
  const week = /^(\d{4})-W(\d{2})(?:-(\d))?(.*)$/.exec(s);
  if (week) return weekSpans(week, scope, ctx);
  if (/^\d{5,}$/.test(s)) {
    const v = BigInt(s);
    return [{ lo: v, end: v + 1n, precision: "fraction", utc: true, zone: undefined }];
  }
  const parsed = parseTimestampDetailed(s, ctx.unit);
  if (parsed) {
    const span = spanOf(parsed, ctx.unit, scope);
    return scope.timeSuffix !== undefined && isDateOnly(span.precision)
      ? withTime(span, scope.timeSuffix, ctx)
      : [span];
  }
  // A month or year followed by a time (`2024-02T09:30`): the time applies to each day.
  const split = /^(\d{4}(?:-\d{2})?)([T ].*)$/.exec(s);
  const date = split ? parseTimestampDetailed(split[1], ctx.unit) : undefined;
  if (!split || !date) throw tickError("Invalid date");
  return withTime(spanOf(date, ctx.unit, scope), split[2], ctx);
}

function spanOf(
  p: NonNullable<ReturnType<typeof parseTimestampDetailed>>,
  unit: TimeUnit,
  scope: Inherited,
): DateSpan {
  if (p.hasOffset) {
    // A trailing Z or offset fixes the instant; at fraction precision it is a single point (§8.1).
    const end = p.precision === "fraction" ? p.value + 1n : prefixEnd(p, unit);
    return { lo: p.value, end, precision: p.precision, utc: true, zone: undefined };
  }
  return { lo: p.localValue, end: prefixEnd(p, unit), precision: p.precision, utc: false, zone: scope.zone };
}

function isDateOnly(p: TimestampPrecision): boolean {
  return p === "year" || p === "month" || p === "day";
}

/** Applies a `T…` time (possibly a bracket list) to every day of a date span. */
function withTime(span: DateSpan, suffix: string, ctx: TickContext): DateSpan[] {
  const out: DateSpan[] = [];
  const times = expandBrackets(suffix.replace(/^ /, "T"), ctx.maxSpans).map((t) => {
    const p = parseTimestampDetailed("1970-01-01" + t, ctx.unit);
    if (!p || p.hasOffset || isDateOnly(p.precision)) throw tickError("Invalid date");
    return { offset: p.localValue, length: prefixEnd(p, ctx.unit) - p.localValue };
  });
  for (const day of daySpans(span, ctx)) {
    for (const t of times) {
      out.push({ ...day, lo: day.lo + t.offset, end: day.lo + t.offset + t.length, precision: "minute" });
    }
  }
  return out;
}

/** Splits a span of whole days into one span per day. */
function daySpans(span: DateSpan, ctx: TickContext): DateSpan[] {
  const perDay = TICKS_PER_DAY[ctx.unit];
  const out: DateSpan[] = [];
  for (let lo = span.lo; lo < span.end; lo += perDay) {
    out.push({ ...span, lo, end: lo + perDay, precision: "day" });
    if (out.length > ctx.maxSpans) throw tickError("too many intervals");
  }
  return out;
}

function weekSpans(m: RegExpExecArray, scope: Inherited, ctx: TickContext): DateSpan[] {
  const year = Number(m[1]);
  const week = Number(m[2]);
  const day = m[3] === undefined ? undefined : Number(m[3]);
  if (week < 1 || week > isoWeeksInYear(year) || (day !== undefined && (day < 1 || day > 7))) {
    throw tickError("Invalid date");
  }
  const start = isoWeekStart(year, week);
  const out: DateSpan[] = [];
  for (let d = day ?? 1; d <= (day ?? 7); d++) {
    const [y, mo, dd] = civilFromDays(start + d - 1);
    const iso = `${String(y).padStart(4, "0")}-${String(mo).padStart(2, "0")}-${String(dd).padStart(2, "0")}${
      m[4]
    }`;
    out.push(...isoSpans(iso, scope, ctx));
  }
  return out;
}

/** `$today`, `$now - 90s`, `$today + 2bd`, ranges `A..B` (§8.5 date variables). */
function variableSpans(text: string, ctx: TickContext, zone: ZoneRules | undefined): DateSpan[] {
  const range = splitTopLevel(text, "..");
  if (range.length > 2) throw tickError("Invalid date");
  if (range.length === 1) return [variableSpan(text, ctx, zone).span];
  const a = variableSpan(range[0], ctx, zone);
  const b = variableSpan(range[1].trim(), ctx, zone);
  if (b.span.end <= a.span.lo) throw tickError("Invalid date");
  const whole: DateSpan = { ...a.span, end: b.span.end, utc: a.span.utc || b.span.utc };
  if (!a.businessDays && !b.businessDays) return [whole];
  return daySpans(whole, ctx).filter((d) => dayOfWeek(splitDay(d.lo, ctx.unit)[0]) <= 5);
}

function variableSpan(
  text: string,
  ctx: TickContext,
  zone: ZoneRules | undefined,
): { span: DateSpan; businessDays: boolean } {
  const m = /^\$([a-zA-Z]+)\s*(.*)$/.exec(text.trim());
  if (!m) throw tickError("Unknown date variable");
  const name = m[1].toLowerCase();
  const perDay = TICKS_PER_DAY[ctx.unit];
  let span: DateSpan;
  if (name === "now") {
    span = { lo: ctx.nowTicks, end: ctx.nowTicks + 1n, precision: "fraction", utc: true, zone: undefined };
  } else {
    const shift = name === "today" ? 0n : name === "yesterday" ? -1n : name === "tomorrow" ? 1n : undefined;
    if (shift === undefined) throw tickError("Unknown date variable");
    const local = zone ? utcToLocalTicks(zone, ctx.nowTicks, ctx.unit) : ctx.nowTicks;
    const lo = (floorDiv(local, perDay) + shift) * perDay;
    span = { lo, end: lo + perDay, precision: "day", utc: false, zone };
  }
  let businessDays = false;
  const arith = m[2].replace(/\s+/g, "");
  if (arith !== "") {
    const sign = arith[0];
    const d = sign === "+" || sign === "-" ? parseDuration(arith.slice(1), true) : undefined;
    if (!d) throw tickError("Invalid date");
    for (const term of d.terms) {
      const count = sign === "-" ? -term.count : term.count;
      businessDays ||= term.unit === "bd";
      const lo = addTerm(span.lo, count, term.unit, ctx.unit);
      span = { ...span, lo, end: lo + (span.end - span.lo) };
    }
  }
  return { span, businessDays };
}

/**
 * Final per-span steps before zones and durations: months and years become days when a
 * duration follows or a day filter applies, and the filter keeps the listed weekdays.
 */
function emit(span: DateSpan, scope: Inherited, ctx: TickContext, out: DateSpan[]): void {
  const coarse = span.precision === "year" || span.precision === "month";
  const spans = coarse && (ctx.expandToDays || scope.days) ? daySpans(span, ctx) : [span];
  for (const s of spans) {
    if (scope.days && !scope.days.has(dayOfWeek(splitDay(s.lo, ctx.unit)[0]))) continue;
    out.push(s);
    if (out.length > ctx.maxSpans) throw tickError("too many intervals");
  }
}
