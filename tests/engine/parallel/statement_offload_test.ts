/**
 * Whole read-only statements on the worker heaps (issue #17, engine/parallel/statement_offload.ts).
 *
 * - Differential: generated queries of every kind the workers take (joins, ASOF, LATEST ON, set
 *   operations, windows, sorts, DISTINCT, SAMPLE BY, subqueries, parameters) over a table full of
 *   NULLs answer the same rows, in the same order, with offload forced on (threshold 0) as on
 *   the main thread; and every sql logic file (tests/sql) passes with offload forced on.
 * - The choice: EXPLAIN shows `Worker` exactly for offloaded plans; SELECT 1, small tables,
 *   catalog functions and plans whose heavy work is already morsels stay on the main thread.
 * - Cancel, statement timeout, query.memory.limit and an abandoned stream stop the worker
 *   promptly; a morsel operator inside an offloaded statement runs on that heap (no deadlock).
 * - Every acknowledged write is seen by the next offloaded read.
 * - The protocol: a worker sends no more batches than the main thread pulled, and refuses a text
 *   it cannot parse or whose plan prints differently from the main thread's.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, readValue, type Session } from "../../../engine/mod.ts";
import { statementStats } from "../../../engine/parallel/statement_offload.ts";
import { writeSequence } from "../../../engine/exec/sources.ts";
import { type Rng, rng } from "../../fuzz/prng.ts";
import { runLogicFile } from "../../sql/logic_runner.ts";
import { storageOf } from "../../../engine/engine.ts";
import type { Snapshot } from "../../../engine/storage/snapshot.ts";
import type { HeapReply } from "../../../engine/parallel/_protocol.ts";
import type { StatementSpec } from "../../../engine/parallel/statement_protocol.ts";

const OPTS = { sanitizeResources: false, sanitizeOps: false };

async function run(engine: Engine, sql: string, session: Session = adminSession()): Promise<unknown[][]> {
  const out = await engine.execute(sql, session);
  const result: unknown[][] = [];
  if (out.kind === "rows") {
    for await (const b of out.batches) {
      for (let i = 0; i < b.rowCount; i++) result.push(b.columns.map((c) => readValue(c, i)));
    }
  }
  return result;
}

async function withEngine(
  fn: (engine: Engine) => Promise<void>,
  options: { queryMemoryBytes?: number; parallelValuesMin?: number } = {},
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_offload_" });
  const engine = await Engine.open({ root, cacheBytes: 128 * 1024 * 1024, statementRowsMin: 0, ...options });
  try {
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

function rowLiterals(r: Rng, n: number): string {
  const nul = () => r.chance(0.15);
  const ts = `'2024-01-0${1 + r.int(3)}T${String(r.int(24)).padStart(2, "0")}:00:00.${
    String(n).padStart(6, "0")
  }Z'`;
  return `(${ts}, ${
    [
      nul() ? "NULL" : `'k${r.int(6)}'`,
      nul() ? "NULL" : String(r.int(40) - 20),
      nul() ? "NULL" : String(r.int(1000)),
      nul() ? "NULL" : (r.next() * 100 - 50).toFixed(2),
      nul() ? "NULL" : `'t${r.int(5)}'`,
    ].join(", ")
  })`;
}

const SCALARS = ["s", "i", "l", "d", "str", "i + 1", "d * 2", "concat(s, str)", "abs(i)", "hour(ts)", "ts"];
const PREDICATES = ["i > 0", "s = 'k1'", "d < 10", "str IS NULL", "l % 3 = 0", "s IN ('k1', 'k2')", "true"];
const AGGS = [
  "count()",
  "sum(i)",
  "avg(d)",
  "min(l)",
  "max(str)",
  "count(DISTINCT s)",
  "first(d)",
  "last(i)",
];

/** One generated read-only query; every query orders its rows completely, or is one row. */
function shapeOf(r: Rng): string {
  const col = () => r.pick(SCALARS);
  const where = () => r.pick(PREDICATES);
  const agg = () => r.pick(AGGS);
  switch (r.int(12)) {
    case 0:
      return `SELECT ${col()} a, ${col()} b FROM t WHERE ${where()} ORDER BY ts, a, b`;
    case 1:
      return `SELECT s, ${agg()}, ${agg()} FROM t WHERE ${where()} GROUP BY s ORDER BY s`;
    case 2:
      return `SELECT a.ts, a.i, b.v FROM t a ${r.pick(["JOIN", "LEFT JOIN"])} u b ON a.s = b.s ` +
        `WHERE a.${r.pick(["i > 5", "d < 0", "s = 'k2'"])} ORDER BY a.ts, a.i, b.v`;
    case 3:
      return `SELECT a.ts, a.s, b.v FROM t a ${r.pick(["ASOF", "LT"])} JOIN u b ${
        r.pick(["ON (s)", ""])
      } ORDER BY a.ts, a.s`;
    case 4:
      return `SELECT ts, s, i, d FROM t ${
        r.chance(0.5) ? `WHERE ${where()} ` : ""
      }LATEST ON ts PARTITION BY s ORDER BY s`;
    case 5:
      return `SELECT ${r.pick(["s", "str", "i % 5"])} x FROM t ${
        r.pick(["UNION", "UNION ALL", "EXCEPT", "INTERSECT"])
      } ` +
        `SELECT ${r.pick(["s", "str"])} FROM u ORDER BY x`;
    case 6:
      return `SELECT ts, i, ${
        r.pick([
          "sum(d) OVER (PARTITION BY s ORDER BY ts)",
          "row_number() OVER (PARTITION BY s ORDER BY ts)",
          "rank() OVER (ORDER BY i)",
          "avg(l) OVER (ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW)",
          "lag(d) OVER (PARTITION BY str ORDER BY ts)",
        ])
      } w FROM t ORDER BY ts, i`;
    case 7:
      return `SELECT DISTINCT ${r.pick(["s", "str", "s, str", "i % 4"])} FROM t ORDER BY 1${
        r.pick(["", ", 2"]).replace(", 2", "")
      }`;
    case 8:
      return `SELECT ts, ${agg()} FROM t SAMPLE BY ${r.pick(["1h", "6h", "1d"])}${
        r.pick(["", " FILL(NULL)", " FILL(PREV)"])
      } ORDER BY ts`;
    case 9:
      return `SELECT ts, i FROM t WHERE i > (SELECT avg(i) FROM u) OR s IN (SELECT s FROM u WHERE v > 5) ORDER BY ts, i`;
    case 10:
      return `SELECT * FROM t ORDER BY ${r.pick(["d", "str", "i DESC", "s, l"])}, ts LIMIT ${1 + r.int(30)}`;
    default:
      return `WITH x AS (SELECT s, count() c FROM t GROUP BY s) SELECT x.s, x.c, y.v FROM x ` +
        `LEFT JOIN (SELECT s, max(v) v FROM u GROUP BY s) y ON x.s = y.s ORDER BY x.s`;
  }
}

async function createTables(engine: Engine, r: Rng, n: number): Promise<void> {
  await run(
    engine,
    "CREATE TABLE t (ts TIMESTAMP, s SYMBOL, i INT, l LONG, d DOUBLE, str STRING) TIMESTAMP(ts) PARTITION BY DAY",
  );
  const rows = Array.from({ length: n }, (_, k) => rowLiterals(r, k));
  for (let k = 0; k < rows.length; k += 200) {
    await run(engine, `INSERT INTO t VALUES ${rows.slice(k, k + 200).join(", ")}`);
  }
  await run(
    engine,
    "CREATE TABLE u AS (SELECT timestamp_sequence('2024-01-01', 3_600_000_000L) ts, " +
      "rnd_symbol('k0','k1','k2','k3',NULL) s, rnd_int(0, 10, 0) v, rnd_str('t1','t2','t9') str " +
      "FROM long_sequence(60)) TIMESTAMP(ts) PARTITION BY DAY",
  );
}

const same = (a: unknown, b: unknown) =>
  JSON.stringify(a, (_k, v) => typeof v === "bigint" ? `${v}n` : v) ===
    JSON.stringify(b, (_k, v) => typeof v === "bigint" ? `${v}n` : v);

async function answer(engine: Engine, sql: string): Promise<unknown> {
  try {
    return await run(engine, sql);
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

Deno.test({
  name: "generated queries answer the same on a worker as on the main thread",
  ...OPTS,
  async fn() {
    await withEngine(async (engine) => {
      const r = rng(17);
      await createTables(engine, r, 1500);
      const before = statementStats.offloaded;
      let offloaded = 0;
      const errors: string[] = [];
      for (let k = 0; k < 160; k++) {
        const sql = shapeOf(r);
        engine.statements.rowsMin = Infinity;
        const main = await answer(engine, sql);
        if (typeof main === "string") errors.push(`${sql}: ${main}`);
        engine.statements.rowsMin = 0;
        const plan = (await run(engine, `EXPLAIN ${sql}`).catch(() => [[""]])).map((row) => row[0]);
        const was = statementStats.offloaded;
        const worker = await answer(engine, sql);
        if (statementStats.offloaded > was) offloaded++;
        assert.equal(plan[0] === "Worker", statementStats.offloaded > was, `${sql}\n${plan.join("\n")}`);
        assert.ok(
          same(worker, main),
          `${sql}\nmain:   ${JSON.stringify(main, big)}\nworker: ${JSON.stringify(worker, big)}`,
        );
      }
      console.log(`${offloaded} of 160 generated queries ran on a worker, ${errors.length} failed on both`);
      // The generator writes valid SQL: errors would make the comparison vacuous.
      assert.ok(errors.length <= 8, errors.join("\n"));
      assert.ok(offloaded >= 150, `only ${offloaded} offloaded`);
      assert.equal(statementStats.offloaded - before, offloaded);
    });
  },
});

const big = (_k: string, v: unknown) => typeof v === "bigint" ? `${v}n` : v;

Deno.test({
  name: "parameters, time zone and now() reach the worker",
  ...OPTS,
  async fn() {
    await withEngine(async (engine) => {
      await createTables(engine, rng(3), 300);
      const session = { ...adminSession(), params: [5, "k1"], timeZone: "Europe/Berlin" };
      const sql = "SELECT count(), min(to_timezone(a.ts, 'Europe/Berlin')), max(now() > a.ts) FROM t a " +
        "JOIN u b ON a.s = b.s WHERE a.i > $1 AND a.s = $2";
      engine.statements.rowsMin = Infinity;
      const main = await run(engine, sql, session);
      engine.statements.rowsMin = 0;
      const was = statementStats.offloaded;
      assert.deepEqual(await run(engine, sql, { ...session }), main);
      assert.equal(statementStats.offloaded, was + 1);
    });
  },
});

Deno.test({
  name: "every sql logic file passes with statements offloaded",
  ...OPTS,
  async fn() {
    const here = new URL("../../sql/", import.meta.url).pathname;
    const before = statementStats.offloaded;
    const failures: string[] = [];
    for (const area of ["core", "time_series"]) {
      for (
        const f of [...Deno.readDirSync(here + area)].map((e) => e.name).filter((n) => n.endsWith(".test"))
      ) {
        failures.push(...await runLogicFile(`${here}${area}/${f}`, { statementRowsMin: 0 }));
      }
    }
    assert.equal(failures.length, 0, failures.join("\n"));
    assert.ok(statementStats.offloaded - before > 100, `offloaded ${statementStats.offloaded - before}`);
  },
});

Deno.test({
  name: "EXPLAIN shows the choice; short and catalog statements stay on the main thread",
  ...OPTS,
  async fn() {
    await withEngine(async (engine) => {
      await createTables(engine, rng(5), 300);
      const plan = async (sql: string) => (await run(engine, `EXPLAIN ${sql}`)).map((row) => row[0]);
      assert.equal((await plan("SELECT * FROM t a JOIN u b ON a.s = b.s"))[0], "Worker");
      assert.notEqual((await plan("SELECT 1"))[0], "Worker");
      assert.notEqual((await plan("SELECT current_user, count() FROM t"))[0], "Worker");
      assert.notEqual((await plan("SELECT * FROM tables()"))[0], "Worker");
      assert.notEqual((await plan("SELECT count() FROM t JOIN pg_catalog.pg_class ON true"))[0], "Worker");
      // The default threshold: 300 rows stay here.
      engine.statements.rowsMin = 100_000;
      assert.notEqual((await plan("SELECT * FROM t a JOIN u b ON a.s = b.s"))[0], "Worker");
      const was = statementStats.offloaded;
      assert.equal((await run(engine, "SELECT 1"))[0][0], 1);
      await run(engine, "SELECT * FROM t a JOIN u b ON a.s = b.s");
      assert.equal(statementStats.offloaded, was);
    });
  },
});

/** 200K rows whose self-join on `k` (100 values) yields 400M pairs: runs until stopped. */
const ENDLESS = "SELECT count(), sum(a.x + b.x) FROM big a JOIN big b ON a.k = b.k";

async function createBig(engine: Engine): Promise<void> {
  await run(
    engine,
    "CREATE TABLE big AS (SELECT timestamp_sequence('2024-01-01', 1_000_000L) ts, x, x % 100 k, rnd_double() d, rnd_symbol('a','b') s " +
      "FROM long_sequence(200_000)) TIMESTAMP(ts) PARTITION BY DAY",
  );
}

/** Time for a short offloaded statement: the worker is free again. */
async function workerAnswers(engine: Engine): Promise<number> {
  const t0 = performance.now();
  const rows = await run(engine, "SELECT count() FROM big a JOIN big b ON a.x = b.x WHERE a.x < 10");
  assert.equal(rows[0][0], 9n);
  return performance.now() - t0;
}

Deno.test({
  name: "cancel, timeout and an abandoned stream stop an offloaded statement promptly",
  ...OPTS,
  async fn() {
    await withEngine(async (engine) => {
      await createBig(engine);
      await workerAnswers(engine); // workers started and warm
      for (const how of ["cancel", "timeout"] as const) {
        const ac = new AbortController();
        const session = { ...adminSession(ac.signal), ...(how === "timeout" ? { timeoutMs: 300 } : {}) };
        const t0 = performance.now();
        if (how === "cancel") setTimeout(() => ac.abort(), 300);
        const err = await run(engine, ENDLESS, session).then(() => undefined, (e) => e);
        const took = performance.now() - t0;
        assert.ok(err, `${how}: the statement finished`);
        assert.match(err.message, how === "cancel" ? /cancelled/ : /timeout/);
        assert.ok(took < 1500, `${how} answered after ${Math.round(took)} ms`);
        // Both workers are free: a statement on either answers quickly.
        for (let k = 0; k < 2; k++) {
          const t = await workerAnswers(engine);
          assert.ok(t < 2000, `${how}: the next statement took ${Math.round(t)} ms`);
        }
      }
      // A consumer that stops after the first batch: the worker is told to stop.
      const out = await engine.execute("SELECT a.x, b.x FROM big a JOIN big b ON a.k = b.k", adminSession());
      assert.equal(out.kind, "rows");
      if (out.kind === "rows") {
        for await (const b of out.batches) {
          assert.ok(b.rowCount > 0);
          break;
        }
      }
      for (let k = 0; k < 2; k++) assert.ok((await workerAnswers(engine)) < 2000);
    });
  },
});

Deno.test({
  name: "query.memory.limit holds on a worker",
  ...OPTS,
  async fn() {
    await withEngine(async (engine) => {
      await createBig(engine);
      const err = await run(engine, "SELECT x, d FROM big ORDER BY d").then(() => undefined, (e) => e);
      assert.ok(err, "the sort fit in 2 MB");
      assert.match(err.message, /memory limit/);
      assert.equal((await run(engine, "SELECT count() FROM big WHERE k = 3"))[0][0], 2000n);
    }, { queryMemoryBytes: 2 * 1024 * 1024 });
  },
});

Deno.test({
  name: "a morsel operator inside an offloaded statement runs on that worker",
  ...OPTS,
  async fn() {
    // parallelValuesMin 1: every hash aggregation over a scan is marked for the workers.
    await withEngine(async (engine) => {
      await createBig(engine);
      const sql = "SELECT g.k, g.c, count() FROM (SELECT k, count() c FROM big GROUP BY k) g " +
        "JOIN big b ON g.k = b.k WHERE b.x < 1000 GROUP BY g.k, g.c ORDER BY g.k";
      const plan = (await run(engine, `EXPLAIN ${sql}`)).map((row) => row[0]);
      assert.equal(plan[0], "Worker", plan.join("\n"));
      assert.ok(plan.some((l) => /parallel/.test(String(l))), plan.join("\n"));
      engine.statements.rowsMin = Infinity;
      const main = await run(engine, sql);
      engine.statements.rowsMin = 0;
      const was = statementStats.offloaded;
      const worker = await run(engine, sql);
      assert.equal(statementStats.offloaded, was + 1);
      assert.deepEqual(worker, main);
      assert.equal(worker.length, 100);
      // A plan whose heavy work is all morsels stays on the main thread (unless forced by 0).
      engine.statements.rowsMin = 1;
      const grouped = (await run(engine, "EXPLAIN SELECT k, count() FROM big GROUP BY k")).map((row) =>
        row[0]
      );
      assert.notEqual(grouped[0], "Worker", grouped.join("\n"));
      // At the default threshold: streaming scans and LATEST ON over few symbols stay here.
      engine.statements.rowsMin = 100_000;
      const first = async (sql: string) => (await run(engine, `EXPLAIN ${sql}`))[0][0];
      assert.notEqual(await first("SELECT * FROM big WHERE x = 5"), "Worker");
      assert.notEqual(await first("SELECT * FROM big LATEST ON ts PARTITION BY s"), "Worker");
      // The unkeyed WASM SAMPLE BY reduces in slices and memoizes blocks here.
      assert.notEqual(await first("SELECT ts, avg(x), count() FROM big SAMPLE BY 1h"), "Worker");
      assert.equal(await first("SELECT * FROM big LATEST ON ts PARTITION BY k"), "Worker");
      assert.equal(await first("SELECT * FROM big a JOIN big b ON a.x = b.x WHERE a.x < 10"), "Worker");
      assert.equal(await first("SELECT x, d FROM big ORDER BY d"), "Worker");
    }, { parallelValuesMin: 1 });
  },
});

Deno.test({
  name: "a filter on SYMBOL keys counts the rows it lets through: few keys of many stay on the main thread",
  ...OPTS,
  async fn() {
    await withEngine(async (engine) => {
      // 200K rows, 100 hosts: one host is ~2K rows for the sort, 60 hosts ~120K.
      await run(
        engine,
        "CREATE TABLE m AS (SELECT timestamp_sequence('2024-01-01', 1_000_000L) ts, " +
          "cast(concat('h', x % 100) AS SYMBOL) h, rnd_double() d FROM long_sequence(200_000)) TIMESTAMP(ts) PARTITION BY DAY",
      );
      engine.statements.rowsMin = 100_000;
      const first = async (sql: string) => (await run(engine, `EXPLAIN ${sql}`))[0][0];
      const hosts = (n: number) => Array.from({ length: n }, (_, i) => `'h${i}'`).join(", ");
      assert.notEqual(await first("SELECT d FROM m WHERE h = 'h7' ORDER BY d"), "Worker");
      assert.notEqual(
        await first(`SELECT ts, max(d) FROM m WHERE h IN (${hosts(8)}) SAMPLE BY 1h`),
        "Worker",
      );
      assert.notEqual(
        await first(`SELECT d FROM m WHERE d > 0.5 AND h IN (${hosts(8)}) ORDER BY d`),
        "Worker",
      );
      // Enough keys, a negated filter or none: the heavy operator sees most rows.
      assert.equal(await first(`SELECT d FROM m WHERE h IN (${hosts(60)}) ORDER BY d`), "Worker");
      assert.equal(await first("SELECT d FROM m WHERE h != 'h7' ORDER BY d"), "Worker");
      assert.equal(await first(`SELECT d FROM m WHERE h = 'h7' OR d > 0.5 ORDER BY d`), "Worker");
      assert.equal(await first("SELECT d FROM m ORDER BY d"), "Worker");
      // Same answers either way.
      const sql = `SELECT ts, max(d), count() FROM m WHERE h IN (${hosts(8)}) SAMPLE BY 1h`;
      const here = await run(engine, sql);
      engine.statements.rowsMin = 0;
      const was = statementStats.offloaded;
      assert.deepEqual(await run(engine, sql), here);
      assert.equal(statementStats.offloaded, was + 1);
      assert.ok(here.length > 10);
    });
  },
});

Deno.test({
  name: "an offloaded read sees every acknowledged write",
  ...OPTS,
  async fn() {
    await withEngine(async (engine) => {
      await run(engine, "CREATE TABLE w (ts TIMESTAMP, s SYMBOL, v LONG) TIMESTAMP(ts) PARTITION BY DAY WAL");
      await run(
        engine,
        "CREATE TABLE nw (ts TIMESTAMP, s SYMBOL, v LONG) TIMESTAMP(ts) PARTITION BY DAY BYPASS WAL",
      );
      const was = statementStats.offloaded;
      for (const table of ["w", "nw"]) {
        for (let k = 1; k <= 30; k++) {
          // A new symbol each time: the worker must read the dictionary as committed now.
          await run(
            engine,
            `INSERT INTO ${table} VALUES ('2024-01-0${1 + k % 3}T00:00:00.${k}Z', 'sym${k}', ${k})`,
          );
          const got = await run(
            engine,
            `SELECT count(), sum(a.v), max(a.s) FROM ${table} a JOIN ${table} b ON a.s = b.s WHERE b.s = 'sym${k}'`,
          );
          assert.deepEqual(got, [[1n, BigInt(k), `sym${k}`]], `${table} after insert ${k}`);
        }
      }
      assert.equal(statementStats.offloaded, was + 60);
    });
  },
});

Deno.test({
  name: "a worker sends no more batches than pulled, and refuses a plan that differs from the main thread's",
  ...OPTS,
  async fn() {
    await withEngine(async (engine) => {
      await createBig(engine);
      const snap = storageOf(engine).table("big")!.snapshot();
      try {
        const origin = (snap as Snapshot).origin();
        const spec = (sql: string, explain: string[], credit: number): StatementSpec => ({
          sql,
          tables: { big: origin },
          explain,
          nowMicros: String(Date.now() * 1000),
          timeZone: "UTC",
          user: "admin",
          params: [],
          legacyNames: false,
          memoryBytes: 1 << 30,
          credit,
        });
        const replies: HeapReply[] = [];
        const channel = (await engine.parallel.channel((r) => replies.push(r)))!;
        const settle = () => new Promise((r) => setTimeout(r, 400));
        // Waits for the worker's reply (a loaded machine may take seconds), then `settle`s so an
        // extra batch it should not have sent would show.
        const replied = async (cond: () => boolean) => {
          for (const end = Date.now() + 20_000; !cond() && Date.now() < end;) {
            await new Promise((r) => setTimeout(r, 20));
          }
          await settle();
        };
        // 200K rows come in several batches; the worker sends one per credit.
        const sql = "SELECT x, ts FROM big";
        engine.statements.rowsMin = Infinity;
        const explain = (await run(engine, `EXPLAIN ${sql}`)).map((row) => String(row[0]));
        channel.post({ kind: "stmt", id: channel.id, forget: [], spec: spec(sql, explain, 1) });
        await replied(() => replies.length >= 1);
        assert.deepEqual(replies.map((r) => r.kind), ["stmtBatch"]);
        channel.post({ kind: "stmtPull", id: channel.id, credit: 1 });
        await replied(() => replies.length >= 2);
        assert.deepEqual(replies.map((r) => r.kind), ["stmtBatch", "stmtBatch"]);
        channel.post({ kind: "stmtPull", id: channel.id, credit: 100 });
        await replied(() => replies.at(-1)!.kind === "stmtEnd");
        assert.equal(replies.at(-1)!.kind, "stmtEnd");
        const rows = replies.reduce((n, r) => n + (r.kind === "stmtBatch" ? r.batch.rowCount : 0), 0);
        assert.equal(rows, 200_000);
        assert.ok(replies.length >= 4, `${replies.length} replies`);
        channel.close();

        // A plan that prints differently, and a text that does not parse, are refused.
        for (const [text, lines] of [[sql, ["DataFrame table: other"]], ["SELEC x", explain]] as const) {
          const got: HeapReply[] = [];
          const ch = (await engine.parallel.channel((r) => got.push(r)))!;
          ch.post({ kind: "stmt", id: ch.id, forget: [], spec: spec(text, [...lines], 3) });
          await replied(() => got.length >= 1);
          assert.deepEqual(got.map((r) => r.kind), ["stmtDeclined"], text);
          ch.close();
        }
      } finally {
        snap.release();
      }
    });
  },
});

Deno.test({
  name: "aggregates over a long long_sequence() run on a worker, short ones and plain streams stay here",
  ...OPTS,
  async fn() {
    await withEngine(async (engine) => {
      engine.statements.rowsMin = 100_000;
      const first = async (sql: string) => (await run(engine, `EXPLAIN ${sql}`))[0][0];
      const sql = "SELECT sum(x), min(x), max(x), count() FROM long_sequence(3000000)";
      assert.equal(await first(sql), "Worker");
      assert.notEqual(await first("SELECT sum(x) FROM long_sequence(1000)"), "Worker");
      assert.notEqual(await first("SELECT x FROM long_sequence(3000000)"), "Worker");
      const was = statementStats.offloaded;
      const worker = await run(engine, sql);
      assert.equal(statementStats.offloaded, was + 1);
      engine.statements.rowsMin = Infinity;
      assert.deepEqual(await run(engine, sql), worker);
      assert.deepEqual(worker, [[4500001500000n, 1n, 3000000n, 3000000n]]);
    });
  },
});

Deno.test("long_sequence's values keep their high word past 2^32", () => {
  const data = new BigInt64Array(4);
  writeSequence(data, 2 ** 32 - 2);
  assert.deepEqual([...data], [4294967294n, 4294967295n, 4294967296n, 4294967297n]);
  writeSequence(data, 2 ** 53 - 4);
  assert.deepEqual([...data], [9007199254740988n, 9007199254740989n, 9007199254740990n, 9007199254740991n]);
});
