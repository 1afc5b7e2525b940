/**
 * The session time zone of a pgwire connection (`SET TIME ZONE ...`, `SET TimeZone = ...`) and
 * how `timestamptz` values are shown in it. QuestDB's TIMESTAMP columns stay `timestamp`
 * (OID 1114, UTC wall clock, spec/protocols.md §12.7) for its clients; only results the query
 * itself types as timestamptz (time_zone_columns.ts) are sent as OID 1184, whose text carries
 * the session offset like Postgres (`2024-01-01 05:00:00-05`). Binary timestamptz is UTC µs
 * since 2000, the same bytes as timestamp. Zone rules come from the engine's timezone.ts.
 */
import { type ColumnMeta, type ColumnType, resolveTimeZone, T } from "../../engine/mod.ts";
import { formatTimestampText } from "./pg_time.ts";
import { PgError } from "./sqlstate.ts";

const INVALID_PARAMETER_VALUE = "22023";

/** The zone a session has until it sets one: what ParameterStatus TimeZone says at startup. */
export const DEFAULT_TIME_ZONE = "GMT";

/**
 * The zone a `SET TIME ZONE` value names, or null for `LOCAL` / `DEFAULT` (back to the
 * server's). `value` is the statement's text after TO/=, quotes removed. Numbers are hours
 * east of UTC as in Postgres (`SET TIME ZONE -5`). Unknown zones are 22023, Postgres's error.
 */
export function parseSessionTimeZone(value: string): string | null {
  const v = value.trim();
  const lower = v.toLowerCase();
  if (lower === "local" || lower === "default" || lower === "") return null;
  const hours = /^([+-])?\s*(\d{1,2})(?:\.(\d+))?$/.exec(v);
  if (hours) {
    const minutes = Math.round(Number(`0.${hours[3] ?? "0"}`) * 60);
    const text = `${hours[1] ?? "+"}${hours[2].padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
    if (resolveTimeZone(text)) return text;
  }
  const rules = resolveTimeZone(v);
  if (!rules) throw new PgError(INVALID_PARAMETER_VALUE, `invalid value for parameter "TimeZone": "${v}"`);
  // The canonical spelling when the zone database knows it (`america/new_york` → `America/New_York`).
  return /^[A-Za-z]/.test(rules.id) && rules.id.toLowerCase() === v.toLowerCase() ? rules.id : v;
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/** `+HH[:MM[:SS]]` as Postgres prints an offset (seconds east of UTC). */
function offsetText(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const a = Math.abs(seconds);
  let s = sign + pad2(Math.floor(a / 3600));
  if (a % 3600 !== 0) s += ":" + pad2(Math.floor(a / 60) % 60);
  if (a % 60 !== 0) s += ":" + pad2(a % 60);
  return s;
}

/**
 * Text of a timestamptz (UTC µs) in `zone`: local wall clock, fraction digits trimmed as
 * Postgres does, then the offset in effect at that instant (so DST shows: -04 in summer).
 */
export function formatTimestamptzText(utcMicros: bigint, zone: string): string {
  const rules = resolveTimeZone(zone) ?? resolveTimeZone("UTC")!;
  const utcSeconds = Number(
    (utcMicros - (((utcMicros % 1_000_000n) + 1_000_000n) % 1_000_000n)) / 1_000_000n,
  );
  const offset = rules.fixedOffsetSeconds ?? rules.offsetSecondsAt(utcSeconds);
  const local = formatTimestampText(utcMicros + BigInt(offset) * 1_000_000n).replace(/\.?0+$/, "");
  return local + offsetText(offset);
}

/**
 * Column types of timestamptz results: TIMESTAMP to the engine and the value encoders, but
 * registered here with the session zone so pgTypeOf reports OID 1184 and the text encoder
 * adds the offset. A WeakMap rather than a field keeps the engine's ColumnType untouched.
 */
const ZONED = new WeakMap<ColumnType, string>();

export function timestamptzType(zone: string): ColumnType {
  const t = { ...T.TIMESTAMP } as ColumnType;
  ZONED.set(t, zone);
  return t;
}

/** The session zone of a timestamptz result type; undefined for every other type. */
export function zoneOfType(t: ColumnType): string | undefined {
  return ZONED.get(t);
}

/**
 * The columns with the engine's timestamptz ones (casts to timestamptz,
 * engine/plan/timestamptz_columns.ts) retyped for the session zone; the same array when the
 * result has none.
 */
export function withSessionZone(columns: ColumnMeta[], zone: string): ColumnMeta[] {
  if (!columns.some((c) => c.timestamptz)) return columns;
  return columns.map((c) => c.timestamptz ? { ...c, type: timestamptzType(zone) } : c);
}
