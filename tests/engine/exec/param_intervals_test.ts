/**
 * Designated-timestamp intervals from bind variables (exec/param_intervals.ts): a prepared
 * `ts > $1` answers exactly as the same comparison without a designated timestamp (a plain
 * filter, the oracle) and as the literal query, for many values, types and edge cases, while
 * reading only the partitions its interval needs; the kept plan is not changed by a run.
 */
import assert from "node:assert/strict";
import { adminSession, type ColumnType, Engine, T } from "../../../engine/mod.ts";
import type { Value } from "../../../engine/base/values.ts";
import { scanCounters } from "../../../engine/exec/scan.ts";
import { statementStats } from "../../../engine/parallel/statement_offload.ts";

const DAY = 86_400_000_000n;
const HOUR = 3_600_000_000n;
const START = 1_704_067_200_000_000n; // 2024-01-01T00:00:00Z
const DAYS = 20;

async function withEngine(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_param_iv_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  try {
    // Every 90 minutes for 20 days: rows on and between hour boundaries, one partition a day.
    const gen = `SELECT timestamp_sequence(${START}, 5400000000) ts, x FROM long_sequence(${DAYS * 16})`;
    await engine.execute(`CREATE TABLE t AS (${gen}) TIMESTAMP(ts) PARTITION BY DAY`, adminSession());
    await engine.execute(`CREATE TABLE plain AS (${gen})`, adminSession()); // no designated ts: filter only
    await engine.execute(
      `CREATE TABLE tn AS (SELECT ts::timestamp_ns ts, x FROM t) TIMESTAMP(ts) PARTITION BY DAY`,
      adminSession(),
    );
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function run(
  engine: Engine,
  sql: string,
  params: Value[] = [],
  types?: ColumnType[],
): Promise<unknown[][]> {
  const session = { ...adminSession(), params, paramTypes: types };
  const p = engine.prepare(sql, { ...adminSession(), paramTypes: types });
  const out = await engine.execute(p, session);
  assert.equal(out.kind, "rows");
  const rows: unknown[][] = [];
  if (out.kind !== "rows") return rows;
  for await (const b of out.batches) {
    for (let r = 0; r < b.rowCount; r++) rows.push(b.columns.map((c) => c.data[r] as unknown));
  }
  return rows;
}

/** Runs `sql` over `t` and over `plain` (the oracle) with the same values: same rows. */
async function same(engine: Engine, where: string, params: Value[], types: ColumnType[], table = "t") {
  const got = await run(engine, `SELECT ts, x FROM ${table} WHERE ${where}`, params, types);
  const want = await run(engine, `SELECT ts, x FROM plain WHERE ${where}`, params, types);
  const label = `${where} with ${params.map(String).join(", ")} (${types.map((t) => t.tag).join(", ")})`;
  assert.deepEqual(got.map((r) => r[1]), want.map((r) => r[1]), label);
  return got;
}

const POINTS = [
  START - DAY,
  START - 1n,
  START,
  START + 1n,
  START + 3n * HOUR,
  START + 3n * HOUR - 1n,
  START + 3n * HOUR + 1n,
  START + 5n * DAY + 90n * 60_000_000n,
  START + 5n * DAY + 17n,
  START + BigInt(DAYS) * DAY - 1n,
  START + BigInt(DAYS) * DAY,
  START + 40n * DAY,
  0n,
];

Deno.test("ts <op> $1 with a TIMESTAMP, LONG and DATE value answers as the plain filter", async () => {
  await withEngine(async (engine) => {
    for (const op of [">", ">=", "<", "<=", "="]) {
      for (const v of POINTS) {
        await same(engine, `ts ${op} $1`, [v], [T.TIMESTAMP]);
        await same(engine, `$1 ${op} ts`, [v], [T.TIMESTAMP]);
        await same(engine, `ts ${op} $1`, [v], [T.LONG]);
        await same(engine, `ts ${op} $1`, [v / 1000n], [T.DATE]);
        await same(engine, `ts ${op} $1`, [v * 1000n + 1n], [T.TIMESTAMP_NS]);
        await same(engine, `ts ${op} $1`, [v], [T.TIMESTAMP], "tn");
        await same(engine, `ts ${op} $1`, [v * 1000n - 1n], [T.TIMESTAMP_NS], "tn");
      }
      await same(engine, `ts ${op} $1`, [null], [T.TIMESTAMP]);
      await same(engine, `ts ${op} $1`, [1_704_300_000_000_000.5], [T.DOUBLE]);
    }
  });
});

Deno.test("ts compared with text: same rows as the literal and as the plain filter", async () => {
  await withEngine(async (engine) => {
    const texts = [
      "2024-01-03T04:30:00.000000Z",
      "2024-01-03T04:30:00.000001Z",
      "2024-01-03",
      "2024-01-03T04",
      "2023-12-01",
      "2025-01-01",
      "not a time",
    ];
    for (const op of [">", ">=", "<", "<=", "="]) {
      for (const s of texts) {
        for (const type of [T.STRING, T.VARCHAR]) {
          const got = await same(engine, `ts ${op} $1`, [s], [type]);
          await same(engine, `ts ${op} $1`, [s], [type], "tn");
          if (s === "not a time") continue; // a literal that does not parse is a bind error
          const literal = await run(engine, `SELECT ts, x FROM t WHERE ts ${op} '${s}'`);
          assert.deepEqual(got, literal, `ts ${op} '${s}'`);
        }
      }
    }
  });
});

Deno.test("windows, BETWEEN, IN and casts of $n answer as the plain filter", async () => {
  await withEngine(async (engine) => {
    for (
      const [lo, hi] of [[START + DAY, START + DAY + HOUR], [START + 3n * DAY, START + DAY], [START, START]]
    ) {
      await same(engine, "ts >= $1 AND ts < $2", [lo, hi], [T.TIMESTAMP, T.TIMESTAMP]);
      await same(engine, "ts > $1 AND ts <= $2 AND x > 3", [lo, hi], [T.TIMESTAMP, T.TIMESTAMP]);
      await same(engine, "ts BETWEEN $1 AND $2", [lo, hi], [T.TIMESTAMP, T.TIMESTAMP]);
      await same(engine, "ts >= $1 AND ts < $2", [lo, null], [T.TIMESTAMP, T.TIMESTAMP]);
      await same(engine, "ts >= $1::timestamp AND ts < $2::timestamp", [String(lo), String(hi)], [
        T.LONG,
        T.LONG,
      ]);
      await same(engine, "ts IN ($1)", [lo], [T.TIMESTAMP]);
      await same(engine, "ts > '2024-01-02' AND ts < $1", [hi], [T.TIMESTAMP]);
      await same(engine, "ts >= dateadd('h', -1, $1) AND ts < dateadd('m', 30, $2)", [lo, hi], [
        T.TIMESTAMP,
        T.TIMESTAMP,
      ]);
    }
    // Relative ranges as Grafana and Metabase send them: now() - $1::interval.
    const hours = Math.floor((Date.now() - Date.parse("2024-01-10T12:00:00Z")) / 3_600_000);
    for (const h of [hours, hours + 25, hours - 100]) {
      const rows = await same(engine, "ts > now() - $1::interval", [`${h} hours`], [T.STRING]);
      assert.ok(rows.length > 0 && rows.length < DAYS * 16, `${h} hours: ${rows.length} rows`);
      const before = scanCounters.partitionsRead;
      await run(engine, "SELECT x FROM t WHERE ts > now() - $1::interval", [`${h} hours`], [T.STRING]);
      assert.ok(scanCounters.partitionsRead - before < DAYS - 4, `${h} hours: partitions pruned`);
    }
  });
});

Deno.test("a prepared window reads only the partitions it needs; the kept plan is unchanged", async () => {
  await withEngine(async (engine) => {
    const sql = "SELECT count(*), sum(x) FROM t WHERE ts >= $1 AND ts < $2";
    const p = engine.prepare(sql, { ...adminSession(), paramTypes: [T.TIMESTAMP, T.TIMESTAMP] });
    const exec = async (lo: bigint, hi: bigint) => {
      const before = { ...scanCounters };
      const out = await engine.execute(p, { ...adminSession(), params: [lo, hi] });
      assert.equal(out.kind, "rows");
      const rows: unknown[][] = [];
      if (out.kind === "rows") {
        for await (const b of out.batches) rows.push(b.columns.map((c) => c.data[0] as unknown));
      }
      return {
        rows,
        partitions: scanCounters.partitionsRead - before.partitionsRead,
        read: scanCounters.rowsRead - before.rowsRead,
      };
    };
    const day = await exec(START + 4n * DAY, START + 5n * DAY);
    assert.deepEqual(day.rows, [[16n, BigInt((65 + 80) * 16 / 2)]]); // x 65..80
    assert.equal(day.partitions, 1);
    assert.equal(day.read, 16);
    const plan = p.cachedPlan?.plan;
    assert.ok(plan);
    const hour = await exec(START + 6n * DAY + HOUR, START + 6n * DAY + 2n * HOUR);
    assert.equal(hour.partitions, 1);
    assert.equal(hour.read, 1);
    assert.equal(p.cachedPlan?.plan, plan, "the plan is kept across values");
    const two = await exec(START + 6n * DAY - 2n * HOUR, START + 7n * DAY + HOUR); // 22:30, day 6, 00:00
    assert.equal(two.partitions, 3);
    // A NULL bound is left to the filter: every partition is read, no row matches.
    const open = await exec(START, null as unknown as bigint);
    assert.equal(open.rows[0][0], 0n);
    assert.equal(open.partitions, DAYS);
  });
});

Deno.test("every value type that converts exactly prunes partitions; the others read all", async () => {
  await withEngine(async (engine) => {
    const at = START + 15n * DAY; // the last five days match ts >= $1
    const cases: [Value, ColumnType, string, number][] = [
      [at, T.TIMESTAMP, "t", 5],
      [at, T.LONG, "t", 5],
      [Number(at), T.DOUBLE, "t", 5],
      [at / 1000n, T.DATE, "t", 5],
      [at * 1000n, T.TIMESTAMP_NS, "t", 5],
      ["2024-01-16", T.STRING, "t", 5],
      ["2024-01-16T00:00:00.000000Z", T.VARCHAR, "t", 5],
      [at, T.TIMESTAMP, "tn", 5],
      [at * 1000n, T.TIMESTAMP_NS, "tn", 5],
      ["2024-01-16", T.STRING, "tn", 5],
      [null, T.TIMESTAMP, "t", DAYS],
      ["not a time", T.STRING, "t", DAYS],
    ];
    for (const [v, type, table, partitions] of cases) {
      const before = scanCounters.partitionsRead;
      const rows = await run(engine, `SELECT x FROM ${table} WHERE ts >= $1`, [v], [type]);
      assert.equal(scanCounters.partitionsRead - before, partitions, `${table} ${type.tag} ${v}`);
      assert.equal(rows.length, partitions === 5 ? 5 * 16 : 0, `${table} ${type.tag} ${v}`);
    }
  });
});

Deno.test("EXPLAIN shows the parameters before Bind and the interval with values", async () => {
  await withEngine(async (engine) => {
    const sql = "EXPLAIN SELECT x FROM t WHERE ts >= $1 AND ts < $2";
    const types = [T.TIMESTAMP, T.TIMESTAMP];
    const unbound = (await run(engine, sql, [], types)).map((r) => String(r[0]).trim());
    assert.ok(
      unbound.includes("DataFrame table: t columns: ts,x intervals: [ts >= $1, ts < $2]"),
      unbound.join("\n"),
    );
    const bound = (await run(engine, sql, [START, START + HOUR], types)).map((r) => String(r[0]).trim());
    assert.ok(
      bound.includes(
        "DataFrame table: t columns: ts,x intervals: [('2024-01-01T00:00:00.000000Z', '2024-01-01T00:59:59.999999Z')]",
      ),
      bound.join("\n"),
    );
    assert.ok(!bound.includes("Filter"), "both conjuncts became the interval");
  });
});

Deno.test("a statement run whole on a worker heap binds the same intervals (not declined)", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_param_iv_worker_" });
  const engine = await Engine.open({
    root,
    cacheBytes: 64 * 1024 * 1024,
    parallelWorkers: 1,
    statementRowsMin: 0,
  });
  try {
    const gen = `SELECT timestamp_sequence(${START}, 5400000000) ts, x FROM long_sequence(${DAYS * 16})`;
    await engine.execute(`CREATE TABLE t AS (${gen}) TIMESTAMP(ts) PARTITION BY DAY`, adminSession());
    const sql = "SELECT ts, x FROM t WHERE ts >= $1 AND ts < $2 AND x % 2 = 0";
    const types = [T.TIMESTAMP, T.TIMESTAMP];
    const before = { ...statementStats };
    const rows = await run(engine, sql, [START + DAY, START + 3n * DAY], types);
    assert.equal(statementStats.offloaded - before.offloaded, 1, "ran on the worker");
    assert.equal(statementStats.declined - before.declined, 0, "the worker's plan printed the same");
    assert.deepEqual(rows.map((r) => r[1]), Array.from({ length: 16 }, (_, i) => BigInt(18 + 2 * i)));
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
