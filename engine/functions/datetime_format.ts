/**
 * Date format patterns (spec/sql.md §14.5): compiled once per query, then used to format
 * (`to_str`) and parse (`to_timestamp`, `to_date`, `to_timestamp_ns`) every row.
 *
 * Compilation follows QuestDB's MicrosFormatCompiler: the pattern is cut into the longest known
 * letter groups (`yyyy`, `MM`, `U+` …) and literal text in between. A one-letter numeric field
 * that is followed by literal text, by `a` or `z`, or ends the pattern becomes greedy (reads as
 * many digits as are there); otherwise it reads exactly one digit. A literal `.` directly before
 * `U+` or `N+` makes the whole fraction optional when parsing.
 */
import {
  dayOfWeek,
  dayOfYear,
  isoWeekOf,
  NANOS_PER_TICK,
  type TimeUnit,
  toParts,
} from "./datetime_calendar.ts";
import { DAY_NAMES, DAY_NAMES_SHORT, MONTH_NAMES, MONTH_NAMES_SHORT } from "./datetime_names.ts";
import { formatYear } from "./format_value.ts";

export { parseWithPattern } from "./datetime_pattern_parse.ts";

/** Letter groups the pattern language knows, longest first so matching is longest-first. */
const SYMBOLS = [
  "yyyy",
  "YYYY",
  "MMMM",
  "yyy",
  "MMM",
  "SSS",
  "NNN",
  "UUU",
  "zzz",
  "xxx",
  "yy",
  "MM",
  "dd",
  "EE",
  "ww",
  "HH",
  "kk",
  "KK",
  "hh",
  "mm",
  "ss",
  "zz",
  "xx",
  "U+",
  "N+",
  "G",
  "y",
  "M",
  "d",
  "E",
  "u",
  "D",
  "w",
  "F",
  "a",
  "H",
  "k",
  "K",
  "h",
  "m",
  "s",
  "S",
  "N",
  "z",
  "Z",
  "x",
  "U",
];

/** Numeric one-letter fields that turn greedy before literal text or at the end. */
const GREEDY_CAPABLE = new Set(["y", "M", "d", "H", "k", "K", "h", "m", "s", "S", "U", "N"]);

/** One step of a compiled pattern: a field (`op`) or literal text. */
export type PatternOp =
  | { kind: "field"; op: string; greedy: boolean }
  | { kind: "literal"; text: string }
  | { kind: "optionalFraction"; op: "U+" | "N+" };

/** A compiled pattern; immutable, shareable between queries. */
export interface CompiledPattern {
  readonly source: string;
  readonly ops: readonly PatternOp[];
}

/** Compiles a §14.5 pattern. Unknown letters and other characters are literals. */
export function compilePattern(fmt: string): CompiledPattern {
  const ops: PatternOp[] = [];
  let literal = "";
  const flushLiteral = () => {
    if (literal === "") return;
    makeLastGreedy(ops);
    ops.push({ kind: "literal", text: literal });
    literal = "";
  };
  for (let i = 0; i < fmt.length;) {
    if (fmt[i] === "'") {
      // quoted text is literal: `yyyy'y'ddMM` (TimestampFormatCompilerTest#testQuote)
      const end = fmt.indexOf("'", i + 1);
      const close = end < 0 ? fmt.length : end;
      literal += close === i + 1 ? "'" : fmt.slice(i + 1, close);
      i = close + 1;
      continue;
    }
    const sym = SYMBOLS.find((s) => fmt.startsWith(s, i));
    if (sym === undefined) {
      literal += fmt[i++];
      continue;
    }
    flushLiteral();
    if (sym === "a" || sym === "z") makeLastGreedy(ops);
    ops.push({ kind: "field", op: sym, greedy: false });
    i += sym.length;
  }
  flushLiteral();
  makeLastGreedy(ops);
  return { source: fmt, ops: collapseOptionalFractions(ops) };
}

function makeLastGreedy(ops: PatternOp[]): void {
  const last = ops[ops.length - 1];
  if (last?.kind === "field" && GREEDY_CAPABLE.has(last.op)) last.greedy = true;
}

function collapseOptionalFractions(ops: PatternOp[]): PatternOp[] {
  const out: PatternOp[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    const next = ops[i + 1];
    if (
      op.kind === "literal" && op.text === "." && next?.kind === "field" &&
      (next.op === "U+" || next.op === "N+")
    ) {
      out.push({ kind: "optionalFraction", op: next.op });
      i++;
    } else {
      out.push(op);
    }
  }
  return out;
}

/**
 * Formats a UTC time value with a compiled pattern. `unit` is the value's unit (default µs);
 * zone letters print `timeZoneName` (default `Z`).
 */
export function formatWithPattern(
  compiled: CompiledPattern,
  value: bigint,
  options: { unit?: TimeUnit; timeZoneName?: string } = {},
): string {
  const unit = options.unit ?? "us";
  const p = toParts(value, unit);
  const nanos = p.sub * NANOS_PER_TICK[unit];
  let out = "";
  for (const op of compiled.ops) {
    if (op.kind === "literal") out += op.text;
    else if (op.kind === "optionalFraction") out += "." + fractionText(op.op, nanos, unit);
    else out += formatField(op.op, p, nanos, unit, options.timeZoneName ?? "Z");
  }
  return out;
}

function fractionText(op: "U+" | "N+", nanos: number, unit: TimeUnit): string {
  // QuestDB prints both as microseconds of the second for TIMESTAMP; nanosecond values keep all
  // nine digits for N+.
  if (op === "N+" && unit === "ns") return pad(nanos, 9);
  return pad(Math.floor(nanos / 1000), 6);
}

function formatField(
  op: string,
  p: ReturnType<typeof toParts>,
  nanos: number,
  unit: TimeUnit,
  zoneName: string,
): string {
  const millis = Math.floor(nanos / 1e6);
  const microsOfMilli = Math.floor(nanos / 1000) % 1000;
  switch (op) {
    case "G":
      return p.year < 0 ? "BC" : "AD";
    case "y":
      return yearText(p.year, 1);
    case "yy":
      return yearText(p.year % 100, 2);
    case "yyy":
      return yearText(p.year % 1000, 3);
    case "yyyy":
      return yearText(p.year, 4);
    case "YYYY":
      return formatYear(isoWeekOf(p.days)[0]);
    case "M":
      return String(p.month);
    case "MM":
      return pad(p.month, 2);
    case "MMM":
      return MONTH_NAMES_SHORT[p.month - 1];
    case "MMMM":
      return MONTH_NAMES[p.month - 1];
    case "d":
      return String(p.day);
    case "dd":
      return pad(p.day, 2);
    case "E":
      return DAY_NAMES_SHORT[dayOfWeek(p.days) - 1];
    case "EE":
      return DAY_NAMES[dayOfWeek(p.days) - 1];
    case "u":
      // Sunday first, 1-7 (TimestampFormatCompilerTest#testFormatWeekdayDigit)
      return String((dayOfWeek(p.days) % 7) + 1);
    case "D":
      return String(dayOfYear(p.year, p.month, p.day));
    case "w":
      return String(Math.floor(dayOfYear(p.year, p.month, p.day) / 7) + 1);
    case "ww":
      return pad(isoWeekOf(p.days)[1], 2);
    case "F":
      return String(Math.floor((p.day - 1) / 7) + 1);
    case "a":
      return p.hour < 12 ? "AM" : "PM";
    case "H":
      return String(p.hour);
    case "HH":
      return pad(p.hour, 2);
    case "k":
      return String(p.hour === 0 ? 24 : p.hour);
    case "kk":
      return pad(p.hour === 0 ? 24 : p.hour, 2);
    case "K":
      return String(p.hour % 12);
    case "KK":
      return pad(p.hour % 12, 2);
    case "h":
      return String(((p.hour + 11) % 12) + 1);
    case "hh":
      return pad(((p.hour + 11) % 12) + 1, 2);
    case "m":
      return String(p.minute);
    case "mm":
      return pad(p.minute, 2);
    case "s":
      return String(p.second);
    case "ss":
      return pad(p.second, 2);
    case "S":
      return String(millis);
    case "SSS":
      return pad(millis, 3);
    case "U":
      return String(microsOfMilli);
    case "UUU":
      return pad(microsOfMilli, 3);
    case "U+":
      return fractionText("U+", nanos, unit);
    case "N+":
      return fractionText("N+", nanos, unit);
    case "N":
      return String(nanos % 1000);
    case "NNN":
      return pad(nanos % 1000, 3);
    default:
      return zoneName; // z, zz, zzz, Z, x, xx, xxx
  }
}

/**
 * A year field as QuestDB's appendYear* helpers print it: year 0 prints as 1, and the zero padding
 * counts the digits of the absolute value, ahead of any sign (TimestampFormatCompilerTest#testFormatZeroYear).
 */
function yearText(year: number, width: number): string {
  const digits = String(Math.abs(year));
  const text = String(year !== 0 ? year : 1);
  return "0".repeat(Math.max(0, width - digits.length)) + text;
}

function pad(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : "0".repeat(width - s.length) + s;
}
