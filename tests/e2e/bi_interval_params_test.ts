/**
 * Issue #23: intervals as bind parameters, as Grafana's and Metabase's drivers send relative
 * ranges: `ts > now() - $1::interval` with the text '5 minutes', and `interval '1 hour' * $1`
 * with a number, over node `pg` as an unnamed and a named prepared statement
 * (Parse/Bind/Execute). The interval text is read when the statement runs
 * (engine/functions/pg_interval_runtime.ts), so one prepared statement serves any range.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { pgOptions } from "./clients/pg_tools.ts";

/** Every type as the text the server sent. */
const rawText = { getTypeParser: () => (v: string) => v };

Deno.test({
  name: "interval parameters ($1::interval, interval * $1) over pgwire prepared statements",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const client = new pg.Client({
      ...pgOptions(server.pgPort),
      types: rawText,
    });
    try {
      await client.connect();
      await client.query("CREATE TABLE iv (ts TIMESTAMP, sym SYMBOL) TIMESTAMP(ts) PARTITION BY DAY");
      await client.query("INSERT INTO iv VALUES ('2024-01-31T00:00:00Z', 'OLD'), (now(), 'NOW')");
      const run = async (text: string, values: unknown[], name?: string) =>
        (await client.query({ text, values, name, rowMode: "array" })).rows;

      const recent = "SELECT sym FROM iv WHERE ts > now() - $1::interval";
      for (const name of [undefined, "recent"]) {
        assert.deepEqual(
          await run(recent, ["5 minutes"], name),
          [["NOW"]],
          `5 minutes (${name ?? "unnamed"})`,
        );
        assert.deepEqual(
          await run(recent, ["1000 years"], name),
          [["OLD"], ["NOW"]],
          `the same statement, another range (${name ?? "unnamed"})`,
        );
      }

      const shifted = "SELECT ts - $1::interval, ts + interval '1 hour' * $2 FROM iv WHERE sym = 'OLD'";
      for (const name of [undefined, "shifted"]) {
        assert.deepEqual(await run(shifted, ["1 month 1 day 02:00", 3], name), [[
          "2023-12-29 22:00:00.000000",
          "2024-01-31 03:00:00.000000",
        ]]);
        assert.deepEqual(await run(shifted, [null, null], name), [[null, null]], "NULL parameters");
      }

      await assert.rejects(run(recent, ["soon"]), /invalid interval: 'soon'/);
      // The connection is still usable after the error.
      assert.deepEqual(await run("SELECT 1", []), [["1"]]);
    } finally {
      await client.end().catch(() => {});
      await server.kill();
    }
  },
});
