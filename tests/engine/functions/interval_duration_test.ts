import assert from "node:assert/strict";
import {
  addBusinessDays,
  addDuration,
  parseDuration,
  parsePeriod,
} from "../../../engine/functions/interval_duration.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";

const us = (s: string) => parseTimestamp(s, "us")!;

Deno.test("parseDuration reads sums of terms with underscores and a sign", () => {
  assert.deepEqual(parseDuration("1h30m"), {
    negative: false,
    terms: [{ count: 1, unit: "h" }, { count: 30, unit: "m" }],
  });
  assert.deepEqual(parseDuration("1_500T"), { negative: false, terms: [{ count: 1500, unit: "T" }] });
  assert.deepEqual(parseDuration("-2h"), { negative: true, terms: [{ count: 2, unit: "h" }] });
  assert.equal(parseDuration("2bd"), undefined);
  assert.deepEqual(parseDuration("2bd", true)?.terms, [{ count: 2, unit: "bd" }]);
  for (const bad of ["", "h", "2", "2x", "1h 30m", "1.5h"]) assert.equal(parseDuration(bad), undefined, bad);
});

Deno.test("addDuration adds calendar units calendar-wise", () => {
  assert.equal(addDuration(us("2024-01-31"), parseDuration("1M")!, "us"), us("2024-02-29"));
  assert.equal(addDuration(us("2024-02-29"), parseDuration("1y")!, "us"), us("2025-02-28"));
  assert.equal(
    addDuration(us("2024-01-01"), parseDuration("1w1d1h1m1s1T1u")!, "us"),
    us("2024-01-09T01:01:01.001001"),
  );
  assert.equal(addDuration(us("2024-01-01"), parseDuration("-1d")!, "us"), us("2023-12-31"));
  assert.equal(
    addDuration(us("2024-01-01"), parseDuration("1000n")!, "us"),
    us("2024-01-01T00:00:00.000001"),
  );
});

Deno.test("business days skip weekends; from a weekend +1bd is Monday", () => {
  assert.equal(addBusinessDays(us("2024-05-17"), 1, "us"), us("2024-05-20")); // Friday → Monday
  assert.equal(addBusinessDays(us("2024-05-18"), 1, "us"), us("2024-05-20")); // Saturday → Monday
  assert.equal(addBusinessDays(us("2024-05-20T10:00"), -1, "us"), us("2024-05-17T10:00"));
  assert.equal(addBusinessDays(us("2024-05-15"), 5, "us"), us("2024-05-22"));
});

Deno.test("parsePeriod reads one signed term", () => {
  assert.deepEqual(parsePeriod("-2h"), { count: -2, unit: "h" });
  assert.deepEqual(parsePeriod("1w"), { count: 1, unit: "w" });
  assert.deepEqual(parsePeriod("1M"), { count: 1, unit: "M" });
  assert.equal(parsePeriod("1h30m"), undefined);
  assert.equal(parsePeriod("x"), undefined);
});
