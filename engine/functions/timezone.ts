/**
 * Time zones: resolving a zone name or offset, the offset of a zone at an instant, and local
 * wall-clock time to UTC (spec/sql.md §14.4 `to_timezone`/`to_utc`, §8.5 `@tz`, SAMPLE BY TIME ZONE).
 *
 * IANA rules come from `Intl.DateTimeFormat`, which is slow (microseconds a call), so each zone
 * caches what it learns per UTC day: the offset at the day's start and, on the rare days that hold
 * a transition, the transition second and the offset after it. A per-row lookup is then a map
 * access. Offsets are whole seconds (old local mean times have odd seconds).
 */
import { SqlError } from "../base/errors.ts";
import { civilFromDays, floorDiv, TICKS_PER_SECOND, type TimeUnit } from "./datetime_calendar.ts";

/** The rules of one zone: a fixed offset, or a lookup by instant. */
export interface ZoneRules {
  /** The zone's canonical name or offset text, for messages. */
  readonly id: string;
  /** Set when the zone never changes offset. */
  readonly fixedOffsetSeconds: number | undefined;
  /** Offset from UTC, in seconds, in effect at the UTC instant `utcSeconds`. */
  offsetSecondsAt(utcSeconds: number): number;
}

/**
 * Abbreviations that are not IANA names. Java's `ZoneId.SHORT_IDS` (which QuestDB registers)
 * first, then the common summer-time abbreviations mapped to a zone that observes them, so
 * `CEST` follows Central European rules all year rather than a fixed +02:00 (§14.4 calls the
 * abbreviations ambiguous and discouraged).
 */
const ABBREVIATIONS: Record<string, string> = {
  ACT: "Australia/Darwin",
  AET: "Australia/Sydney",
  AGT: "America/Argentina/Buenos_Aires",
  ART: "Africa/Cairo",
  AST: "America/Anchorage",
  BET: "America/Sao_Paulo",
  // QuestDB's en-GB zone names read BST as British Summer Time (TimestampFormatCompilerTest#testTimeZone3)
  BST: "Europe/London",
  CAT: "Africa/Harare",
  CNT: "America/St_Johns",
  CST: "America/Chicago",
  CTT: "Asia/Shanghai",
  EAT: "Africa/Addis_Ababa",
  ECT: "Europe/Paris",
  IET: "America/Indiana/Indianapolis",
  IST: "Asia/Kolkata",
  JST: "Asia/Tokyo",
  MIT: "Pacific/Apia",
  NET: "Asia/Yerevan",
  NST: "Pacific/Auckland",
  PLT: "Asia/Karachi",
  PNT: "America/Phoenix",
  PRT: "America/Puerto_Rico",
  PST: "America/Los_Angeles",
  SST: "Pacific/Guadalcanal",
  VST: "Asia/Ho_Chi_Minh",
  // QuestDB matches EST among its locale's zone names, which gives New York's rules: July is
  // -04:00 (TimestampAtTimeZoneTest#testBareColumnOperand), not Java's fixed SHORT_IDS -05:00.
  EST: "America/New_York",
  MST: "-07:00",
  HST: "-10:00",
  CEST: "CET",
  EEST: "EET",
  WEST: "WET",
  EDT: "America/New_York",
  CDT: "America/Chicago",
  MDT: "America/Denver",
  PDT: "America/Los_Angeles",
  AKST: "America/Anchorage",
  AKDT: "America/Anchorage",
  MSK: "Europe/Moscow",
  AEST: "Australia/Sydney",
  AEDT: "Australia/Sydney",
  NZST: "Pacific/Auckland",
  NZDT: "Pacific/Auckland",
  HKT: "Asia/Hong_Kong",
  SGT: "Asia/Singapore",
  KST: "Asia/Seoul",
};

const FIXED_UTC: ZoneRules = fixedZone("UTC", 0);
const ZONE_CACHE = new Map<string, ZoneRules | null>();
const OFFSET_RE = /^(?:UTC|GMT|UT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;

/**
 * Parses a fixed offset: `Z`, `UTC`, `GMT`, `+02:00`, `+0200`, `+02`, `-8`, `UTC+01:00`.
 * Returns seconds east of UTC, or undefined when the text is not an offset.
 */
export function parseOffsetSeconds(text: string): number | undefined {
  const t = text.trim();
  if (/^(Z|UTC|GMT|UT)$/i.test(t)) return 0;
  const m = OFFSET_RE.exec(t);
  if (!m) return undefined;
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 18 || minutes > 59) return undefined;
  const seconds = hours * 3600 + minutes * 60;
  return m[1] === "-" ? -seconds : seconds;
}

/** parseOffsetSeconds that also takes QuestDB's unsigned two-digit hour ('08:00', '0800': east). */
export function parseHourOffsetSeconds(text: string): number | undefined {
  return parseOffsetSeconds(/^\d\d/.test(text) ? "+" + text : text);
}

/** Resolves a zone name, abbreviation or offset; undefined when unknown. Results are cached. */
export function resolveTimeZone(tz: string): ZoneRules | undefined {
  const cached = ZONE_CACHE.get(tz);
  if (cached !== undefined) return cached ?? undefined;
  const rules = resolveUncached(tz);
  if (ZONE_CACHE.size > 10_000) ZONE_CACHE.clear(); // names come from user text: bound the cache
  ZONE_CACHE.set(tz, rules ?? null);
  return rules;
}

/** Like resolveTimeZone, but an unknown zone is an error (`invalid timezone: <tz>`). */
export function requireTimeZone(tz: string, position = -1): ZoneRules {
  const rules = resolveTimeZone(tz);
  if (!rules) throw new SqlError(`invalid timezone: ${tz}`, position);
  return rules;
}

/** True when `tz` names a zone, abbreviation or offset this module understands. */
export function isValidTimeZone(tz: string): boolean {
  return resolveTimeZone(tz) !== undefined;
}

/** Offset of zone `tz` at the UTC instant `utcMicros`, in microseconds. Throws on unknown zones. */
export function tzOffsetMicros(tz: string, utcMicros: bigint): bigint {
  const rules = requireTimeZone(tz);
  return BigInt(rules.offsetSecondsAt(Number(floorDiv(utcMicros, 1_000_000n)))) * 1_000_000n;
}

/** The UTC instant of local wall-clock time `localMicros` in zone `tz` (see localToUtcTicks). */
export function localToUtc(tz: string, localMicros: bigint): bigint {
  return localToUtcTicks(requireTimeZone(tz), localMicros, "us");
}

/** UTC instant → local wall-clock time in the same unit (`to_timezone`). */
export function utcToLocalTicks(rules: ZoneRules, t: bigint, unit: TimeUnit): bigint {
  const fixed = rules.fixedOffsetSeconds;
  const tps = TICKS_PER_SECOND[unit];
  if (fixed !== undefined) return t + BigInt(fixed) * tps;
  return t + BigInt(rules.offsetSecondsAt(Number(floorDiv(t, tps)))) * tps;
}

/**
 * Local wall-clock time → UTC instant (`to_utc`), as Java's ZonedDateTime and QuestDB resolve
 * it: in an overlap (clocks set back) the earlier offset wins, i.e. the earlier instant; in a gap
 * (clocks set forward) the offset before the transition is used, which moves the time forward by
 * the gap's length (02:30 in a 02:00→03:00 gap becomes 03:30).
 */
export function localToUtcTicks(rules: ZoneRules, t: bigint, unit: TimeUnit): bigint {
  const fixed = rules.fixedOffsetSeconds;
  const tps = TICKS_PER_SECOND[unit];
  if (fixed !== undefined) return t - BigInt(fixed) * tps;
  const local = Number(floorDiv(t, tps));
  return t - BigInt(localOffsetSeconds(rules, local)) * tps;
}

/** The offset to subtract from a local time (in seconds) to get UTC; see localToUtcTicks. */
export function localOffsetSeconds(rules: ZoneRules, localSeconds: number): number {
  if (rules.fixedOffsetSeconds !== undefined) return rules.fixedOffsetSeconds;
  // Offsets never exceed a day, and zones never change twice within two days, so the offsets a
  // day either side bracket the only transition that can matter.
  const before = rules.offsetSecondsAt(localSeconds - 86400);
  const after = rules.offsetSecondsAt(localSeconds + 86400);
  if (before === after) return before;
  const beforeValid = rules.offsetSecondsAt(localSeconds - before) === before;
  const afterValid = rules.offsetSecondsAt(localSeconds - after) === after;
  return afterValid && !beforeValid ? after : before;
}

function resolveUncached(tz: string): ZoneRules | undefined {
  const name = tz.trim();
  if (name === "") return undefined;
  // QuestDB's offset parser also takes an unsigned two-digit hour ('08:00', '0800').
  const offset = parseHourOffsetSeconds(name);
  if (offset !== undefined) return offset === 0 ? FIXED_UTC : fixedZone(name, offset);
  // Abbreviations first: ICU also knows EST, MST and HST, as fixed offsets.
  const alias = ABBREVIATIONS[name.toUpperCase()];
  if (alias !== undefined) return resolveUncached(alias);
  return intlZone(name);
}

function fixedZone(id: string, offsetSeconds: number): ZoneRules {
  return { id, fixedOffsetSeconds: offsetSeconds, offsetSecondsAt: () => offsetSeconds };
}

function intlZone(name: string): ZoneRules | undefined {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat("en-US", {
      timeZone: name,
      hourCycle: "h23",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    return undefined;
  }
  const id = fmt.resolvedOptions().timeZone;
  if (id === "UTC" || id === "Etc/UTC" || id === "Etc/GMT") return FIXED_UTC;
  return new IntlZoneRules(id, fmt);
}

/** Per UTC day: [offset] when constant, [offsetBefore, transitionSecond, offsetAfter] otherwise. */
type DayInfo = number[];

const DAY_CACHE_MAX = 200_000;
const DATE_MS_MAX = 8.64e15;

class IntlZoneRules implements ZoneRules {
  readonly fixedOffsetSeconds = undefined;
  private readonly days = new Map<number, DayInfo>();
  private lastDay = NaN;
  private lastInfo: DayInfo = [0];

  constructor(readonly id: string, private readonly fmt: Intl.DateTimeFormat) {}

  offsetSecondsAt(utcSeconds: number): number {
    const day = Math.floor(utcSeconds / 86400);
    let info: DayInfo | undefined;
    if (day === this.lastDay) {
      info = this.lastInfo;
    } else {
      info = this.days.get(day);
      if (info === undefined) {
        info = this.learnDay(day);
        if (this.days.size >= DAY_CACHE_MAX) this.days.clear();
        this.days.set(day, info);
      }
      this.lastDay = day;
      this.lastInfo = info;
    }
    return info.length === 1 || utcSeconds < info[1] ? info[0] : info[2];
  }

  private learnDay(day: number): DayInfo {
    let lo = day * 86400;
    let hi = lo + 86400;
    const start = this.exactOffset(lo);
    const end = this.exactOffset(hi);
    if (start === end) return [start];
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.exactOffset(mid) === start) lo = mid;
      else hi = mid;
    }
    return [start, hi, end];
  }

  /** Asks Intl for the local clock at `utcSeconds` and derives the offset from it. */
  private exactOffset(utcSeconds: number): number {
    const s = Math.min(Math.max(utcSeconds, -DATE_MS_MAX / 1000), DATE_MS_MAX / 1000);
    let day = 0;
    let localSecs = 0;
    for (const p of this.fmt.formatToParts(new Date(s * 1000))) {
      if (p.type === "day") day = Number(p.value);
      else if (p.type === "hour") localSecs += Number(p.value) * 3600;
      else if (p.type === "minute") localSecs += Number(p.value) * 60;
      else if (p.type === "second") localSecs += Number(p.value);
    }
    const utcDay = Math.floor(s / 86400);
    const utcSecs = s - utcDay * 86400;
    let diff = localSecs - utcSecs;
    if (day !== civilFromDays(utcDay)[2]) diff += diff < 0 ? 86400 : -86400;
    return diff;
  }
}
