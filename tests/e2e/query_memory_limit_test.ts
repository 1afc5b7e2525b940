/**
 * `query.memory.limit` through the real server (issue #16 "Memory"): under a 2 MiB budget a
 * result of 200,000 rows still streams over /exec, /exp and pgwire (nothing is charged for
 * rows on their way to the client), while a GROUP BY holding 200,000 groups fails with the
 * limit error on each protocol and the server carries on.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { pgOptions } from "./clients/pg_tools.ts";

const ROWS = 200_000;
const LIMIT = 2 * 1024 * 1024;
const HEAVY = "SELECT x, count() FROM t GROUP BY x";

Deno.test({
  name: "a small query.memory.limit: results stream on every protocol, a big GROUP BY fails clearly",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true, env: { QDB_QUERY_MEMORY_LIMIT: String(LIMIT) } });
    const client = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      const create = await server.exec(
        `CREATE TABLE t AS (SELECT x, rnd_double() v, timestamp_sequence(0, 1000000) ts FROM long_sequence(${ROWS}))
         TIMESTAMP(ts) PARTITION BY DAY`,
      );
      assert.equal(create.status, 200, await create.text());

      // REST /exec: the whole result streams as JSON.
      const all = await (await server.exec("SELECT x, v, ts FROM t")).json();
      assert.equal(all.count, ROWS);
      assert.equal(all.dataset.length, ROWS);
      const heavy = await server.exec(HEAVY);
      assert.equal(heavy.status, 400);
      const err = await heavy.json();
      assert.match(err.error, new RegExp(`query memory limit exceeded.*\\[query.memory.limit=${LIMIT}\\]`));

      // /exp: CSV of every row; the failing query answers an error, not a truncated file.
      const csv = await (await fetch(`${server.httpUrl}/exp?query=${encodeURIComponent("SELECT x FROM t")}`))
        .text();
      assert.equal(csv.trimEnd().split("\n").length, ROWS + 1);
      const expHeavy = await fetch(`${server.httpUrl}/exp?query=${encodeURIComponent(HEAVY)}`);
      const expText = await expHeavy.text();
      assert.notEqual(expHeavy.status, 200, expText.slice(0, 200));
      assert.match(expText, /query memory limit exceeded/);

      // pgwire.
      await client.connect();
      const rows = await client.query("SELECT x, v FROM t");
      assert.equal(rows.rowCount, ROWS);
      await assert.rejects(client.query(HEAVY), /query memory limit exceeded/);
      const after = await client.query("SELECT count() c FROM t");
      assert.equal(String(after.rows[0].c), String(ROWS));
    } finally {
      await client.end().catch(() => {});
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});
