import assert from "node:assert/strict";
import { bucketerOf } from "../../../engine/exec/sample_by_buckets.ts";
import type { SampleBySpec } from "../../../engine/plan/plan_node.ts";

const us = (iso: string) => BigInt(Date.parse(iso)) * 1000n;
const iso = (t: bigint) => new Date(Number(t / 1000n)).toISOString();
const spec = (s: Partial<SampleBySpec>): SampleBySpec => ({
  tsIndex: 0,
  stride: 1,
  unit: "h",
  keys: [],
  aggs: [],
  fill: [],
  alignFirstObservation: false,
  offsetMicros: 0n,
  ...s,
});

Deno.test("sample by buckets are epoch aligned: 3d starts 2023-12-31, weeks on Monday", () => {
  const t = us("2024-01-01T10:00:00Z");
  assert.equal(iso(bucketerOf(spec({ stride: 3, unit: "d" }), t).floor(t)), "2023-12-31T00:00:00.000Z");
  assert.equal(iso(bucketerOf(spec({ unit: "w" }), t).floor(t)), "2024-01-01T00:00:00.000Z");
  const m = bucketerOf(spec({ stride: 2, unit: "M" }), t);
  assert.equal(iso(m.floor(us("2024-04-15T00:00:00Z"))), "2024-03-01T00:00:00.000Z");
  assert.equal(iso(m.next(us("2024-03-01T00:00:00Z"))), "2024-05-01T00:00:00.000Z");
});

Deno.test("sample by day buckets follow local midnight across a DST change", () => {
  const b = bucketerOf(spec({ unit: "d", timeZone: "Europe/Berlin" }), us("2021-10-31T12:00:00Z"));
  const start = b.floor(us("2021-10-31T12:00:00Z"));
  assert.equal(iso(start), "2021-10-30T22:00:00.000Z");
  assert.equal(iso(b.next(start)), "2021-10-31T23:00:00.000Z");
});

Deno.test("sample by offset and FROM move the origin", () => {
  const b = bucketerOf(
    spec({ unit: "d", from: us("2024-01-01T00:00:00Z"), offsetMicros: 7_200_000_000n }),
    0n,
  );
  assert.equal(iso(b.first!), "2024-01-01T02:00:00.000Z");
  assert.equal(iso(b.floor(us("2024-01-02T12:00:00Z"))), "2024-01-02T02:00:00.000Z");
  const f = bucketerOf(spec({ alignFirstObservation: true }), us("2024-01-01T00:30:00Z"));
  assert.equal(iso(f.floor(us("2024-01-01T02:45:00Z"))), "2024-01-01T02:30:00.000Z");
});
