/**
 * Engine.prepare (issue #18): a statement parsed once, columns known without running it, the
 * plan of a query reused while tables, time zone and parameter types stay the same, and a
 * per-session cache by SQL text that hands out a new statement after a table changed.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, StatementCache, T } from "../../engine/mod.ts";
import { storageOf } from "../../engine/engine.ts";
import { withTempEngine } from "./_temp_engine.ts";

function withEngine(fn: (engine: Engine) => Promise<void>): Promise<void> {
  return withTempEngine({ prefix: "qdb_prepared_", cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 }, fn);
}

async function rows(engine: Engine, stmt: Parameters<Engine["execute"]>[0], params: unknown[] = []) {
  const out = await engine.execute(stmt, { ...adminSession(), params, paramTypes: params.map(() => T.LONG) });
  assert.equal(out.kind, "rows");
  const values: unknown[][] = [];
  if (out.kind !== "rows") return values;
  for await (const b of out.batches) {
    for (let r = 0; r < b.rowCount; r++) values.push(b.columns.map((c) => c.data[r] as unknown));
  }
  return values;
}

Deno.test("a prepared query reuses its plan across executions with new parameter values", async () => {
  await withEngine(async (engine) => {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, x LONG) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await engine.execute("INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)", adminSession());
    const p = engine.prepare("SELECT x FROM t WHERE x > $1", adminSession());
    assert.deepEqual(p.paramTypes.map((t) => t?.tag), ["LONG"]);
    assert.deepEqual(p.columns, [{ name: "x", type: T.LONG }]);
    assert.deepEqual(await rows(engine, p, [1n]), [[2n], [3n]]);
    const plan = p.cachedPlan?.plan;
    assert.ok(plan, "the first execution keeps its plan");
    assert.deepEqual(await rows(engine, p, [2n]), [[3n]]);
    assert.equal(p.cachedPlan?.plan, plan, "the second execution runs the same plan");
    // New rows are read by the kept plan: it holds no data, only the shape of the query.
    await engine.execute("INSERT INTO t VALUES (4, 4)", adminSession());
    assert.deepEqual(await rows(engine, p, [2n]), [[3n], [4n]]);
    assert.equal(p.cachedPlan?.plan, plan);
    // A schema change makes a new plan (and a new prepared statement for Describe).
    await engine.execute("ALTER TABLE t ADD COLUMN y INT", adminSession());
    assert.equal(engine.isCurrent(p), false);
    assert.deepEqual(await rows(engine, p, [3n]), [[4n]]);
    assert.notEqual(p.cachedPlan?.plan, plan, "planned again after ALTER TABLE");
  });
});

Deno.test("plans that read the clock while planning are not kept", async () => {
  await withEngine(async (engine) => {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, x LONG) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    const p = engine.prepare("SELECT x FROM t WHERE ts IN today()", adminSession());
    await rows(engine, p);
    assert.equal(p.cachedPlan, undefined, "today() is folded at plan time: planned per execution");
  });
});

Deno.test("columns of SHOW, EXPLAIN and INSERT RETURNING are known without running them", async () => {
  await withEngine(async (engine) => {
    await engine.execute("CREATE TABLE t (ts TIMESTAMP, x LONG) TIMESTAMP(ts)", adminSession());
    const names = (sql: string) => engine.prepare(sql, adminSession()).columns?.map((c) => c.name);
    assert.deepEqual(names("EXPLAIN SELECT * FROM t"), ["QUERY PLAN"]);
    assert.deepEqual(names("SHOW TABLES"), ["table_name"]);
    assert.deepEqual(names("SHOW COLUMNS FROM t")?.slice(0, 2), ["column", "type"]);
    assert.deepEqual(names("INSERT INTO t VALUES ($1, $2) RETURNING x"), ["x"]);
    assert.equal(engine.prepare("INSERT INTO t VALUES ($1, $2)", adminSession()).columns, null);
    const snap = storageOf(engine).table("t")!.snapshot();
    assert.equal(snap.rowCount, 0, "preparing INSERT ... RETURNING inserted nothing");
    snap.release();
  });
});

Deno.test("the session cache hands out one statement per text until a table changes; bounded", async () => {
  await withEngine(async (engine) => {
    await engine.execute("CREATE TABLE t (x LONG)", adminSession());
    const statements = new StatementCache(2);
    const s = { ...adminSession(), statements };
    const a = engine.prepare("SELECT * FROM t", s);
    assert.equal(engine.prepare("SELECT * FROM t", s), a, "same text, same statement");
    await engine.execute("ALTER TABLE t ADD COLUMN y INT", adminSession());
    const b = engine.prepare("SELECT * FROM t", s);
    assert.notEqual(b, a, "prepared again after the table changed");
    assert.deepEqual(b.columns?.map((c) => c.name), ["x", "y"]);
    engine.prepare("SELECT 1", s);
    engine.prepare("SELECT 2", s);
    assert.equal(statements.size, 2, "least recently used statements leave");
    assert.notEqual(engine.prepare("SELECT * FROM t", s), b, "evicted: prepared anew");
  });
});
