import assert from "node:assert/strict";
import { fn, s, sql, sqlTs, ts } from "./_datetime_helpers.ts";
import { bind, lit, returns } from "./_helpers.ts";

Deno.test("the §14.2 example row", () => {
  assert.equal(sqlTs("dateadd", s("M"), lit(1), lit("2024-01-31T10:00:00Z")), "2024-02-29T10:00:00.000000Z");
  assert.equal(sqlTs("dateadd", s("h"), lit(-2), lit("2024-01-01T01:00:00Z")), "2023-12-31T23:00:00.000000Z");
  assert.equal(sql("datediff", s("d"), lit("2024-01-03T23:00:00Z"), lit("2024-01-01")), 2n);
  assert.equal(sql("datediff", s("M"), lit("2024-01-31"), lit("2024-02-29")), 0n);
  assert.equal(sql("datediff", s("M"), lit("2024-01-15"), lit("2024-02-15")), 1n);
  assert.equal(sqlTs("date_trunc", lit("week"), lit("2024-03-07T12:34:56Z")), "2024-03-04T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_floor", lit("5d"), lit("2018-01-01")), "2017-12-30T00:00:00.000000Z");
  assert.equal(
    sqlTs("timestamp_floor", lit("15m"), lit("2024-01-01T10:37:12Z")),
    "2024-01-01T10:30:00.000000Z",
  );
  assert.equal(sqlTs("timestamp_ceil", s("h"), lit("2024-01-01T10:37:12Z")), "2024-01-01T11:00:00.000000Z");
});

Deno.test("QuestDB documentation and test cases for §14.2", () => {
  assert.equal(
    sqlTs("date_trunc", lit("year"), ts("2017-03-17T02:09:30.111111Z")),
    "2017-01-01T00:00:00.000000Z",
  );
  assert.equal(sql("date_trunc", lit("month"), lit(null)), null);
  assert.equal(returns(fn("date_trunc"), [lit("month"), lit(null)]), "TIMESTAMP");
  assert.equal(sql("datediff", s("M"), lit("2020-01-23"), lit("2020-02-27")), 1n);
  assert.equal(
    sqlTs("timestamp_floor", lit("5d"), lit("2018-01-01"), lit("2018-01-01")),
    "2018-01-01T00:00:00.000000Z",
  );
});

Deno.test("dateadd covers every unit and clamps month ends", () => {
  const base = lit("2024-01-31T10:00:00.000001Z");
  const cases: [string, number, string][] = [
    ["n", 1500, "2024-01-31T10:00:00.000002Z"],
    ["u", 5, "2024-01-31T10:00:00.000006Z"],
    ["T", 5, "2024-01-31T10:00:00.005001Z"],
    ["s", 5, "2024-01-31T10:00:05.000001Z"],
    ["m", -5, "2024-01-31T09:55:00.000001Z"],
    ["d", 1, "2024-02-01T10:00:00.000001Z"],
    ["w", 1, "2024-02-07T10:00:00.000001Z"],
    ["M", 13, "2025-02-28T10:00:00.000001Z"],
    ["y", 1, "2025-01-31T10:00:00.000001Z"],
    ["M", -2, "2023-11-30T10:00:00.000001Z"],
  ];
  for (const [unit, n, want] of cases) assert.equal(sqlTs("dateadd", s(unit), lit(n), base), want, unit);
  assert.equal(sqlTs("dateadd", s("y"), lit(1), lit("2024-02-29")), "2025-02-28T00:00:00.000000Z");
  assert.equal(sql("dateadd", s("d"), lit(null), base), null);
  assert.throws(() => bind(fn("dateadd"), [s("x"), lit(1), base]), /invalid unit 'x'/);
});

Deno.test("dateadd with a time zone adds on local wall-clock time across DST", () => {
  // 2021-03-27T12:00 Berlin (CET) + 1 day = 2021-03-28T12:00 Berlin (CEST): 23 hours later.
  assert.equal(
    sqlTs("dateadd", s("d"), lit(1), lit("2021-03-27T11:00:00Z"), lit("Europe/Berlin")),
    "2021-03-28T10:00:00.000000Z",
  );
  // Hours too are added to the wall clock, so 24h across the gap is 23 real hours.
  assert.equal(
    sqlTs("dateadd", s("h"), lit(24), lit("2021-03-27T11:00:00Z"), lit("Europe/Berlin")),
    "2021-03-28T10:00:00.000000Z",
  );
  assert.equal(
    sqlTs("dateadd", s("h"), lit(1), lit("2021-10-31T00:30:00Z"), lit("Europe/Berlin")),
    "2021-10-31T02:30:00.000000Z",
  );
  assert.equal(sqlTs("dateadd", s("d"), lit(1), lit("2021-03-27T11:00:00Z")), "2021-03-28T11:00:00.000000Z");
  assert.throws(
    () => bind(fn("dateadd"), [s("d"), lit(1), lit("2021-01-01"), lit("Mars/Base")]),
    /invalid timezone: Mars\/Base/,
  );
});

Deno.test("datediff is absolute and truncates, in every unit", () => {
  const a = lit("2024-01-01T00:00:00Z");
  const b = lit("2025-03-02T12:30:45.678901Z");
  const cases: [string, bigint][] = [
    ["y", 1n],
    ["M", 14n],
    ["w", 60n],
    ["d", 426n],
    ["h", 10236n],
    ["m", 614190n],
    ["s", 36851445n],
    ["T", 36851445678n],
    ["u", 36851445678901n],
    ["n", 36851445678901000n],
  ];
  for (const [unit, want] of cases) {
    assert.equal(sql("datediff", s(unit), a, b), want, unit);
    assert.equal(sql("datediff", s(unit), b, a), want, unit);
  }
  assert.equal(sql("datediff", s("y"), lit("2024-02-29"), lit("2025-02-28")), 0n);
  assert.equal(sql("datediff", s("d"), lit(null), a), null);
  assert.equal(returns(fn("datediff"), [s("d"), a, b]), "LONG");
});

Deno.test("date_trunc knows every unit from millennium to nanosecond", () => {
  const t = lit("2024-05-17T13:14:15.123456Z");
  const cases: [string, string][] = [
    ["millennium", "2001-01-01T00:00:00.000000Z"],
    ["century", "2001-01-01T00:00:00.000000Z"],
    ["decade", "2020-01-01T00:00:00.000000Z"],
    ["year", "2024-01-01T00:00:00.000000Z"],
    ["quarter", "2024-04-01T00:00:00.000000Z"],
    ["month", "2024-05-01T00:00:00.000000Z"],
    ["week", "2024-05-13T00:00:00.000000Z"],
    ["day", "2024-05-17T00:00:00.000000Z"],
    ["hour", "2024-05-17T13:00:00.000000Z"],
    ["minute", "2024-05-17T13:14:00.000000Z"],
    ["second", "2024-05-17T13:14:15.000000Z"],
    ["millisecond", "2024-05-17T13:14:15.123000Z"],
    ["microsecond", "2024-05-17T13:14:15.123456Z"],
    ["nanosecond", "2024-05-17T13:14:15.123456Z"],
    ["MONTH", "2024-05-01T00:00:00.000000Z"],
  ];
  for (const [unit, want] of cases) assert.equal(sqlTs("date_trunc", lit(unit), t), want, unit);
  assert.throws(() => bind(fn("date_trunc"), [lit("fortnight"), t]), /invalid unit 'fortnight'/);
});

Deno.test("timestamp_floor covers strides, weeks, months, years and origins", () => {
  const t = lit("2024-05-17T13:14:15.123456Z");
  const cases: [string, string][] = [
    ["h", "2024-05-17T13:00:00.000000Z"],
    ["2h", "2024-05-17T12:00:00.000000Z"],
    ["100T", "2024-05-17T13:14:15.100000Z"],
    ["10U", "2024-05-17T13:14:15.123450Z"],
    ["w", "2024-05-13T00:00:00.000000Z"],
    ["M", "2024-05-01T00:00:00.000000Z"],
    ["3M", "2024-04-01T00:00:00.000000Z"],
    ["y", "2024-01-01T00:00:00.000000Z"],
    ["5y", "2020-01-01T00:00:00.000000Z"],
    ["1500n", "2024-05-17T13:14:15.123456Z"],
  ];
  for (const [stride, want] of cases) assert.equal(sqlTs("timestamp_floor", lit(stride), t), want, stride);
  assert.equal(
    sqlTs("timestamp_floor", lit("1h"), t, lit("2024-05-17T00:30:00Z")),
    "2024-05-17T12:30:00.000000Z",
  );
  assert.equal(sqlTs("timestamp_floor", lit("2M"), t, lit("2024-02-15")), "2024-04-15T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_floor", lit("1d"), t, lit("2025-01-01")), "2025-01-01T00:00:00.000000Z");
  assert.equal(
    sqlTs("timestamp_floor", lit("h"), lit("1969-12-31T23:30:00Z")),
    "1969-12-31T23:00:00.000000Z",
  );
  assert.throws(() => bind(fn("timestamp_floor"), [lit("5x"), t]), /invalid unit '5x'/);
});

Deno.test("timestamp_ceil keeps aligned values and rounds others up", () => {
  assert.equal(sqlTs("timestamp_ceil", s("h"), lit("2024-01-01T10:00:00Z")), "2024-01-01T10:00:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("d"), lit("2024-01-01T10:00:00Z")), "2024-01-02T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("M"), lit("2024-01-31T10:00:00Z")), "2024-02-01T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("y"), lit("2024-01-31T10:00:00Z")), "2025-01-01T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("w"), lit("2024-01-02T00:00:00Z")), "2024-01-08T00:00:00.000000Z");
  assert.equal(
    sqlTs("timestamp_ceil", s("T"), lit("2024-01-02T00:00:00.000001Z")),
    "2024-01-02T00:00:00.001000Z",
  );
});
