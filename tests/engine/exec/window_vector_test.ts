/**
 * The vectorized window aggregates (engine/exec/window_vector.ts) against the row path
 * (window.ts with the reference execution forced): the same values, bit for bit, for sum/avg/
 * count/min/max over ROWS frames of every kind, with NULL partition keys, NULL and non-finite
 * values, empty frames, several partitions or none; and the shapes it leaves to the row path
 * (expression arguments) answer the same too.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { vectorWindowStats } from "../../../engine/exec/window_vector.ts";
import { streamWindowStats } from "../../../engine/exec/window_stream.ts";
import { frameWindowStats } from "../../../engine/exec/window_frames.ts";
import { rows } from "../_result_rows.ts";
import { withTempEngine } from "../_temp_engine.ts";

const FRAMES = [
  "ROWS BETWEEN 9 PRECEDING AND CURRENT ROW",
  "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
  "ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING",
  "ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING",
  "ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
];
const FNS = ["sum(d)", "avg(d)", "count(d)", "count(*)", "min(d)", "max(d)"];
const OVERS = [
  "PARTITION BY s ORDER BY ts",
  "PARTITION BY k ORDER BY ts",
  "PARTITION BY i ORDER BY ts",
  "ORDER BY ts",
  "PARTITION BY s",
];

/** [query, whether the vectorized form runs it]. */
function shapes(): [string, boolean][] {
  const out: [string, boolean][] = [];
  for (const over of OVERS) {
    for (const frame of FRAMES) {
      for (const fn of FNS) {
        // min/max from the partition start run in the columnar pass (window_stream.ts).
        out.push([`SELECT ts, s, d, ${fn} OVER (${over} ${frame}) w FROM t`, true]);
      }
    }
  }
  out.push(
    // Partitions out of ORDER BY order (the columnar pass sorts them), ORDER BY an unsorted column.
    ["SELECT ts, s, sum(d) OVER (PARTITION BY s ORDER BY ts DESC ROWS 4 PRECEDING) w FROM t", true],
    ["SELECT ts, s, max(d) OVER (PARTITION BY s ORDER BY l ROWS 4 PRECEDING) w FROM t", true],
    // An expression argument (the row path), a RANGE offset frame, a FLOAT argument.
    ["SELECT ts, sum(d * 2) OVER (PARTITION BY s ORDER BY ts ROWS 4 PRECEDING) w FROM t", false],
    ["SELECT ts, sum(d) OVER (PARTITION BY s ORDER BY ts RANGE 3600000000 PRECEDING) w FROM t", true],
    ["SELECT ts, avg(f) OVER (PARTITION BY s ORDER BY ts ROWS 4 PRECEDING) w FROM t", true],
    // A FOLLOWING frame end with an unsorted ORDER BY.
    [
      "SELECT ts, sum(d) OVER (PARTITION BY s ORDER BY l ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) w FROM t",
      true,
    ],
    // The bench's shape, with an aggregate over it and an interval.
    [
      "SELECT count(*) n, sum(w) s FROM (SELECT sum(d) OVER (PARTITION BY s ORDER BY ts " +
      "ROWS BETWEEN 9 PRECEDING AND CURRENT ROW) w FROM t WHERE ts >= '2024-03-02' AND ts < '2024-03-02T04:00')",
      true,
    ],
    // No rows.
    ["SELECT ts, sum(d) OVER (PARTITION BY s ORDER BY ts ROWS 4 PRECEDING) w FROM t WHERE d > 2", true],
  );
  return out;
}

Deno.test("vectorized window aggregates equal the row path's, bit for bit", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_window_vector_" });
  const engine = await Engine.open({ root, parallelWorkers: 0 });
  try {
    const run = (sql: string) => engine.execute(sql, adminSession());
    await run(
      "CREATE TABLE t AS (SELECT timestamp_sequence('2024-03-01', 60_000_000L) ts, " +
        "rnd_symbol('a','b','c',null) s, rnd_str('x','yy',null) k, rnd_int(0, 3, 5) i, " +
        "rnd_double(4) d, rnd_float(4) f, rnd_long(-50, 50, 0) l FROM long_sequence(4000)) " +
        "TIMESTAMP(ts) PARTITION BY DAY",
    );
    // Non-finite values read as NULL.
    await run("INSERT INTO t (ts, s, d) VALUES ('2024-03-03T00:00:00.5', 'a', 1e308 * 10)");
    await run("INSERT INTO t (ts, s, d) VALUES ('2024-03-03T00:00:00.6', 'a', -1e308 * 10)");
    for (const [sql, vector] of shapes()) {
      // The columnar pass (window_stream.ts) takes the frames ending at the current row first,
      // window_frames.ts the later ends.
      const runs = () => vectorWindowStats.runs + streamWindowStats.runs + frameWindowStats.runs;
      const before = runs();
      const fast = await rows(engine, sql);
      assert.equal(runs() > before, vector, `${sql}: vectorized ${vector}`);
      setReferenceExecution(true);
      let slow: unknown[][];
      try {
        slow = await rows(engine, sql);
      } finally {
        setReferenceExecution(false);
      }
      assert.equal(fast.length, slow.length, sql);
      for (let r = 0; r < fast.length; r++) assert.deepEqual(fast[r], slow[r], `${sql}: row ${r}`);
    }
    // The shapes exercise what they claim: NULL results of empty frames, several values.
    const head = await rows(
      engine,
      "SELECT sum(d) OVER (ORDER BY ts ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) FROM t",
    );
    assert.equal(head[0][0], null, "an empty frame sums to NULL");
    assert.equal(typeof head[5][0], "number");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a window ORDER BY on a DOUBLE puts NULL last ascending and first descending, on both paths", async () => {
  // QuestDB's RecordComparator compares doubles with Numbers.compare, which puts NaN (NULL)
  // after every number; DESC negates it. Infinities read as NULL here (see above).
  await withTempEngine({ prefix: "qdb_window_null_order_", parallelWorkers: 0 }, async (engine) => {
    await engine.execute(
      "CREATE TABLE w AS (SELECT x, CASE WHEN x % 3 = 0 THEN NULL ELSE x * 1.5 END d, " +
        "x::TIMESTAMP ts FROM long_sequence(7)) TIMESTAMP(ts)",
      adminSession(),
    );
    const sql = "SELECT x, row_number() OVER (ORDER BY d) up, row_number() OVER (ORDER BY d DESC) down, " +
      "rank() OVER (ORDER BY d) r FROM w";
    // x: 1..7, d NULL at x = 3 and 6: ascending 1, 2, 4, 5, 7, then 3 and 6 (ties in input order).
    const expected = [
      [1, 1, 7, 1],
      [2, 2, 6, 2],
      [3, 6, 1, 6],
      [4, 3, 5, 3],
      [5, 4, 4, 4],
      [6, 7, 2, 6],
      [7, 5, 3, 5],
    ];
    for (const reference of [false, true]) {
      setReferenceExecution(reference);
      try {
        const got = (await rows(engine, sql)).map((r) => r.map(Number));
        assert.deepEqual(got, expected, `reference execution ${reference}`);
      } finally {
        setReferenceExecution(false);
      }
    }
  });
});
