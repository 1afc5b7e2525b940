/**
 * pg_timezone_names and pg_timezone_abbrevs: DataGrip reads both on connect (`select name,
 * is_dst from pg_timezone_names union distinct select abbrev as name, is_dst from
 * pg_timezone_abbrevs`) to offer zones. The zones are the runtime's IANA zones (Intl), with
 * today's abbreviation and UTC offset; `utc_offset` is PostgreSQL's interval text
 * (`-05:00:00`), a string here since an interval is no value in this engine.
 */
import type { Value } from "../base/values.ts";
import { cols, defineRelation } from "./pg_catalog_define.ts";

/** Minutes east of UTC of `zone` at `at`, and its short name there. */
function zoneAt(zone: string, at: Date): { offset: number; abbrev: string } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    timeZoneName: "shortOffset",
  }).formatToParts(at);
  const gmt = parts.find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d+)(?::(\d+))?/.exec(gmt);
  const offset = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
  const short = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "short" })
    .formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? gmt;
  return { offset, abbrev: short.startsWith("GMT") && short !== "GMT" ? gmt.replace("GMT", "") : short };
}

function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${minutes < 0 ? "-" : ""}${hh}:${mm}:00`;
}

/** One row per zone: name, abbrev, utc_offset, is_dst (now ahead of the year's lowest offset). */
function zoneRows(): Value[][] {
  const now = new Date();
  const year = now.getUTCFullYear();
  return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")].map((zone) => {
    const { offset, abbrev } = zoneAt(zone, now);
    const standard = Math.min(
      zoneAt(zone, new Date(Date.UTC(year, 0, 1))).offset,
      zoneAt(zone, new Date(Date.UTC(year, 6, 1))).offset,
    );
    return [zone, abbrev, offsetText(offset), offset > standard];
  });
}

let cached: Value[][] | undefined;

export function registerZoneRelations(): void {
  defineRelation(
    "pg_catalog",
    "pg_timezone_names",
    cols("name abbrev utc_offset is_dst:BOOLEAN"),
    () => (cached ??= zoneRows()),
  );
  defineRelation("pg_catalog", "pg_timezone_abbrevs", cols("abbrev utc_offset is_dst:BOOLEAN"), () => {
    const seen = new Map<string, Value[]>();
    for (const [, abbrev, offset, dst] of (cached ??= zoneRows())) {
      if (!seen.has(abbrev as string)) seen.set(abbrev as string, [abbrev, offset, dst]);
    }
    return [...seen.values()];
  });
}
