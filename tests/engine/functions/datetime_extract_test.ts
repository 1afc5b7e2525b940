import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import { T } from "../../../engine/base/types.ts";
import type { Value } from "../../../engine/base/values.ts";
import { fn, sql, ts } from "./_datetime_helpers.ts";
import { bind, c, call, col, lit, returns } from "./_helpers.ts";

Deno.test("the §14.3 example row", () => {
  const t = lit("2024-03-05T07:08:09.123456Z");
  const want: [string, Value][] = [
    ["year", 2024],
    ["month", 3],
    ["day", 5],
    ["hour", 7],
    ["minute", 8],
    ["second", 9],
    ["millis", 123],
    ["micros", 456],
    ["day_of_week", 2],
    ["week_of_year", 10],
  ];
  for (const [name, v] of want) assert.equal(sql(name, t), v, name);
  assert.equal(sql("extract", lit("quarter"), t), 1);
});

Deno.test("QuestDB documentation cases for day and micros of to_timestamp", () => {
  const parsed = (text: string, fmt: string) => call(fn("to_timestamp"), [lit(text), lit(fmt)]);
  assert.equal(
    call(fn("day"), [col(T.TIMESTAMP)], [parsed("2020-03-01:15:43:21", "yyyy-MM-dd:HH:mm:ss")]),
    1,
  );
  assert.equal(
    call(fn("micros"), [col(T.TIMESTAMP)], [
      parsed("2020-03-01:15:43:21.123456", "yyyy-MM-dd:HH:mm:ss.SSSUUU"),
    ]),
    456,
  );
  assert.equal(parsed("2020-03-01:15:43:21", "yyyy"), null);
});

Deno.test("field functions handle the other §14.3 entries, NULL and negative times", () => {
  const t = lit("2024-02-29T23:59:59.999999Z");
  assert.equal(sql("days_in_month", t), 29);
  assert.equal(sql("is_leap_year", t), true);
  assert.equal(sql("is_end_of_month", t), true);
  assert.equal(sql("is_end_of_month", lit("2024-02-28")), false);
  assert.equal(sql("is_end_of_month", lit(null)), false);
  assert.equal(sql("is_leap_year", lit(null)), false);
  assert.equal(sql("year", lit(null)), null);
  assert.equal(sql("day_of_week_sunday_first", lit("2024-03-03")), 1); // a Sunday
  assert.equal(sql("day_of_week", lit("2024-03-03")), 7);
  assert.equal(sql("week_of_year", lit("2021-01-03")), 53);
  assert.equal(sql("hour", c(T.TIMESTAMP, -1n)), 23);
  assert.equal(sql("year", c(T.TIMESTAMP, -1n)), 1969);
  assert.equal(sql("nanos", c(T.TIMESTAMP_NS, 1_000_000_123n)), 123);
  assert.equal(sql("micros", c(T.TIMESTAMP_NS, 1_000_456_123n)), 456);
  assert.equal(sql("nanos", ts("2024-01-01")), 0);
  assert.equal(sql("millis", c(T.DATE, 1_704_067_200_123n)), 123);
  assert.equal(sql("year", c(T.LONG, 0n)), 1970);
});

Deno.test("extract supports every documented part", () => {
  const t = lit("2024-03-05T07:08:09.123456Z");
  const want: [string, Value][] = [
    ["millennium", 3],
    ["century", 21],
    ["decade", 202],
    ["year", 2024],
    ["isoyear", 2024],
    ["quarter", 1],
    ["month", 3],
    ["week", 10],
    ["doy", 65],
    ["day", 5],
    ["dow", 2],
    ["isodow", 2],
    ["hour", 7],
    ["minute", 8],
    ["second", 9],
    // Within the second, as QuestDB's ExtractFunctionTest#testMilliseconds expects.
    ["milliseconds", 123n],
    ["microseconds", 123456n],
    ["nanoseconds", 123456000n],
    ["epoch", 1709622489n],
    ["YEAR", 2024],
  ];
  for (const [part, v] of want) assert.equal(sql("extract", lit(part), t), v, part);
  assert.equal(sql("extract", lit("dow"), lit("2024-03-03")), 0);
  assert.equal(sql("extract", lit("isoyear"), lit("2021-01-03")), 2020);
  assert.equal(returns(fn("extract"), [lit("epoch"), t]), "LONG");
  assert.equal(returns(fn("extract"), [lit("year"), t]), "INT");
  assert.throws(
    () => bind(fn("extract"), [lit("eon"), t]),
    (e) => e instanceof SqlError && e.message === "unsupported timestamp part: eon",
  );
});
