import assert from "node:assert/strict";
import { formatTicks } from "../../../engine/functions/format_value.ts";
import {
  parseTimestamp,
  parseTimestampDetailed,
  prefixEnd,
} from "../../../engine/functions/timestamp_parse.ts";

function us(text: string): string | undefined {
  const v = parseTimestamp(text, "us");
  return v === undefined ? undefined : formatTicks(v, "us");
}

Deno.test("parseTimestamp reproduces the §3.5 table", () => {
  assert.equal(us("2026-01-12T12:35:26.123456+01:30"), "2026-01-12T11:05:26.123456Z");
  assert.equal(us("2026-01-12T12:35:26.12"), "2026-01-12T12:35:26.120000Z");
  assert.equal(us("2026-01-12 12:35"), "2026-01-12T12:35:00.000000Z");
  assert.equal(us("2026-01"), "2026-01-01T00:00:00.000000Z");
  assert.equal(us("2026"), "2026-01-01T00:00:00.000000Z");
  assert.equal(us("2026-01-12T12:35:26.12345"), "2026-01-12T12:35:26.123450Z");
});

Deno.test("parseTimestamp accepts Z and the ±hh, ±hhmm, ±hh:mm offsets", () => {
  assert.equal(us("2024-01-01T00:00:00.000000Z"), "2024-01-01T00:00:00.000000Z");
  assert.equal(us("2024-01-01T10:00+02"), "2024-01-01T08:00:00.000000Z");
  assert.equal(us("2024-01-01T10:00-0230"), "2024-01-01T12:30:00.000000Z");
  assert.equal(us("2024-01-01T10:00:00-08:00"), "2024-01-01T18:00:00.000000Z");
  assert.equal(us("2024-01-01T10:00+2"), undefined);
});

Deno.test("parseTimestamp truncates fractions to the unit and keeps nanoseconds for TIMESTAMP_NS", () => {
  assert.equal(us("2024-01-01T00:00:00.123456789"), "2024-01-01T00:00:00.123456Z");
  assert.equal(parseTimestamp("2024-01-01T00:00:00.123456789", "ns"), 1704067200123456789n);
  assert.equal(parseTimestamp("2024-01-01T00:00:00.1239", "ms"), 1704067200123n);
  assert.equal(parseTimestamp("1970-01-01T00:00:00.000001", "us"), 1n);
});

Deno.test("parseTimestamp rejects invalid calendar fields and malformed text", () => {
  for (
    const bad of [
      "2016-02-30",
      "2024-01-01T31",
      "2024-01-01T10:69",
      "2024-13",
      "2024-1",
      "2024-01-01T",
      "abc",
      "",
      "20240101",
      "2024-01-01T00:00:00.",
      "2024-01-01T00:00:00.1234567890",
      "2024-01-01 ",
    ]
  ) {
    assert.equal(parseTimestamp(bad, "us"), undefined, bad);
  }
  assert.equal(us("2024-02-29"), "2024-02-29T00:00:00.000000Z");
  assert.equal(us("2023-02-29"), undefined);
});

Deno.test("digits-only text is a year, not an epoch number", () => {
  assert.equal(us("2024"), "2024-01-01T00:00:00.000000Z");
  assert.equal(parseTimestamp("1704067200000000", "us"), undefined);
});

Deno.test("parseTimestampDetailed reports the precision and prefixEnd the covered span (§8.1)", () => {
  const cases: [string, string][] = [
    ["2024", "2025-01-01T00:00:00.000000Z"],
    ["2024-02", "2024-03-01T00:00:00.000000Z"],
    ["2024-01-01", "2024-01-02T00:00:00.000000Z"],
    ["2024-01-01T10", "2024-01-01T11:00:00.000000Z"],
    ["2024-01-01T10:30", "2024-01-01T10:31:00.000000Z"],
    ["2024-01-01T10:30:40", "2024-01-01T10:30:41.000000Z"],
    ["2024-01-01T10:30:40.28", "2024-01-01T10:30:40.290000Z"],
    ["2024-01-01T10:30:40.123456", "2024-01-01T10:30:40.123457Z"],
    ["2024-01-01T10:30:40.12345678", "2024-01-01T10:30:40.123457Z"],
  ];
  for (const [text, end] of cases) {
    const p = parseTimestampDetailed(text, "us")!;
    assert.equal(formatTicks(prefixEnd(p, "us"), "us"), end, text);
  }
  const p = parseTimestampDetailed("2024-01-01T10:30:40.100Z", "us")!;
  assert.equal(p.precision, "fraction");
  assert.equal(p.fractionDigits, 3);
  assert.equal(p.hasOffset, true);
  assert.equal(
    formatTicks(prefixEnd(parseTimestampDetailed("2024-01-01T10:30:40.28", "ns")!, "ns"), "ns"),
    "2024-01-01T10:30:40.290000000Z",
  );
});
