import assert from "node:assert/strict";
import {
  addUnits,
  ceilUnit,
  floorStride,
  floorStrideFrom,
  parseStride,
  truncate,
  truncUnit,
  unitsBetween,
} from "../../../engine/functions/datetime_units.ts";
import { formatTicks } from "../../../engine/functions/format_value.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";

const us = (s: string) => parseTimestamp(s, "us")!;
const ns = (s: string) => parseTimestamp(s, "ns")!;
const show = (t: bigint, unit: "us" | "ns" = "us") => formatTicks(t, unit);

Deno.test("parseStride reads an optional count and one unit letter", () => {
  assert.deepEqual(parseStride("15m"), { count: 15, letter: "m" });
  assert.deepEqual(parseStride("h"), { count: 1, letter: "h" });
  assert.deepEqual(parseStride("3M"), { count: 3, letter: "M" });
  for (const bad of ["", "0d", "5", "5x", "1.5h", "h5"]) assert.equal(parseStride(bad), undefined, bad);
});

Deno.test("floorStride works for nanosecond values and negative instants", () => {
  assert.equal(
    show(floorStride(ns("2024-05-17T13:14:15.123456789Z"), { count: 1, letter: "U" }, "ns"), "ns"),
    "2024-05-17T13:14:15.123456000Z",
  );
  assert.equal(
    show(floorStride(ns("2024-05-17T13:14:15.123456789Z"), { count: 10, letter: "n" }, "ns"), "ns"),
    "2024-05-17T13:14:15.123456780Z",
  );
  assert.equal(
    show(floorStride(us("1969-12-31T12:00"), { count: 1, letter: "d" }, "us")),
    "1969-12-31T00:00:00.000000Z",
  );
  assert.equal(
    show(floorStride(us("1969-12-31T12:00"), { count: 1, letter: "w" }, "us")),
    "1969-12-29T00:00:00.000000Z",
  );
  assert.equal(
    show(floorStride(us("1969-11-15"), { count: 2, letter: "M" }, "us")),
    "1969-11-01T00:00:00.000000Z",
  );
  assert.equal(
    show(floorStride(us("1969-06-15"), { count: 5, letter: "y" }, "us")),
    "1965-01-01T00:00:00.000000Z",
  );
});

Deno.test("floorStrideFrom counts from the origin, and values before it floor to it (QuestDB)", () => {
  assert.equal(
    show(floorStrideFrom(us("2018-01-01"), { count: 5, letter: "d" }, us("2018-01-01"), "us")),
    "2018-01-01T00:00:00.000000Z",
  );
  assert.equal(
    show(floorStrideFrom(us("2018-01-09"), { count: 5, letter: "d" }, us("2018-01-01"), "us")),
    "2018-01-06T00:00:00.000000Z",
  );
  assert.equal(
    show(floorStrideFrom(us("2017-12-25"), { count: 5, letter: "d" }, us("2018-01-01"), "us")),
    "2018-01-01T00:00:00.000000Z",
  );
  assert.equal(
    show(floorStrideFrom(us("2018-03-20"), { count: 2, letter: "w" }, us("2018-01-03"), "us")),
    "2018-03-14T00:00:00.000000Z",
  );
  assert.equal(
    show(floorStrideFrom(us("2019-03-20"), { count: 1, letter: "y" }, us("2018-06-01"), "us")),
    "2018-06-01T00:00:00.000000Z",
  );
});

Deno.test("addUnits, unitsBetween and ceilUnit on nanosecond values", () => {
  assert.equal(addUnits(ns("2024-01-01"), "n", 5, "ns"), ns("2024-01-01") + 5n);
  assert.equal(addUnits(us("2024-01-01"), "n", 999, "us"), us("2024-01-01"));
  assert.equal(unitsBetween(ns("2024-01-01"), ns("2024-01-01T00:00:00.000001999"), "u", "ns"), 1n);
  assert.equal(
    show(ceilUnit(ns("2024-01-01T00:00:00.000000001"), "U", "ns"), "ns"),
    "2024-01-01T00:00:00.000001000Z",
  );
  assert.equal(ceilUnit(us("2024-01-01T00:00:00.000001"), "n", "us"), us("2024-01-01T00:00:00.000001"));
});

Deno.test("truncUnit accepts any case and plurals; truncate handles centuries before 2001", () => {
  assert.equal(truncUnit("Milliseconds"), "millisecond");
  assert.equal(truncUnit("DAY"), "day");
  assert.equal(truncUnit("epoch"), undefined);
  assert.equal(show(truncate(us("2000-06-01"), "century", "us")), "1901-01-01T00:00:00.000000Z");
  assert.equal(show(truncate(us("2000-06-01"), "millennium", "us")), "1001-01-01T00:00:00.000000Z");
  assert.equal(show(truncate(us("2009-06-01"), "decade", "us")), "2000-01-01T00:00:00.000000Z");
  assert.equal(show(truncate(us("2024-12-31"), "quarter", "us")), "2024-10-01T00:00:00.000000Z");
});
