import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { fn, s, sql } from "./_datetime_helpers.ts";
import { c, col, lit, returns } from "./_helpers.ts";

Deno.test("time arguments follow the §14 type rule", () => {
  assert.equal(returns(fn("dateadd"), [s("d"), lit(1), c(T.TIMESTAMP_NS, 0n)]), "TIMESTAMP_NS");
  assert.equal(returns(fn("dateadd"), [s("d"), lit(1), c(T.DATE, 0n)]), "TIMESTAMP");
  assert.equal(
    returns(fn("dateadd"), [s("d"), lit(1), lit("2024-01-01T00:00:00.123456789")]),
    "TIMESTAMP_NS",
  );
  assert.equal(returns(fn("dateadd"), [s("d"), lit(1), lit("2024-01-01T00:00:00.123456")]), "TIMESTAMP");
  assert.equal(returns(fn("date_trunc"), [lit("day"), col(T.TIMESTAMP_NS)]), "TIMESTAMP_NS");
  assert.equal(sql("dateadd", s("n"), lit(1), c(T.TIMESTAMP_NS, 10n)), 11n);
  assert.equal(sql("dateadd", s("d"), lit(1), c(T.DATE, 0n)), 86_400_000_000n);
  assert.equal(typeof fn("dateadd").bind([s("d"), lit(1), c(T.UUID, "x")]), "string");
  assert.equal(typeof fn("year").bind([c(T.DOUBLE, 1.5)]), "string");
});
