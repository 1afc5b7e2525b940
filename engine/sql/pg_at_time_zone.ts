/**
 * `x AT TIME ZONE zone` as QuestDB reads it: always `to_timezone(x, zone)`, the wall clock of the
 * instant `x` in `zone`, whatever the operand (TimestampAtTimeZoneTest: a column, a cast, an earlier
 * AT TIME ZONE alike). PostgreSQL instead reads a `timestamp` operand as local time (`to_utc`);
 * QuestDB has no timestamptz type to tell the two apart, and its tests pin the first meaning.
 */
import type { Expr } from "./ast.ts";

/** The call `x AT TIME ZONE zone` stands for; `pos` is where AT is. */
export function atTimeZone(x: Expr, zone: Expr, pos: number): Expr {
  return { kind: "call", pos, name: "to_timezone", args: [x, zone], distinct: false, star: false };
}
