/**
 * PostgreSQL interval literals in timestamp arithmetic, the spelling BI tools send
 * (`now() - interval '5 minutes'`, `ts + '1 day'::interval`, `ts - INTERVAL '1' HOUR`).
 *
 * QuestDB's INTERVAL is a pair of timestamps and no string converts to it, so a cast of a
 * string literal to INTERVAL has no QuestDB meaning; when such a literal is an operand of `+`
 * or `-` and its text is a PostgreSQL duration, the parser turns the arithmetic into QuestDB's
 * own `dateadd` calls: months first, then days, then microseconds, as PostgreSQL adds them
 * (Jan 31 + 1 month = Feb 29). A duration literal anywhere else keeps failing as before.
 * An interval known only at run time (`$1::interval`, `col::interval`, `interval '1 hour' * qty`)
 * becomes a call of pg_interval_add / pg_interval_scale (engine/functions/pg_interval_runtime.ts).
 */
import { syntaxError } from "../base/errors.ts";
import type { CastExpr, Expr, Literal } from "./ast.ts";

/** A PostgreSQL interval: months, days and microseconds are kept apart, as Postgres does. */
export interface PgDuration {
  months: number;
  days: number;
  micros: bigint;
}

const MICROS_PER_DAY = 86_400_000_000;

/** Unit words (lower case, as Postgres reads them case-insensitively) and what one of each is. */
const UNITS: Record<string, { months?: number; days?: number; micros?: number }> = {};
function unit(names: string[], amount: { months?: number; days?: number; micros?: number }): void {
  for (const n of names) UNITS[n] = amount;
}
unit(["microsecond", "microseconds", "us", "usec", "usecs", "microsecon"], { micros: 1 });
unit(["millisecond", "milliseconds", "ms", "msec", "msecs", "mseconds"], { micros: 1_000 });
unit(["second", "seconds", "s", "sec", "secs"], { micros: 1_000_000 });
unit(["minute", "minutes", "m", "min", "mins"], { micros: 60_000_000 });
unit(["hour", "hours", "h", "hr", "hrs"], { micros: 3_600_000_000 });
unit(["day", "days", "d"], { days: 1 });
unit(["week", "weeks", "w"], { days: 7 });
unit(["month", "months", "mon", "mons"], { months: 1 });
unit(["year", "years", "y", "yr", "yrs"], { months: 12 });
unit(["decade", "decades"], { months: 120 });
unit(["century", "centuries"], { months: 1200 });
unit(["millennium", "millennia", "millenniums"], { months: 12000 });

/** The SQL-standard field words of `INTERVAL '1' HOUR` (and `... TO MINUTE`). */
export const INTERVAL_FIELDS = new Set(["year", "month", "day", "hour", "minute", "second"]);

/**
 * Reads PostgreSQL interval text: `5 minutes`, `1 day 02:00:00`, `-1 year 2 mons`, `1.5 hours`,
 * `@ 3 days ago`, `01:30`, a bare number (seconds), `1d`/`5min` without a space. Returns undefined
 * when the text is not one. A lone upper-case `M` is refused: it is a month in QuestDB's `1M`
 * but a minute in PostgreSQL, so it means nothing for certain.
 */
export function parsePgDuration(text: string): PgDuration | undefined {
  let s = text.trim();
  if (s.startsWith("@")) s = s.slice(1).trim();
  let ago = false;
  if (/\s+ago$/i.test(s)) {
    ago = true;
    s = s.replace(/\s+ago$/i, "");
  }
  if (s === "") return undefined;
  const out = { months: 0, days: 0, micros: 0 };
  const words = s.split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const clock = /^([+-])?(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?$/.exec(w);
    if (clock) {
      const sign = clock[1] === "-" ? -1 : 1;
      const secs = Number(clock[2]) * 3600 + Number(clock[3]) * 60 + Number(clock[4] ?? 0);
      out.micros += sign * Math.round(secs * 1_000_000);
      continue;
    }
    const m = /^([+-]?(?:\d+\.?\d*|\.\d+))([A-Za-z]*)$/.exec(w);
    if (!m) return undefined;
    let unitWord = m[2];
    if (unitWord === "" && i + 1 < words.length && /^[A-Za-z]+$/.test(words[i + 1])) unitWord = words[++i];
    if (unitWord === "M") return undefined;
    const amount = unitWord === "" ? { micros: 1_000_000 } : UNITS[unitWord.toLowerCase()];
    if (!amount) return undefined;
    add(out, Number(m[1]), amount);
  }
  const sign = ago ? -1 : 1;
  return { months: sign * out.months, days: sign * out.days, micros: BigInt(sign * Math.round(out.micros)) };
}

/** Adds `n` of a unit; fractions spill down as in Postgres (a month is 30 days, a day 24 hours). */
function add(
  out: { months: number; days: number; micros: number },
  n: number,
  amount: { months?: number; days?: number; micros?: number },
): void {
  if (amount.months) {
    const months = n * amount.months;
    const whole = Math.trunc(months);
    out.months += whole;
    const days = (months - whole) * 30;
    out.days += Math.trunc(days);
    out.micros += (days - Math.trunc(days)) * MICROS_PER_DAY;
  } else if (amount.days) {
    const days = n * amount.days;
    out.days += Math.trunc(days);
    out.micros += (days - Math.trunc(days)) * MICROS_PER_DAY;
  } else {
    out.micros += n * (amount.micros ?? 0);
  }
}

/** The duration a cast of a string literal to INTERVAL spells, or undefined for anything else. */
export function durationLiteral(e: Expr): PgDuration | undefined {
  if (e.kind !== "cast" || e.type.name !== "INTERVAL" || e.type.arrayDims) return undefined;
  const lit = e.expr;
  if (lit.kind !== "literal" || (lit.type !== "string" && lit.type !== "char")) return undefined;
  return parsePgDuration(String(lit.value));
}

/**
 * `left op right` when one side is a duration literal: `x + d`, `d + x` and `x - d` as nested
 * dateadd calls. A duration literal that is not PostgreSQL text is an error at the literal, so
 * `ts + interval 'soon'` says what is wrong instead of QuestDB's cast message.
 */
export function intervalArithmetic(op: string, left: Expr, right: Expr, pos: number): Expr | undefined {
  if (op !== "+" && op !== "-") return undefined;
  const r = durationOrFail(right);
  const l = op === "+" && !r ? durationOrFail(left) : undefined;
  if (!r && !l) return runtimeArithmetic(op, left, right, pos);
  const d = (r ?? l)!;
  const sign = op === "-" ? -1 : 1;
  let x = r ? left : right;
  const call = (unitLetter: string, n: number | bigint): Expr => ({
    kind: "call",
    pos,
    name: "dateadd",
    args: [text(unitLetter, pos), number(n, pos), x],
    distinct: false,
    star: false,
  });
  if (d.months !== 0) x = call("M", sign * d.months);
  if (d.days !== 0) x = call("d", sign * d.days);
  if (d.micros !== 0n || (d.months === 0 && d.days === 0)) x = call("u", BigInt(sign) * d.micros);
  return x;
}

/** The text operand of a cast to INTERVAL that is not a string literal (`$1::interval`), if any. */
function runtimeInterval(e: Expr): Expr | undefined {
  if (e.kind !== "cast" || e.type.name !== "INTERVAL" || e.type.arrayDims) return undefined;
  const inner = e.expr;
  return inner.kind === "literal" && (inner.type === "string" || inner.type === "char") ? undefined : inner;
}

/** `x ± $1::interval` and `$1::interval + x` as pg_interval_add(x, text, ±1); else undefined. */
function runtimeArithmetic(op: string, left: Expr, right: Expr, pos: number): Expr | undefined {
  const r = runtimeInterval(right);
  const l = op === "+" && !r ? runtimeInterval(left) : undefined;
  if (!r && !l) return undefined;
  const sign = op === "-" ? -1 : 1;
  const args = [r ? left : right, (r ?? l)!, number(sign, pos)];
  return { kind: "call", pos, name: "pg_interval_add", args, distinct: false, star: false };
}

/**
 * `interval '1 day' * 3` and `2.5 * interval '1 hour'` (Grafana's and Metabase's relative ranges):
 * a duration literal times a number literal is the scaled duration literal, folded here so the
 * `+`/`-` around it reads it as any duration. As in PostgreSQL a fraction of a month spills into
 * days (30 a month) and a fraction of a day into time (24 hours a day). Anything else, undefined.
 */
export function intervalScale(op: string, left: Expr, right: Expr, pos: number): Expr | undefined {
  if (op !== "*") return undefined;
  const l = durationLiteral(left), r = durationLiteral(right);
  const d = l ?? r;
  if (!d || (l && r)) return undefined;
  const other = l ? right : left;
  const factor = numberLiteral(other);
  const interval = (expr: Expr): Expr => ({
    kind: "cast",
    pos,
    expr,
    type: { pos, name: "INTERVAL", text: "interval" },
    syntax: "colon",
  });
  if (factor === undefined) {
    // A column or parameter factor: scaled when the query runs, then added as any run-time interval.
    const text = durationText(l ? left : right);
    const args: Expr[] = [{ kind: "literal", pos, type: "string", value: text, text: `'${text}'` }, other];
    return interval({ kind: "call", pos, name: "pg_interval_scale", args, distinct: false, star: false });
  }
  const value = scaleDuration(d, factor);
  return interval({ kind: "literal", pos, type: "string", value, text: `'${value}'` });
}

/** The text of a duration literal (a cast of a string literal to INTERVAL). */
function durationText(e: Expr): string {
  return String(((e as CastExpr).expr as Literal).value);
}

/** A duration times a number as interval text; fractions spill into days (30 a month) and time. */
export function scaleDuration(d: PgDuration, factor: number): string {
  const months = d.months * factor;
  const wholeMonths = Math.trunc(months);
  const days = d.days * factor + (months - wholeMonths) * 30;
  const wholeDays = Math.trunc(days);
  const micros = Math.round(Number(d.micros) * factor + (days - wholeDays) * MICROS_PER_DAY);
  return `${wholeMonths} months ${wholeDays} days ${micros} microseconds`;
}

/** The value of a number literal (`3`, `-2`, `1.5`), or undefined. */
function numberLiteral(e: Expr): number | undefined {
  if (e.kind === "unary" && e.op === "-") {
    const v = numberLiteral(e.operand);
    return v === undefined ? undefined : -v;
  }
  if (e.kind !== "literal") return undefined;
  if (e.type === "int" || e.type === "double" || e.type === "float") return e.value as number;
  if (e.type === "long" || e.type === "decimal") return Number(e.value);
  return undefined;
}

function durationOrFail(e: Expr): PgDuration | undefined {
  const d = durationLiteral(e);
  if (d || e.kind !== "cast" || e.type.name !== "INTERVAL") return d;
  const lit = (e as CastExpr).expr;
  if (lit.kind === "literal" && (lit.type === "string" || lit.type === "char")) {
    throw syntaxError(
      `invalid interval: '${lit.value}' (expected PostgreSQL interval text such as '5 minutes')`,
      lit.pos,
    );
  }
  return undefined;
}

/** dateadd's unit: a one-letter CHAR literal. */
function text(value: string, pos: number): Literal {
  return { kind: "literal", pos, type: "char", value, text: `'${value}'` };
}

function number(n: number | bigint, pos: number): Literal {
  const v = BigInt(n);
  return v >= -2147483647n && v <= 2147483647n
    ? { kind: "literal", pos, type: "int", value: Number(v), text: String(v) }
    : { kind: "literal", pos, type: "long", value: v, text: String(v) };
}
