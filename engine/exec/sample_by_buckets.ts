/**
 * SAMPLE BY bucket arithmetic (spec/sql.md §10.2): where the bucket holding a timestamp
 * starts and where the next one starts, for calendar alignment (epoch or FROM origin, WITH
 * OFFSET, TIME ZONE) and ALIGN TO FIRST OBSERVATION. Callers walk buckets with `next` and
 * find each bucket's last row by search, so a row's bucket is never computed row by row.
 */
import { addMonths, floorDiv } from "../functions/datetime_calendar.ts";
import { floorStride, floorStrideFrom } from "../functions/datetime_units.ts";
import { localToUtcTicks, resolveTimeZone, utcToLocalTicks, type ZoneRules } from "../functions/timezone.ts";
import type { SampleBySpec } from "../plan/plan_node.ts";

export interface Bucketer {
  /** Start of the bucket holding `ts` (UTC microseconds). */
  floor(ts: bigint): bigint;
  /** Start of the bucket after the one starting at `start`. */
  next(start: bigint): bigint;
  /** The first bucket of a FROM range (undefined without FROM). */
  readonly first?: bigint;
  /** The earliest row a FROM range keeps, when that is before `first` (a positive offset). */
  readonly rowsFrom?: bigint;
  /**
   * Set when every bucket has the same length: floor(t) = origin + floorDiv(t - origin,
   * stride) * stride for every t, so a caller may floor in its own arithmetic (sample_by_hash.ts
   * floors doubles: a bigint floor per bucket of a few rows cost more than the rest).
   */
  readonly grid?: { origin: bigint; stride: bigint };
}

const DAY = 86_400_000_000n;
const FIXED_MICROS: Record<string, bigint> = {
  U: 1n,
  T: 1000n,
  s: 1_000_000n,
  m: 60_000_000n,
  h: 3_600_000_000n,
  d: DAY,
  w: 7n * DAY,
};

/** Stride in microseconds for fixed units; undefined for months and years. */
export function fixedStrideMicros(spec: Pick<SampleBySpec, "stride" | "unit">): bigint | undefined {
  if (spec.unit === "n") {
    const us = BigInt(Math.floor(spec.stride / 1000));
    return us > 0n ? us : 1n;
  }
  const per = FIXED_MICROS[spec.unit];
  return per === undefined ? undefined : per * BigInt(spec.stride);
}

interface Grid {
  floor(x: bigint): bigint;
  next(x: bigint): bigint;
}

/** A grid of buckets counted from `origin` (undefined: the epoch, Mondays for weeks). */
function gridOf(spec: SampleBySpec, origin: bigint | undefined): Grid {
  const fixed = fixedStrideMicros(spec);
  if (fixed !== undefined) {
    const o = origin ?? (spec.unit === "w" ? -3n * DAY : 0n);
    return { floor: (x) => o + floorDiv(x - o, fixed) * fixed, next: (x) => x + fixed };
  }
  const stride = { count: spec.stride, letter: spec.unit };
  const months = spec.unit === "M" ? spec.stride : spec.stride * 12;
  return {
    floor: (
      x,
    ) => (origin === undefined || origin === 0n
      ? floorStride(x, stride, "us")
      : floorStrideFrom(x, stride, origin, "us")),
    next: (x) => addMonths(x, months, "us"),
  };
}

/** The zone's standard offset (the smaller of its January and July offsets) near `at`. */
function standardOffset(rules: ZoneRules, at: bigint): bigint {
  if (rules.fixedOffsetSeconds !== undefined) return BigInt(rules.fixedOffsetSeconds) * 1_000_000n;
  const secs = Number(floorDiv(at, 1_000_000n));
  const jan = rules.offsetSecondsAt(secs - (secs % 31_536_000));
  const jul = rules.offsetSecondsAt(secs - (secs % 31_536_000) + 15_768_000);
  return BigInt(Math.min(jan, jul)) * 1_000_000n;
}

/** FROM / TO (kept in microseconds in the spec) in the rows' own ticks. */
export function boundTicks(spec: SampleBySpec, us: bigint): bigint {
  return spec.nanos ? us * 1000n : us;
}

/** The fixed stride in the rows' own ticks (nanoseconds for a TIMESTAMP_NS timestamp). */
export function fixedStrideTicks(spec: SampleBySpec): bigint | undefined {
  const us = fixedStrideMicros(spec);
  return us === undefined || !spec.nanos ? us : us * 1000n;
}

/**
 * Builds the bucketer; `firstTs` is the first row's timestamp (FIRST OBSERVATION origin), in
 * the rows' ticks. A TIMESTAMP_NS timestamp is bucketed on its microsecond and the bucket
 * bounds scaled back, so a nanosecond row lands in the bucket its microsecond does.
 */
export function bucketerOf(spec: SampleBySpec, firstTs: bigint): Bucketer {
  if (!spec.nanos) return bucketerOfMicros(spec, firstTs);
  const us = bucketerOfMicros(spec, floorDiv(firstTs, 1000n));
  return {
    floor: (t) => us.floor(floorDiv(t, 1000n)) * 1000n,
    next: (s) => us.next(floorDiv(s, 1000n)) * 1000n,
    ...(us.first === undefined ? {} : { first: us.first * 1000n }),
    ...(us.rowsFrom === undefined ? {} : { rowsFrom: us.rowsFrom * 1000n }),
    // floorDiv(floorDiv(t, 1000) - o, s) = floorDiv(t - 1000 o, 1000 s): the grid scales.
    ...(us.grid === undefined
      ? {}
      : { grid: { origin: us.grid.origin * 1000n, stride: us.grid.stride * 1000n } }),
  };
}

/** The grid of a fixed stride counted from `origin` (gridOf's origin rule) shifted by `shift`. */
function fixedGrid(spec: SampleBySpec, origin: bigint | undefined, shift: bigint) {
  const fixed = fixedStrideMicros(spec);
  if (fixed === undefined) return undefined;
  return { origin: (origin ?? (spec.unit === "w" ? -3n * DAY : 0n)) + shift, stride: fixed };
}

function bucketerOfMicros(spec: SampleBySpec, firstTs: bigint): Bucketer {
  if (spec.alignFirstObservation) {
    const g = gridOf(spec, firstTs);
    return { floor: (t) => (t < firstTs ? firstTs : g.floor(t)), next: g.next };
  }
  const off = spec.offsetMicros;
  // Without FROM, weeks start on Mondays; an offset makes the grid the epoch's (a Thursday) plus
  // the offset, as QuestDB's floor with a non-zero origin (SampleByFillNullValueTest#
  // testFillNullDstBerlinFallBackWeekStrideWithOffset).
  const origin = spec.from ?? (spec.unit === "w" && off !== 0n ? 0n : undefined);
  const g = gridOf(spec, origin);
  const rules = spec.timeZone ? resolveTimeZone(spec.timeZone) : undefined;
  let b: Bucketer;
  if (!rules || (rules.fixedOffsetSeconds === 0)) {
    const grid = fixedGrid(spec, origin, off);
    b = {
      floor: (t) => g.floor(t - off) + off,
      next: (s) => g.next(s - off) + off,
      ...(grid ? { grid } : {}),
    };
  } else if (fixedStrideMicros(spec) !== undefined && fixedStrideMicros(spec)! < DAY) {
    // Sub-day strides use the zone's standard offset so buckets stay evenly spaced in UTC.
    const shift = standardOffset(rules, firstTs) - off;
    const grid = fixedGrid(spec, origin, -shift);
    b = {
      floor: (t) => g.floor(t + shift) - shift,
      next: (s) => g.next(s + shift) - shift,
      ...(grid ? { grid } : {}),
    };
  } else {
    // Day and longer strides follow local midnight (DST days are 23 or 25 hours long).
    const floorLocal = (local: bigint) => g.floor(local - off) + off;
    b = {
      floor: (t) => localToUtcTicks(rules, floorLocal(utcToLocalTicks(rules, t, "us")), "us"),
      next: (s) =>
        localToUtcTicks(rules, g.next(floorLocal(utcToLocalTicks(rules, s, "us")) - off) + off, "us"),
    };
  }
  if (spec.from === undefined) return b;
  // FROM is the origin: the first bucket starts there (shifted by the offset).
  const first = rules && rules.fixedOffsetSeconds !== 0
    ? localToUtcTicks(rules, spec.from + off, "us")
    : spec.from + off;
  // A row of [FROM, FROM + positive offset) lands in the first bucket, as QuestDB's floor with an
  // offset returns the offset for anything below it (SampleByFillTest#testFillFromPositiveOffsetAtFromBoundary).
  // The grid's arithmetic knows no clamp, so the clamped bucketer goes without it.
  if (off > 0n) {
    const rowsFrom = rules && rules.fixedOffsetSeconds !== 0
      ? localToUtcTicks(rules, spec.from, "us")
      : spec.from;
    return { floor: (t) => (t < first ? first : b.floor(t)), next: b.next, first, rowsFrom };
  }
  return { floor: b.floor, next: b.next, first, ...(b.grid ? { grid: b.grid } : {}) };
}
