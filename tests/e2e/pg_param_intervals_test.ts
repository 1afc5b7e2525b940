/**
 * Prepared time-window queries over pgwire (node `pg`, named statements: Parse once, Bind per
 * window), the shape dashboards and pgjdbc apps repeat: `ts >= $1 AND ts < $2` answers as
 * the literal query for many windows and value forms on a table of many partitions, and
 * EXPLAIN with bound values shows the scan's interval (the partitions are pruned by it:
 * exec/param_intervals.ts; tests/engine/exec/param_intervals_test.ts counts them).
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { pgOptions } from "./clients/pg_tools.ts";

/** Every type as the text the server sent. */
const rawText = { getTypeParser: () => (v: string) => v };

Deno.test({
  name: "prepared ts windows over pgwire answer as literals and scan only their interval",
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
      // 60 daily partitions, a row every 37 minutes (rows fall off hour boundaries).
      await client.query(
        "CREATE TABLE trades AS (SELECT timestamp_sequence('2024-01-01', 2220000000) ts, " +
          "rnd_symbol('A','B','C') symbol, x::double price FROM long_sequence(2335)) " +
          "TIMESTAMP(ts) PARTITION BY DAY",
      );
      const q = async (text: string, values: unknown[] = [], name?: string) =>
        (await client.query({ text, values, name, rowMode: "array" })).rows;

      const windows: [string, string][] = [
        ["2024-01-05T10:00:00.000000Z", "2024-01-05T11:00:00.000000Z"],
        ["2024-01-05T10:14:00.000000Z", "2024-01-05T10:51:00.000000Z"],
        ["2024-01-31T23:00:00.000000Z", "2024-02-01T01:00:00.000000Z"],
        ["2023-12-01T00:00:00.000000Z", "2024-01-01T00:37:00.000000Z"],
        ["2024-02-29T00:00:00.000000Z", "2024-03-31T00:00:00.000000Z"],
        ["2024-01-10T00:00:00.000000Z", "2024-01-09T00:00:00.000000Z"],
      ];
      const agg = "SELECT count(*), sum(price) FROM trades WHERE ts >= $1 AND ts < $2";
      const rows = "SELECT ts, price FROM trades WHERE ts > $1 AND ts <= $2 AND symbol = $3";
      for (const [lo, hi] of windows) {
        const literalAgg = await q(
          `SELECT count(*), sum(price) FROM trades WHERE ts >= '${lo}' AND ts < '${hi}'`,
        );
        assert.deepEqual(await q(agg, [lo, hi], "agg"), literalAgg, `${lo} .. ${hi}`);
        // Timestamps as JavaScript Dates: node pg sends them as text with a zone offset.
        assert.deepEqual(
          await q(agg, [new Date(lo), new Date(hi)], "agg"),
          literalAgg,
          `Dates ${lo} .. ${hi}`,
        );
        const literalRows = await q(
          `SELECT ts, price FROM trades WHERE ts > '${lo}' AND ts <= '${hi}' AND symbol = 'B'`,
        );
        assert.deepEqual(await q(rows, [lo, hi, "B"], "rows"), literalRows, `rows ${lo} .. ${hi}`);
      }
      // NULL bounds: no row, as the literal NULL comparison.
      assert.deepEqual(await q(agg, [null, "2024-01-02"], "agg"), [["0", null]]);
      // BETWEEN with parameters and LIMIT $n.
      assert.deepEqual(
        await q("SELECT ts FROM trades WHERE ts BETWEEN $1 AND $2 LIMIT $3", [
          "2024-01-05T10:00:00.000000Z",
          "2024-01-05T12:00:00.000000Z",
          2,
        ], "between"),
        await q(
          "SELECT ts FROM trades WHERE ts BETWEEN '2024-01-05T10:00:00.000000Z' AND '2024-01-05T12:00:00.000000Z' LIMIT 2",
        ),
      );

      const plan = (await q(`EXPLAIN ${agg}`, ["2024-01-05T10:00:00.000000Z", "2024-01-05T11:00:00.000000Z"]))
        .map((r: unknown[]) => String(r[0]).trim());
      assert.ok(
        plan.some((l: string) =>
          l.endsWith("intervals: [('2024-01-05T10:00:00.000000Z', '2024-01-05T10:59:59.999999Z')]")
        ),
        plan.join("\n"),
      );
      assert.ok(!plan.includes("Filter"), plan.join("\n"));
    } finally {
      await client.end().catch(() => {});
      await server.kill();
    }
  },
});
