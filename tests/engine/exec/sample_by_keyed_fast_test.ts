/**
 * The streaming WASM path of keyed SAMPLE BY (sample_by_keyed_fast.ts) against the row path on
 * the same data: a trivially true FILTER keeps a query on the row path, so each pair must be
 * identical — buckets spanning partitions and interval ranges, NULL keys and values, every
 * measured type and aggregate, time zones, FROM/TO and results over one batch long.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

const AGGS = [
  "count()",
  "count(d)",
  "sum(d)",
  "avg(d)",
  "min(d)",
  "max(d)",
  "first(d)",
  "last(d)",
  "sum(f)",
  "min(f)",
  "last(f)",
  "sum(i)",
  "max(i)",
  "first(i)",
  "avg(i)",
  "sum(l)",
  "min(l)",
  "last(l)",
  "count(l)",
];

/** Rows equal, doubles within 1e-12 relative (the kernels add in SIMD lanes, the row path in order). */
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

function pair(table: string, sampleBy: string, where = ""): [string, string] {
  const fast = `SELECT ts, s, ${AGGS.join(", ")} FROM ${table} ${where} SAMPLE BY ${sampleBy}`;
  const slow = `SELECT ts, s, ${
    // first/last refuse FILTER (as QuestDB's do); one filtered aggregate keeps the query off the WASM path.
    AGGS.map((a) => (/^(first|last)\(/.test(a) ? a : `${a} FILTER (WHERE true)`)).join(
      ", ",
    )} FROM ${table} ${where} SAMPLE BY ${sampleBy}`;
  return [fast, slow];
}

Deno.test("keyed SAMPLE BY: the WASM stream and the row path agree", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_skf_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    for (const [name, by] of [["th", "HOUR"], ["td", "DAY"]]) {
      await engine.execute(
        `CREATE TABLE ${name} AS (SELECT timestamp_sequence('2024-03-30', 7_777_777L) ts, rnd_symbol('a','b','c','d',null) s, ` +
          `rnd_double(4) d, rnd_float(4) f, rnd_int(-1000, 1000, 4) i, rnd_long(-100000, 100000, 4) l FROM long_sequence(90000)) ` +
          `TIMESTAMP(ts) PARTITION BY ${by}`,
        adminSession(),
      );
    }
    const cases: [string, string, string?][] = [
      ["th", "1d"],
      ["th", "3h"],
      ["td", "1m"],
      ["td", "7m"],
      ["td", "1d"],
      ["th", "1M"],
      ["td", "1h ALIGN TO CALENDAR TIME ZONE 'Europe/Berlin'"],
      ["td", "90m ALIGN TO CALENDAR WITH OFFSET '00:17'"],
      ["th", "2h", "WHERE ts IN '2024-03-31T01;2h' OR ts IN '2024-03-31T03:30;3h'"],
      ["td", "1h FROM '2024-04-01' TO '2024-04-03'"],
      ["td", "5m", "WHERE ts IN '2024-04-02'"],
    ];
    for (const [table, by, where] of cases) {
      const [fast, slow] = pair(table, by, where);
      const a = await rows(engine, fast), b = await rows(engine, slow);
      assert.ok(a.length > 0, `${table} ${by}: rows`);
      assertSame(a, b, `${table} SAMPLE BY ${by} ${where ?? ""}`);
    }
    // Small slices (issue #17: the event loop gets turns between them) cut buckets, ranges and
    // partitions at arbitrary rows; the held bucket joins the pieces.
    const { keyedFastTuning } = await import("../../../engine/exec/sample_by_keyed_fast.ts");
    const sliceRows = keyedFastTuning.sliceRows;
    try {
      for (const rowsPerSlice of [1, 7, 1000]) {
        keyedFastTuning.sliceRows = rowsPerSlice;
        for (const [table, by, where] of rowsPerSlice === 1000 ? cases : cases.slice(0, 3)) {
          const [fast, slow] = pair(table, by, where);
          assertSame(
            await rows(engine, fast),
            await rows(engine, slow),
            `${rowsPerSlice}-row slices: ${table} ${by}`,
          );
        }
      }
    } finally {
      keyedFastTuning.sliceRows = sliceRows;
    }
    // Hundreds of keys (a TSBS-style table of hosts): a held bucket gains a group per key, and
    // its statistics arrays grow as it does; slices of 997 rows cut every bucket.
    await engine.execute(
      `CREATE TABLE hosts AS (SELECT timestamp_sequence('2024-03-30', 60_000_000L / 700) ts, ` +
        `rnd_symbol(700, 4, 8, 2) s, rnd_double(4) d, rnd_float(4) f, rnd_int(-1000, 1000, 4) i, ` +
        `rnd_long(-100000, 100000, 4) l FROM long_sequence(120000)) TIMESTAMP(ts) PARTITION BY HOUR`,
      adminSession(),
    );
    try {
      for (const rowsPerSlice of [997, 40_000]) {
        keyedFastTuning.sliceRows = rowsPerSlice;
        for (const by of ["1h", "10m"]) {
          const [fast, slow] = pair("hosts", by);
          const a = await rows(engine, fast);
          assert.ok(a.length > 700 * 2, `hosts ${by}: ${a.length} groups`);
          assertSame(a, await rows(engine, slow), `${rowsPerSlice}-row slices: hosts ${by}`);
        }
      }
    } finally {
      keyedFastTuning.sliceRows = sliceRows;
    }
    // A result longer than one output batch (65,536 groups).
    const [fast, slow] = pair("td", "1s");
    const big = await rows(engine, fast);
    assert.ok(big.length > 65_536, `${big.length} groups`);
    assertSame(big, await rows(engine, slow), "SAMPLE BY 1s");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("keyed SAMPLE BY streams a table larger than the cache one partition at a time; a partition too big for it takes the row path", async () => {
  const { keyedFastStats } = await import("../../../engine/exec/sample_by_keyed_fast.ts");
  const root = await Deno.makeTempDir({ prefix: "qdb_skf_" });
  try {
    // 60,000 rows × 36 bytes of ts, s, d, f, i, l ≈ 2.1 MB over 70 HOUR partitions (~31 KB each).
    const setup = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
    try {
      await setup.execute(
        `CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-30', 4_200_000L) ts, rnd_symbol('a','b','c',null) s, ` +
          `rnd_double(4) d, rnd_float(4) f, rnd_int(-1000, 1000, 4) i, rnd_long(-100000, 100000, 4) l FROM long_sequence(60000)) ` +
          `TIMESTAMP(ts) PARTITION BY HOUR`,
        adminSession(),
      );
    } finally {
      await setup.close();
    }
    const [fast, slow] = pair("t", "10m");
    const results: unknown[][][] = [];
    // 512 KiB holds a partition (half the budget is the per-partition limit) but not the
    // table; 32 KiB cannot hold one partition's regions within its half.
    for (
      const c of [{ cacheBytes: 512 * 1024, streamed: true }, { cacheBytes: 32 * 1024, streamed: false }]
    ) {
      const engine = await Engine.open({ root, cacheBytes: c.cacheBytes, parallelWorkers: 0 });
      try {
        const before = keyedFastStats.partitions;
        results.push(await rows(engine, fast));
        const streamed = keyedFastStats.partitions - before;
        if (c.streamed) assert.ok(streamed >= 70, `${streamed} partitions streamed`);
        else assert.equal(streamed, 0, "the row path answered");
        if (results.length === 1) results.push(await rows(engine, slow));
      } finally {
        await engine.close();
      }
    }
    assert.ok(results[0].length > 1000, `${results[0].length} rows`);
    assertSame(results[0], results[1], "streamed vs row path");
    assertSame(results[2], results[1], "small cache vs row path");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/**
 * Rows equal, every DOUBLE within 1e-12 relative: means near 2^62 are whole numbers in doubles,
 * and the row path sums them in doubles (rounding at each step) where the kernels sum exactly.
 */
function assertNear(a: unknown[][], b: unknown[][], what: string): void {
  assert.equal(a.length, b.length, `${what}: row count`);
  a.forEach((row, r) =>
    row.forEach((x, c) => {
      const y = b[r][c];
      if (typeof x === "number" && typeof y === "number") {
        assert.ok(
          Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(x), Math.abs(y)),
          `${what}: row ${r} col ${c}: ${x} vs ${y}`,
        );
      } else assert.deepEqual(x, y, `${what}: row ${r} col ${c}`);
    })
  );
}

Deno.test("keyed SAMPLE BY: avg of LONG past 2^63 across slices, empty ranges and keys in some buckets only", async () => {
  const { keyedFastStats, keyedFastTuning } = await import("../../../engine/exec/sample_by_keyed_fast.ts");
  const root = await Deno.makeTempDir({ prefix: "qdb_skf_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  const sliceRows = keyedFastTuning.sliceRows;
  try {
    // Key k appears only in hours where (hour + k) % 3 != 0; values near 2^62 make every
    // group's sum pass 2^63 (the kernels' 64-bit sums wrap; avg divides the exact sum).
    await engine.execute(
      `CREATE TABLE big AS (SELECT timestamp_sequence('2024-01-01', 60_000_000L) ts, ` +
        `CAST('k' || (x % 5) AS SYMBOL) s, 4611686018427387904L + x l, ` +
        `CASE WHEN x % 4 = 0 THEN NULL ELSE x * 1.5 END d FROM long_sequence(2000)) TIMESTAMP(ts) PARTITION BY DAY`,
      adminSession(),
    );
    await engine.execute(
      `CREATE TABLE some AS (SELECT ts, s, l, d FROM big WHERE (CAST(extract(hour from ts) AS INT) + CAST(substring(s, 2, 1) AS INT)) % 3 != 0) TIMESTAMP(ts) PARTITION BY DAY`,
      adminSession(),
    );
    // Small values first, values near 2^62 later (HOUR partitions: each is bounded on its own):
    // the 64-bit sums are exact until the kernels switch to 128-bit sums within a bucket (1d,
    // 7m) whose groups already hold sums.
    await engine.execute(
      `CREATE TABLE mixed AS (SELECT ts, s, CASE WHEN ts < '2024-01-01T12:00' THEN l - 4611686018427387904L ELSE l END l, d ` +
        `FROM big) TIMESTAMP(ts) PARTITION BY HOUR`,
      adminSession(),
    );
    const q = (t: string, tail: string, f: string) =>
      `SELECT ts, s, avg(l)${f}, count(*)${f}, min(d)${f}, sum(d)${f}, first(l), last(d), min(ts)${f}, max(l)${f}, last(ts) FROM ${t} ${tail}`;
    for (const rowsPerSlice of [3, 50, 40_000]) {
      keyedFastTuning.sliceRows = rowsPerSlice;
      for (const t of ["big", "some", "mixed"]) {
        for (
          const tail of [
            "SAMPLE BY 1h",
            "SAMPLE BY 1d",
            "SAMPLE BY 7m",
            "WHERE ts IN '2030-01-01' SAMPLE BY 1h",
          ]
        ) {
          const before = keyedFastStats.partitions;
          const fast = await rows(engine, q(t, tail, ""));
          if (!tail.includes("2030")) {
            assert.ok(keyedFastStats.partitions > before, `${t} ${tail}: on the WASM path`);
            assert.ok(fast.length > 0, `${t} ${tail}: rows`);
          } else assert.equal(fast.length, 0, `${t} ${tail}: no rows`);
          assertNear(
            fast,
            await rows(engine, q(t, tail, " FILTER (WHERE true)")),
            `${rowsPerSlice}: ${t} ${tail}`,
          );
        }
      }
    }
    // The sums do pass 2^63: the mean of an hour of k0 is near 2^62, not wrapped negative.
    const [first] = await rows(engine, q("big", "SAMPLE BY 1h", ""));
    assert.ok((first[2] as number) > 4.6e18, `avg ${first[2]}`);
  } finally {
    keyedFastTuning.sliceRows = sliceRows;
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
