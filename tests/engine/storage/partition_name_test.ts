import assert from "node:assert/strict";
import {
  civilFromDays,
  daysFromCivil,
  partitionNameOf,
  partitionRange,
  partitionRangeOf,
} from "../../../engine/storage/partition_name.ts";
import { us } from "./_helpers.ts";

Deno.test("partitionNameOf names each unit as spec/sql.md §5.1 says", () => {
  const t = us("2024-01-15T10:30:00Z");
  assert.equal(partitionNameOf("HOUR", t), "2024-01-15T10");
  assert.equal(partitionNameOf("DAY", t), "2024-01-15");
  assert.equal(partitionNameOf("WEEK", t), "2024-W03");
  assert.equal(partitionNameOf("MONTH", t), "2024-01");
  assert.equal(partitionNameOf("YEAR", t), "2024");
  assert.equal(partitionNameOf("NONE", t), "default");
  assert.equal(partitionNameOf("DAY", 0n), "1970-01-01");
});

Deno.test("partitionNameOf uses ISO week years at year boundaries", () => {
  assert.equal(partitionNameOf("WEEK", us("2024-12-30T00:00:00Z")), "2025-W01"); // Monday of 2025-W01
  assert.equal(partitionNameOf("WEEK", us("2021-01-03T23:59:59Z")), "2020-W53");
  assert.equal(partitionNameOf("WEEK", us("2021-01-04T00:00:00Z")), "2021-W01");
  assert.equal(partitionNameOf("WEEK", us("1970-01-01T00:00:00Z")), "1970-W01");
});

Deno.test("partitionRange inverts partitionNameOf and rejects malformed names", () => {
  assert.deepEqual(partitionRange("DAY", "2024-01-15"), {
    lo: us("2024-01-15T00:00:00Z"),
    hi: us("2024-01-16T00:00:00Z"),
  });
  assert.deepEqual(partitionRange("HOUR", "2024-01-15T10"), {
    lo: us("2024-01-15T10:00:00Z"),
    hi: us("2024-01-15T11:00:00Z"),
  });
  assert.deepEqual(partitionRange("WEEK", "2025-W01"), {
    lo: us("2024-12-30T00:00:00Z"),
    hi: us("2025-01-06T00:00:00Z"),
  });
  assert.deepEqual(partitionRange("MONTH", "2024-02"), {
    lo: us("2024-02-01T00:00:00Z"),
    hi: us("2024-03-01T00:00:00Z"),
  });
  assert.deepEqual(partitionRange("YEAR", "2024"), {
    lo: us("2024-01-01T00:00:00Z"),
    hi: us("2025-01-01T00:00:00Z"),
  });
  assert.equal(partitionRange("NONE", "default")?.lo! < 0n, true);
  for (const bad of ["2024-02-30", "2024-13-01", "2024-1-01", "x", "../etc"]) {
    assert.equal(partitionRange("DAY", bad), undefined, bad);
  }
  assert.equal(partitionRange("WEEK", "2024-W53"), undefined); // 2024 has 52 ISO weeks
  assert.equal(partitionRange("HOUR", "2024-01-15T24"), undefined);
});

Deno.test("partitionRangeOf holds the timestamp for every unit over many instants", () => {
  for (let i = 0; i < 2000; i++) {
    const t = BigInt(Math.floor(Math.random() * 4e9)) * 1_000_000n + BigInt(i);
    for (const unit of ["HOUR", "DAY", "WEEK", "MONTH", "YEAR"] as const) {
      const r = partitionRangeOf(unit, t);
      assert.ok(r.lo <= t && t < r.hi, `${unit} ${t}`);
      assert.deepEqual(partitionRange(unit, partitionNameOf(unit, t)), r);
    }
  }
});

Deno.test("civil day conversions agree with Date", () => {
  for (let d = -800_000; d < 800_000; d += 997) {
    const c = civilFromDays(d);
    const date = new Date(d * 86_400_000);
    assert.deepEqual(c, {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
    });
    assert.equal(daysFromCivil(c.year, c.month, c.day), d);
  }
});
