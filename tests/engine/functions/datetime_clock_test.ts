import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";
import type { Interval } from "../../../engine/base/values.ts";
import type { BoundArg } from "../../../engine/functions/registry_types.ts";
import { fn, sql, tsText } from "./_datetime_helpers.ts";
import { bind, c, call, lit, returns, testContext } from "./_helpers.ts";

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
