import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { fn, sql, sqlTs, ts, tsText } from "./_datetime_helpers.ts";
import { bind, c, call, col, lit, returns } from "./_helpers.ts";

Deno.test("the §14.4 example row", () => {
  assert.equal(
    tsText(sql("to_timestamp", lit("2024-03-05 07:08:09"), lit("yyyy-MM-dd HH:mm:ss"))),
    "2024-03-05T07:08:09.000000Z",
  );
  assert.equal(
    tsText(sql("to_timestamp", lit("05/03/2024"), lit("dd/MM/yyyy"))),
    "2024-03-05T00:00:00.000000Z",
  );
  assert.equal(sql("to_timestamp", lit("2024-03-05"), lit("yyyy")), null);
  assert.equal(
    sql("to_str", lit("2024-03-05T07:08:09.123456Z"), lit("yyyy-MM-dd HH:mm:ss.SSSUUU")),
    "2024-03-05 07:08:09.123456",
  );
  assert.equal(sql("to_str", ts("2024-03-05T07:08:09Z"), lit("EE, dd MMM yyyy")), "Tuesday, 05 Mar 2024");
  assert.equal(
    sqlTs("to_timezone", lit("2024-06-01T12:00:00Z"), lit("Europe/Berlin")),
    "2024-06-01T14:00:00.000000Z",
  );
  assert.equal(
    sqlTs("to_utc", lit("2024-06-01T12:00:00Z"), lit("Europe/Berlin")),
    "2024-06-01T10:00:00.000000Z",
  );
});

Deno.test("to_timezone takes integer microseconds and offset strings (QuestDB docs)", () => {
  assert.equal(
    sqlTs("to_timezone", c(T.LONG, 1623167145000000n), lit("Europe/Berlin")),
    "2021-06-08T17:45:45.000000Z",
  );
  assert.equal(
    sqlTs("to_timezone", c(T.LONG, 1623167145000000n), lit("-08:00")),
    "2021-06-08T07:45:45.000000Z",
  );
  assert.equal(
    sqlTs("to_utc", lit("2021-10-31T02:30:00"), lit("Europe/Riga")),
    "2021-10-30T23:30:00.000000Z",
  );
  assert.equal(
    sqlTs("to_utc", lit("2021-03-14T02:30:00"), lit("America/New_York")),
    "2021-03-14T07:30:00.000000Z",
  );
  assert.equal(sql("to_timezone", lit(null), lit("UTC")), null);
  assert.throws(
    () => bind(fn("to_timezone"), [lit("2021-01-01"), lit("Nowhere")]),
    /invalid timezone: Nowhere/,
  );
  // A per-row zone that does not resolve leaves the value unchanged.
  assert.equal(
    call(fn("to_timezone"), [ts("2021-01-01"), col(T.STRING)], [1609459200000000n, "Nowhere"]),
    1609459200000000n,
  );
  assert.equal(
    call(fn("to_timezone"), [ts("2021-01-01"), col(T.STRING)], [1609459200000000n, "+01:00"]),
    1609462800000000n,
  );
});

Deno.test("to_timestamp_ns, to_date and the one-argument to_timestamp", () => {
  assert.equal(
    sql("to_timestamp_ns", lit("2024-01-01 00:00:00.123456789"), lit("yyyy-MM-dd HH:mm:ss.N+")),
    1704067200123456789n,
  );
  assert.equal(returns(fn("to_timestamp_ns"), [lit("x"), lit("y")]), "TIMESTAMP_NS");
  assert.equal(sql("to_date", lit("2024-01-01 10"), lit("yyyy-MM-dd HH")), 1704103200000n);
  assert.equal(returns(fn("to_date"), [lit("x"), lit("y")]), "DATE");
  assert.equal(sql("to_timestamp", lit("2024-01-01T10:00:00Z")), 1704103200000000n);
  assert.equal(sql("to_timestamp", lit("garbage")), null);
  assert.equal(
    call(fn("to_timestamp"), [col(T.VARCHAR), col(T.STRING)], ["2024", "yyyy"]),
    1704067200000000n,
  );
});

Deno.test("to_str formats DATE and TIMESTAMP_NS in their own units", () => {
  assert.equal(
    sql("to_str", c(T.DATE, 1704067200123n), lit("yyyy-MM-dd HH:mm:ss.SSS")),
    "2024-01-01 00:00:00.123",
  );
  assert.equal(sql("to_str", c(T.TIMESTAMP_NS, 1704067200123456789n), lit("ss.N+")), "00.123456789");
  assert.equal(sql("to_str", lit(null), lit("yyyy")), null);
  // Quoted text is literal, as QuestDB's format compiler (TimestampFormatCompilerTest).
  assert.equal(sql("to_str", ts("2024-01-01"), lit("'at' yyyy")), "at 2024");
});

Deno.test("to_pg_date parses y-MM-dd text into a DATE, NULL otherwise", () => {
  // VarcharFunctionsTest#testToPgDate
  assert.equal(sql("to_pg_date", lit("1999-07-05")), 931132800000n);
  assert.equal(sql("to_pg_date", lit("5 Jul 1999")), null);
  assert.equal(returns(fn("to_pg_date"), [col(T.VARCHAR)]), "DATE");
});
