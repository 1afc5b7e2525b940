/**
 * The function families the batch expression compiler (engine/exec/vector/batch_expr.ts and
 * batch_time_calls.ts) evaluates over whole batches, against the row-at-a-time reference
 * (`bothWays`): as projections, WHERE filters and GROUP BY keys, over a table with NULLs,
 * negative timestamps, year and month boundaries, leap days and several partitions (batches).
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { bothWays, resultKey } from "../_result_rows.ts";
import { rng } from "../../fuzz/prng.ts";

/** Timestamps (µs) around edges: pre-epoch, year ends, leap days, month ends, NULL. */
function tsLiteral(r: ReturnType<typeof rng>): string {
  if (r.chance(0.1)) return "NULL";
  const base = r.pick([
    -86_400_000_001, // 1969-12-30T23:59:59.999999
    -1,
    0,
    951_782_400_000_000, // 2000-02-29
    1_704_067_199_999_999, // 2023-12-31T23:59:59.999999
    1_709_164_800_000_000, // 2024-02-29
    1_735_689_599_000_000, // 2024-12-31T23:59:59
    -2_208_988_800_000_000, // 1900-01-01
  ]);
  return String(base + (r.int(5) - 2) * r.pick([1, 999, 3_600_000_000, 86_400_000_000, 7_000_000]));
}

async function withTable(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_bfam_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, t2 TIMESTAMP, s SYMBOL, i INT, l LONG, d DOUBLE) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const r = rng(4242);
    const rows: string[] = [];
    for (let n = 0; n < 1200; n++) {
      const ts = `'2024-01-0${1 + (n % 4)}T${String(n % 24).padStart(2, "0")}:00:00.${n}Z'`;
      const s = r.chance(0.15) ? "NULL" : r.pick(["'a'", "''", "'BTC-USD'", "'eth'", "'Ünï'"]);
      const i = r.chance(0.15) ? "NULL" : String(r.pick([0, 42, -42, 2147483647, -2147483647, r.int(100)]));
      const l = r.chance(0.15) ? "NULL" : r.pick(["42", "-42", "0", "9007199254740993", String(r.int(1000))]);
      const d = r.chance(0.15)
        ? "NULL"
        : r.pick(["0.0", "-0.0", "2.5", "-2.55", "1234.5678", String(r.next())]);
      rows.push(`(${ts}, ${tsLiteral(r)}, ${s}, ${i}, ${l}, ${d})`);
    }
    for (let at = 0; at < rows.length; at += 400) {
      await engine.execute(`INSERT INTO t VALUES ${rows.slice(at, at + 400).join(", ")}`, adminSession());
    }
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

/** Expressions listed below that keep the row evaluator (EXPLAIN must say so). */
const ROW_ONLY = new Set([
  // 12-hour fields beside sub-second ones: time_text_fine.ts takes zero-padded 24-hour fields only.
  "to_str(t2, 'hh:mm:ss.SSS a')",
]);

/** Every expression as a projection and a GROUP BY key; every filter in a WHERE. */
async function agree(engine: Engine, exprs: string[], filters: string[] = []): Promise<void> {
  for (const x of exprs) {
    for (const sql of [`SELECT ${x} FROM t`, `SELECT ${x} k, count(*) FROM t GROUP BY k ORDER BY k`]) {
      const { got, want, plan } = await bothWays(engine, sql);
      assert.equal(resultKey(got), resultKey(want), sql);
      assert.ok(got.length > 0, sql);
      // The projection must be the batch form under test, not the row evaluator.
      if (sql.endsWith("FROM t")) {
        assert.match(plan, ROW_ONLY.has(x) ? /\[row: / : /\[batch loops\]/, `${sql}\n${plan}`);
      }
    }
  }
  for (const f of filters) {
    const sql = `SELECT count(*), sum(i) FROM t WHERE ${f}`;
    const { got, want } = await bothWays(engine, sql);
    assert.equal(resultKey(got), resultKey(want), sql);
  }
}

Deno.test("extract, day-only field functions and dateadd agree with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      [
        ...["year", "month", "day", "hour", "minute", "second", "isodow", "dow", "doy", "week", "quarter"]
          .map((p) => `extract(${p} from t2)`),
        ...["decade", "century", "millennium", "isoyear"].map((p) => `extract(${p} from t2)`),
        "millis(t2)",
        "micros(t2)",
        "days_in_month(t2)",
        "week_of_year(t2)",
        "is_leap_year(t2)",
        "is_end_of_month(t2)",
        ...["h", "m", "s", "T", "d", "w", "M", "y"].map((u) => `dateadd('${u}', -3, t2)`),
        "dateadd('M', 1, t2)",
        "dateadd('y', 4, t2)",
        "dateadd('h', 1, ts)",
        "dateadd('d', NULL, t2)",
      ],
      [
        "extract(hour from t2) = 23",
        "extract(dow from t2) = 0",
        "is_leap_year(t2)",
        "NOT is_end_of_month(t2)",
        "dateadd('M', 1, t2) > '2000-03-30'",
        "week_of_year(t2) >= 52",
      ],
    )
  ));

Deno.test("to_str of a timestamp (once per distinct unit of its format) agrees with the row path", () =>
  withTable((engine) =>
    agree(engine, [
      "to_str(t2, 'yyyy-MM-dd')",
      "to_str(ts, 'yyyy-MM-dd')",
      "to_str(t2, 'yyyy-MM-ddTHH:mm:ss')",
      "to_str(t2, 'EE, dd MMM yyyy G')",
      "to_str(t2, 'HH')",
      "to_str(t2, 'hh a')",
      "to_str(t2, 'ww YYYY D F u')",
      "to_str(t2, 'yyyy-MM-dd HH:mm:ss.SSSUUU')",
      "to_str(t2, 'literal only')",
      "to_str(dateadd('d', 1, t2), 'yyyy-MM')",
      "concat(to_str(t2, 'yyyy'), 'x')",
      "to_str(t2, 'hh:mm:ss.SSS a')",
    ], [
      "to_str(t2, 'yyyy-MM-dd') = '2000-02-29'",
      "'1969-12-31' = to_str(t2, 'yyyy-MM-dd')",
      "to_str(t2, 'yyyy-MM') != '2024-02'",
      "to_str(t2, 'HH:mm') = '23:59' OR i > 50",
      "to_str(t2, 'HH') IN ('23', '00')",
    ])
  ));

Deno.test("numeric functions of a SYMBOL column (once per dictionary code) agree with the row path", () =>
  withTable(async (engine) => {
    await agree(
      engine,
      [
        "length(s)",
        "length(s) * 2 + i",
        "strpos(s, 't')",
        "length(concat(s, 'xy'))",
        "coalesce(length(s), -1)",
      ],
      ["length(s) = 0", "length(s) > i", "length(upper(s)) >= 3", "s ILIKE '%ü%'"],
    );
    for (const sql of ["SELECT count(*), min(length(s)), max(length(s)), sum(length(s)) FROM t"]) {
      const { got, want } = await bothWays(engine, sql);
      assert.equal(resultKey(got), resultKey(want), sql);
    }
  }));

Deno.test("cast(integer AS STRING) compared with text agrees with the row path", () =>
  withTable((engine) =>
    agree(engine, ["cast(i AS STRING) = '42'", "cast(l AS VARCHAR) != '-42'"], [
      "cast(i AS STRING) = '42'",
      "cast(l AS STRING) = '42'",
      "'-42' = cast(i AS STRING)",
      "cast(i AS STRING) != '0'",
      "cast(l AS STRING) = '042'",
      "cast(l AS STRING) = '-0'",
      "cast(l AS STRING) = '9007199254740993'",
      "cast(i AS STRING) = '2147483647'",
      "cast(i AS STRING) = ''",
      "cast(l AS STRING) != 'x'",
    ])
  ));

Deno.test("numeric functions (round family, sqrt, power, floor ...) agree with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      [
        "round(d, 1)",
        "round(d)",
        "round(d, -1)",
        "round_half_even(d, 1)",
        "round_down(d, 2)",
        "round_up(d * i, 0)",
        "round(i, 2)",
        "round(l, 1)",
        "sqrt(d)",
        "power(d, 2)",
        "floor(d / 3)",
        "ceil(l / 7.0)",
        "ln(i)",
        "atan2(d, i)",
        "round(d, i % 3)",
        "pi() * d",
      ],
      ["round(d, 1) = 2.5", "sqrt(i) > 5", "floor(d) IS NULL"],
    )
  ));

Deno.test("date_trunc and timestamp_floor (bucket bounds kept in the loop) agree with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      [
        ...["second", "minute", "hour", "day", "week", "month", "quarter", "year", "millisecond"]
          .map((u) => `date_trunc('${u}', t2)`),
        ...["1s", "15m", "2h", "1d", "3d", "1w", "1M", "1y", "7T"].map((s) => `timestamp_floor('${s}', t2)`),
        // A constant origin: buckets from it, earlier values floor to it.
        ...["15m", "1d", "1M", "2y"].map((s) => `timestamp_floor('${s}', t2, '2000-02-29T00:07:00')`),
        "date_trunc('hour', ts)",
        "hour(date_trunc('day', t2) + 3600000000)",
      ],
      ["date_trunc('hour', t2) = '1970-01-01T00:00:00'", "timestamp_floor('1d', t2) < 0"],
    )
  ));

Deno.test("text functions of a SYMBOL column (once per dictionary code) agree with the row path", () =>
  withTable((engine) =>
    agree(engine, [
      "upper(s)",
      "lower(s)",
      "concat(s, '-x')",
      "s || '/' || s",
      "substring(s, 1, 2)",
      "coalesce(s, 'none')",
      "coalesce(s, 'a')",
      "replace(s, 'a', 'b')",
      "left(s, 1)",
      "CASE WHEN s = 'a' THEN 'A' ELSE NULL END",
    ])
  ));

Deno.test("abs, sign and casts between integers and time types agree with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      [
        "abs(i)",
        "abs(l)",
        "abs(d)",
        "sign(i)",
        "sign(d)",
        "abs(cast(i AS SHORT))",
        "abs(cast(i AS BYTE))",
        "sign(cast(i AS FLOAT))",
        "cast(i AS TIMESTAMP)",
        "cast(l AS TIMESTAMP)",
        "cast(t2 AS DATE)",
        "cast(cast(t2 AS DATE) AS TIMESTAMP)",
        "cast(l AS DATE)",
      ],
      ["abs(i) > 40", "cast(t2 AS DATE) < cast(0 AS DATE)"],
    )
  ));

Deno.test("CASE with constant text branches (branch indexes in a batch loop) agrees with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      [
        "CASE WHEN d > 2 THEN 'high' ELSE 'low' END",
        "CASE WHEN d > 2 THEN 'high' WHEN d IS NULL THEN NULL WHEN i < 0 THEN 'neg' ELSE 'high' END",
        "CASE WHEN hour(t2) < 12 THEN 'am' END",
        "CASE WHEN l % 2 = 0 THEN '' ELSE 'odd' END",
        "CASE WHEN s = 'a' OR i > 50 THEN 'xx' ELSE 'yy' END",
        "CASE WHEN s = 'a' THEN 'xx' ELSE 'yy' END",
        "CASE WHEN d > 2 THEN 'h' WHEN d IS NULL THEN NULL ELSE 'l' END",
        "CASE WHEN i % 3 = 0 THEN 'ü' END",
      ],
      ["CASE WHEN d > 2 THEN 'high' ELSE 'low' END = 'low'"],
    )
  ));

Deno.test("numeric coalesce, nullif, greatest and least agree with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      [
        "coalesce(d, i, 0)",
        "coalesce(i, l)",
        "coalesce(d, NULL, -1.5)",
        "ifnull(i, -1)",
        "nvl(l, 7)",
        "nullif(i, 42)",
        "nullif(d, 0)",
        "greatest(i, l)",
        "greatest(d, i, 0)",
        "least(d, -0.0, i)",
        "least(i, l, NULL)",
        "coalesce(t2, ts)",
      ],
      ["coalesce(d, 0) > 1", "greatest(i, l) = 42", "nullif(i, 0) IS NULL"],
    )
  ));

Deno.test("datediff with fixed and calendar units agrees with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      ["n", "u", "T", "s", "m", "h", "d", "w", "M", "y"].map((u) => `datediff('${u}', t2, ts)`),
      [
        "datediff('d', t2, ts) > 365",
        "datediff('h', ts, t2) = 0",
        "datediff('M', t2, ts) > 12",
        "datediff('y', ts, t2) = 0",
      ],
    )
  ));
