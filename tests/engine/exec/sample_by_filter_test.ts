/**
 * FILTER (WHERE ...) on the keyed WASM path of SAMPLE BY (sample_by_keyed_fast.ts with
 * sample_by_filter.ts): each query runs there and, with every condition ANDed with `true` (which
 * no kernel predicate accepts, so the query falls back to the row path), on the row path; the
 * rows must be the same. NULL keys and values (a comparison with NULL is false), every measured
 * type, count(*) FILTER, conditions shared by several aggregates, AND / OR / NOT, time zones,
 * FROM/TO, intervals and small slices that cut buckets. Unkeyed SAMPLE BY (sample_by_fast.ts)
 * the same, with FILL.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { keyedFastStats, keyedFastTuning } from "../../../engine/exec/sample_by_keyed_fast.ts";
import { unkeyedFastStats } from "../../../engine/exec/sample_by_fast.ts";
import { rows } from "../_result_rows.ts";

const AGGS = [
  "count() FILTER (WHERE d > 0.5)",
  "avg(i) FILTER (WHERE d > 0.5)",
  "count()",
  "sum(d) FILTER (WHERE i < 0 OR f >= 0.75)",
  "min(l) FILTER (WHERE NOT (l > 0))",
  "max(f) FILTER (WHERE l BETWEEN -50000 AND 50000)",
  "avg(l) FILTER (WHERE i != 0)",
  "count(d) FILTER (WHERE d IS NOT NULL AND i > 100)",
  "sum(i) FILTER (WHERE d IS NULL)",
  "first(d)",
  "avg(d)",
  "count() FILTER (WHERE ts > '2024-04-01T05')",
];

function assertSame(a: unknown[][], b: unknown[][], what: string): void {
  assert.equal(a.length, b.length, `${what}: row count`);
  for (let r = 0; r < a.length; r++) {
    for (let c = 0; c < a[r].length; c++) {
      const x = a[r][c], y = b[r][c];
      if (typeof x === "number" && typeof y === "number" && !Number.isInteger(x)) {
        assert.ok(
          Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(x), Math.abs(y)),
          `${what}: row ${r} col ${c}: ${x} vs ${y}`,
        );
      } else assert.deepEqual(x, y, `${what}: row ${r} col ${c}`);
    }
  }
}

/** The query, and the same with each FILTER's condition ANDed with `true` (the row path). */
function pair(by: string, where = ""): [string, string] {
  const slow = AGGS.map((a) => a.replace(/FILTER \(WHERE (.*)\)$/, "FILTER (WHERE ($1) AND true)"));
  return [
    `SELECT ts, s, ${AGGS.join(", ")} FROM t ${where} SAMPLE BY ${by}`,
    `SELECT ts, s, ${slow.join(", ")} FROM t ${where} SAMPLE BY ${by}`,
  ];
}

Deno.test("keyed SAMPLE BY with FILTER: the WASM path and the row path agree", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_sbf_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  const sliceRows = keyedFastTuning.sliceRows;
  try {
    await engine.execute(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-30', 7_777_777L) ts, rnd_symbol('a','b','c','d',null) s, " +
        "rnd_double(4) d, rnd_float(4) f, rnd_int(-1000, 1000, 4) i, rnd_long(-100000, 100000, 4) l " +
        "FROM long_sequence(60000)) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const cases: [string, string?][] = [
      ["1h"],
      ["1d"],
      ["7m"],
      ["1h ALIGN TO CALENDAR TIME ZONE 'Europe/Berlin'"],
      ["1h FROM '2024-04-01' TO '2024-04-03'"],
      ["5m", "WHERE ts IN '2024-04-02'"],
      ["2h", "WHERE ts IN '2024-03-31T01;2h' OR ts IN '2024-03-31T03:30;3h'"],
      ["1h", "WHERE ts IN '2030'"],
    ];
    for (const rowsPerSlice of [40_000, 333]) {
      keyedFastTuning.sliceRows = rowsPerSlice;
      for (const [by, where] of cases) {
        const [fast, slow] = pair(by, where);
        const before = keyedFastStats.partitions;
        const a = await rows(engine, fast);
        // Empty, or (an OR of intervals) a filter above the scan: no partition on this path.
        if (!where?.includes("2030") && !where?.includes(" OR ")) {
          assert.ok(keyedFastStats.partitions > before, `${by} ${where ?? ""}: on the WASM path`);
          assert.ok(a.length > 4, `${by}: rows`);
        }
        const passes = keyedFastStats.partitions;
        const b = await rows(engine, slow);
        assert.equal(keyedFastStats.partitions, passes, "the reference ran on the row path");
        assertSame(a, b, `${rowsPerSlice}-row slices: SAMPLE BY ${by} ${where ?? ""}`);
      }
    }
    // first/last refuse FILTER as QuestDB does (GroupByFunctionTest#testFilterRejectedForNullPreservingAggregates).
    await assert.rejects(
      () => rows(engine, "SELECT ts, s, first(d) FILTER (WHERE d > 0.5) FROM t SAMPLE BY 1h"),
      /FILTER is not supported for 'first'/,
    );
    // Symbol conditions with FILTER stay on the row path (correctly answered).
    for (
      const sql of [
        "SELECT ts, s, count() FILTER (WHERE s = 'a') FROM t SAMPLE BY 1h",
      ]
    ) {
      const before = keyedFastStats.partitions;
      assert.ok((await rows(engine, sql)).length > 0, sql);
      assert.equal(keyedFastStats.partitions, before, `${sql}: row path`);
    }
  } finally {
    keyedFastTuning.sliceRows = sliceRows;
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

const UNKEYED_AGGS = [
  "count() FILTER (WHERE d > 0.5)",
  "count()",
  "avg(i) FILTER (WHERE d > 0.5)",
  "sum(d) FILTER (WHERE i < 0 OR f >= 0.75)",
  "min(l) FILTER (WHERE NOT (l > 0))",
  "max(f) FILTER (WHERE l BETWEEN -50000 AND 50000)",
  "avg(l) FILTER (WHERE i != 0)",
  "avg(l)",
  "sum(l) FILTER (WHERE d IS NULL)",
  "first(d)",
  "last(i)",
];

Deno.test("unkeyed SAMPLE BY with FILTER: the WASM path and the row path agree", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_sbf_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  try {
    await engine.execute(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-30', 7_777_777L) ts, " +
        "rnd_double(4) d, rnd_float(4) f, rnd_int(-1000, 1000, 4) i, rnd_long(-100000, 100000, 4) l " +
        "FROM long_sequence(60000)) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const slow = UNKEYED_AGGS.map((a) => a.replace(/FILTER \(WHERE (.*)\)$/, "FILTER (WHERE ($1) AND true)"));
    for (
      const by of [
        "1h",
        "7m",
        "1d ALIGN TO CALENDAR TIME ZONE 'Europe/Berlin'",
        "1h FROM '2024-04-01' TO '2024-04-03' FILL(NULL)",
        "3h FILL(PREV)",
        "30m FILL(LINEAR)",
      ]
    ) {
      for (const where of ["", "WHERE ts IN '2024-04-02'"]) {
        const before = unkeyedFastStats.ranges;
        const a = await rows(engine, `SELECT ts, ${UNKEYED_AGGS.join(", ")} FROM t ${where} SAMPLE BY ${by}`);
        assert.ok(unkeyedFastStats.ranges > before, `${by} ${where}: on the WASM path`);
        const passes = unkeyedFastStats.ranges;
        const b = await rows(engine, `SELECT ts, ${slow.join(", ")} FROM t ${where} SAMPLE BY ${by}`);
        assert.equal(unkeyedFastStats.ranges, passes, "the reference ran on the row path");
        assert.ok(a.length >= (where ? 1 : 4), `${by}: rows`);
        assertSame(a, b, `unkeyed SAMPLE BY ${by} ${where}`);
      }
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
