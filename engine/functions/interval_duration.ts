/**
 * Durations and periods of interval strings (spec/sql.md §8.2, §8.3, Appendix A): `;2h`,
 * `;1h30m`, `;1_500T`, the `;P` of repeating intervals, and `$today + 2bd` arithmetic.
 *
 * Units: `y` years, `M` months, `w` weeks, `d`/`D` days, `h`, `m`, `s`, `T` ms, `u` µs, `n` ns;
 * `bd` business days in variable arithmetic only. Calendar units add calendar-wise and clamp
 * the day of month (Jan 31 + 1M = Feb 29).
 */
import {
  addMonths,
  dayOfWeek,
  NANOS_PER_TICK,
  splitDay,
  TICKS_PER_DAY,
  type TimeUnit,
} from "./datetime_calendar.ts";

/** One `<count><unit>` term; `unit` is the letter(s) as written (`bd` for business days). */
export interface DurationTerm {
  count: number;
  unit: string;
}

/** A signed sum of terms. */
export interface Duration {
  negative: boolean;
  terms: DurationTerm[];
}

const NANOS: Readonly<Record<string, bigint>> = {
  w: 604_800_000_000_000n,
  d: 86_400_000_000_000n,
  D: 86_400_000_000_000n,
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: 1_000_000_000n,
  T: 1_000_000n,
  u: 1_000n,
  n: 1n,
};

const TERM_RE = /(\d[\d_]*)(bd|[yMwdDhmsTun])/gy;

/**
 * Parses `[-]<n><unit>[<n><unit>…]`; underscores may separate digits. `allowBusinessDays`
 * admits `bd` (variable arithmetic only). Undefined when the text is not a duration.
 */
export function parseDuration(text: string, allowBusinessDays = false): Duration | undefined {
  let s = text.trim();
  const negative = s.startsWith("-");
  if (negative || s.startsWith("+")) s = s.slice(1);
  if (s === "") return undefined;
  const terms: DurationTerm[] = [];
  TERM_RE.lastIndex = 0;
  let end = 0;
  for (let m = TERM_RE.exec(s); m !== null; m = TERM_RE.exec(s)) {
    if (m[2] === "bd" && !allowBusinessDays) return undefined;
    const count = Number(m[1].replaceAll("_", ""));
    if (!Number.isSafeInteger(count)) return undefined;
    terms.push({ count, unit: m[2] });
    end = TERM_RE.lastIndex;
  }
  return end === s.length && terms.length > 0 ? { negative, terms } : undefined;
}

/** Adds (or, with `sign` −1, subtracts) a duration to a tick value of `unit`. */
export function addDuration(t: bigint, d: Duration, unit: TimeUnit, sign = 1): bigint {
  const s = d.negative ? -sign : sign;
  let v = t;
  for (const term of d.terms) v = addTerm(v, term.count * s, term.unit, unit);
  return v;
}

/** Adds `count` of one unit (negative counts subtract). */
export function addTerm(t: bigint, count: number, letter: string, unit: TimeUnit): bigint {
  if (letter === "y") return addMonths(t, count * 12, unit);
  if (letter === "M") return addMonths(t, count, unit);
  if (letter === "bd") return addBusinessDays(t, count, unit);
  return t + (NANOS[letter] * BigInt(count)) / BigInt(NANOS_PER_TICK[unit]);
}

/**
 * Moves by whole weekdays (§8.5 `bd`): Saturdays and Sundays are skipped, and from a weekend
 * `+1bd` lands on the next Monday (`-1bd` on the previous Friday).
 */
export function addBusinessDays(t: bigint, count: number, unit: TimeUnit): bigint {
  const perDay = TICKS_PER_DAY[unit];
  let [days] = splitDay(t, unit);
  const start = days;
  const step = count < 0 ? -1 : 1;
  for (let left = Math.abs(count); left > 0;) {
    days += step;
    if (dayOfWeek(days) <= 5) left--;
  }
  return t + BigInt(days - start) * perDay;
}

/** A repeating-interval period (§8.3): one signed `<n><unit>`, units s m h d w M y (T u n too). */
export function parsePeriod(text: string): DurationTerm | undefined {
  const m = /^([+-]?)(\d[\d_]*)([smhdwMyTun])$/.exec(text.trim());
  if (!m) return undefined;
  const count = Number(m[2].replaceAll("_", ""));
  if (!Number.isSafeInteger(count)) return undefined;
  return { count: m[1] === "-" ? -count : count, unit: m[3] };
}
