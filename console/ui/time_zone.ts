/**
 * The display zone for timestamp columns (spec/console.md §5 gap 3, P1): UTC (the default and
 * what the server sends), the browser's zone, or any IANA zone. Only the grid's display
 * changes — the SQL, copies and exports stay in UTC — and the header always names the zone,
 * so a shifted time is never mistaken for UTC. The fractional digits (micro- or nanoseconds)
 * are kept exactly as the server sent them; only the date, time and offset change.
 */
import { Store } from "./store.ts";

const KEY = "ui.timezone";
export const LOCAL = "local";

function initial(): string {
  try {
    return localStorage.getItem(KEY) || "UTC";
  } catch {
    return "UTC";
  }
}

export const timeZoneStore = new Store<string>(initial());

export function setTimeZone(zone: string): void {
  try {
    localStorage.setItem(KEY, zone);
  } catch { /* not remembered */ }
  timeZoneStore.set(zone);
}

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The IANA name a setting stands for. */
export function zoneName(zone: string): string {
  return zone === LOCAL ? browserZone() : zone;
}

export function allZones(): string[] {
  // deno-lint-ignore no-explicit-any
  const supported = (Intl as any).supportedValuesOf?.("timeZone") as string[] | undefined;
  return supported ?? ["UTC", "Europe/London", "Europe/Berlin", "America/New_York", "Asia/Tokyo"];
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(zone, f);
  }
  return f;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?Z$/;
const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, "0");

/** `2024-01-01T00:00:00.123456Z` shown in `zone` as `2024-01-01T05:30:00.123456+05:30`. */
export function formatInZone(text: string, zone: string): string {
  const name = zoneName(zone);
  if (name === "UTC") return text;
  const m = ISO.exec(text);
  if (!m) return text;
  const epochS = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) / 1000;
  let parts: Record<string, string>;
  try {
    parts = Object.fromEntries(
      formatter(name).formatToParts(new Date(epochS * 1000)).map((p) => [p.type, p.value]),
    );
  } catch {
    return text; // an unknown zone name: show UTC rather than nothing
  }
  const localS =
    Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second) /
    1000;
  const offsetMin = Math.round((localS - epochS) / 60);
  const sign = offsetMin < 0 ? "-" : "+";
  const offset = `${sign}${pad(Math.trunc(Math.abs(offsetMin) / 60))}:${pad(Math.abs(offsetMin) % 60)}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${
    m[7] ?? ""
  }${offset}`;
}
