/**
 * The PostgreSQL spellings of driver catalog queries that server/pg rewrote as text until
 * issue #18 moved them into the engine: ARRAY(subquery), unnest / generate_subscripts /
 * generate_series over run-time values (in FROM, LATERAL, correlated, and in a select list,
 * zipped), casts to non-DOUBLE arrays and regconfig, `(column).x` of _pg_expandarray rows,
 * json_build_object, `pg_catalog.`-qualified aggregates, and queries over the always-empty
 * catalog relations, which the engine now answers itself.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { DRIVER_QUERIES } from "./driver_catalog_queries.ts";
import { query, withEngine as withSharedEngine } from "./_engine_query.ts";

const SETUP = [
  "CREATE TABLE t (ts TIMESTAMP, x LONG, s SYMBOL) TIMESTAMP(ts)",
  "INSERT INTO t VALUES (0, 1, 'a'), (1, 2, 'b'), (2, 3, 'c')",
];
const withEngine = (fn: (engine: Engine) => Promise<void>) => withSharedEngine("qdb_pgsrf_", SETUP, fn);

Deno.test("ARRAY(subquery) is a text array of the column in row order, correlated too; {} for no rows", async () => {
  await withEngine(async (engine) => {
    const r = await query(
      engine,
      "select x, array(select s from t i where i.x <= o.x order by 1 desc) a from t o",
    );
    assert.deepEqual(r.types, ["LONG", "STRING"]);
    assert.deepEqual(r.rows.map((row) => row[1]), ["{a}", "{b,a}", "{c,b,a}"]);
    assert.deepEqual((await query(engine, "select array(select x * 2 from t where x > 1)")).rows, [[
      "{4,6}",
    ]]);
    const empty = await query(engine, "select array(select s from t where x > 5)");
    assert.deepEqual([empty.names, empty.rows], [["array"], [["{}"]]]); // PostgreSQL's name for the column
    await assert.rejects(
      () => query(engine, "select array(select x, s from t)"),
      /subquery must return only one column/,
    );
  });
});

Deno.test("unnest and generate_subscripts in FROM read text arrays and catalog vectors", async () => {
  await withEngine(async (engine) => {
    const r = await query(engine, "select u from pg_catalog.unnest('{a,NULL,\"b c\"}'::text[]) u");
    assert.deepEqual(r.rows, [["a"], [null], ["b c"]]);
    assert.deepEqual((await query(engine, "select * from generate_subscripts('{a,b}', 1)")).rows, [[1], [2]]);
    // A catalog vector (int2vector) has INT elements numbered from 0.
    const v = await query(engine, "select k from unnest((select indkey from pg_index limit 1)) k");
    assert.deepEqual(v.types, ["INT"]);
    // QuestDB's UNNEST message for a non-array (UnnestTest#testNonArrayExpression).
    await assert.rejects(() => query(engine, "select * from unnest(1)"), /array type expected in UNNEST/);
  });
});

Deno.test("generate_series bounds from an outer row: correlated subquery and LATERAL", async () => {
  await withEngine(async (engine) => {
    const r = await query(engine, "select o.x, (select max(g) from generate_series(1, o.x * 2) g) from t o");
    assert.deepEqual(r.rows, [[1n, 2n], [2n, 4n], [3n, 6n]]);
    const l = await query(
      engine,
      "select o.x, g.* from t o, lateral (select * from generate_series(1, o.x)) g",
    );
    assert.equal(l.rows.length, 6);
  });
});

Deno.test("set-returning functions in a select list repeat the row for each value, zipped", async () => {
  await withEngine(async (engine) => {
    const r = await query(
      engine,
      "select x, unnest('{a,b}') u, generate_subscripts('{a,b,c}', 1) from t where x < 3 order by x, 3",
    );
    assert.deepEqual(r.names, ["x", "u", "generate_subscripts"]);
    assert.deepEqual(r.rows, [[1n, "a", 1], [1n, "b", 2], [1n, null, 3], [2n, "a", 1], [2n, "b", 2], [
      2n,
      null,
      3,
    ]]);
    assert.deepEqual((await query(engine, "select x, generate_series(1, x) from t")).rows.length, 6);
    assert.deepEqual((await query(engine, "select unnest('{p,q}')")).rows, [["p"], ["q"]]);
    await assert.rejects(
      () => query(engine, "select count(*), unnest('{a}') from t"),
      /set-returning functions in a select list with grouping or aggregates are not supported/,
    );
  });
});

Deno.test("casts to non-DOUBLE arrays keep text, regconfig keeps its value; other values are refused", async () => {
  await withEngine(async (engine) => {
    const r = await query(
      engine,
      "select '{1,2}'::int[] a, '{x}'::pg_catalog.oid[] b, 'english'::regconfig c",
    );
    assert.deepEqual(r.rows, [["{1,2}", "{x}", "english"]]);
    await assert.rejects(() => query(engine, "select x::int[] from t"), /cannot cast LONG to int\[\]/);
    await assert.rejects(
      () => engine.execute("CREATE TABLE bad (a INT[])", adminSession()),
      /unsupported array element type \[type=INT\]/,
    );
  });
});

Deno.test("(column).x of _pg_expandarray rows, json_build_object, pg_catalog.string_agg", async () => {
  await withEngine(async (engine) => {
    const r = await query(
      engine,
      "select (r.k).x, (r.k).n from (select information_schema._pg_expandarray('{7}') k) r",
    );
    assert.deepEqual(r.rows, [[7, 1]]);
    const j = await query(engine, "select json_build_object('a', 1, 'b', 'x', 'c', true, 'd', null)");
    assert.deepEqual(j.rows, [['{"a" : 1, "b" : "x", "c" : true, "d" : null}']]);
    const s = await query(engine, "select pg_catalog.string_agg(s, ',') from t");
    assert.deepEqual(s.rows, [["a,b,c"]]);
  });
});

Deno.test("driver catalog queries run as sent, over the empty catalog relations too", async () => {
  await withEngine(async (engine) => {
    for (const [what, sql] of DRIVER_QUERIES) {
      const r = await query(engine, sql).catch((e) => assert.fail(`${what}: ${e.message}`));
      assert.ok(r.names.length > 0, what);
    }
    // psql \du: the role with its (empty) memberships as PostgreSQL prints them.
    const du = DRIVER_QUERIES.find(([w]) => w.includes("\\du"))![1];
    const roles = await query(engine, du);
    assert.deepEqual(roles.rows.map((row) => [row[0], row[roles.names.indexOf("memberof")]]), [[
      "admin",
      "{}",
    ]]);
    // No table has constraints, policies or extended statistics: those answers are empty.
    for (const key of ["policies", "extended statistics", "getPrimaryKeys", "primary key", "primary-key"]) {
      for (const [what, sql] of DRIVER_QUERIES.filter(([w]) => w.includes(key))) {
        assert.equal((await query(engine, sql)).rows.length, 0, what);
      }
    }
  });
});
