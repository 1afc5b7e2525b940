/**
 * PostgreSQL's `x AT TIME ZONE zone` as QuestDB's zone functions.
 *
 * QuestDB's TIMESTAMP is what pgwire reports as `timestamp` (without time zone, the UTC wall
 * clock), and PostgreSQL gives the operator two meanings by the operand's type:
 * - `timestamp AT TIME ZONE z` reads the wall clock as local time in z and gives the instant
 *   (a timestamptz): QuestDB's `to_utc(x, z)`;
 * - `timestamptz AT TIME ZONE z` gives the wall clock in z (a timestamp): `to_timezone(x, z)`.
 * The engine has one TIMESTAMP type, so which one the operand is comes from how it is
 * written: a cast to timestamptz, now() and its SQL-standard siblings, to_timestamp(epoch)
 * and a to_utc(...) (an earlier AT TIME ZONE: `ts AT TIME ZONE 'UTC' AT TIME ZONE 'Europe/Berlin'`)
 * are timestamptz; everything else, columns included, is a timestamp.
 */
import type { Expr } from "./ast.ts";

/** Functions PostgreSQL types as timestamptz (by the argument count that does). */
const TIMESTAMPTZ_CALLS: Record<string, number> = {
  now: 0,
  current_timestamp: 0,
  transaction_timestamp: 0,
  statement_timestamp: 0,
  clock_timestamp: 0,
  to_timestamp: 1,
  to_utc: 2,
};

/** True when PostgreSQL would type `e` as timestamp with time zone. */
export function isTimestamptz(e: Expr): boolean {
  if (e.kind === "cast") return /^timestamptz$|^timestamp\s+with\s+time\s+zone$/i.test(e.type.text.trim());
  if (e.kind !== "call") return false;
  const name = e.name.toLowerCase().replace(/^pg_catalog\./, "");
  return TIMESTAMPTZ_CALLS[name] === e.args.length;
}

/** The call `x AT TIME ZONE zone` stands for; `pos` is where AT is. */
export function atTimeZone(x: Expr, zone: Expr, pos: number): Expr {
  return {
    kind: "call",
    pos,
    name: isTimestamptz(x) ? "to_timezone" : "to_utc",
    args: [x, zone],
    distinct: false,
    star: false,
  };
}
