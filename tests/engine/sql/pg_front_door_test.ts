/**
 * Driver spellings that server/pg rewrote as text and the engine now reads itself (issue #18):
 * subscripts of catalog vectors, `(_pg_expandarray(v)).n`, `'t'`/`'f'` against booleans,
 * parenthesised left-deep join groups (psqlODBC), `(current_schemas(b))[n]`, `f(...) AS s(r)`
 * column lists, and the correlated catalog subqueries pgjdbc sends.
 */
import assert from "node:assert/strict";
import { adminSession, classifyStatement, Engine, showSettingName } from "../../../engine/mod.ts";
import { query, withEngine as withSharedEngine } from "./_engine_query.ts";

const SETUP = [
  "CREATE TABLE t (ts TIMESTAMP, x LONG, b BOOLEAN) TIMESTAMP(ts)",
  "INSERT INTO t VALUES (0, 1, true), (1, 2, false)",
];
const withEngine = (fn: (engine: Engine) => Promise<void>) => withSharedEngine("qdb_pgdoor_", SETUP, fn);

Deno.test("catalog vector subscripts are INT elements numbered from 0, also through a derived table", async () => {
  await withEngine(async (engine) => {
    const r = await query(
      engine,
      "select i.indkey[0], tmp.I_INDOPTION[tmp.p - 1] & 1::smallint from pg_index i, " +
        "(select i.indoption AS I_INDOPTION, 1 p from pg_index i) tmp",
    );
    assert.deepEqual(r.types, ["INT", "INT"]);
    // Text arrays (not vectors) keep text elements numbered from 1.
    assert.deepEqual((await query(engine, "select string_to_array('a b', ' ')[1]")).rows, [["a"]]);
  });
});

Deno.test("(_pg_expandarray(v)).n and .x for one-element vectors; longer ones are refused", async () => {
  await withEngine(async (engine) => {
    const r = await query(
      engine,
      "select (information_schema._pg_expandarray('3')).n as pos, (_pg_expandarray('{7}')).x as k",
    );
    assert.deepEqual(r.names, ["pos", "k"]);
    assert.deepEqual(r.rows, [[1, 7]]);
    await assert.rejects(
      () => query(engine, "select (_pg_expandarray('3 4')).n"),
      /_pg_expandarray over 2 elements is not supported/,
    );
    await assert.rejects(() => query(engine, "select (abs(1)).n"), /unknown function name: abs\.n/);
    assert.equal(
      (await query(engine, "select (information_schema._pg_expandarray(i.indkey)).n from pg_index i"))
        .types[0],
      "INT",
    );
  });
});

Deno.test("'t'/'f' (and PostgreSQL's other boolean constants) compare with BOOLEAN", async () => {
  await withEngine(async (engine) => {
    assert.deepEqual((await query(engine, "select x from t where b = 't'")).rows, [[1n]]);
    assert.deepEqual((await query(engine, "select x from t where 'f' = b")).rows, [[2n]]);
    assert.deepEqual((await query(engine, "select x from t where b <> 'no'")).rows, [[1n]]);
    assert.deepEqual(
      (await query(engine, "select count(*) from pg_index ix where ix.indisprimary = 'f'")).rows,
      [[0n]],
    );
    await assert.rejects(() => query(engine, "select x from t where b = 'maybe'"), /inconvertible value/);
  });
});

Deno.test("parenthesised left-deep join groups keep their aliases visible", async () => {
  await withEngine(async (engine) => {
    const r = await query(
      engine,
      "select c.relname, a.attname from ((pg_class c join pg_namespace n on n.oid = c.relnamespace) " +
        "join pg_attribute a on a.attrelid = c.oid) where c.relname = 't' and n.nspname = 'public' order by a.attnum",
    );
    assert.deepEqual(r.rows, [["t", "ts"], ["t", "x"], ["t", "b"]]);
    // `(query)` and `(t JOIN u ...) alias` stay QuestDB's subqueries.
    assert.deepEqual((await query(engine, "select count(*) from (t where x = 1)")).rows, [[1n]]);
    assert.deepEqual((await query(engine, "select count(*) from (t join t u on x) j")).rows, [[2n]]);
    assert.deepEqual(
      (await query(engine, "select a.x from ((select 1 x) a join (select 1 y) b on a.x = b.y)")).rows,
      [[1]],
    );
  });
});

Deno.test("current_schemas subscripts, AS s(r) column lists and pgjdbc's correlated catalog subqueries", async () => {
  await withEngine(async (engine) => {
    assert.deepEqual(
      (await query(engine, "select (pg_catalog.current_schemas(true))[1], (current_schemas(false))[2]")).rows,
      [["public", null]],
    );
    assert.deepEqual(
      (await query(
        engine,
        "select sp.r, sp.nspname from (select s.r, (current_schemas(false))[s.r] as nspname " +
          "from generate_series(1, array_upper(current_schemas(false), 1)) as s(r)) as sp",
      )).rows,
      [[1n, "public"]],
    );
    await assert.rejects(
      () => query(engine, "select * from long_sequence(2) as s(a, b)"),
      /1 columns available but 2 columns specified/,
    );
    const types = await query(
      engine,
      "SELECT t.typname FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON (t.typnamespace = n.oid) " +
        "WHERE n.nspname != 'pg_toast' AND (t.typrelid = 0 OR " +
        "(SELECT c.relkind = 'c' FROM pg_catalog.pg_class c WHERE c.oid = t.typrelid)) and t.typname = 'int4'",
    );
    assert.deepEqual(types.rows, [["int4"]]);
  });
});

Deno.test("statement kinds come from the engine's parse; cursors are refused by the engine", async () => {
  const kinds = [
    ["select 1", "query"],
    ["trades", "query"],
    ["insert into t values (1) returning x", "insertReturning"],
    ["SET TIME ZONE 'UTC'", "set"],
    ["reset time zone", "discard"],
    ["DISCARD ALL", "discard"],
    ["rollback to savepoint s", "rollback"],
    ["DECLARE c SCROLL CURSOR FOR select 1", "cursor"],
    ["DECLARE @x := 1 SELECT @x", "query"],
    ["COPY t FROM STDIN", "copy"],
    ["COPY t TO 'dir'", "query"],
    ["show time zone", "show"],
    ["selec 1", "other"],
  ];
  for (const [sql, kind] of kinds) assert.equal(classifyStatement(sql).kind, kind, sql);
  const set = classifyStatement("SET TIME ZONE 'Europe/Berlin'").statement;
  assert.deepEqual(set, { kind: "noop", pos: 0, what: "set", name: "timezone", value: "Europe/Berlin" });
  const show = classifyStatement("SHOW TIME ZONE").statement;
  assert.equal(show?.kind === "show" ? showSettingName(show) : undefined, "timezone");
  await withEngine(async (engine) => {
    const prepared = engine.prepare("insert into t values (2, 3, true) returning x", adminSession());
    assert.equal(prepared.kind, "insertReturning");
    for (const sql of ["DECLARE c CURSOR FOR select 1", "FETCH 10 FROM c", "MOVE ALL IN c"]) {
      await assert.rejects(() => engine.execute(sql, adminSession()), /cursors are not supported/);
    }
  });
});

Deno.test("::regrole names the one role, as regclass names relations", async () => {
  await withEngine(async (engine) => {
    const r = await query(
      engine,
      "select 10::regrole, 'admin'::regrole::oid, r.oid::regrole::text, 99::regrole from pg_roles r",
    );
    assert.deepEqual(r.rows, [["admin", 10, "admin", "99"]]);
    assert.deepEqual(
      (await query(engine, "select rolname from pg_roles where oid = 'admin'::pg_catalog.regrole")).rows,
      [["admin"]],
    );
    await assert.rejects(() => query(engine, "select 'nobody'::regrole"), /role "nobody" does not exist/);
  });
});
