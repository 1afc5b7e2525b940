/**
 * Several statements in one Parse run as QuestDB runs them (issue 18): in order at Execute,
 * answered with the last one's result, placeholders counted across them all.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { pgOptions } from "./clients/pg_tools.ts";

Deno.test({
  name: "node pg: one extended-protocol query with several statements runs them all",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const c = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      await c.connect();
      const r = await c.query({
        text: "create table m (x long); insert into m values ($1); select x from m",
        values: [5],
      });
      assert.equal(r.command, "SELECT");
      assert.deepEqual(r.rows, [{ x: "5" }]);
      const ins = await c.query({
        text: "insert into m values ($1); insert into m values ($2);",
        values: [6, 7],
      });
      assert.equal(ins.command, "INSERT");
      assert.deepEqual(
        (await c.query("select x from m order by x")).rows.map((row: { x: string }) => row.x),
        [
          "5",
          "6",
          "7",
        ],
      );
      await assert.rejects(
        c.query({ text: "select $1::int; select * from missing", values: [1] }),
        /missing/,
      );
    } finally {
      await c.end();
      await server.stop();
    }
  },
});
