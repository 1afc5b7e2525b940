import assert from "node:assert/strict";
import { DATETIME_FUNCTIONS } from "../../../engine/functions/datetime.ts";

Deno.test("every §14 function is registered once", () => {
  const names = DATETIME_FUNCTIONS.map((f) => f.name);
  assert.equal(new Set(names).size, names.length);
  for (
    const n of [
      "now",
      "now_ns",
      "systimestamp",
      "systimestamp_ns",
      "sysdate",
      "today",
      "yesterday",
      "tomorrow",
      "pg_postmaster_start_time",
      "dateadd",
      "datediff",
      "date_trunc",
      "timestamp_floor",
      "timestamp_ceil",
      "interval",
      "interval_start",
      "interval_end",
      "year",
      "month",
      "day",
      "hour",
      "minute",
      "second",
      "millis",
      "micros",
      "nanos",
      "day_of_week",
      "day_of_week_sunday_first",
      "days_in_month",
      "week_of_year",
      "is_leap_year",
      "is_end_of_month",
      "extract",
      "to_timestamp",
      "to_timestamp_ns",
      "to_date",
      "to_str",
      "to_timezone",
      "to_utc",
      "timestamp_sequence",
    ]
  ) {
    assert.ok(names.includes(n), n);
  }
});
