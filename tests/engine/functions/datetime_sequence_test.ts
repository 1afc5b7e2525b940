import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";
import { fn, tsText } from "./_datetime_helpers.ts";
import { bind, c, lit, returns, testContext } from "./_helpers.ts";

Deno.test("timestamp_sequence reproduces the §16.1 example and restarts per execution", () => {
  const b = bind(fn("timestamp_sequence"), [lit("2024-01-01"), c(T.LONG, 1000000n)]);
  assert.equal(b.deterministic, false);
  const start = parseTimestamp("2024-01-01", "us")!;
  const ctx = testContext();
  const rows = [0, 1, 2].map(() => tsText(b.eval([start, 1000000n], ctx)));
  assert.deepEqual(rows, [
    "2024-01-01T00:00:00.000000Z",
    "2024-01-01T00:00:01.000000Z",
    "2024-01-01T00:00:02.000000Z",
  ]);
  assert.equal(tsText(b.eval([start, 1000000n], testContext())), "2024-01-01T00:00:00.000000Z");
  const z = bind(fn("timestamp_sequence"), [lit(0), lit(1000000)]);
  assert.deepEqual([z.eval([0n, 1000000], ctx), z.eval([0n, 5], ctx), z.eval([0n, 5], ctx)], [
    0n,
    1000000n,
    1000005n,
  ]);
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
