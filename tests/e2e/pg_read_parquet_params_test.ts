/**
 * read_parquet('trades.parquet') filtered by a bound VARCHAR parameter over pgwire, as QuestDB's
 * pgwire compat suite runs its "Parquet test" (QuestDB ships that demo file in its import folder;
 * this test writes one of the same shape with COPY ... TO, since the binary is not in the
 * repository): node `pg`, postgres.js with and without prepared statements, and the Python
 * drivers through clients/pg_read_parquet_client.py. Each gets the one "buy" row with exact
 * values.
 */
import assert from "node:assert/strict";
import pg from "pg";
import postgres from "postgres";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, expectClientOk, requireFile } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/pg_read_parquet_client.py", import.meta.url).pathname;
const QUERY = "SELECT * FROM read_parquet('trades.parquet') WHERE side = $1";
const LOGIN = { host: "127.0.0.1", user: "admin", password: "quest", database: "qdb" };

/** The demo file's "buy" row; drivers read a TIMESTAMP (no time zone) as local time. */
const BUY = {
  symbol: "BTC-USD",
  side: "buy",
  price: 66991.56,
  amount: 0.00014933,
  timestampMs: new Date(2024, 6, 26, 7, 52, 48, 243).getTime(),
};

function assertBuy(rows: Record<string, unknown>[], driver: string): void {
  assert.equal(rows.length, 1, `${driver}: ${JSON.stringify(rows)}`);
  const { timestamp, ...rest } = rows[0];
  assert.deepEqual(
    rest,
    { symbol: BUY.symbol, side: BUY.side, price: BUY.price, amount: BUY.amount },
    driver,
  );
  assert.ok(timestamp instanceof Date, `${driver}: timestamp ${timestamp}`);
  assert.equal(timestamp.getTime(), BUY.timestampMs, driver);
}

Deno.test({
  name: "read_parquet with a bound VARCHAR parameter answers pg, postgres.js and the Python drivers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    try {
      for (
        const sql of [
          "CREATE TABLE demo (symbol SYMBOL, side SYMBOL, price DOUBLE, amount DOUBLE, timestamp TIMESTAMP) " +
          "TIMESTAMP(timestamp) PARTITION BY DAY",
          "INSERT INTO demo VALUES ('BTC-USD', 'buy', 66991.56, 0.00014933, '2024-07-26T07:52:48.243272Z'), " +
          "('ETH-USD', 'sell', 3253.1, 0.5, '2024-07-26T07:52:49.000001Z')",
          "COPY demo TO 'trades' WITH FORMAT PARQUET PARTITION_BY NONE",
        ]
      ) {
        const res = await server.exec(sql);
        const body = await res.text();
        assert.ok(res.status === 200 && !body.includes('"error"'), `${sql}: ${body}`);
      }
      await Deno.mkdir(`${server.root}/import`, { recursive: true });
      await Deno.copyFile(`${server.root}/export/trades.parquet`, `${server.root}/import/trades.parquet`);

      const client = new pg.Client({ ...LOGIN, port: server.pgPort });
      await client.connect();
      try {
        assertBuy((await client.query(QUERY, ["buy"])).rows, "pg");
        assertBuy((await client.query({ name: "pq", text: QUERY, values: ["buy"] })).rows, "pg prepared");
      } finally {
        await client.end();
      }
      for (const prepare of [true, false]) {
        const sql = postgres({ ...LOGIN, port: server.pgPort, prepare, max: 1 });
        try {
          assertBuy([...await sql.unsafe(QUERY, ["buy"])], `postgres.js prepare=${prepare}`);
        } finally {
          await sql.end();
        }
      }
      await requireFile(DEBIAN_PYTHON, "Debian python3");
      await expectClientOk(DEBIAN_PYTHON, [CLIENT, String(server.pgPort)], /OK read_parquet/, {
        timeoutMs: 60_000,
      });
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
