/**
 * The official QuestDB Node.js client over HTTP (protocol v3 after /settings) and TCP (v1),
 * and the InfluxDB v2 client on /api/v2/write, against the real server process; the rows are
 * read back over REST with their types (spec/protocols.md §9–§11).
 */
import assert from "node:assert/strict";
import { Sender } from "@questdb/nodejs-client";
import { InfluxDB, Point } from "@influxdata/influxdb-client";
import { startServer } from "./server_process.ts";

async function query(httpUrl: string, sql: string) {
  const r = await fetch(`${httpUrl}/exec?query=${encodeURIComponent(sql)}`);
  const body = await r.json();
  if (r.status !== 200) throw new Error(JSON.stringify(body));
  return body as { columns: { name: string; type: string }[]; dataset: unknown[][] };
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

Deno.test({
  name: "the QuestDB Node.js client writes over HTTP and TCP, the InfluxDB client over /api/v2/write",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ilp: true });
    try {
      const http = await Sender.fromConfig(`http::addr=${new URL(server.httpUrl).host}`);
      for (let i = 0; i < 3; i++) {
        await http.table("trades").symbol("symbol", "BTC-USD").symbol("side", i % 2 ? "sell" : "buy")
          .floatColumn("price", 42000.5 + i).intColumn("qty", 10 + i).stringColumn("note", `n"${i}`)
          .booleanColumn("ok", i === 1).timestampColumn("at", 1700000000000000 + i)
          .at(1700000000000000000n + BigInt(i) * 1000n, "ns");
      }
      await http.flush();
      await http.close();
      const q = await query(
        server.httpUrl,
        "SELECT symbol, side, price, qty, note, ok, at, timestamp FROM trades",
      );
      assert.deepEqual(q.columns.map((c) => `${c.name}:${c.type}`), [
        "symbol:SYMBOL",
        "side:SYMBOL",
        "price:DOUBLE",
        "qty:LONG",
        "note:VARCHAR",
        "ok:BOOLEAN",
        "at:TIMESTAMP",
        "timestamp:TIMESTAMP",
      ]);
      assert.deepEqual(q.dataset[1], [
        "BTC-USD",
        "sell",
        42001.5,
        11,
        'n"1',
        true,
        "2023-11-14T22:13:20.000001Z",
        "2023-11-14T22:13:20.000001Z",
      ]);

      const tcp = await Sender.fromConfig(`tcp::addr=127.0.0.1:${server.ilpPort}`);
      await tcp.connect();
      for (let i = 0; i < 100; i++) {
        await tcp.table("tcp_rows").symbol("k", `k${i % 3}`).floatColumn("v", i / 4).intColumn("n", i).at(
          1700000000000000 + i,
          "us",
        );
      }
      await tcp.flush();
      await tcp.close();
      assert.equal(await waitCount(server.httpUrl, "tcp_rows", 100), 100);
      const t = await query(server.httpUrl, "SELECT k, v, n, timestamp FROM tcp_rows LIMIT 2");
      assert.deepEqual(t.dataset, [["k0", 0, 0, "2023-11-14T22:13:20.000000Z"], [
        "k1",
        0.25,
        1,
        "2023-11-14T22:13:20.000001Z",
      ]]);

      const influx = new InfluxDB({ url: server.httpUrl, token: "unused" });
      const writer = influx.getWriteApi("org", "bucket", "ms");
      writer.writePoint(
        new Point("influx_cpu").tag("host", "a").floatField("usage", 0.5).intField("cores", 8).timestamp(
          new Date(1700000000000),
        ),
      );
      writer.writePoint(
        new Point("influx_cpu").tag("host", "b").floatField("usage", 0.75).intField("cores", 4).timestamp(
          new Date(1700000001000),
        ),
      );
      await writer.close();
      const inf = await query(server.httpUrl, "SELECT host, usage, cores, timestamp FROM influx_cpu");
      assert.deepEqual(inf.dataset, [["a", 0.5, 8, "2023-11-14T22:13:20.000000Z"], [
        "b",
        0.75,
        4,
        "2023-11-14T22:13:21.000000Z",
      ]]);
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "the QuestDB Node.js client over HTTP sees a bad row rejected with a 400 and nothing committed",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ilp: true });
    try {
      const s = await Sender.fromConfig(`http::addr=${new URL(server.httpUrl).host}`);
      await s.table("typed").intColumn("v", 1).at(1700000000000000n, "us");
      await s.flush();
      await s.table("typed").intColumn("v", 2).at(1700000000000001n, "us");
      await s.table("typed").stringColumn("v", "text").at(1700000000000002n, "us");
      await assert.rejects(() => s.flush(), /400|cast error/);
      await s.close().catch(() => {});
      const q = await query(server.httpUrl, "SELECT v FROM typed");
      assert.deepEqual(q.dataset, [[1]]);
    } finally {
      await server.stop();
    }
  },
});
