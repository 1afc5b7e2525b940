import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import { T } from "../../../engine/base/types.ts";
import type { Interval, Value } from "../../../engine/base/values.ts";
import { DATETIME_FUNCTIONS } from "../../../engine/functions/datetime.ts";
import { formatTicks } from "../../../engine/functions/format_value.ts";
import type { BoundArg } from "../../../engine/functions/registry_types.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";
import { bind, c, call, col, find, lit, returns, testContext } from "./_helpers.ts";

const fn = (name: string) => find(DATETIME_FUNCTIONS, name);
/** A one-character literal is CHAR (§1.3), a longer one STRING. */
const s = (text: string) => (text.length === 1 ? c(T.CHAR, text) : c(T.STRING, text));
const ts = (iso: string) => c(T.TIMESTAMP, parseTimestamp(iso, "us")!);
const tsText = (v: Value) => (v === null ? null : formatTicks(v as bigint, "us"));
const sql = (name: string, ...args: BoundArg[]) => call(fn(name), args);
const sqlTs = (name: string, ...args: BoundArg[]) => tsText(sql(name, ...args));

Deno.test("the §14.2 example row", () => {
  assert.equal(sqlTs("dateadd", s("M"), lit(1), lit("2024-01-31T10:00:00Z")), "2024-02-29T10:00:00.000000Z");
  assert.equal(sqlTs("dateadd", s("h"), lit(-2), lit("2024-01-01T01:00:00Z")), "2023-12-31T23:00:00.000000Z");
  assert.equal(sql("datediff", s("d"), lit("2024-01-03T23:00:00Z"), lit("2024-01-01")), 2n);
  assert.equal(sql("datediff", s("M"), lit("2024-01-31"), lit("2024-02-29")), 0n);
  assert.equal(sql("datediff", s("M"), lit("2024-01-15"), lit("2024-02-15")), 1n);
  assert.equal(sqlTs("date_trunc", lit("week"), lit("2024-03-07T12:34:56Z")), "2024-03-04T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_floor", lit("5d"), lit("2018-01-01")), "2017-12-30T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_floor", lit("15m"), lit("2024-01-01T10:37:12Z")), "2024-01-01T10:30:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("h"), lit("2024-01-01T10:37:12Z")), "2024-01-01T11:00:00.000000Z");
});

Deno.test("QuestDB documentation and test cases for §14.2", () => {
  assert.equal(sqlTs("date_trunc", lit("year"), ts("2017-03-17T02:09:30.111111Z")), "2017-01-01T00:00:00.000000Z");
  assert.equal(sql("date_trunc", lit("month"), lit(null)), null);
  assert.equal(returns(fn("date_trunc"), [lit("month"), lit(null)]), "TIMESTAMP");
  assert.equal(sql("datediff", s("M"), lit("2020-01-23"), lit("2020-02-27")), 1n);
  assert.equal(sqlTs("timestamp_floor", lit("5d"), lit("2018-01-01"), lit("2018-01-01")), "2018-01-01T00:00:00.000000Z");
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
  assert.equal(sqlTs("dateadd", s("d"), lit(1), lit("2021-03-27T11:00:00Z"), lit("Europe/Berlin")), "2021-03-28T10:00:00.000000Z");
  // Hours too are added to the wall clock, so 24h across the gap is 23 real hours.
  assert.equal(sqlTs("dateadd", s("h"), lit(24), lit("2021-03-27T11:00:00Z"), lit("Europe/Berlin")), "2021-03-28T10:00:00.000000Z");
  assert.equal(sqlTs("dateadd", s("h"), lit(1), lit("2021-10-31T00:30:00Z"), lit("Europe/Berlin")), "2021-10-31T02:30:00.000000Z");
  assert.equal(sqlTs("dateadd", s("d"), lit(1), lit("2021-03-27T11:00:00Z")), "2021-03-28T11:00:00.000000Z");
  assert.throws(() => bind(fn("dateadd"), [s("d"), lit(1), lit("2021-01-01"), lit("Mars/Base")]), /invalid timezone: Mars\/Base/);
});

Deno.test("datediff is absolute and truncates, in every unit", () => {
  const a = lit("2024-01-01T00:00:00Z");
  const b = lit("2025-03-02T12:30:45.678901Z");
  const cases: [string, bigint][] = [
    ["y", 1n], ["M", 14n], ["w", 60n], ["d", 426n], ["h", 10236n], ["m", 614190n], ["s", 36851445n],
    ["T", 36851445678n], ["u", 36851445678901n], ["n", 36851445678901000n],
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
  assert.equal(sqlTs("timestamp_floor", lit("1h"), t, lit("2024-05-17T00:30:00Z")), "2024-05-17T12:30:00.000000Z");
  assert.equal(sqlTs("timestamp_floor", lit("2M"), t, lit("2024-02-15")), "2024-04-15T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_floor", lit("1d"), t, lit("2025-01-01")), "2025-01-01T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_floor", lit("h"), lit("1969-12-31T23:30:00Z")), "1969-12-31T23:00:00.000000Z");
  assert.throws(() => bind(fn("timestamp_floor"), [lit("5x"), t]), /invalid unit '5x'/);
});

Deno.test("timestamp_ceil keeps aligned values and rounds others up", () => {
  assert.equal(sqlTs("timestamp_ceil", s("h"), lit("2024-01-01T10:00:00Z")), "2024-01-01T10:00:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("d"), lit("2024-01-01T10:00:00Z")), "2024-01-02T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("M"), lit("2024-01-31T10:00:00Z")), "2024-02-01T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("y"), lit("2024-01-31T10:00:00Z")), "2025-01-01T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("w"), lit("2024-01-02T00:00:00Z")), "2024-01-08T00:00:00.000000Z");
  assert.equal(sqlTs("timestamp_ceil", s("T"), lit("2024-01-02T00:00:00.000001Z")), "2024-01-02T00:00:00.001000Z");
});

Deno.test("the §14.3 example row", () => {
  const t = lit("2024-03-05T07:08:09.123456Z");
  const want: [string, Value][] = [
    ["year", 2024], ["month", 3], ["day", 5], ["hour", 7], ["minute", 8], ["second", 9], ["millis", 123],
    ["micros", 456], ["day_of_week", 2], ["week_of_year", 10],
  ];
  for (const [name, v] of want) assert.equal(sql(name, t), v, name);
  assert.equal(sql("extract", lit("quarter"), t), 1);
});

Deno.test("QuestDB documentation cases for day and micros of to_timestamp", () => {
  const parsed = (text: string, fmt: string) => call(fn("to_timestamp"), [lit(text), lit(fmt)]);
  assert.equal(call(fn("day"), [col(T.TIMESTAMP)], [parsed("2020-03-01:15:43:21", "yyyy-MM-dd:HH:mm:ss")]), 1);
  assert.equal(call(fn("micros"), [col(T.TIMESTAMP)], [parsed("2020-03-01:15:43:21.123456", "yyyy-MM-dd:HH:mm:ss.SSSUUU")]), 456);
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
    ["millennium", 3], ["century", 21], ["decade", 202], ["year", 2024], ["isoyear", 2024], ["quarter", 1],
    ["month", 3], ["week", 10], ["doy", 65], ["day", 5], ["dow", 2], ["isodow", 2], ["hour", 7],
    ["minute", 8], ["second", 9], ["milliseconds", 9123n], ["microseconds", 9123456n],
    ["nanoseconds", 9123456000n], ["epoch", 1709622489n], ["YEAR", 2024],
  ];
  for (const [part, v] of want) assert.equal(sql("extract", lit(part), t), v, part);
  assert.equal(sql("extract", lit("dow"), lit("2024-03-03")), 0);
  assert.equal(sql("extract", lit("isoyear"), lit("2021-01-03")), 2020);
  assert.equal(returns(fn("extract"), [lit("epoch"), t]), "LONG");
  assert.equal(returns(fn("extract"), [lit("year"), t]), "INT");
  assert.throws(() => bind(fn("extract"), [lit("eon"), t]), (e) => e instanceof SqlError && e.message === "unsupported part 'eon'");
});

Deno.test("the §14.4 example row", () => {
  assert.equal(tsText(sql("to_timestamp", lit("2024-03-05 07:08:09"), lit("yyyy-MM-dd HH:mm:ss"))), "2024-03-05T07:08:09.000000Z");
  assert.equal(tsText(sql("to_timestamp", lit("05/03/2024"), lit("dd/MM/yyyy"))), "2024-03-05T00:00:00.000000Z");
  assert.equal(sql("to_timestamp", lit("2024-03-05"), lit("yyyy")), null);
  assert.equal(sql("to_str", lit("2024-03-05T07:08:09.123456Z"), lit("yyyy-MM-dd HH:mm:ss.SSSUUU")), "2024-03-05 07:08:09.123456");
  assert.equal(sql("to_str", ts("2024-03-05T07:08:09Z"), lit("EE, dd MMM yyyy")), "Tuesday, 05 Mar 2024");
  assert.equal(sqlTs("to_timezone", lit("2024-06-01T12:00:00Z"), lit("Europe/Berlin")), "2024-06-01T14:00:00.000000Z");
  assert.equal(sqlTs("to_utc", lit("2024-06-01T12:00:00Z"), lit("Europe/Berlin")), "2024-06-01T10:00:00.000000Z");
});

Deno.test("to_timezone takes integer microseconds and offset strings (QuestDB docs)", () => {
  assert.equal(sqlTs("to_timezone", c(T.LONG, 1623167145000000n), lit("Europe/Berlin")), "2021-06-08T17:45:45.000000Z");
  assert.equal(sqlTs("to_timezone", c(T.LONG, 1623167145000000n), lit("-08:00")), "2021-06-08T07:45:45.000000Z");
  assert.equal(sqlTs("to_utc", lit("2021-10-31T02:30:00"), lit("Europe/Riga")), "2021-10-30T23:30:00.000000Z");
  assert.equal(sqlTs("to_utc", lit("2021-03-14T02:30:00"), lit("America/New_York")), "2021-03-14T07:30:00.000000Z");
  assert.equal(sql("to_timezone", lit(null), lit("UTC")), null);
  assert.throws(() => bind(fn("to_timezone"), [lit("2021-01-01"), lit("Nowhere")]), /invalid timezone: Nowhere/);
  // A per-row zone that does not resolve leaves the value unchanged.
  assert.equal(call(fn("to_timezone"), [ts("2021-01-01"), col(T.STRING)], [1609459200000000n, "Nowhere"]), 1609459200000000n);
  assert.equal(call(fn("to_timezone"), [ts("2021-01-01"), col(T.STRING)], [1609459200000000n, "+01:00"]), 1609462800000000n);
});

Deno.test("to_timestamp_ns, to_date and the one-argument to_timestamp", () => {
  assert.equal(sql("to_timestamp_ns", lit("2024-01-01 00:00:00.123456789"), lit("yyyy-MM-dd HH:mm:ss.N+")), 1704067200123456789n);
  assert.equal(returns(fn("to_timestamp_ns"), [lit("x"), lit("y")]), "TIMESTAMP_NS");
  assert.equal(sql("to_date", lit("2024-01-01 10"), lit("yyyy-MM-dd HH")), 1704103200000n);
  assert.equal(returns(fn("to_date"), [lit("x"), lit("y")]), "DATE");
  assert.equal(sql("to_timestamp", lit("2024-01-01T10:00:00Z")), 1704103200000000n);
  assert.equal(sql("to_timestamp", lit("garbage")), null);
  assert.equal(call(fn("to_timestamp"), [col(T.VARCHAR), col(T.STRING)], ["2024", "yyyy"]), 1704067200000000n);
});

Deno.test("to_str formats DATE and TIMESTAMP_NS in their own units", () => {
  assert.equal(sql("to_str", c(T.DATE, 1704067200123n), lit("yyyy-MM-dd HH:mm:ss.SSS")), "2024-01-01 00:00:00.123");
  assert.equal(sql("to_str", c(T.TIMESTAMP_NS, 1704067200123456789n), lit("ss.N+")), "00.123456789");
  assert.equal(sql("to_str", lit(null), lit("yyyy")), null);
  // Quotes do not escape letters: `a` is still AM/PM (§14.5 has no quoting).
  assert.equal(sql("to_str", ts("2024-01-01"), lit("'at' yyyy")), "'AMt' 2024");
});

Deno.test("time arguments follow the §14 type rule", () => {
  assert.equal(returns(fn("dateadd"), [s("d"), lit(1), c(T.TIMESTAMP_NS, 0n)]), "TIMESTAMP_NS");
  assert.equal(returns(fn("dateadd"), [s("d"), lit(1), c(T.DATE, 0n)]), "TIMESTAMP");
  assert.equal(returns(fn("dateadd"), [s("d"), lit(1), lit("2024-01-01T00:00:00.123456789")]), "TIMESTAMP_NS");
  assert.equal(returns(fn("dateadd"), [s("d"), lit(1), lit("2024-01-01T00:00:00.123456")]), "TIMESTAMP");
  assert.equal(returns(fn("date_trunc"), [lit("day"), col(T.TIMESTAMP_NS)]), "TIMESTAMP_NS");
  assert.equal(sql("dateadd", s("n"), lit(1), c(T.TIMESTAMP_NS, 10n)), 11n);
  assert.equal(sql("dateadd", s("d"), lit(1), c(T.DATE, 0n)), 86_400_000_000n);
  assert.equal(typeof fn("dateadd").bind([s("d"), lit(1), c(T.UUID, "x")]), "string");
  assert.equal(typeof fn("year").bind([c(T.DOUBLE, 1.5)]), "string");
});

Deno.test("clock functions read the query clock or the wall clock", () => {
  const ctx = testContext();
  assert.equal(call(fn("now"), [], [], ctx), ctx.nowMicros);
  assert.equal(call(fn("now_ns"), [], [], ctx), ctx.nowMicros * 1000n);
  assert.equal(bind(fn("systimestamp"), []).deterministic, false);
  const wall = call(fn("systimestamp"), []) as bigint;
  assert.ok(wall > 1_700_000_000_000_000n);
  assert.equal(returns(fn("sysdate"), []), "DATE");
  assert.ok((call(fn("sysdate"), []) as bigint) > 1_700_000_000_000n);
  assert.ok((call(fn("systimestamp_ns"), []) as bigint) > 1_700_000_000_000_000_000n);
  assert.ok((call(fn("pg_postmaster_start_time"), []) as bigint) <= wall);
});

Deno.test("today, yesterday and tomorrow are UTC or local days as intervals", () => {
  const ctx = { ...testContext(), nowMicros: parseTimestamp("2024-06-01T23:30:00Z", "us")! };
  const day = (name: string, ...args: BoundArg[]) => {
    const i = call(fn(name), args, undefined, ctx) as Interval;
    return `${tsText(i.lo)} ${tsText(i.hi)}`;
  };
  assert.equal(day("today"), "2024-06-01T00:00:00.000000Z 2024-06-01T23:59:59.999999Z");
  assert.equal(day("yesterday"), "2024-05-31T00:00:00.000000Z 2024-05-31T23:59:59.999999Z");
  assert.equal(day("tomorrow"), "2024-06-02T00:00:00.000000Z 2024-06-02T23:59:59.999999Z");
  // 23:30Z is already June 2nd in Berlin (CEST).
  assert.equal(day("today", lit("Europe/Berlin")), "2024-06-01T22:00:00.000000Z 2024-06-02T21:59:59.999999Z");
  assert.equal(returns(fn("today"), []), "INTERVAL");
});

Deno.test("interval, interval_start and interval_end", () => {
  const i = sql("interval", lit("2024-10-08T11:09:47.573Z"), lit("2024-10-09T11:09:47.573Z")) as Interval;
  assert.equal(tsText(i.lo), "2024-10-08T11:09:47.573000Z");
  assert.equal(tsText(sql("interval_end", c(T.INTERVAL, i))), "2024-10-09T11:09:47.573000Z");
  assert.equal(tsText(sql("interval_start", c(T.INTERVAL, i))), "2024-10-08T11:09:47.573000Z");
  assert.equal(sql("interval", lit(null), lit("2024")), null);
  assert.throws(() => sql("interval", lit("2025"), lit("2024")), /invalid interval boundaries/);
});

Deno.test("timestamp_sequence reproduces the §16.1 example and restarts per execution", () => {
  const b = bind(fn("timestamp_sequence"), [lit("2024-01-01"), c(T.LONG, 1000000n)]);
  assert.equal(b.deterministic, false);
  const start = parseTimestamp("2024-01-01", "us")!;
  const ctx = testContext();
  const rows = [0, 1, 2].map(() => tsText(b.eval([start, 1000000n], ctx)));
  assert.deepEqual(rows, ["2024-01-01T00:00:00.000000Z", "2024-01-01T00:00:01.000000Z", "2024-01-01T00:00:02.000000Z"]);
  assert.equal(tsText(b.eval([start, 1000000n], testContext())), "2024-01-01T00:00:00.000000Z");
  const z = bind(fn("timestamp_sequence"), [lit(0), lit(1000000)]);
  assert.deepEqual([z.eval([0n, 1000000], ctx), z.eval([0n, 5], ctx), z.eval([0n, 5], ctx)], [0n, 1000000n, 1000005n]);
  assert.equal(returns(fn("timestamp_sequence_ns"), [lit(0), lit(1)]), "TIMESTAMP_NS");
});

Deno.test("timestamp_shuffle stays within its bounds", () => {
  const b = bind(fn("timestamp_shuffle"), [lit("2024-01-01"), lit("2024-01-02")]);
  const ctx = testContext();
  const lo = parseTimestamp("2024-01-01", "us")!;
  const hi = parseTimestamp("2024-01-02", "us")!;
  for (let i = 0; i < 50; i++) {
    const v = b.eval([hi, lo], ctx) as bigint;
    assert.ok(v >= lo && v <= hi);
  }
});

Deno.test("every §14 function is registered once", () => {
  const names = DATETIME_FUNCTIONS.map((f) => f.name);
  assert.equal(new Set(names).size, names.length);
  for (const n of ["now", "now_ns", "systimestamp", "systimestamp_ns", "sysdate", "today", "yesterday", "tomorrow",
    "pg_postmaster_start_time", "dateadd", "datediff", "date_trunc", "timestamp_floor", "timestamp_ceil", "interval",
    "interval_start", "interval_end", "year", "month", "day", "hour", "minute", "second", "millis", "micros", "nanos",
    "day_of_week", "day_of_week_sunday_first", "days_in_month", "week_of_year", "is_leap_year", "is_end_of_month",
    "extract", "to_timestamp", "to_timestamp_ns", "to_date", "to_str", "to_timezone", "to_utc", "timestamp_sequence"]) {
    assert.ok(names.includes(n), n);
  }
});
