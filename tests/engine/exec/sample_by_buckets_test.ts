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

Deno.test("a bucketer's grid floors as its floor does, and is absent where buckets differ in length", () => {
  const t0 = us("2024-03-30T10:17:00Z");
  const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));
  const cases: Partial<SampleBySpec>[] = [
    { stride: 1, unit: "m" },
    { stride: 7, unit: "s", offsetMicros: 1_234_567n },
    { stride: 3, unit: "d" },
    { unit: "w" },
    { stride: 15, unit: "m", from: us("2024-03-01T00:07:00Z"), offsetMicros: -60_000_000n },
    { stride: 2, unit: "h", timeZone: "Europe/Berlin" },
    { stride: 90, unit: "s", timeZone: "+05:30" },
    { stride: 5, unit: "m", nanos: true },
  ];
  for (const c of cases) {
    const s = spec(c);
    const first = s.nanos ? t0 * 1000n : t0;
    const b = bucketerOf(s, first);
    assert.ok(b.grid, `${JSON.stringify(c, (_k, v) => typeof v === "bigint" ? `${v}` : v)}: a grid`);
    for (let i = -50; i < 50; i++) {
      // Timestamps around the first, some on bucket edges, some far before the epoch.
      const t = first + BigInt(i) * 37_000_123n * (s.nanos ? 1000n : 1n) + (i % 3 === 0 ? -1n : 0n);
      for (const x of [t, -t]) {
        const g: { origin: bigint; stride: bigint } = b.grid!;
        assert.equal(g.origin + floorDiv(x - g.origin, g.stride) * g.stride, b.floor(x), `${x}`);
      }
    }
  }
  // Months, years, day strides in a zone with DST and FIRST OBSERVATION have none.
  assert.equal(bucketerOf(spec({ unit: "M" }), t0).grid, undefined);
  assert.equal(bucketerOf(spec({ unit: "y" }), t0).grid, undefined);
  assert.equal(bucketerOf(spec({ unit: "d", timeZone: "Europe/Berlin" }), t0).grid, undefined);
  assert.equal(bucketerOf(spec({ unit: "m", alignFirstObservation: true }), t0).grid, undefined);
  // FROM with a positive offset: rows of [FROM, FROM + offset) join the first bucket.
  const clamped = bucketerOf(spec({ stride: 15, unit: "m", from: t0, offsetMicros: 60_000_000n }), t0);
  assert.equal(clamped.grid, undefined);
  assert.equal(clamped.floor(t0), t0 + 60_000_000n);
  assert.equal(clamped.rowsFrom, t0);
});
