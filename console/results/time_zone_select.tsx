/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/** The result toolbar's display-zone picker (test hook `timezone-select`); see ui/time_zone.ts. */
import { useStore } from "../ui/store.ts";
import { allZones, browserZone, LOCAL, setTimeZone, timeZoneStore } from "../ui/time_zone.ts";

export function TimeZoneSelect() {
  const zone = useStore(timeZoneStore);
  const zones = allZones().filter((z) => z !== "UTC");
  // A remembered zone this browser does not list still shows as selected.
  if (zone !== LOCAL && zone !== "UTC" && !zones.includes(zone)) zones.unshift(zone);
  return (
    <select
      class="timezone-select"
      data-testid="timezone-select"
      value={zone}
      title="Time zone for showing timestamps (queries and exports stay UTC)"
      onChange={(e) => setTimeZone((e.currentTarget as HTMLSelectElement).value)}
    >
      <option value="UTC">UTC</option>
      <option value={LOCAL}>Browser ({browserZone()})</option>
      {zones.map((z) => <option key={z} value={z}>{z}</option>)}
    </select>
  );
}
