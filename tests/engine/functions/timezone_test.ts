import assert from "node:assert/strict";
import { formatTicks } from "../../../engine/functions/format_value.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";
import {
  isValidTimeZone,
  localToUtc,
  localToUtcTicks,
  parseOffsetSeconds,
  requireTimeZone,
  tzOffsetMicros,
  utcToLocalTicks,
} from "../../../engine/functions/timezone.ts";

const ts = (s: string) => parseTimestamp(s, "us")!;
const fmt = (v: bigint) => formatTicks(v, "us");
const HOUR = 3_600_000_000n;

Deno.test("fixed offsets parse in every documented form", () => {
  assert.equal(parseOffsetSeconds("+02:00"), 7200);
  assert.equal(parseOffsetSeconds("+0200"), 7200);
  assert.equal(parseOffsetSeconds("+02"), 7200);
  assert.equal(parseOffsetSeconds("-08:00"), -28800);
  assert.equal(parseOffsetSeconds("UTC+01:30"), 5400);
  assert.equal(parseOffsetSeconds("GMT-5"), -18000);
  assert.equal(parseOffsetSeconds("Z"), 0);
  assert.equal(parseOffsetSeconds("UTC"), 0);
  assert.equal(parseOffsetSeconds("Europe/Berlin"), undefined);
  assert.equal(parseOffsetSeconds("+25:00"), undefined);
});

Deno.test("zones resolve from IANA names, offsets and abbreviations", () => {
  for (
    const z of [
      "Europe/Berlin",
      "europe/berlin",
      "UTC",
      "GMT",
      "Z",
      "+02:00",
      "-0800",
      "PST",
      "EST",
      "CET",
      "CEST",
      "EDT",
      "IST",
    ]
  ) {
    assert.ok(isValidTimeZone(z), z);
  }
  for (const z of ["Mars/Olympus", "", "XYZ", "+99"]) assert.ok(!isValidTimeZone(z), z);
  assert.equal(tzOffsetMicros("EST", ts("2024-07-01")), -4n * HOUR); // QuestDB: New York's rules
  assert.equal(tzOffsetMicros("MST", ts("2024-07-01")), -7n * HOUR);
  assert.equal(tzOffsetMicros("PST", ts("2024-07-01")), -7n * HOUR); // PST follows Los Angeles rules
  assert.equal(tzOffsetMicros("CEST", ts("2024-01-01")), 1n * HOUR);
});

Deno.test("tzOffsetMicros follows DST in Europe/Berlin and America/New_York", () => {
  assert.equal(tzOffsetMicros("Europe/Berlin", 1623167145000000n), 2n * HOUR);
  assert.equal(tzOffsetMicros("Europe/Berlin", ts("2021-01-15")), 1n * HOUR);
  // Berlin springs forward at 2021-03-28T01:00Z.
  assert.equal(tzOffsetMicros("Europe/Berlin", ts("2021-03-28T00:59:59.999999")), 1n * HOUR);
  assert.equal(tzOffsetMicros("Europe/Berlin", ts("2021-03-28T01:00")), 2n * HOUR);
  assert.equal(tzOffsetMicros("America/New_York", ts("2021-11-07T05:59:59")), -4n * HOUR);
  assert.equal(tzOffsetMicros("America/New_York", ts("2021-11-07T06:00")), -5n * HOUR);
  assert.equal(tzOffsetMicros("-08:00", 0n), -8n * HOUR);
});

Deno.test("localToUtc shifts gap times forward and takes the earlier offset in overlaps", () => {
  // Berlin gap: 02:00-03:00 local does not exist on 2021-03-28; 02:30 becomes 03:30 CEST.
  assert.equal(fmt(localToUtc("Europe/Berlin", ts("2021-03-28T02:30"))), "2021-03-28T01:30:00.000000Z");
  assert.equal(fmt(localToUtc("Europe/Berlin", ts("2021-03-28T01:59"))), "2021-03-28T00:59:00.000000Z");
  assert.equal(fmt(localToUtc("Europe/Berlin", ts("2021-03-28T03:00"))), "2021-03-28T01:00:00.000000Z");
  // Berlin overlap: 02:00-03:00 local happens twice on 2021-10-31; the summer offset wins.
  assert.equal(fmt(localToUtc("Europe/Berlin", ts("2021-10-31T02:30"))), "2021-10-31T00:30:00.000000Z");
  assert.equal(fmt(localToUtc("Europe/Berlin", ts("2021-10-31T03:00"))), "2021-10-31T02:00:00.000000Z");
  // Riga (EEST→EET) the same night: 03:00-04:00 local repeats.
  assert.equal(fmt(localToUtc("Europe/Riga", ts("2021-10-31T03:30"))), "2021-10-31T00:30:00.000000Z");
  assert.equal(fmt(localToUtc("Europe/Riga", ts("2021-10-31T04:00"))), "2021-10-31T02:00:00.000000Z");
  assert.equal(fmt(localToUtc("Europe/Riga", ts("2021-10-31T02:59"))), "2021-10-30T23:59:00.000000Z");
  // New York overlap and gap.
  assert.equal(fmt(localToUtc("America/New_York", ts("2021-11-07T01:30"))), "2021-11-07T05:30:00.000000Z");
  assert.equal(fmt(localToUtc("America/New_York", ts("2021-03-14T02:30"))), "2021-03-14T07:30:00.000000Z");
});

Deno.test("utc→local→utc round-trips outside transitions, in every unit", () => {
  const berlin = requireTimeZone("Europe/Berlin");
  for (const s of ["2021-06-08T15:45:45", "1999-12-31T23:00", "1970-01-01", "2038-03-01T12:00"]) {
    const t = ts(s);
    assert.equal(localToUtcTicks(berlin, utcToLocalTicks(berlin, t, "us"), "us"), t, s);
    const ns = t * 1000n + 7n;
    assert.equal(localToUtcTicks(berlin, utcToLocalTicks(berlin, ns, "ns"), "ns"), ns, s);
  }
  assert.equal(fmt(utcToLocalTicks(berlin, 1623167145000000n, "us")), "2021-06-08T17:45:45.000000Z");
});

Deno.test("utcToLocalTicks shows the repeated hour in Riga on 2021-10-31", () => {
  const riga = requireTimeZone("Europe/Riga");
  const local = (iso: string) => fmt(utcToLocalTicks(riga, ts(iso), "us"));
  assert.equal(local("2021-10-30T23:59:59Z"), "2021-10-31T02:59:59.000000Z");
  assert.equal(local("2021-10-31T00:30:00Z"), "2021-10-31T03:30:00.000000Z"); // EEST, +03:00
  assert.equal(local("2021-10-31T01:30:00Z"), "2021-10-31T03:30:00.000000Z"); // EET, +02:00
  assert.equal(local("2021-03-28T01:00:00Z"), "2021-03-28T04:00:00.000000Z"); // spring: 03:00 is skipped
});

Deno.test("requireTimeZone names the zone it cannot resolve", () => {
  assert.throws(() => requireTimeZone("Nowhere/Land"), /invalid timezone: Nowhere\/Land/);
});
