/**
 * Timestamp text and epoch conversions for the wire: PostgreSQL's `timestamp` text form
 * (`2024-01-01 12:00:00.123456`, spec/protocols.md §12.8) and its binary form (µs since
 * 2000-01-01). Kept here rather than borrowed from the engine's ISO formatter because the
 * wire form differs (space separator, no zone) and parsing must accept what drivers send
 * (`+00`, `+05:30`, `Z`, `T`, fewer fraction digits, date only).
 */
import { formatTicks } from "../../engine/mod.ts";

/** Microseconds from 1970-01-01 to 2000-01-01, the PostgreSQL binary epoch. */
export const PG_EPOCH_MICROS = 946_684_800_000_000n;
const MICROS_PER_DAY = 86_400_000_000n;

/** Days since 1970-01-01 → [year, month 1-12, day 1-31] (proleptic Gregorian). */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** [year, month, day] → days since 1970-01-01. */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The engine's ISO text (`2024-01-01T12:00:00.123456Z`) in the wire's form: a space, no zone. */
function wireText(iso: string): string {
  const t = iso.indexOf("T");
  return iso.slice(0, t) + " " + iso.slice(t + 1, iso.length - 1);
}

/** Wire text of a TIMESTAMP (µs): always 6 fraction digits, no zone (§12.8). */
export function formatTimestampText(micros: bigint): string {
  return wireText(formatTicks(micros, "us"));
}

/** Wire text of a DATE (ms): 3 fraction digits. */
export function formatDateText(millis: bigint): string {
  return wireText(formatTicks(millis, "ms"));
}

const TIMESTAMP_TEXT =
  /^\s*(-?\d{4,})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?(?::?\d{2})?)?\s*$/i;

/**
 * Parses the timestamp texts drivers send (ISO or PostgreSQL style, optional zone) into
 * µs since the epoch, UTC; undefined when the text is not a timestamp. A zone offset is
 * applied; without one the text is UTC (spec/protocols.md §12.8: never the client's TimeZone).
 */
export function parseTimestampText(text: string): bigint | undefined {
  const m = TIMESTAMP_TEXT.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
    return undefined;
  }
  const days = daysFromCivil(Number(y), month, day);
  let micros = BigInt(days) * MICROS_PER_DAY + BigInt((hour * 3600 + minute * 60 + second) * 1_000_000) +
    BigInt((frac + "000000").slice(0, 6));
  if (zone && zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replaceAll(":", "");
    const offset = Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4) || "0") * 60 +
      Number(digits.slice(4, 6) || "0");
    micros += BigInt((zone[0] === "-" ? 1 : -1) * offset * 1_000_000);
  }
  return micros;
}
