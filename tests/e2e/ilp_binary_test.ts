/**
 * ILP protocol versions 2 and 3 from the official QuestDB Node.js client (spec/protocols.md
 * §10.4): binary DOUBLE fields and N-dimensional DOUBLE arrays (v2, over TCP and HTTP) and
 * binary and text DECIMAL (v3), read back over REST with their types.
 */
import assert from "node:assert/strict";
import { Sender } from "@questdb/nodejs-client";
import { startServer } from "./server_process.ts";

async function query(httpUrl: string, sql: string) {
  const r = await fetch(`${httpUrl}/exec?query=${encodeURIComponent(sql)}`);
  const body = await r.json();
  if (r.status !== 200) throw new Error(JSON.stringify(body));
  return body as { columns: { name: string; type: string; dim?: number }[]; dataset: unknown[][] };
}

async function waitCount(httpUrl: string, table: string, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await fetch(`${httpUrl}/exec?query=${encodeURIComponent(`SELECT count() FROM ${table}`)}`);
    if (r.status === 200) {
      const n = (await r.json()).dataset[0][0];
      if (n >= count) return n;
    } else await r.body?.cancel();
    if (Date.now() > deadline) throw new Error(`${table} did not reach ${count} rows`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

const columnsOf = (q: { columns: { name: string; type: string; dim?: number }[] }) =>
  q.columns.map((c) => `${c.name}:${c.type}${c.dim ? `[${c.dim}]` : ""}`);

Deno.test({
  name: "ILP v2 over TCP: binary doubles and 1-D / 2-D double arrays from the Node.js client",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ilp: true });
    try {
      const tcp = await Sender.fromConfig(`tcp::addr=127.0.0.1:${server.ilpPort};protocol_version=2`);
      await tcp.connect();
      await tcp.table("book").symbol("s", "BTC").floatColumn("mid", 0.1 + 0.2)
        .arrayColumn("bids", [1.5, 2.25, -3])
        .arrayColumn("grid", [[1, 2, 3], [4, 5, 6]])
        .at(1700000000000000n, "us");
      await tcp.table("book").symbol("s", "ETH").floatColumn("mid", Number.MAX_VALUE)
        .arrayColumn("bids", [])
        .arrayColumn("grid", [[NaN, 7], [8, 9]])
        .at(1700000000000001n, "us");
      await tcp.flush();
      await tcp.close();
      assert.equal(await waitCount(server.httpUrl, "book", 2), 2);
      const q = await query(server.httpUrl, "SELECT s, mid, bids, grid, grid[2][1] g21, timestamp FROM book");
      assert.deepEqual(columnsOf(q), [
        "s:SYMBOL",
        "mid:DOUBLE",
        "bids:ARRAY[1]",
        "grid:ARRAY[2]",
        "g21:DOUBLE",
        "timestamp:TIMESTAMP",
      ]);
      assert.deepEqual(q.dataset, [
        // 0.1 + 0.2 arrives bit for bit (binary, no decimal round trip).
        [
          "BTC",
          0.30000000000000004,
          [1.5, 2.25, -3],
          [[1, 2, 3], [4, 5, 6]],
          4,
          "2023-11-14T22:13:20.000000Z",
        ],
        ["ETH", Number.MAX_VALUE, [], [[null, 7], [8, 9]], 8, "2023-11-14T22:13:20.000001Z"],
      ]);
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "ILP v3 over HTTP: binary and text DECIMAL, arrays, and a dimension mismatch refused",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ilp: true });
    try {
      await query(
        server.httpUrl,
        "CREATE TABLE fx (pair SYMBOL, px DECIMAL(10,4), m DOUBLE[][], ts TIMESTAMP) TIMESTAMP(ts)",
      );
      const addr = new URL(server.httpUrl).host;
      const http = await Sender.fromConfig(`http::addr=${addr};protocol_version=3`);
      await http.table("fx").symbol("pair", "EURUSD").decimalColumn("px", 123456n, 3)
        .decimalColumnText("spread", "1.25").arrayColumn("m", [[1, 2], [3, 4]])
        .at(1700000000000000n, "us");
      await http.table("fx").symbol("pair", "USDJPY").decimalColumn("px", -5n, 0)
        .decimalColumnText("spread", "-1.5").arrayColumn("m", [[0.5]])
        .at(1700000000000001n, "us");
      await http.flush();
      const q = await query(server.httpUrl, "SELECT pair, px, spread, m FROM fx");
      assert.deepEqual(columnsOf(q), [
        "pair:SYMBOL",
        "px:DECIMAL(10,4)",
        "spread:DECIMAL(18,3)",
        "m:ARRAY[2]",
      ]);
      assert.deepEqual(q.dataset, [
        ["EURUSD", "123.4560", "1.250", [[1, 2], [3, 4]]],
        ["USDJPY", "-5.0000", "-1.500", [[0.5]]],
      ]);

      // A 1-D array into the DOUBLE[][] column rejects the request; nothing of it is committed.
      http.table("fx").symbol("pair", "BAD").arrayColumn("m", [1, 2]).at(1700000000000002n, "us");
      await assert.rejects(() => http.flush());
      await http.close();
      const n = await query(server.httpUrl, "SELECT count() FROM fx");
      assert.deepEqual(n.dataset, [[2]]);
    } finally {
      await server.stop();
    }
  },
});
