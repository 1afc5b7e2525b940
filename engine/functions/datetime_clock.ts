/**
 * Clock functions (spec/sql.md §14.1) and the INTERVAL helpers of §14.2: now, now_ns,
 * systimestamp, systimestamp_ns, sysdate, today/yesterday/tomorrow, pg_postmaster_start_time,
 * interval, interval_start, interval_end.
 *
 * now() and the day intervals read the query clock (EvalContext.nowMicros), which is fixed for
 * the whole query, so they may be folded at bind time (the binder binds per execution and uses
 * the same clock for `$now` in interval strings). The sys* functions read the wall clock on
 * every call and are marked non-deterministic.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type { Interval, Value } from "../base/values.ts";
import { constText, fn, isTextArg, noMatch, timeArg } from "./datetime_args.ts";
import { floorDiv, TICKS_PER_DAY } from "./datetime_calendar.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import { localToUtcTicks, requireTimeZone, utcToLocalTicks, type ZoneRules } from "./timezone.ts";

/** Wall-clock time in microseconds, with sub-millisecond precision where the platform has it. */
export function wallClockMicros(): bigint {
  return BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000));
}

/** When this module loaded: the server start time of pg_postmaster_start_time(). */
const START_MICROS = wallClockMicros();

function clock(
  name: string,
  returns: typeof T.TIMESTAMP,
  read: (now: bigint) => Value,
  deterministic: boolean,
): ScalarFunction {
  return fn(name, (args) => {
    if (args.length !== 0) return noMatch(name, args);
    return {
      returns,
      deterministic,
      eval: (_a, ctx) => read(deterministic ? ctx.nowMicros : wallClockMicros()),
    };
  });
}

const US_PER_DAY = TICKS_PER_DAY.us;

/**
 * The UTC day (or the local day of `zone`, expressed in UTC) `shiftDays` away from the day
 * that contains `nowMicros`, as an inclusive interval (§14.1, §8.4).
 */
export function dayInterval(nowMicros: bigint, shiftDays: number, zone?: ZoneRules): Interval {
  if (!zone) {
    const lo = (floorDiv(nowMicros, US_PER_DAY) + BigInt(shiftDays)) * US_PER_DAY;
    return { lo, hi: lo + US_PER_DAY - 1n };
  }
  const local = utcToLocalTicks(zone, nowMicros, "us");
  const start = (floorDiv(local, US_PER_DAY) + BigInt(shiftDays)) * US_PER_DAY;
  return { lo: localToUtcTicks(zone, start, "us"), hi: localToUtcTicks(zone, start + US_PER_DAY, "us") - 1n };
}

function dayFunction(name: string, shiftDays: number): ScalarFunction {
  return fn(name, (args): ScalarBinding | string => {
    if (args.length === 0) {
      return {
        returns: T.INTERVAL,
        eval: (_a, ctx) => dayInterval(ctx.nowMicros, shiftDays),
      };
    }
    if (args.length !== 1 || !isTextArg(args[0])) return noMatch(name, args);
    const tz = constText(args[0]);
    const zone = typeof tz === "string" ? requireTimeZone(tz, args[0].pos) : undefined;
    return {
      returns: T.INTERVAL,
      eval: ([z], ctx) => {
        if (z === null) return null;
        return dayInterval(ctx.nowMicros, shiftDays, zone ?? requireTimeZone(z as string));
      },
    };
  });
}

function intervalFn(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !timeArg(args[0]) || !timeArg(args[1])) return noMatch("interval", args);
  return {
    returns: T.INTERVAL,
    argTypes: [T.TIMESTAMP, T.TIMESTAMP],
    eval: ([lo, hi]) => {
      if (lo === null || hi === null) return null;
      if ((lo as bigint) > (hi as bigint)) throw new SqlError("invalid interval boundaries");
      return { lo: lo as bigint, hi: hi as bigint };
    },
  };
}

function intervalBound(name: string, end: boolean): ScalarFunction {
  return fn(name, (args) => {
    if (args.length !== 1 || (args[0].type.tag !== "INTERVAL" && args[0].type.tag !== "NULL")) {
      return noMatch(name, args);
    }
    return {
      returns: T.TIMESTAMP,
      eval: ([i]) => (i === null ? null : end ? (i as Interval).hi : (i as Interval).lo),
    };
  });
}

/** §14.1 clock functions and the §14.2 interval helpers. */
export const CLOCK_FUNCTIONS: ScalarFunction[] = [
  clock("now", T.TIMESTAMP, (now) => now, true),
  clock("now_ns", T.TIMESTAMP_NS, (now) => now * 1000n, true),
  clock("systimestamp", T.TIMESTAMP, (now) => now, false),
  clock("systimestamp_ns", T.TIMESTAMP_NS, (now) => now * 1000n, false),
  clock("sysdate", T.DATE, (now) => floorDiv(now, 1000n), false),
  clock("pg_postmaster_start_time", T.TIMESTAMP, () => START_MICROS, true),
  dayFunction("today", 0),
  dayFunction("yesterday", -1),
  dayFunction("tomorrow", 1),
  fn("interval", intervalFn),
  intervalBound("interval_start", false),
  intervalBound("interval_end", true),
];
