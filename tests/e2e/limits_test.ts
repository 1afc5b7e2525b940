/**
 * Every listener limit has a configuration key and holds under pressure (issue 9 "Limits"):
 * connections per listener (HTTP, pgwire, ILP/TCP) and message sizes (pgwire messages,
 * REST query text). Going over a limit is refused with a clear answer, and the listener
 * serves the next client normally.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { pgOptions } from "./clients/pg_tools.ts";

Deno.test("pg.net.connection.limit refuses the extra connection with 'too many connections'", async () => {
  const server = await startServer({ pg: true, env: { QDB_PG_NET_CONNECTION_LIMIT: "2" } });
  const client = () =>
    new pg.Client({
      ...pgOptions(server.pgPort),
    });
  const a = client(), b = client();
  try {
    await a.connect();
    await b.connect();
    const c = client();
    await assert.rejects(c.connect(), /too many connections/);
    await c.end().catch(() => {});
    await b.end();
    // A freed slot is usable again.
    const d = client();
    await d.connect();
    assert.deepEqual((await d.query("SELECT 1 AS x")).rows, [{ x: 1 }]);
    await d.end();
    assert.deepEqual((await a.query("SELECT 2 AS x")).rows, [{ x: 2 }]);
  } finally {
    await a.end().catch(() => {});
    await server.stop();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});

Deno.test("pg.recv.buffer.size refuses an oversized message and other clients carry on", async () => {
  const server = await startServer({ pg: true, env: { QDB_PG_RECV_BUFFER_SIZE: "65536" } });
  const client = () =>
    new pg.Client({
      ...pgOptions(server.pgPort),
    });
  const big = client(), other = client();
  try {
    await big.connect();
    await other.connect();
    big.on("error", () => {});
    const huge = `SELECT '${"x".repeat(100_000)}' AS s`;
    await assert.rejects(big.query(huge), /message too large|Connection terminated/);
    assert.deepEqual((await other.query("SELECT 3 AS x")).rows, [{ x: 3 }]);
    // Under the cap is fine.
    const c = client();
    await c.connect();
    assert.equal((await c.query(`SELECT '${"y".repeat(30_000)}' AS s`)).rows[0].s.length, 30_000);
    await c.end();
  } finally {
    await big.end().catch(() => {});
    await other.end().catch(() => {});
    await server.stop();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});

Deno.test("http.net.connection.limit answers 503 beyond the limit while long queries run", async () => {
  const server = await startServer({ env: { QDB_HTTP_NET_CONNECTION_LIMIT: "2" } });
  try {
    const aborts = [new AbortController(), new AbortController()];
    const longs = aborts.map((a) =>
      fetch(
        `${server.httpUrl}/exec?query=${encodeURIComponent("SELECT count() FROM long_sequence(5000000000)")}`,
        { signal: a.signal },
      )
        .then((r) => r.text(), () => "aborted")
    );
    await new Promise((r) => setTimeout(r, 500));
    const busy = await server.exec("SELECT 1");
    assert.equal(busy.status, 503);
    assert.match((await busy.json()).error, /too many concurrent requests \[limit=2\]/);
    aborts.forEach((a) => a.abort());
    await Promise.all(longs);
    // Slots are released once the cancelled queries stop.
    let ok: Response | undefined;
    for (let i = 0; i < 50 && ok?.status !== 200; i++) {
      await ok?.body?.cancel();
      await new Promise((r) => setTimeout(r, 100));
      ok = await server.exec("SELECT 1 x");
    }
    assert.equal(ok?.status, 200);
    assert.deepEqual((await ok!.json()).dataset, [[1]]);
  } finally {
    await server.stop();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});

Deno.test("line.tcp.net.connection.limit closes the extra ILP connection; the first keeps writing", async () => {
  const server = await startServer({ ilp: true, env: { QDB_LINE_TCP_NET_CONNECTION_LIMIT: "1" } });
  try {
    const first = await Deno.connect({ hostname: "127.0.0.1", port: server.ilpPort });
    await first.write(new TextEncoder().encode("lim v=1i\n"));
    await new Promise((r) => setTimeout(r, 200));
    const second = await Deno.connect({ hostname: "127.0.0.1", port: server.ilpPort });
    await second.write(new TextEncoder().encode("lim v=2i\n")).catch(() => 0);
    const buf = new Uint8Array(16);
    const n = await second.read(buf).catch(() => null);
    assert.equal(n, null, "the second connection was closed by the server");
    second.close();
    await first.write(new TextEncoder().encode("lim v=3i\n"));
    first.close();
    let rows: unknown;
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const r = await (await server.exec("SELECT v FROM lim ORDER BY v")).json();
      rows = r.dataset;
      if (r.dataset?.length === 2) break;
    }
    assert.deepEqual(rows, [[1], [3]]);
  } finally {
    await server.stop();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});
