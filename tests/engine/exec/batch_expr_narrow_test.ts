/**
 * Batch forms added for issue #16 against the row-at-a-time reference (`bothWays`): the inlined
 * round family (batch_round.ts: ties, values near a boundary, past 2^31 scaled, negative
 * scales), narrowing casts to SHORT/BYTE (wrapping, saturation, NULL as 0) and timestamp_ceil
 * (aligned values, months and years, pre-epoch), as projections, GROUP BY keys and filters,
 * over a table with NULLs, empty inputs and several partitions.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { bothWays, resultKey } from "../_result_rows.ts";
import { batchFormsAgree } from "../_batch_agree.ts";
import { rng } from "../../fuzz/prng.ts";

async function withTable(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_bnarrow_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, t2 TIMESTAMP, i INT, l LONG, d DOUBLE, f FLOAT, h SHORT) " +
        "TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    // The same columns, no rows: every form over an empty input.
    await engine.execute(
      "CREATE TABLE e (ts TIMESTAMP, t2 TIMESTAMP, i INT, l LONG, d DOUBLE, f FLOAT, h SHORT) TIMESTAMP(ts)",
      adminSession(),
    );
    const r = rng(1616);
    const rows: string[] = [];
    const doubles = [
      "0.0",
      "-0.0",
      "2.5",
      "-2.5",
      "0.125",
      "-0.125",
      "2.675",
      "1.005",
      "5.55",
      "-5.55",
      "0.05",
      "1234.5678",
      "99999.95",
      "1e12",
      "-3e15",
      "1.7e308",
      "123456789.125",
      "0.30000000000000004",
      "214748364.75",
      "-0.0000049",
    ];
    const times = [
      "0",
      "-1",
      "1",
      "-86400000000",
      "951782400000000",
      "1704067200000000",
      "1704067199999999",
      "1706745600000000",
      "1709164800000001",
      "-2208988800000000",
      "1735689599999999",
      "3600000000",
      // Around daylight-saving transitions (Berlin 2024-03-31T01:00Z / 2024-10-27T01:00Z, New
      // York 2024-03-10T07:00Z), and local times inside Berlin's gap and overlap as UTC values.
      "1711846800000000",
      "1729990800000000",
      "1710054000000000",
      "1711848600000000",
      "1729994400000000",
    ];
    for (let n = 0; n < 1500; n++) {
      const ts = `'2024-01-0${1 + (n % 5)}T${String(n % 24).padStart(2, "0")}:00:00.${n}Z'`;
      const t2 = r.chance(0.1) ? "NULL" : String(
        BigInt(r.pick(times)) +
          BigInt(r.pick([0, 0, 1, -1, 999_999, 3_600_000_000, -3_600_000_000, -1_800_000_000])),
      );
      const i = r.chance(0.1) ? "NULL" : String(
        r.pick([
          0,
          1,
          -1,
          127,
          128,
          -129,
          32767,
          32768,
          -32769,
          65535,
          2147483647,
          -2147483647,
          r.int(100000) - 50000,
        ]),
      );
      const l = r.chance(0.1) ? "NULL" : r.pick([
        "0",
        "-1",
        "65536",
        "65537",
        "-65537",
        "4294967297",
        "-4294967295",
        "9007199254740991",
        "-9007199254740991",
        "9007199254740993",
        String(r.int(1e9)),
      ]);
      const d = r.chance(0.1) ? "NULL" : r.chance(0.5) ? r.pick(doubles) : String((r.next() - 0.5) * 1e6);
      const f = r.chance(0.1) ? "NULL" : r.pick(["0.5", "-1.5", "3e9", "-3e9", "100000.5", "7.25"]);
      const h = r.chance(0.1) ? "NULL" : r.pick(["0", "-1", "300", "-300", "32767", "-32768"]);
      rows.push(`(${ts}, ${t2}, ${i}, ${l}, ${d}, ${f}, ${h})`);
    }
    for (let at = 0; at < rows.length; at += 500) {
      await engine.execute(`INSERT INTO t VALUES ${rows.slice(at, at + 500).join(", ")}`, adminSession());
    }
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

/** Each expression as a projection (asserted to run as batch loops) and a GROUP BY key. */
const agree = (engine: Engine, exprs: string[], filters: string[]) =>
  batchFormsAgree(engine, exprs, filters, 1500);

Deno.test("round family inlined in the batch loops agrees with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      [
        "round(d, 1)",
        "round(d, 2)",
        "round(d)",
        "round(d, 0)",
        "round(d, -2)",
        "round(d, 15)",
        "round(d, 16)",
        "round(d, -16)",
        "round(d, 17)",
        "round(d, 22)",
        "round(d, 23)",
        "round(d, -23)",
        "round_half_even(d, 2)",
        "round_half_even(d, -1)",
        "round_down(d, 1)",
        "round_up(d, 1)",
        "round_up(d, -3)",
        "round_down(d * 1000, 0)",
        "round(f, 1)",
        "round(i, -2)",
        "round(l, 1)",
        "round(d, NULL)",
        "round(NULL, 1)",
        "round(d / 0, 1)",
        "round(d, 1) + round(i, 1)",
      ],
      ["round(d, 1) = 2.7", "round(d, 2) > 1000", "round_down(d, 0) IS NULL", "round(d, -1) = 0"],
    )
  ));

Deno.test("narrowing casts to SHORT and BYTE, and casts to BOOLEAN, agree with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      [
        "cast(i AS SHORT)",
        "cast(i AS BYTE)",
        "cast(l AS SHORT)",
        "cast(l AS BYTE)",
        "cast(d AS SHORT)",
        "cast(d AS BYTE)",
        "cast(f AS SHORT)",
        "cast(h AS BYTE)",
        "cast(t2 AS SHORT)",
        "cast(d * 1e308 AS SHORT)",
        "cast(i AS SHORT) + 1",
        "cast(NULL AS SHORT)",
        "cast(d AS BYTE) * 2",
        "abs(cast(l AS SHORT))",
        "cast(d AS BOOLEAN)",
        "cast(i AS BOOLEAN)",
        "cast(l AS BOOLEAN)",
        "cast(f AS BOOLEAN)",
        "cast(h AS BOOLEAN)",
        "cast(d * 0 AS BOOLEAN)",
      ],
      [
        "cast(i AS SHORT) = 0",
        "cast(d AS BYTE) < 0",
        "cast(l AS SHORT) + 1 = 1",
        "cast(d AS BOOLEAN)",
        "NOT cast(i AS BOOLEAN)",
      ],
    )
  ));

Deno.test("timestamp_ceil agrees with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      ["U", "T", "s", "m", "h", "d", "w", "M", "y"].map((u) => `timestamp_ceil('${u}', t2)`).concat([
        "timestamp_ceil('h', ts)",
        "timestamp_ceil('d', dateadd('h', 1, t2))",
        "hour(timestamp_ceil('h', t2))",
      ]),
      ["timestamp_ceil('d', t2) = t2", "timestamp_ceil('M', t2) > '2024-02-01'"],
    )
  ));

Deno.test("to_timezone and to_utc with a constant zone agree with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "+05:30", "UTC", "EST", "Asia/Kolkata"]
        .flatMap((z) => [`to_timezone(t2, '${z}')`, `to_utc(t2, '${z}')`])
        .concat([
          "to_utc(to_timezone(t2, 'Europe/Berlin'), 'Europe/Berlin')",
          "hour(to_timezone(ts, 'America/New_York'))",
          "to_timezone(ts, 'Europe/Berlin')",
        ]),
      ["to_timezone(t2, 'Europe/Berlin') > '2024-03-31T03:00:00'", "to_utc(t2, 'America/New_York') IS NULL"],
    )
  ));

Deno.test("to_str with fields finer than a second agrees with the row path", () =>
  withTable(async (engine) => {
    await agree(
      engine,
      [
        "to_str(t2, 'yyyy-MM-dd HH:mm:ss.SSS')",
        "to_str(t2, 'HH:mm:ss.SSSUUU')",
        "to_str(t2, 'yyyy-MM-ddTHH:mm:ss.U+')",
        "to_str(t2, 'yyyy-MM-ddTHH:mm:ss.SSSUUUNNNZ')",
        "to_str(t2, 'ss.SSS')",
        "to_str(t2, 'UUU')",
        "to_str(t2, 'EE, dd MMM yyyy HH:mm:ss.SSS')",
        "to_str(ts, 'yyyy-MM-dd HH:mm:ss.SSS')",
        "to_str(dateadd('h', 1, t2), 'HH:mm:ss.SSS')",
      ],
      [
        "to_str(t2, 'HH:mm:ss.SSS') = '00:00:00.000'",
        "to_str(t2, 'ss.SSSUUU') = '59.999999'",
        "'23:59:59.999' != to_str(t2, 'HH:mm:ss.SSS')",
      ],
    );
    // Other fields finer than a day beside sub-second ones keep the row path, with the same answers.
    for (const fmt of ["hh:mm:ss.SSS a", "S", "HH:mm:ss.S"]) {
      const sql = `SELECT to_str(t2, '${fmt}') FROM t`;
      const { got, want, plan } = await bothWays(engine, sql);
      assert.equal(resultKey(got), resultKey(want), sql);
      assert.match(plan, /\[row: /, `${sql}\n${plan}`);
    }
  }));

Deno.test("extract epoch and sub-minute parts agree with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      ["epoch", "milliseconds", "microseconds", "nanoseconds", "EPOCH"].map((p) => `extract(${p} from t2)`)
        .concat([
          "extract(epoch from ts)",
          "extract(epoch from t2) * 2 + 1",
        ]),
      ["extract(epoch from t2) = 0", "extract(epoch from t2) = -1", "extract(milliseconds from t2) > 59000"],
    )
  ));

Deno.test("dateadd with a count per row agrees with the row path", () =>
  withTable((engine) =>
    agree(
      engine,
      ["U", "T", "s", "m", "h", "d", "w"].map((u) => `dateadd('${u}', i, t2)`).concat([
        "dateadd('h', h, t2)",
        "dateadd('d', cast(l AS INT), t2)",
        "dateadd('s', l, t2)",
        "dateadd('w', i, ts)",
      ]),
      ["dateadd('d', h, t2) > '2024-01-01'", "dateadd('m', i, t2) IS NULL"],
    )
  ));
