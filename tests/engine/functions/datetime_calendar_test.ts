import assert from "node:assert/strict";
import {
  addMonths,
  civilFromDays,
  convertUnit,
  dayOfWeek,
  daysFromCivil,
  daysInMonth,
  floorDiv,
  floorMod,
  fromParts,
  isLeapYear,
  isoWeekOf,
  isoWeekStart,
  monthsBetween,
  toParts,
} from "../../../engine/functions/datetime_calendar.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";

const us = (s: string) => parseTimestamp(s, "us")!;

Deno.test("day numbers and civil dates round-trip across eras", () => {
  assert.equal(daysFromCivil(1970, 1, 1), 0);
  assert.equal(daysFromCivil(2024, 3, 1), 19783);
  assert.equal(daysFromCivil(1969, 12, 31), -1);
  for (const d of [-800000, -719468, -1, 0, 59, 60, 19783, 2932896]) {
    const [y, m, day] = civilFromDays(d);
    assert.equal(daysFromCivil(y, m, day), d, String(d));
  }
  assert.deepEqual(civilFromDays(-719468), [0, 3, 1]);
});

Deno.test("leap years, month lengths and weekdays", () => {
  assert.ok(isLeapYear(2024) && isLeapYear(2000) && !isLeapYear(1900) && !isLeapYear(2023));
  assert.equal(daysInMonth(2024, 2), 29);
  assert.equal(daysInMonth(2023, 2), 28);
  assert.equal(daysInMonth(2024, 4), 30);
  assert.equal(dayOfWeek(0), 4); // 1970-01-01 was a Thursday
  assert.equal(dayOfWeek(-1), 3);
  assert.equal(dayOfWeek(daysFromCivil(2024, 3, 5)), 2);
});

Deno.test("ISO weeks start on Monday and may belong to the neighbouring year", () => {
  assert.deepEqual(isoWeekOf(daysFromCivil(2024, 3, 5)), [2024, 10]);
  assert.deepEqual(isoWeekOf(daysFromCivil(2021, 1, 3)), [2020, 53]);
  assert.deepEqual(isoWeekOf(daysFromCivil(2024, 12, 30)), [2025, 1]);
  assert.equal(isoWeekStart(2024, 1), daysFromCivil(2024, 1, 1));
  assert.equal(isoWeekStart(2020, 53), daysFromCivil(2020, 12, 28));
});

Deno.test("toParts and fromParts split and join ticks of every unit", () => {
  const p = toParts(us("2024-03-05T07:08:09.123456Z"), "us");
  assert.deepEqual([p.year, p.month, p.day, p.hour, p.minute, p.second, p.sub], [
    2024,
    3,
    5,
    7,
    8,
    9,
    123456,
  ]);
  assert.equal(fromParts(p, "us"), us("2024-03-05T07:08:09.123456Z"));
  const n = toParts(-1n, "ns");
  assert.deepEqual([n.year, n.hour, n.sub], [1969, 23, 999999999]);
});

Deno.test("addMonths clamps the day and monthsBetween follows §14.2", () => {
  assert.equal(addMonths(us("2024-01-31T10:00"), 1, "us"), us("2024-02-29T10:00"));
  assert.equal(addMonths(us("2024-03-31"), -1, "us"), us("2024-02-29"));
  assert.equal(addMonths(us("2024-02-29"), 12, "us"), us("2025-02-28"));
  assert.equal(monthsBetween(us("2024-01-31"), us("2024-02-29"), "us"), 0);
  assert.equal(monthsBetween(us("2024-01-15"), us("2024-02-15"), "us"), 1);
  assert.equal(monthsBetween(us("2020-02-27"), us("2020-01-23"), "us"), 1);
  assert.equal(monthsBetween(us("2024-01-15T10:00"), us("2024-02-15T09:00"), "us"), 0);
});

Deno.test("floorDiv, floorMod and convertUnit round toward negative infinity", () => {
  assert.equal(floorDiv(-1n, 1000n), -1n);
  assert.equal(floorMod(-1n, 1000n), 999n);
  assert.equal(convertUnit(-1n, "us", "ms"), -1n);
  assert.equal(convertUnit(1999n, "ns", "us"), 1n);
  assert.equal(convertUnit(2n, "ms", "ns"), 2_000_000n);
});
