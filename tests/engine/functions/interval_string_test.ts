import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import { formatTicks } from "../../../engine/functions/format_value.ts";
import { parseIntervalString } from "../../../engine/functions/interval_string.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";

const NOW = parseTimestamp("2024-05-15T13:00:00.5Z", "us")!; // a Wednesday

/** The intervals as `lo..hi` text, `|`-separated. */
function iv(text: string, unit: "us" | "ns" = "us"): string {
  return parseIntervalString(text, { nowMicros: NOW, unit })
    .map((i) => `${formatTicks(i.lo, unit)}..${formatTicks(i.hi, unit)}`)
    .join(" | ");
}

function err(text: string): string {
  try {
    parseIntervalString(text, { nowMicros: NOW, unit: "us" });
  } catch (e) {
    assert.ok(e instanceof SqlError);
    assert.equal(e.position, -1);
    return e.message;
  }
  throw new Error(`no error for ${text}`);
}

/** The fixture rows of §8 and the v values an interval list selects. */
const ROWS: [string, number][] = [
  ["2024-01-01T00:00:00.000000Z", 1],
  ["2024-01-01T10:30:00.000000Z", 2],
  ["2024-01-01T11:59:59.999999Z", 3],
  ["2024-01-01T12:00:00.000000Z", 4],
  ["2024-01-02T00:00:00.000000Z", 5],
  ["2024-02-01T00:00:00.000000Z", 6],
  ["2025-01-01T10:00:00.000000Z", 7],
];
function selected(text: string): number[] {
  const list = parseIntervalString(text, { nowMicros: NOW, unit: "us" });
  return ROWS.filter(([t]) => {
    const v = parseTimestamp(t, "us")!;
    return list.some((i) => i.lo <= v && v <= i.hi);
  }).map(([, v]) => v);
}

Deno.test("§8.1 partial timestamps cover every instant with their prefix", () => {
  assert.equal(iv("2024"), "2024-01-01T00:00:00.000000Z..2024-12-31T23:59:59.999999Z");
  assert.equal(iv("2024-01"), "2024-01-01T00:00:00.000000Z..2024-01-31T23:59:59.999999Z");
  assert.equal(iv("2024-01-01"), "2024-01-01T00:00:00.000000Z..2024-01-01T23:59:59.999999Z");
  assert.equal(iv("2024-01-01T10"), "2024-01-01T10:00:00.000000Z..2024-01-01T10:59:59.999999Z");
  assert.equal(iv("2024-01-01T10:30"), "2024-01-01T10:30:00.000000Z..2024-01-01T10:30:59.999999Z");
  assert.equal(iv("2024-01-01T10:30:40"), "2024-01-01T10:30:40.000000Z..2024-01-01T10:30:40.999999Z");
  assert.equal(iv("2024-01-01T10:30:40.28"), "2024-01-01T10:30:40.280000Z..2024-01-01T10:30:40.289999Z");
  assert.equal(iv("2024-01-01T10:30:40.123456"), "2024-01-01T10:30:40.123456Z..2024-01-01T10:30:40.123456Z");
  assert.equal(iv("2024-01-01T10:30:40.100Z"), "2024-01-01T10:30:40.100000Z..2024-01-01T10:30:40.100000Z");
  assert.equal(iv("2024-01-01", "ns"), "2024-01-01T00:00:00.000000000Z..2024-01-01T23:59:59.999999999Z");
});

Deno.test("§8.1 queries select the documented rows", () => {
  assert.deepEqual(selected("2024-01-01"), [1, 2, 3, 4]);
  assert.deepEqual(selected("2024-01"), [1, 2, 3, 4, 5]);
  assert.deepEqual(selected("2024"), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(selected("2024-01-01T12"), [4]);
});

Deno.test("§8.1 invalid dates are errors", () => {
  for (const bad of ["2016-1", "2016-02-30", "2024-01-01T24", "2024-01-01T10:69", "hello", ""]) {
    assert.equal(err(bad), "Invalid date", bad);
  }
});

Deno.test("§8.2 a duration starts at the prefix's low bound", () => {
  assert.equal(iv("2024-01-01T10;2h"), "2024-01-01T10:00:00.000000Z..2024-01-01T11:59:59.999999Z");
  assert.equal(iv("2024-01-01T10:30;90m"), "2024-01-01T10:30:00.000000Z..2024-01-01T11:59:59.999999Z");
  assert.equal(iv("2024-01-01;1d"), "2024-01-01T00:00:00.000000Z..2024-01-01T23:59:59.999999Z");
  assert.deepEqual(selected("2024-01-01T10;2h"), [2, 3]);
  assert.deepEqual(selected("2024-01-01;1d"), [1, 2, 3, 4]);
  assert.equal(iv("2024-01-01T10;1h30m"), "2024-01-01T10:00:00.000000Z..2024-01-01T11:29:59.999999Z");
  assert.equal(iv("2024-01-01T10;1s500T"), "2024-01-01T10:00:00.000000Z..2024-01-01T10:00:01.499999Z");
  assert.equal(iv("2024-01-01T10;1_500T"), "2024-01-01T10:00:00.000000Z..2024-01-01T10:00:01.499999Z");
  assert.equal(iv("2024-01-31;1M"), "2024-01-31T00:00:00.000000Z..2024-02-28T23:59:59.999999Z");
  assert.equal(iv("2024-01-01T10;1D"), "2024-01-01T10:00:00.000000Z..2024-01-02T09:59:59.999999Z");
  assert.equal(iv("2024-01-01T12;-2h"), "2024-01-01T10:00:00.000000Z..2024-01-01T11:59:59.999999Z");
  assert.equal(
    iv("2024-01-01T00:00:00;1n", "ns"),
    "2024-01-01T00:00:00.000000000Z..2024-01-01T00:00:00.000000000Z",
  );
  assert.equal(err("2024-01-01;2x"), "Range not a number");
});

Deno.test("§8.3 repeating intervals", () => {
  assert.deepEqual(selected("2024-01-01;1d;1y;2"), [1, 2, 3, 4, 7]);
  assert.equal(
    iv("2024-01-01T12:00;1m;-2h;2"),
    "2024-01-01T10:00:00.000000Z..2024-01-01T10:00:59.999999Z | 2024-01-01T12:00:00.000000Z..2024-01-01T12:00:59.999999Z",
  );
  assert.deepEqual(selected("2024-01-01T12:00;1m;-2h;2"), [4]);
  assert.equal(
    iv("2023-12-18;1d;1w;3"),
    "2023-12-18T00:00:00.000000Z..2023-12-18T23:59:59.999999Z | 2023-12-25T00:00:00.000000Z..2023-12-25T23:59:59.999999Z | 2024-01-01T00:00:00.000000Z..2024-01-01T23:59:59.999999Z",
  );
  assert.deepEqual(selected("2023-12-18;1d;1w;3"), [1, 2, 3, 4]);
  assert.deepEqual(selected("2024-01-01T00:00;30m;12h;3"), [1, 4, 5]);
  // Months are counted from the base: Jan 31, Feb 29, Mar 31 (no drift to the 29th).
  assert.equal(
    iv("2024-01-31;1h;1M;3"),
    "2024-01-31T00:00:00.000000Z..2024-01-31T00:59:59.999999Z | 2024-02-29T00:00:00.000000Z..2024-02-29T00:59:59.999999Z | 2024-03-31T00:00:00.000000Z..2024-03-31T00:59:59.999999Z",
  );
  // Overlapping repetitions merge.
  assert.equal(iv("2024-01-01;2d;1d;3"), "2024-01-01T00:00:00.000000Z..2024-01-04T23:59:59.999999Z");
});

Deno.test("§8.3 malformed repetitions are errors", () => {
  assert.equal(err("2024-01-01;30m;2d"), "Invalid interval format");
  assert.equal(err("2024-01-01;30m;2d;1;1"), "Invalid interval format");
  assert.equal(err("2024-01-01;30m;2d;x"), "Count not a number");
  assert.equal(err("2024-01-01;30m;2d;0"), "Invalid count");
  assert.equal(err("2024-01-01;30m;xd;2"), "Period not a number");
  assert.equal(err("2024-01-01;30m;2q;2"), "Unknown period: 2q");
});

Deno.test("epoch digits are a point", () => {
  assert.equal(iv("1704067200000000"), "2024-01-01T00:00:00.000000Z..2024-01-01T00:00:00.000000Z");
});

Deno.test("§8.5 bracket expansion and date lists", () => {
  assert.equal(
    iv("2024-01-[01,02]T00:00;1m"),
    "2024-01-01T00:00:00.000000Z..2024-01-01T00:00:59.999999Z | 2024-01-02T00:00:00.000000Z..2024-01-02T00:00:59.999999Z",
  );
  assert.deepEqual(selected("2024-01-[01,02]T00:00;1m"), [1, 5]);
  assert.deepEqual(selected("[2024-01-01,2025-01-01]T10:00;1h"), [2, 7]);
  assert.equal(iv("2024-01-[10..12]"), "2024-01-10T00:00:00.000000Z..2024-01-12T23:59:59.999999Z");
  assert.equal(iv("2024-01-[5,10..11,20]").split(" | ").length, 3);
  assert.equal(iv("2024-[01,06]-[10,15]").split(" | ").length, 4);
  assert.equal(iv("2024-01-01T[09,14]:30").split(" | ").length, 2);
  assert.equal(
    iv("2024-01-01T[09:00,14:30]"),
    "2024-01-01T09:00:00.000000Z..2024-01-01T09:00:59.999999Z | 2024-01-01T14:30:00.000000Z..2024-01-01T14:30:59.999999Z",
  );
  assert.equal(iv("[2024-01-15, 2024-03-20T10, 2024-02]").split(" | ").length, 3);
  assert.equal(
    iv("[2024-01-15, 2024-03-20T10:00]T09:00"),
    "2024-01-15T09:00:00.000000Z..2024-01-15T09:00:59.999999Z | 2024-03-20T10:00:00.000000Z..2024-03-20T10:00:59.999999Z",
  );
  assert.equal(
    iv("[2023,2024]-12-31"),
    "2023-12-31T00:00:00.000000Z..2023-12-31T23:59:59.999999Z | 2024-12-31T00:00:00.000000Z..2024-12-31T23:59:59.999999Z",
  );
});

Deno.test("§8.5 bracket errors", () => {
  assert.equal(err("2024-01-[10,15"), "Unclosed '[' in interval");
  assert.equal(err("2024-01-[]"), "Empty bracket expansion");
  assert.equal(err("2024-01-[15..10]"), "Range must be ascending: 15..10");
  assert.equal(err("2024-01-[a]"), "Expected number in bracket expansion");
  assert.equal(err("[1]-[1]-[1]T[1]:[1]:[1].[1]-[1]-[1]"), "Too many bracket groups (max 8)");
});

Deno.test("§8.5 time zones convert local time to UTC, DST-aware", () => {
  assert.equal(iv("2024-01-01T11:00@+01:00;2h"), "2024-01-01T10:00:00.000000Z..2024-01-01T11:59:59.999999Z");
  assert.deepEqual(selected("2024-01-01T11:00@+01:00;2h"), [2, 3]);
  assert.equal(iv("2024-07-01@Europe/Berlin"), "2024-06-30T22:00:00.000000Z..2024-07-01T21:59:59.999999Z");
  // The Berlin day of the spring transition has 23 hours.
  assert.equal(iv("2021-03-28@Europe/Berlin"), "2021-03-27T23:00:00.000000Z..2021-03-28T21:59:59.999999Z");
  assert.equal(
    iv("2021-11-07T01:30@America/New_York;1h"),
    "2021-11-07T05:30:00.000000Z..2021-11-07T06:29:59.999999Z",
  );
  for (const z of ["UTC", "GMT", "Z", "+0200", "+02"]) assert.ok(iv(`2024-01-01@${z}`).length > 0, z);
  assert.equal(err("2024-01-01@Mars/Olympus"), "Invalid timezone");
  // Per-element zones override the global one.
  assert.equal(
    iv("[2024-01-01T10:00@+02:00, 2024-01-01T10:00]@+01:00;1h"),
    "2024-01-01T08:00:00.000000Z..2024-01-01T09:59:59.999999Z",
  );
  // A time list whose items carry their own zone (QuestDB docs operators/tick.md, per-element
  // timezones): 09:30 New York, 08:00 London, 09:00 Tokyo.
  assert.equal(
    iv("2024-01-15T[09:30@America/New_York,08:00@Europe/London,09:00@Asia/Tokyo];1h"),
    "2024-01-15T00:00:00.000000Z..2024-01-15T00:59:59.999999Z | " +
      "2024-01-15T08:00:00.000000Z..2024-01-15T08:59:59.999999Z | " +
      "2024-01-15T14:30:00.000000Z..2024-01-15T15:29:59.999999Z",
  );
});

Deno.test("§8.5 ISO weeks and day filters", () => {
  assert.deepEqual(selected("2024-W01"), [1, 2, 3, 4, 5]);
  assert.equal(iv("2024-W01-3"), "2024-01-03T00:00:00.000000Z..2024-01-03T23:59:59.999999Z");
  assert.equal(err("2024-W54"), "Invalid date");
  // The weekday field after `W01-` is one digit, also under bracket expansion (tick.md).
  assert.equal(iv("2024-W01-[1..5]"), "2024-01-01T00:00:00.000000Z..2024-01-05T23:59:59.999999Z");
  assert.equal(iv("2024-W[01,02]-[1,5]").split(" | ").length, 4);
  assert.deepEqual(selected("[2024-01]#Tue"), [5]);
  assert.equal(iv("[2024-01]#Tue").split(" | ").length, 5);
  assert.equal(iv("2024-01-[01..07]#workday"), "2024-01-01T00:00:00.000000Z..2024-01-05T23:59:59.999999Z");
  assert.equal(iv("2024-01-[01..07]#wd"), iv("2024-01-[01..07]#Mon,Tuesday,wed,THU,fri"));
  assert.equal(iv("2024-01-[01..07]#weekend"), "2024-01-06T00:00:00.000000Z..2024-01-07T23:59:59.999999Z");
  assert.equal(iv("2024-01#Mon;1h").split(" | ").length, 5);
  assert.equal(err("2024-01-01#Funday"), "Invalid day name");
  assert.equal(err("2024-01-01#XNYS"), "Invalid day name");
});

Deno.test("§8.5 month and year parts with a duration expand to days", () => {
  const feb = iv("2024-02;6h").split(" | ");
  assert.equal(feb.length, 29);
  assert.equal(feb[0], "2024-02-01T00:00:00.000000Z..2024-02-01T05:59:59.999999Z");
  assert.equal(feb[28], "2024-02-29T00:00:00.000000Z..2024-02-29T05:59:59.999999Z");
  assert.equal(iv("2024-02T09:30").split(" | ").length, 29);
});

Deno.test("§8.5 date variables", () => {
  assert.equal(iv("$today"), "2024-05-15T00:00:00.000000Z..2024-05-15T23:59:59.999999Z");
  assert.equal(iv("$YESTERDAY"), "2024-05-14T00:00:00.000000Z..2024-05-14T23:59:59.999999Z");
  assert.equal(iv("$tomorrow"), "2024-05-16T00:00:00.000000Z..2024-05-16T23:59:59.999999Z");
  assert.equal(iv("$now"), "2024-05-15T13:00:00.500000Z..2024-05-15T13:00:00.500000Z");
  assert.equal(iv("$today - 3d"), "2024-05-12T00:00:00.000000Z..2024-05-12T23:59:59.999999Z");
  assert.equal(iv("$now - 90s"), "2024-05-15T12:58:30.500000Z..2024-05-15T12:58:30.500000Z");
  assert.equal(iv("$now - 2h..$now"), "2024-05-15T11:00:00.500000Z..2024-05-15T13:00:00.500000Z");
  assert.equal(iv("$today..$today+5d"), "2024-05-15T00:00:00.000000Z..2024-05-20T23:59:59.999999Z");
  // Wednesday + 3 business days is Monday; ranges with bd keep weekdays only.
  assert.equal(iv("$today + 3bd"), "2024-05-20T00:00:00.000000Z..2024-05-20T23:59:59.999999Z");
  assert.equal(
    iv("$today..$today + 3bd"),
    "2024-05-15T00:00:00.000000Z..2024-05-17T23:59:59.999999Z | 2024-05-20T00:00:00.000000Z..2024-05-20T23:59:59.999999Z",
  );
  assert.equal(
    iv("[$today, $yesterday]T09:00;1h"),
    "2024-05-14T09:00:00.000000Z..2024-05-14T09:59:59.999999Z | 2024-05-15T09:00:00.000000Z..2024-05-15T09:59:59.999999Z",
  );
  assert.equal(iv("$today@Asia/Tokyo"), "2024-05-14T15:00:00.000000Z..2024-05-15T14:59:59.999999Z"); // 22:00 on May 15 in Tokyo
  assert.equal(err("$someday"), "Unknown date variable");
});

Deno.test("more than 1024 merged intervals is an error", () => {
  assert.equal(err("2024-01-01;1s;1m;2000"), "too many intervals");
  assert.equal(iv("2024-01-01;1s;1m;1000").split(" | ").length, 1000);
});
