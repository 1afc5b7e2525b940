/**
 * pg.select.cache.enabled (issue #17): a pgwire simple query that is one SELECT goes through
 * the engine's query cache (engine/query_cache.ts), so the same text sent again reuses its
 * parse and plan (the engine counts the hits); with the key false it never does. Either way
 * the next execution sees ALTER TABLE ADD COLUMN, DROP + CREATE with other columns, new rows,
 * and scripts of several statements run as before.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { Engine } from "../../../engine/mod.ts";
import { Config } from "../../../server/config.ts";
import { startPg } from "../../../server/pg/mod.ts";

async function withPg(
  conf: Record<string, string>,
  fn: (engine: Engine, client: pg.Client) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_pg_select_cache_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
  const listener = await startPg(engine, new Config({ "pg.net.bind.to": "127.0.0.1:0", ...conf }, {}));
  const client = new pg.Client({ host: "127.0.0.1", port: listener.port, user: "admin", password: "quest" });
  try {
    await client.connect();
    await fn(engine, client);
  } finally {
    await client.end().catch(() => {});
    await listener.close();
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

/** Column names and rows of a simple query (pg's query without values is a simple query). */
async function simple(client: pg.Client, sql: string) {
  const r = await client.query({ text: sql, rowMode: "array" });
  return { columns: r.fields.map((f: { name: string }) => f.name), rows: r.rows };
}

/** The scenario with the cache on or off: the answers it logs must not depend on the cache. */
async function scenario(engine: Engine, client: pg.Client): Promise<{ log: unknown[]; hits: number[] }> {
  const log: unknown[] = [], hits: number[] = [];
  const q = "select * from t";
  const seen = async () => {
    log.push(await simple(client, q));
    hits.push(engine.queryCacheHits);
  };
  await simple(client, "create table t (k long, x int)");
  await simple(client, "insert into t values (10, 1)");
  await seen();
  await seen(); // the same text again
  await simple(client, "insert into t values (20, 2)");
  await seen(); // the new row
  await simple(client, "alter table t add column y double");
  await seen(); // the new column
  await simple(client, "drop table t");
  await assert.rejects(simple(client, q), /table does not exist/);
  await simple(client, "create table t (s string, b boolean)");
  await simple(client, "insert into t values ('a', true)");
  await seen(); // the other table of the same name
  // A trailing semicolon is part of the text; a script of two statements is split as before.
  log.push(await simple(client, "select count(*) n from t;"));
  log.push(await simple(client, "select count(*) n from t;"));
  hits.push(engine.queryCacheHits);
  const two = await client.query("select 1 a; select 2 b") as unknown as pg.QueryResult[];
  log.push(two.map((r) => r.rows));
  // Errors still point into the text.
  const err = await simple(client, "select nope from t").catch((e) => e);
  log.push(err.message, err.position);
  return { log, hits };
}

const EXPECTED = [
  { columns: ["k", "x"], rows: [["10", 1]] },
  { columns: ["k", "x"], rows: [["10", 1]] },
  { columns: ["k", "x"], rows: [["10", 1], ["20", 2]] },
  { columns: ["k", "x", "y"], rows: [["10", 1, null], ["20", 2, null]] },
  { columns: ["s", "b"], rows: [["a", true]] },
  { columns: ["n"], rows: [["1"]] },
  { columns: ["n"], rows: [["1"]] },
  [[{ a: 1 }], [{ b: 2 }]],
  "Invalid column: nope",
  "8",
];

Deno.test("pg.select.cache.enabled (default): a repeated simple-query SELECT reuses the kept parse and plan", async () => {
  await withPg({}, async (engine, client) => {
    const { log, hits } = await scenario(engine, client);
    assert.deepEqual(log, EXPECTED);
    // Every execution of `select * from t` after the first found its text kept (the engine
    // planned it again where the tables' metadata changed; the one that failed on the dropped
    // table counts too); the second `count(*)` as well.
    assert.deepEqual(hits, [0, 1, 2, 3, 5, 6]);
  });
});

Deno.test("pg.select.cache.enabled=false: simple-query SELECTs are parsed and planned each time", async () => {
  await withPg({ "pg.select.cache.enabled": "false" }, async (engine, client) => {
    const { log, hits } = await scenario(engine, client);
    assert.deepEqual(log, EXPECTED);
    assert.deepEqual(hits, [0, 0, 0, 0, 0, 0]);
  });
});
