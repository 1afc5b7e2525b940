/**
 * Issue 10 write forms over the wire: INSERT ... RETURNING as rows with an `INSERT 0 n` tag
 * (simple and extended protocol, where Describe must not run the insert), DELETE with a
 * `DELETE n` tag, and the REST replies of both.
 */
import assert from "node:assert/strict";
import pg from "pg";
import postgres from "postgres";
import { startServer } from "./server_process.ts";
import { pgOptions } from "./clients/pg_tools.ts";

Deno.test({
  name: "pg and REST: INSERT ... RETURNING, ON CONFLICT and DELETE",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const client = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      await client.connect();
      await client.query(
        "create table w (ts timestamp, k symbol, v double) timestamp(ts) partition by day wal dedup upsert keys(ts, k)",
      );
      const simple = await client.query(
        "insert into w values ('2024-01-01', 'a', 1.5), ('2024-01-02', 'b', 2.5) returning k, v",
      );
      assert.equal(simple.command, "INSERT");
      assert.equal(simple.rowCount, 2);
      assert.deepEqual(simple.rows, [{ k: "a", v: 1.5 }, { k: "b", v: 2.5 }]);

      // Extended protocol: Parse/Bind/Describe/Execute; the row must be inserted once only.
      const prepared = await client.query({
        name: "ins",
        text: "insert into w values ($1, $2, $3) returning *",
        values: ["2024-01-03T00:00:00.000Z", "c", 3.5],
      });
      assert.equal(prepared.command, "INSERT");
      assert.equal(prepared.rowCount, 1);
      assert.deepEqual(prepared.fields.map((f: { name: string }) => f.name), ["ts", "k", "v"]);
      assert.equal(prepared.rows[0].k, "c");
      const conflict = await client.query({
        text: "insert into w values ($1, $2, $3) on conflict do nothing returning k",
        values: ["2024-01-03T00:00:00.000Z", "c", 9],
      });
      assert.equal(conflict.rowCount, 0);
      assert.equal((await client.query("select count() c from w")).rows[0].c, "3");

      const del = await client.query("delete from w where k <> 'b'");
      assert.equal(del.command, "DELETE");
      assert.equal(del.rowCount, 2);
      assert.deepEqual((await client.query("select k from w")).rows, [{ k: "b" }]);

      // postgres.js describes the statement first (Describe S): that must not insert either.
      const sql = postgres({
        ...pgOptions(server.pgPort),
        max: 1,
      });
      try {
        const rows =
          await sql`insert into w values (${"2024-01-04T00:00:00.000Z"}::timestamp, ${"d"}, ${4.5}) returning k, v`;
        assert.equal(rows.count, 1);
        assert.deepEqual([...rows], [{ k: "d", v: 4.5 }]);
        assert.equal((await sql`select count() c from w where k = 'd'`)[0].c, "1");
      } finally {
        await sql.end();
      }

      const rest = await (await server.exec("insert into w values ('2024-01-05', 'e', 5.0) returning k, v"))
        .json();
      assert.deepEqual(rest.dataset, [["e", 5]]);
      const restDelete = await (await server.exec("delete from w")).json();
      assert.deepEqual(restDelete, { dml: "OK", updated: 3 });
    } finally {
      await client.end().catch(() => {});
      await server.stop();
    }
  },
});
