/**
 * TIMESTAMP functions the batch expression compiler (batch_expr.ts) carries beyond the inlined
 * fields: extract(part FROM ts), the calendar field functions that depend on the day only
 * (week_of_year, days_in_month, is_leap_year, is_end_of_month) and dateadd with constant unit
 * and count. Day-only results come from the row path's own binding (`eval`) called once per
 * distinct day with the day's first microsecond, so they agree with it by construction; a run of
 * rows of one day costs a division and a comparison each.
 */
import type { Value } from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import type { EvalContext } from "../../functions/registry_types.ts";
import { FIXED_NANOS, isUnitLetter } from "../../functions/datetime_units.ts";
import { DAY_MICROS, dayOf } from "./batch_time.ts";

type Call = Extract<BoundExpr, { kind: "call" }>;

/** extract() parts that are one of the inlined field functions (batch_time.ts inlineField). */
export const EXTRACT_AS_FIELD: Record<string, string> = {
  year: "year",
  month: "month",
  day: "day",
  hour: "hour",
  minute: "minute",
  second: "second",
  isodow: "day_of_week",
};

/** extract() parts whose INT value depends on the day only. */
const DAY_ONLY_PARTS = new Set([
  "millennium",
  "century",
  "decade",
  "isoyear",
  "quarter",
  "week",
  "doy",
  "dow",
]);
/** Field functions (one TIMESTAMP argument) whose value depends on the day only. */
const DAY_ONLY_FNS = new Set(["days_in_month", "week_of_year", "is_leap_year", "is_end_of_month"]);

/** The constant text of an argument, or undefined. */
export function constText(e: BoundExpr): string | undefined {
  return e.kind === "const" && typeof e.value === "string" ? e.value : undefined;
}

/** No function carried here reads the context; the row path's eval signature wants one. */
const NO_CTX = {} as EvalContext;

/**
 * For a call whose value depends only on the day of its TIMESTAMP argument `at` (the others
 * constant): the per-row function of a non-NULL µs value, remembering the last day's value.
 * Undefined for any other call.
 */
export function dayOnlyFn(e: Call): { fn: (t: number) => Value; at: number } | undefined {
  let at = -1;
  if (e.name === "extract" && e.args.length === 2) {
    const part = constText(e.args[0])?.toLowerCase();
    if (!part || !DAY_ONLY_PARTS.has(part) || e.type.tag !== "INT") return undefined;
    at = 1;
  } else if (DAY_ONLY_FNS.has(e.name) && e.args.length === 1) at = 0;
  else return undefined;
  if (e.args[at].type.tag !== "TIMESTAMP") return undefined;
  const args: Value[] = e.args.map((a) => (a.kind === "const" ? a.value as Value : null));
  const evalRow = e.binding.eval;
  let lastDay = NaN, last: Value = null;
  const fn = (t: number): Value => {
    const d = dayOf(t);
    if (d !== lastDay) {
      lastDay = d;
      const a = args.slice();
      a[at] = BigInt(d) * BigInt(DAY_MICROS);
      last = evalRow(a, NO_CTX);
    }
    return last;
  };
  return { fn, at };
}

/**
 * dateadd(unit, n, ts) with constant unit and count on µs: the shift in µs for fixed units
 * (addUnits truncates nanoseconds toward zero), or a per-day shift for months and years (the
 * row path's eval on the day's first µs; the time of day is kept). Undefined for other forms;
 * `null` when the count is NULL (every row NULL).
 */
export function dateAddShift(
  e: Call,
): { fixed: number } | { perDay: (t: number) => number } | null | undefined {
  if (e.name !== "dateadd" || e.args.length !== 3 || e.type.tag !== "TIMESTAMP") return undefined;
  const [u, n, t] = e.args;
  const letter = constText(u);
  if (letter === undefined || !isUnitLetter(letter) || n.kind !== "const" || t.type.tag !== "TIMESTAMP") {
    return undefined;
  }
  if (n.value === null) return null;
  const count = typeof n.value === "bigint" ? Number(n.value) : n.value;
  if (typeof count !== "number" || !Number.isSafeInteger(count)) return undefined;
  if (letter !== "M" && letter !== "y") {
    const shift = (FIXED_NANOS[letter] * BigInt(count)) / 1000n;
    const x = Number(shift);
    return Number.isSafeInteger(x) ? { fixed: x } : undefined;
  }
  const evalRow = e.binding.eval;
  let lastDay = NaN, last = 0;
  const perDay = (x: number): number => {
    const d = dayOf(x);
    if (d !== lastDay) {
      lastDay = d;
      const start = BigInt(d) * BigInt(DAY_MICROS);
      const r = evalRow([letter, n.value as Value, start], NO_CTX);
      last = typeof r === "bigint" ? Number(r - start) : NaN;
    }
    return last;
  };
  return { perDay };
}
