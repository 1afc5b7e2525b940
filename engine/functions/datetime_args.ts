/**
 * Argument handling shared by the date/time functions (spec/sql.md §14 preamble): which
 * argument types a "ts" parameter accepts, the unit it is evaluated in, and reading constant
 * text arguments (units, patterns, zones) once at bind time.
 */
import { type ColumnType, isIntegral, T, typeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type { TimeUnit } from "./datetime_calendar.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** How a "ts" argument is taken: the type the binder converts it to, and that type's unit. */
export interface TimeArg {
  type: ColumnType;
  unit: TimeUnit;
}

const TS_US: TimeArg = { type: T.TIMESTAMP, unit: "us" };
const TS_NS: TimeArg = { type: T.TIMESTAMP_NS, unit: "ns" };

/**
 * The §14 rule for "ts" arguments: TIMESTAMP_NS stays nanoseconds; TIMESTAMP, DATE (converted),
 * integers (microseconds) and NULL become TIMESTAMP; text is parsed as TIMESTAMP, or as
 * TIMESTAMP_NS when it is a constant with more than six fraction digits. Undefined for types
 * that cannot be a timestamp.
 */
export function timeArg(arg: BoundArg): TimeArg | undefined {
  switch (arg.type.tag) {
    case "TIMESTAMP_NS":
      return TS_NS;
    case "TIMESTAMP":
    case "DATE":
    case "NULL":
      return TS_US;
    case "STRING":
    case "VARCHAR":
    case "SYMBOL":
      return arg.constant && typeof arg.value === "string" && hasNanoFraction(arg.value) ? TS_NS : TS_US;
    default:
      return isIntegral(arg.type) ? TS_US : undefined;
  }
}

/** Like timeArg, but DATE keeps its own unit (to_str prints a DATE as it is). */
export function timeArgKeepingDate(arg: BoundArg): TimeArg | undefined {
  return arg.type.tag === "DATE" ? { type: T.DATE, unit: "ms" } : timeArg(arg);
}

/** The finer of two time arguments (datediff compares both in one unit). */
export function finerTimeArg(a: TimeArg, b: TimeArg): TimeArg {
  return a.unit === "ns" || b.unit === "ns" ? TS_NS : TS_US;
}

/** The time argument of a result type (TIMESTAMP or TIMESTAMP_NS). */
export function timeArgOfUnit(unit: TimeUnit): TimeArg {
  return unit === "ns" ? TS_NS : TS_US;
}

/** Whether date text has more than six fraction digits (QuestDB reads it as TIMESTAMP_NS). */
export function hasNanoFraction(text: string): boolean {
  const m = /\.(\d+)/.exec(text);
  return m !== null && m[1].length > 6;
}

/** True for STRING, VARCHAR, SYMBOL, CHAR and NULL: types a unit, pattern or zone can come in. */
export function isTextArg(arg: BoundArg): boolean {
  const t = arg.type.tag;
  return t === "STRING" || t === "VARCHAR" || t === "SYMBOL" || t === "CHAR" || t === "NULL";
}

/** True for integral types and NULL: where a count is expected. */
export function isIntArg(arg: BoundArg): boolean {
  return isIntegral(arg.type) || arg.type.tag === "NULL";
}

/** The text of a constant argument; null for a NULL constant; undefined when not constant. */
export function constText(arg: BoundArg): string | null | undefined {
  if (!arg.constant) return undefined;
  const v = arg.value ?? null;
  return typeof v === "string" ? v : null;
}

/** A scalar value as a JS number (integers of any width); NULL stays null. */
export function intOf(v: Value): number | null {
  if (v === null) return null;
  return typeof v === "bigint" ? Number(v) : (v as number);
}

/** QuestDB's message for argument types a function does not take. */
export function noMatch(name: string, args: BoundArg[]): string {
  return `there is no matching function \`${name}\` with the argument types: (${
    args.map((a) => typeName(a.type)).join(", ")
  })`;
}

/** Builds a ScalarFunction from a name and a bind. */
export function fn(name: string, bind: (args: BoundArg[]) => ScalarBinding | string): ScalarFunction {
  return { name, bind };
}

/**
 * A cache for per-row compiled text arguments (patterns, zones) when they are not constant:
 * most columns repeat a handful of values, so remembering the last few avoids recompiling.
 */
export function memo<R>(compile: (text: string) => R, capacity = 64): (text: string) => R {
  const cache = new Map<string, R>();
  return (text) => {
    let v = cache.get(text);
    if (v === undefined) {
      v = compile(text);
      if (cache.size >= capacity) cache.clear();
      cache.set(text, v);
    }
    return v;
  };
}
