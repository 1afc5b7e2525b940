/**
 * The engine's query cache (engine/query_cache.ts, issue #17): a text query executed again
 * reuses its parse and plan, and never answers from a stale plan — new rows, ALTER TABLE,
 * DROP + CREATE of a same-named table, RENAME, TRUNCATE, time zones, users, permissions and
 * bind variable types are each seen by the next execution. Each case is also run with the
 * cache off, and the answers must agree.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, type Principal, readValue, type Session, T } from "../../engine/mod.ts";

async function withEngine(fn: (engine: Engine) => Promise<void>, queryCacheCapacity?: number): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_query_cache_" });
  const engine = await Engine.open({
    root,
    cacheBytes: 64 * 1024 * 1024,
    parallelWorkers: 0,
    queryCacheCapacity,
  });
  try {
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function result(engine: Engine, sql: string, session: Session = adminSession()) {
  const out = await engine.execute(sql, session);
  assert.equal(out.kind, "rows", sql);
  if (out.kind !== "rows") return { columns: [], rows: [] };
  const rows: unknown[][] = [];
  for await (const b of out.batches) {
    for (let r = 0; r < b.rowCount; r++) rows.push(b.columns.map((c) => readValue(c, r)));
  }
  return { columns: out.columns.map((c) => `${c.name}:${c.type.tag}`), rows };
}

const ddl = (engine: Engine, sql: string, session: Session = adminSession()) => engine.execute(sql, session);

/** Runs `scenario` with the cache on and off; both must see the same answers. */
async function bothWays(scenario: (engine: Engine, log: unknown[]) => Promise<void>): Promise<unknown[]> {
  const on: unknown[] = [], off: unknown[] = [];
  await withEngine(async (e) => {
    await scenario(e, on);
    assert.ok(e.queryCacheHits > 0, "the cache was used");
  });
  await withEngine(async (e) => {
    await scenario(e, off);
    assert.equal(e.queryCacheHits, 0);
  }, 0);
  assert.deepEqual(on, off, "the cached engine answers as the uncached one");
  return on;
}

Deno.test("query cache: rows inserted after the plan was kept are read by the next execution", async () => {
  const log = await bothWays(async (engine, log) => {
    await ddl(engine, "CREATE TABLE t (ts TIMESTAMP, x LONG, s SYMBOL) TIMESTAMP(ts) PARTITION BY DAY");
    const q = "SELECT count(*), sum(x), max(ts) FROM t WHERE s = 'b'";
    const q2 = "SELECT x FROM t WHERE ts IN '1970-01-02' ORDER BY x";
    log.push(await result(engine, q), await result(engine, q2));
    // A symbol value the dictionary did not hold when planned, a new partition, an interval.
    await ddl(engine, "INSERT INTO t VALUES (1, 1, 'a'), (86400000001, 2, 'b')");
    log.push(await result(engine, q), await result(engine, q2));
    await ddl(engine, "INSERT INTO t VALUES (86400000002, 3, 'b'), (3 * 86400000000, 4, 'b')");
    log.push(await result(engine, q), await result(engine, q2));
  });
  assert.deepEqual(log[4], {
    columns: ["count():LONG", "sum(x):LONG", "max(ts):TIMESTAMP"],
    rows: [[3n, 9n, 259200000000n]],
  });
  assert.deepEqual(log[5], { columns: ["x:LONG"], rows: [[2n], [3n]] });
});

Deno.test("query cache: ALTER TABLE ADD/DROP COLUMN changes SELECT * at the next execution", async () => {
  const log = await bothWays(async (engine, log) => {
    await ddl(engine, "CREATE TABLE t (ts TIMESTAMP, x INT) TIMESTAMP(ts) PARTITION BY DAY");
    await ddl(engine, "INSERT INTO t VALUES (1, 1)");
    log.push(await result(engine, "SELECT * FROM t"));
    await ddl(engine, "ALTER TABLE t ADD COLUMN y DOUBLE");
    await ddl(engine, "INSERT INTO t VALUES (2, 2, 2.5)");
    log.push(await result(engine, "SELECT * FROM t"));
    await ddl(engine, "ALTER TABLE t DROP COLUMN x");
    log.push(await result(engine, "SELECT * FROM t"));
  });
  assert.deepEqual(log[1], {
    columns: ["ts:TIMESTAMP", "x:INT", "y:DOUBLE"],
    rows: [[1n, 1, null], [2n, 2, 2.5]],
  });
  assert.deepEqual(log[2], { columns: ["ts:TIMESTAMP", "y:DOUBLE"], rows: [[1n, null], [2n, 2.5]] });
});

Deno.test("query cache: DROP + CREATE of a same-named table, RENAME and TRUNCATE", async () => {
  const log = await bothWays(async (engine, log) => {
    await ddl(engine, "CREATE TABLE t (a INT, b STRING)");
    await ddl(engine, "INSERT INTO t VALUES (1, 'one')");
    log.push(await result(engine, "SELECT * FROM t"));
    await ddl(engine, "DROP TABLE t");
    await ddl(engine, "CREATE TABLE t (c DOUBLE, d BOOLEAN, e LONG)");
    await ddl(engine, "INSERT INTO t VALUES (1.5, true, 7)");
    log.push(await result(engine, "SELECT * FROM t"));
    await ddl(engine, "RENAME TABLE t TO u");
    await assert.rejects(engine.execute("SELECT * FROM t", adminSession()), /table does not exist/);
    await ddl(engine, "CREATE TABLE t (z SHORT)");
    log.push(await result(engine, "SELECT * FROM t"), await result(engine, "SELECT * FROM u"));
    await ddl(engine, "TRUNCATE TABLE u");
    log.push(await result(engine, "SELECT * FROM u"));
  });
  assert.deepEqual(log[0], { columns: ["a:INT", "b:STRING"], rows: [[1, "one"]] });
  assert.deepEqual(log[1], { columns: ["c:DOUBLE", "d:BOOLEAN", "e:LONG"], rows: [[1.5, true, 7n]] });
  assert.deepEqual(log[2], { columns: ["z:SHORT"], rows: [] });
  assert.deepEqual(log[4], { columns: ["c:DOUBLE", "d:BOOLEAN", "e:LONG"], rows: [] });
});

Deno.test("query cache: session time zone, user and bind variable types are part of the key", async () => {
  const log = await bothWays(async (engine, log) => {
    const q = "SELECT to_timezone(0::timestamp, 'UTC') = 0::timestamp, current_user()";
    const as = (name: string, timeZone = "UTC"): Session => ({ principal: { name, groups: [] }, timeZone });
    log.push(await result(engine, "SELECT current_user()", as("ann")));
    log.push(await result(engine, "SELECT current_user()", as("bob")));
    log.push(await result(engine, q, as("ann", "Europe/Paris")));
    log.push(await result(engine, "SELECT now() = now()", as("ann", "Europe/Paris")));
    const p = (params: unknown[]): Session => ({ ...adminSession(), params });
    log.push(await result(engine, "SELECT $1 AS v", p([1])));
    log.push(await result(engine, "SELECT $1 AS v", p([1.5])));
    log.push(await result(engine, "SELECT $1 AS v", p(["x"])));
    log.push(await result(engine, "SELECT $1 AS v", p([2])));
  });
  assert.deepEqual(log[0], { columns: ["current_user():STRING"], rows: [["ann"]] });
  assert.deepEqual(log[1], { columns: ["current_user():STRING"], rows: [["bob"]] });
  assert.deepEqual(log.slice(4).map((r) => (r as { columns: string[] }).columns), [
    ["v:INT"],
    ["v:DOUBLE"],
    ["v:STRING"],
    ["v:INT"],
  ]);
  assert.deepEqual((log[7] as { rows: unknown[] }).rows, [[2]]);
});

Deno.test("query cache: a revoked permission is refused at the next execution, per user", async () => {
  await withEngine(async (engine) => {
    await ddl(engine, "CREATE TABLE t (a INT, secret INT)");
    await ddl(engine, "INSERT INTO t VALUES (1, 2)");
    // Each user's grants, changed between executions as GRANT / REVOKE change them.
    const grants = new Map<string, Set<string>>([["ann", new Set(["t", "t.a", "t.secret"])], [
      "bob",
      new Set(["t", "t.a"]),
    ]]);
    const principal = (name: string, withSees: boolean): Principal => ({
      name,
      groups: [],
      can: (permission, table, column) =>
        permission !== "SELECT" || grants.get(name)!.has(column ? `${table}.${column}` : table ?? ""),
      ...(withSees ? { sees: (table: string) => grants.get(name)!.has(table) } : {}),
    });
    for (const withSees of [true, false]) {
      grants.set("ann", new Set(["t", "t.a", "t.secret"]));
      grants.set("bob", new Set(["t", "t.a"]));
      const ann: Session = { principal: principal("ann", withSees), timeZone: "UTC" };
      const bob: Session = { principal: principal("bob", withSees), timeZone: "UTC" };
      assert.deepEqual((await result(engine, "SELECT a, secret FROM t", ann)).rows, [[1, 2]]);
      await assert.rejects(engine.execute("SELECT a, secret FROM t", bob), /permission|denied|secret/i);
      assert.deepEqual((await result(engine, "SELECT a FROM t", bob)).rows, [[1]]);
      assert.deepEqual((await result(engine, "SELECT a, secret FROM t", ann)).rows, [[1, 2]]);
      grants.get("ann")!.delete("t.secret");
      grants.get("bob")!.add("t.secret");
      await assert.rejects(engine.execute("SELECT a, secret FROM t", ann), /permission|denied|secret/i);
      assert.deepEqual((await result(engine, "SELECT a, secret FROM t", bob)).rows, [[1, 2]]);
      grants.get("bob")!.clear();
      await assert.rejects(engine.execute("SELECT a FROM t", bob));
    }
  });
});

Deno.test("query cache: overlapping executions of one text each get their own answer", async () => {
  await withEngine(async (engine) => {
    await ddl(engine, "CREATE TABLE t (x LONG)");
    await ddl(engine, "INSERT INTO t SELECT x FROM long_sequence(200000)");
    const q = "SELECT x FROM t";
    const a = await engine.execute(q, adminSession());
    const b = await engine.execute(q, adminSession());
    assert.ok(a.kind === "rows" && b.kind === "rows");
    const ia = a.batches[Symbol.asyncIterator](), ib = b.batches[Symbol.asyncIterator]();
    let na = 0, nb = 0;
    for (;;) {
      const [ra, rb] = [await ia.next(), await ib.next()];
      if (!ra.done) na += ra.value.rowCount;
      if (!rb.done) nb += rb.value.rowCount;
      if (ra.done && rb.done) break;
    }
    assert.equal(na, 200000);
    assert.equal(nb, 200000);
    // An abandoned stream (return() before any next()) hands its entry back: reused after.
    const c = await engine.execute(q, adminSession());
    assert.ok(c.kind === "rows");
    await c.batches[Symbol.asyncIterator]().return?.();
    assert.equal((await result(engine, "SELECT count(*) FROM t")).rows[0][0], 200000n);
    assert.equal((await result(engine, q)).rows.length, 200000);
  });
});

Deno.test("query cache: a query's type errors and an empty text are still reported", async () => {
  await withEngine(async (engine) => {
    await ddl(engine, "CREATE TABLE t (x INT)");
    for (let i = 0; i < 2; i++) {
      await assert.rejects(engine.execute("SELECT nope FROM t", adminSession()), /Invalid column: nope/);
      await assert.rejects(engine.execute("   ", adminSession()), /empty query/);
    }
    await ddl(engine, "ALTER TABLE t ADD COLUMN nope INT");
    assert.deepEqual((await result(engine, "SELECT nope FROM t")).columns, ["nope:INT"]);
    assert.equal(T.INT.tag, "INT");
  });
});

Deno.test("query cache: a session with queryCache=false neither reads nor fills it", async () => {
  await withEngine(async (engine) => {
    const off: Session = { ...adminSession(), queryCache: false };
    for (let i = 0; i < 3; i++) assert.deepEqual((await result(engine, "SELECT 7", off)).rows, [[7]]);
    assert.equal(engine.queryCacheHits, 0);
    for (let i = 0; i < 3; i++) assert.deepEqual((await result(engine, "SELECT 7")).rows, [[7]]);
    assert.equal(engine.queryCacheHits, 2);
  });
});

Deno.test("query cache: flush_query_cache() empties it (the next run plans again)", async () => {
  await withEngine(async (engine) => {
    for (let i = 0; i < 2; i++) assert.deepEqual((await result(engine, "SELECT 8")).rows, [[8]]);
    assert.equal(engine.queryCacheHits, 1);
    assert.deepEqual((await result(engine, "SELECT flush_query_cache()")).rows, [[true]]);
    assert.deepEqual((await result(engine, "SELECT 8")).rows, [[8]]);
    assert.equal(engine.queryCacheHits, 1, "flushed: the text was parsed and planned again");
    assert.deepEqual((await result(engine, "SELECT 8")).rows, [[8]]);
    assert.equal(engine.queryCacheHits, 2);
  });
});
