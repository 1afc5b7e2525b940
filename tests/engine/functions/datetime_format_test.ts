import assert from "node:assert/strict";
import {
  compilePattern,
  formatWithPattern,
  parseWithPattern,
} from "../../../engine/functions/datetime_format.ts";
import { formatTicks } from "../../../engine/functions/format_value.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";

function parse(text: string, fmt: string): string | undefined {
  const v = parseWithPattern(compilePattern(fmt), text);
  return v === undefined ? undefined : formatTicks(v, "us");
}

function format(iso: string, fmt: string): string {
  return formatWithPattern(compilePattern(fmt), parseTimestamp(iso, "us")!);
}

Deno.test("parse reproduces the §14.4 to_timestamp examples", () => {
  assert.equal(parse("2024-03-05 07:08:09", "yyyy-MM-dd HH:mm:ss"), "2024-03-05T07:08:09.000000Z");
  assert.equal(parse("05/03/2024", "dd/MM/yyyy"), "2024-03-05T00:00:00.000000Z");
  assert.equal(parse("2024-03-05", "yyyy"), undefined); // text remains after the pattern
  assert.equal(parse("2020-03-01:15:43:21", "yyyy-MM-dd:HH:mm:ss"), "2020-03-01T15:43:21.000000Z");
  assert.equal(
    parse("2020-03-01:15:43:21.123456", "yyyy-MM-dd:HH:mm:ss.SSSUUU"),
    "2020-03-01T15:43:21.123456Z",
  );
  assert.equal(parse("2020-03-01:15:43:21", "yyyy"), undefined);
  assert.equal(parse("2018-01", "yyyy-MM"), "2018-01-01T00:00:00.000000Z");
});

Deno.test("format reproduces the §14.4 to_str examples", () => {
  assert.equal(
    format("2024-03-05T07:08:09.123456Z", "yyyy-MM-dd HH:mm:ss.SSSUUU"),
    "2024-03-05 07:08:09.123456",
  );
  assert.equal(format("2024-03-05T07:08:09Z", "EE, dd MMM yyyy"), "Tuesday, 05 Mar 2024");
  assert.equal(format("2024-03-05T07:08:09Z", "E MMMM d"), "Tue March 5");
  assert.equal(format("2024-03-05T07:08:09Z", "yyyy-MM-ddTHH:mm:ss"), "2024-03-05T07:08:09");
});

Deno.test("fraction letters parse as in §14.5", () => {
  assert.equal(parse("10.12", "ss.S"), "1970-01-01T00:00:10.120000Z");
  assert.equal(parse("10.1234", "ss.SSSU"), "1970-01-01T00:00:10.123400Z");
  assert.equal(parse("10.12345", "ss.U+"), "1970-01-01T00:00:10.123450Z");
  assert.equal(parse("10", "ss.U+"), "1970-01-01T00:00:10.000000Z"); // `.U+` is optional
  assert.equal(parse("10.123456789", "ss.N+"), "1970-01-01T00:00:10.123456Z");
  assert.equal(parseWithPattern(compilePattern("ss.N+"), "10.123456789", { unit: "ns" }), 10_123_456_789n);
  assert.equal(parse("10.1", "ss.SSS"), undefined);
});

Deno.test("one-letter fields read one digit before another field and greedily before literals", () => {
  assert.equal(parse("2024-3-5", "y-M-d"), "2024-03-05T00:00:00.000000Z");
  assert.equal(parse("24-3-5", "y-M-d"), "2024-03-05T00:00:00.000000Z"); // two digits mean 20xx
  assert.equal(parse("20240305", "yyyyMMdd"), "2024-03-05T00:00:00.000000Z");
  assert.equal(parse("2024035", "yyyyMMd"), "2024-03-05T00:00:00.000000Z");
  assert.equal(parse("24/03/05", "yy/MM/dd"), "2024-03-05T00:00:00.000000Z");
});

Deno.test("names, AM/PM, 12-hour and 1-24 hour fields", () => {
  assert.equal(
    parse("Tue, 5 Mar 2024 07:08:09 PM", "E, d MMM yyyy hh:mm:ss a"),
    "2024-03-05T19:08:09.000000Z",
  );
  assert.equal(parse("12:00 AM", "hh:mm a"), "1970-01-01T00:00:00.000000Z");
  assert.equal(parse("March 2024", "MMMM yyyy"), "2024-03-01T00:00:00.000000Z");
  assert.equal(parse("mar 2024", "MMM yyyy"), "2024-03-01T00:00:00.000000Z");
  assert.equal(parse("Funday 2024", "EE yyyy"), undefined);
  assert.equal(format("2024-03-05T00:30:00Z", "k:mm h a K"), "24:30 12 AM 0");
  assert.equal(format("2024-03-05T13:30:00Z", "kk hh KK a"), "13 01 01 PM");
});

Deno.test("zone fields parse offsets and zone names", () => {
  assert.equal(parse("2024-03-05 10:00 +02:00", "yyyy-MM-dd HH:mm Z"), "2024-03-05T08:00:00.000000Z");
  assert.equal(parse("2024-03-05 10:00 Z", "yyyy-MM-dd HH:mm Z"), "2024-03-05T10:00:00.000000Z");
  assert.equal(parse("2024-03-05 10:00 -0800", "yyyy-MM-dd HH:mm x"), "2024-03-05T18:00:00.000000Z");
  assert.equal(parse("2024-07-05 10:00 Europe/Berlin", "yyyy-MM-dd HH:mm z"), "2024-07-05T08:00:00.000000Z");
});

Deno.test("invalid fields and trailing or missing text give undefined", () => {
  assert.equal(parse("2024-02-30", "yyyy-MM-dd"), undefined);
  assert.equal(parse("2024-13-01", "yyyy-MM-dd"), undefined);
  assert.equal(parse("2024-01-01 25", "yyyy-MM-dd HH"), undefined);
  assert.equal(parse("2024-01", "yyyy-MM-dd"), undefined);
  assert.equal(parse("2024x01", "yyyy-MM"), undefined);
});

Deno.test("day of year, ISO week, era and other numeric fields format", () => {
  assert.equal(format("2024-03-05T07:08:09Z", "D u ww w G yyy yy"), "65 3 10 10 AD 024 24"); // u: Sunday = 1
  assert.equal(format("2021-01-03T00:00:00Z", "YYYY-ww"), "2020-53");
  assert.equal(format("2024-03-05T07:08:09.001002Z", "S U SSS UUU U+"), "1 2 001 002 001002");
  assert.equal(parse("2020-W53", "YYYY-Www"), "2020-12-28T00:00:00.000000Z"); // `-W` is literal
  assert.equal(parse("2021-01", "yyyy-ww"), "2021-01-04T00:00:00.000000Z");
});

Deno.test("nanosecond values format all nine digits with N+", () => {
  const ns = parseTimestamp("2024-03-05T07:08:09.123456789Z", "ns")!;
  assert.equal(formatWithPattern(compilePattern("ss.N+"), ns, { unit: "ns" }), "09.123456789");
  assert.equal(formatWithPattern(compilePattern("ss.SSSUUUNNN"), ns, { unit: "ns" }), "09.123456789");
  const ms = parseTimestamp("2024-03-05T07:08:09.123Z", "ms")!;
  assert.equal(formatWithPattern(compilePattern("HH:mm:ss.SSS"), ms, { unit: "ms" }), "07:08:09.123");
});

Deno.test("formatTicks of random times in every unit matches the calendar (day text kept between calls)", () => {
  let seed = 99;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  let ms = -2208988800000; // 1900
  for (let i = 0; i < 5000; i++) {
    // Mostly small steps (the same day again), sometimes jumps of up to ~30 years either way.
    ms += next() < 0.8 ? Math.floor(next() * 3_600_000) : Math.floor((next() - 0.4) * 1e12);
    const iso = new Date(ms).toISOString();
    const micro = Math.floor(next() * 1000), nano = Math.floor(next() * 1000);
    const us = BigInt(ms) * 1000n + BigInt(micro);
    const ns = us * 1000n + BigInt(nano);
    assert.equal(formatTicks(BigInt(ms), "ms"), iso);
    assert.equal(formatTicks(us, "us"), iso.slice(0, 23) + String(micro).padStart(3, "0") + "Z");
    assert.equal(
      formatTicks(ns, "ns"),
      iso.slice(0, 23) + String(micro).padStart(3, "0") + String(nano).padStart(3, "0") + "Z",
    );
  }
});
