import assert from "node:assert/strict";
import { geohashType, T } from "../../../engine/base/types.ts";
import { daysFromCivil } from "../../../engine/functions/datetime_calendar.ts";
import {
  formatDateMillis,
  formatTimestampMicros,
  formatTimestampNanos,
  formatValue,
} from "../../../engine/functions/format_value.ts";

Deno.test("timestamps print with 6 fraction digits, dates with 3, nanos with 9 (§18.3)", () => {
  assert.equal(formatTimestampMicros(1704067200000000n), "2024-01-01T00:00:00.000000Z");
  assert.equal(formatTimestampMicros(1578506142000000n), "2020-01-08T17:55:42.000000Z");
  assert.equal(formatDateMillis(1n), "1970-01-01T00:00:00.001Z");
  assert.equal(formatTimestampNanos(1704067200123456789n), "2024-01-01T00:00:00.123456789Z");
  assert.equal(formatValue(1n, T.TIMESTAMP), "1970-01-01T00:00:00.000001Z");
});

Deno.test("years are four digits, zero padded, with a sign before year 0", () => {
  const march5 = BigInt(daysFromCivil(5, 3, 1)) * 86_400_000_000n;
  assert.equal(formatTimestampMicros(march5), "0005-03-01T00:00:00.000000Z");
  assert.equal(formatTimestampMicros(-1n), "1969-12-31T23:59:59.999999Z");
  assert.equal(formatTimestampMicros(-62167219200000000n), "0000-01-01T00:00:00.000000Z");
  assert.equal(formatTimestampMicros(-62167219200000001n), "-0001-12-31T23:59:59.999999Z");
  assert.equal(formatTimestampMicros(253402300800000000n), "10000-01-01T00:00:00.000000Z");
});

Deno.test("formatValue renders every scalar type as §18.3 text", () => {
  assert.equal(formatValue(true, T.BOOLEAN), "true");
  assert.equal(formatValue(false, T.BOOLEAN), "false");
  assert.equal(formatValue(-5, T.BYTE), "-5");
  assert.equal(formatValue(123, T.INT), "123");
  assert.equal(formatValue(9007199254740993n, T.LONG), "9007199254740993");
  assert.equal(formatValue(15, T.DOUBLE), "15.0");
  assert.equal(formatValue(Math.fround(0.1), T.FLOAT), "0.1");
  assert.equal(formatValue("a", T.CHAR), "a");
  assert.equal(formatValue("x", T.SYMBOL), "x");
  assert.equal(
    formatValue("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", T.UUID),
    "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
  );
  assert.equal(formatValue(3232235521, T.IPV4), "192.168.0.1");
  assert.equal(formatValue(4294967295, T.IPV4), "255.255.255.255");
  assert.equal(formatValue(1704067200000n, T.DATE), "2024-01-01T00:00:00.000Z");
  assert.equal(formatValue(new Uint8Array([1]), T.BINARY), null);
});

Deno.test("NULL renders as null for every type", () => {
  for (const t of [T.INT, T.STRING, T.TIMESTAMP, T.DOUBLE, T.UUID, T.INTERVAL]) {
    assert.equal(formatValue(null, t), null);
  }
});

Deno.test("LONG256 prints whole bytes of hex (0x01, 0x0fff)", () => {
  assert.equal(formatValue(1n, T.LONG256), "0x01");
  assert.equal(formatValue(2n, T.LONG256), "0x02");
  assert.equal(formatValue(0xfffn, T.LONG256), "0x0fff");
  assert.equal(formatValue(0xabcdefn, T.LONG256), "0xabcdef");
  assert.equal(formatValue(2n ** 255n, T.LONG256), "0x8" + "0".repeat(63));
});

Deno.test("GEOHASH prints base-32 characters or a bit string", () => {
  // u33d8 = 26,3,3,12,8 in the geohash alphabet.
  const v = (26n << 20n) | (3n << 15n) | (3n << 10n) | (12n << 5n) | 8n;
  assert.equal(formatValue(v, geohashType(25)), "u33d8");
  assert.equal(formatValue(0b0101n, geohashType(4)), "0101");
  assert.equal(formatValue(1n, geohashType(7)), "0000001");
});

// QuestDB's Interval.toSink writes each end with millisecond precision (toMSecString):
// SampleByFillTest#testFillPrevIntervalMultiKey prints ('2020-01-01T00:00:00.000Z', ...).
Deno.test("INTERVAL prints both ends as quoted timestamps in milliseconds", () => {
  assert.equal(
    formatValue({ lo: 1728385787573999n, hi: 1728472187573000n }, T.INTERVAL),
    "('2024-10-08T11:09:47.573Z', '2024-10-09T11:09:47.573Z')",
  );
  assert.equal(formatValue({ lo: -1n, hi: -(2n ** 63n) }, T.INTERVAL), "('1969-12-31T23:59:59.999Z', null)");
});
