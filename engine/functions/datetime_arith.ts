/**
 * Date arithmetic and truncation (spec/sql.md §14.2): dateadd, datediff, date_trunc,
 * timestamp_floor, timestamp_ceil. Unit arguments that are constants are checked once at bind
 * time; non-constant units are read per row and give NULL when unknown.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import {
  constText,
  finerTimeArg,
  fn,
  intOf,
  isIntArg,
  isTextArg,
  noMatch,
  type TimeArg,
  timeArg,
} from "./datetime_args.ts";
import { TICKS_PER_SECOND, type TimeUnit } from "./datetime_calendar.ts";
import {
  addUnits,
  ceilUnit,
  floorStride,
  floorStrideFrom,
  isUnitLetter,
  parseStride,
  type Stride,
  truncate,
  truncUnit,
  unitsBetween,
} from "./datetime_units.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import {
  localToUtcTicks,
  parseHourOffsetSeconds,
  requireTimeZone,
  utcToLocalTicks,
  type ZoneRules,
} from "./timezone.ts";

function invalidUnit(text: string, pos: number): SqlError {
  return new SqlError(`invalid unit '${text}'`, pos);
}

/** Checks a constant unit letter at bind time; undefined when the unit is not constant. */
function constLetter(arg: BoundArg): string | null | undefined {
  const u = constText(arg);
  if (typeof u === "string" && !isUnitLetter(u)) throw invalidUnit(u, arg.pos);
  return u;
}

/** dateadd(unit, n, ts [, tz]) (§14.2): with tz the addition happens on local wall-clock time. */
function bindDateAdd(args: BoundArg[]): ScalarBinding | string {
  if (args.length < 3 || args.length > 4 || !isTextArg(args[0]) || !isIntArg(args[1])) {
    return noMatch("dateadd", args);
  }
  const ta = timeArg(args[2]);
  if (!ta || (args.length === 4 && !isTextArg(args[3]))) return noMatch("dateadd", args);
  if (args.length === 4) return bindDateAddTz(args, ta);
  constLetter(args[0]);
  const unit = ta.unit;
  return {
    returns: ta.type,
    argTypes: [args[0].type, args[1].type, ta.type],
    eval: ([u, n, t]) => {
      const count = intOf(n);
      if (u === null || count === null || t === null || !isUnitLetter(u as string)) return null;
      return addUnits(t as bigint, u as string, count, unit);
    },
  };
}

/**
 * dateadd with a time zone refuses what the three-argument form turns into NULL, as QuestDB's
 * TimestampAddWithTimezoneFunctionFactory does: a NULL stride ("`null` is not a valid stride", at
 * bind time when constant, else per row even for a NULL timestamp), a NULL or unknown zone and an
 * unknown period. Constant zone and period are checked at bind time, the zone first.
 */
function bindDateAddTz(args: BoundArg[], ta: TimeArg): ScalarBinding {
  const [period, stride, , tzArg] = args;
  const { type, unit } = ta;
  const constPeriod = period.constant ? ((period.value ?? null) as string | null) : undefined;
  const constTz = tzArg.constant ? ((tzArg.value ?? null) as string | null) : undefined;
  const bound = constPeriod !== undefined && constTz !== undefined;
  let zone: ZoneRules | undefined;
  if (bound) {
    zone = requireTimeZone(constTz ?? "", tzArg.pos);
    if (constPeriod === null || !isUnitLetter(constPeriod)) {
      throw new SqlError(`invalid time period [unit=${constPeriod ?? ""}]`, period.pos);
    }
    if (stride.constant && intOf(stride.value ?? null) === null) throw nullStride(stride.pos);
  }
  return {
    returns: type,
    argTypes: [period.type, stride.type, type, tzArg.type],
    eval: ([u, n, t, tz]) => {
      const count = intOf(n);
      if (bound) {
        if (count === null) throw nullStride(stride.pos);
        if (t === null) return null;
      } else {
        if (t === null) return null;
        if (count === null) throw nullStride(stride.pos);
        if (tz === null) throw new SqlError("NULL timezone", tzArg.pos);
      }
      const rules = zone ?? requireTimeZone(tz as string, tzArg.pos);
      if (u === null || !isUnitLetter(u as string)) {
        throw new SqlError(`invalid period [period=${u ?? ""}]`, period.pos);
      }
      const local = addUnits(utcToLocalTicks(rules, t as bigint, unit), u as string, count, unit);
      return localToUtcTicks(rules, local, unit);
    },
  };
}

function nullStride(pos: number): SqlError {
  return new SqlError("`null` is not a valid stride", pos);
}

/**
 * date_trunc(unit, ts, tz): truncates on the local wall-clock time of a constant zone and returns
 * the UTC instant of the local boundary, as QuestDB's DateTruncWithTimezoneFunctionFactory. The
 * unit must be a constant; a per-row zone is refused ("const expected").
 */
function bindDateTruncTz(args: BoundArg[]): ScalarBinding | string {
  const [unitArg, tsArg, tzArg] = args;
  const ta = timeArg(tsArg);
  if (!isTextArg(unitArg) || !unitArg.constant || !ta || !isTextArg(tzArg)) {
    return noMatch("date_trunc", args);
  }
  const text = constText(unitArg);
  if (text === null || text === undefined) throw invalidUnit("null", unitArg.pos);
  const word = truncUnit(text);
  if (word === undefined) throw invalidUnit(text, unitArg.pos);
  if (!tzArg.constant) throw new SqlError("const expected", tzArg.pos);
  const rules = requireTimeZone(constText(tzArg) ?? "", tzArg.pos);
  return {
    returns: ta.type,
    argTypes: [unitArg.type, ta.type, tzArg.type],
    eval: ([, t]) => {
      if (t === null) return null;
      const local = truncate(utcToLocalTicks(rules, t as bigint, ta.unit), word, ta.unit);
      return localToUtcTicks(rules, local, ta.unit);
    },
  };
}

/** datediff(unit, a, b) (§14.2): absolute whole units, both values in the finer unit. */
function bindDateDiff(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 3 || !isTextArg(args[0])) return noMatch("datediff", args);
  const a = timeArg(args[1]);
  const b = timeArg(args[2]);
  if (!a || !b) return noMatch("datediff", args);
  // An unknown unit is NULL, constant or not (TimestampDiffFunctionFactoryTest
  // #testInvalidConstantUnitReturnsLongNull), where dateadd refuses a constant one.
  const both = finerTimeArg(a, b);
  return {
    returns: T.LONG,
    argTypes: [args[0].type, both.type, both.type],
    eval: ([u, x, y]) => {
      if (u === null || x === null || y === null || !isUnitLetter(u as string)) return null;
      return unitsBetween(x as bigint, y as bigint, u as string, both.unit);
    },
  };
}

/** date_trunc(unit, ts) (§14.2). */
function bindDateTrunc(args: BoundArg[]): ScalarBinding | string {
  if (args.length === 3) return bindDateTruncTz(args);
  if (args.length !== 2 || !isTextArg(args[0])) return noMatch("date_trunc", args);
  const ta = timeArg(args[1]);
  if (!ta) return noMatch("date_trunc", args);
  const u = constText(args[0]);
  if (typeof u === "string" && truncUnit(u) === undefined) throw invalidUnit(u, args[0].pos);
  // DateTruncFunctionFactoryTest#testNullKind: a NULL constant unit is refused too.
  if (args[0].constant && (args[0].value ?? null) === null) throw invalidUnit("null", args[0].pos);
  return {
    returns: ta.type,
    argTypes: [args[0].type, ta.type],
    eval: ([w, t]) => {
      const word = w === null ? undefined : truncUnit(w as string);
      return word === undefined || t === null ? null : truncate(t as bigint, word, ta.unit);
    },
  };
}

/** A stride argument: parsed once when constant, per row (NULL when invalid) otherwise. */
function strideOf(arg: BoundArg): (v: Value) => Stride | undefined {
  const text = constText(arg);
  if (typeof text === "string") {
    const stride = parseStride(text);
    if (!stride) throw invalidUnit(text, arg.pos);
    return () => stride;
  }
  return (v) => (v === null ? undefined : parseStride(v as string));
}

/** timestamp_floor(stride, ts [, origin]) (§14.2). */
function bindTimestampFloor(args: BoundArg[]): ScalarBinding | string {
  if (args.length === 5) return bindTimestampFloorFromOffset(args);
  if (args.length < 2 || args.length > 3 || !isTextArg(args[0])) return noMatch("timestamp_floor", args);
  const ta = timeArg(args[1]);
  if (!ta || (args.length === 3 && !timeArg(args[2]))) return noMatch("timestamp_floor", args);
  // TimestampCeilFloorFunctionFactoryTest#testFloorNullKind: a NULL constant unit is refused.
  if (args[0].constant && (args[0].value ?? null) === null) throw invalidUnit("null", args[0].pos);
  const stride = strideOf(args[0]);
  const unit: TimeUnit = ta.unit;
  return {
    returns: ta.type,
    argTypes: args.length === 3 ? [args[0].type, ta.type, ta.type] : [args[0].type, ta.type],
    eval: ([s, t, origin]) => {
      const st = stride(s);
      if (!st || t === null) return null;
      if (args.length === 2) return floorStride(t as bigint, st, unit);
      // A NULL origin is the epoch (TimestampFloorFromFunctionFactoryTest#testNullFrom).
      return floorStrideFrom(t as bigint, st, (origin as bigint | null) ?? 0n, unit);
    },
  };
}

/**
 * timestamp_floor(stride, ts, from, offset, tz), QuestDB's TimestampFloorFromOffsetFunctionFactory
 * (what SAMPLE BY FROM/OFFSET/TIME ZONE becomes): floors the local time of `ts` in `tz` on a grid
 * starting at `from` (NULL: the epoch) plus `offset` ('hh:mm'), and returns that local time. A
 * floored value inside a DST gap moves to the bucket before it, unless the grid is day-aligned
 * with a unit the gaps cannot split.
 */
function bindTimestampFloorFromOffset(args: BoundArg[], utc = false): ScalarBinding | string {
  const name = utc ? "timestamp_floor_utc" : "timestamp_floor";
  if (args.length !== 5) return noMatch(name, args);
  const [strideArg, tsArg, fromArg, offsetArg, tzArg] = args;
  const ta = timeArg(tsArg);
  if (!isTextArg(strideArg) || !strideArg.constant || !ta || !timeArg(fromArg)) return noMatch(name, args);
  if (!isTextArg(offsetArg) || !isTextArg(tzArg)) return noMatch(name, args);
  const text = constText(strideArg);
  if (text === null || text === undefined) throw invalidUnit("null", strideArg.pos);
  const stride = parseStride(text);
  if (!stride) throw invalidUnit(text, strideArg.pos);
  // Nanosecond strides are valid too, on either timestamp type: a microsecond value floors in
  // nanoseconds and back (TimestampFloorFromOffsetFunctionFactoryTest#testNanoSecondsFloorWithStride).
  if (!"MywdhmsTUn".includes(stride.letter)) throw new SqlError("unexpected unit", strideArg.pos);
  const unit: TimeUnit = ta.unit;
  const offsetOf = (o: string | null, pos: number): bigint => {
    if (o === null) return 0n;
    const seconds = parseHourOffsetSeconds(o);
    if (seconds === undefined) throw new SqlError(`invalid offset: ${o}`, pos);
    return BigInt(seconds) * TICKS_PER_SECOND[unit];
  };
  const constOffset = offsetArg.constant ? offsetOf(constText(offsetArg) ?? null, offsetArg.pos) : undefined;
  const zoneOf = (z: string | null): ZoneRules | undefined =>
    z === null ? undefined : requireTimeZone(z, tzArg.pos);
  const constZone = tzArg.constant ? zoneOf(constText(tzArg) ?? null) : undefined;
  return {
    returns: ta.type,
    argTypes: [strideArg.type, ta.type, ta.type, offsetArg.type, tzArg.type],
    eval: ([, t, from, o, z]) => {
      if (t === null) return null;
      const origin = ((from as bigint | null) ?? 0n) +
        (constOffset ?? offsetOf(o as string | null, offsetArg.pos));
      const rules = tzArg.constant ? constZone : zoneOf(z as string | null);
      if (!rules) return floorStrideFrom(t as bigint, stride, origin, unit);
      const local = utcToLocalTicks(rules, t as bigint, unit);
      let floored = floorStrideFrom(local, stride, origin, unit);
      if (rules.fixedOffsetSeconds === undefined && !dayAligned(stride, origin, unit)) {
        // A local time the clocks skipped reads back later than itself: step back by the gap.
        const gap = utcToLocalTicks(rules, localToUtcTicks(rules, floored, unit), unit) - floored;
        if (gap !== 0n) floored = floorStrideFrom(floored - gap, stride, origin, unit);
      }
      return utc ? bucketToUtc(rules, floored, local - (t as bigint), unit) : floored;
    },
  };
}

/**
 * The UTC instant of a local bucket start, as QuestDB's TimestampFloorFromOffsetUtcFunctionFactory
 * answers its tests: the bucket keeps the offset of the value floored, so both passes of a repeated
 * hour stay distinct buckets; only when that lands before a spring-forward (the offset then was
 * smaller) does the zone's offset at the local bucket start decide.
 */
function bucketToUtc(rules: ZoneRules, floored: bigint, offset: bigint, unit: TimeUnit): bigint {
  const same = floored - offset;
  const offsetThen = utcToLocalTicks(rules, same, unit) - same;
  return offsetThen < offset ? localToUtcTicks(rules, floored, unit) : same;
}

/** QuestDB's canSkipDstGapCorrection: a day-aligned grid of a unit DST gaps (15 minutes and up) cannot split. */
function dayAligned(stride: Stride, origin: bigint, unit: TimeUnit): boolean {
  if (origin % (86_400n * TICKS_PER_SECOND[unit]) !== 0n) return false;
  const gapUnits: Record<string, number> = { m: 15, s: 900, T: 900_000, U: 900_000_000, n: 900_000_000_000 };
  const gap = gapUnits[stride.letter];
  return gap === undefined
    ? "Mywdh".includes(stride.letter)
    : gap % stride.count === 0 || stride.count % gap === 0;
}

/** timestamp_ceil(unit, ts) (§14.2): single units only. */
function bindTimestampCeil(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isTextArg(args[0])) return noMatch("timestamp_ceil", args);
  const ta = timeArg(args[1]);
  if (!ta) return noMatch("timestamp_ceil", args);
  const u = constText(args[0]);
  if (typeof u === "string" && (u.length !== 1 || !isUnitLetter(u))) throw invalidUnit(u, args[0].pos);
  if (args[0].constant && (args[0].value ?? null) === null) throw invalidUnit("null", args[0].pos);
  return {
    returns: ta.type,
    argTypes: [args[0].type, ta.type],
    eval: ([l, t]) => {
      if (l === null || t === null || (l as string).length !== 1 || !isUnitLetter(l as string)) return null;
      return ceilUnit(t as bigint, l as string, ta.unit);
    },
  };
}

/** §14.2 arithmetic and truncation functions. */
export const ARITH_FUNCTIONS: ScalarFunction[] = [
  fn("dateadd", bindDateAdd),
  fn("datediff", bindDateDiff),
  fn("date_trunc", bindDateTrunc),
  fn("timestamp_floor", bindTimestampFloor),
  fn("timestamp_floor_utc", (args) => bindTimestampFloorFromOffset(args, true)),
  fn("timestamp_ceil", bindTimestampCeil),
];
