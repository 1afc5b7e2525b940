/**
 * to_timezone(ts, 'zone') and to_utc(ts, 'zone') with a constant zone on µs timestamps, for the
 * batch loops (batch_expr.ts): the row path (timezone.ts utcToLocalTicks / localToUtcTicks) asks
 * the zone per row, with a BigInt round trip; here the offset is kept per UTC day (to_timezone)
 * or local day (to_utc) while the zone's offset holds over the span the row path would consult,
 * and rows of other days (a transition near) take the row path's own arithmetic.
 *
 * A zone's rules hold at most one transition per UTC day (timezone.ts DayInfo), so equal offsets
 * at a day's first and last second mean the offset holds all day.
 */
import { localOffsetSeconds, type ZoneRules } from "../../functions/timezone.ts";

const DAY_S = 86400;
const US = 1_000_000;

/** The offset, in seconds, over the whole UTC day `day`, or undefined when it changes in it. */
function dayOffset(rules: ZoneRules, day: number): number | undefined {
  const first = rules.offsetSecondsAt(day * DAY_S);
  return rules.offsetSecondsAt(day * DAY_S + DAY_S - 1) === first ? first : undefined;
}

/** t (µs, not NULL) shifted as to_timezone (`toLocal`) or to_utc does in `rules`. */
export function zoneShiftFn(rules: ZoneRules, toLocal: boolean): (t: number) => number {
  const fixed = rules.fixedOffsetSeconds;
  if (fixed !== undefined) return toLocal ? (t) => t + fixed * US : (t) => t - fixed * US;
  // The current day's bounds (µs) and its offset (µs); an empty span at first.
  let lo = 0, hi = -1, off = 0;
  if (toLocal) {
    return (t) => {
      if (t >= lo && t < hi) return t + off;
      const sec = Math.floor(t / US);
      const day = Math.floor(sec / DAY_S);
      const o = dayOffset(rules, day);
      if (o === undefined) return t + rules.offsetSecondsAt(sec) * US;
      lo = day * DAY_S * US;
      hi = lo + DAY_S * US;
      off = o * US;
      return t + off;
    };
  }
  return (t) => {
    if (t >= lo && t < hi) return t - off;
    const sec = Math.floor(t / US);
    const day = Math.floor(sec / DAY_S);
    // localOffsetSeconds reads the offsets a day either side of the local second: where the
    // three UTC days around its day hold one offset, every second of the day gets that offset.
    const o = dayOffset(rules, day);
    if (o === undefined || dayOffset(rules, day - 1) !== o || dayOffset(rules, day + 1) !== o) {
      return t - localOffsetSeconds(rules, sec) * US;
    }
    lo = day * DAY_S * US;
    hi = lo + DAY_S * US;
    off = o * US;
    return t - off;
  };
}
