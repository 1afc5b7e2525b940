/**
 * Issue 24, HTTP: slow headers (1,500 sockets holding half a request line) do not slow a
 * normal query down, and slow bodies neither hold http.net.connection.limit slots (a request
 * waiting for its body is out of the limit) nor stay forever: past http.request.body.timeout,
 * or evicted by newer ones over the per-address cap, they get 408.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { assertFileLimit, flood } from "./flood_clients.ts";

const enc = new TextEncoder();

async function timedSelect(exec: (sql: string) => Promise<Response>): Promise<number> {
  const began = Date.now();
  const res = await exec("select 1");
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual((await res.json()).dataset, [[1]]);
  return Date.now() - began;
}

Deno.test({
  name: "HTTP: a query answers at once while 1,500 sockets hold half a request line",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertFileLimit(1500);
    const server = await startServer();
    try {
      const f = await flood(Number(new URL(server.httpUrl).port), 1500, enc.encode("GET /exec?qu"));
      try {
        assert.equal(f.opened, 1500);
        const ms = await timedSelect(server.exec);
        assert.ok(ms < 2000, `select 1 took ${ms} ms`);
      } finally {
        f.close();
      }
    } finally {
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});

/** Sends headers and the first bytes of a body, then stalls; resolves to the status line. */
async function slowBody(port: number, path: string): Promise<{ conn: Deno.Conn; status: Promise<string> }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(enc.encode(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nslow`));
  const status = (async () => {
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf).catch(() => null);
    return n === null ? "closed" : new TextDecoder().decode(buf.subarray(0, n)).split("\r\n")[0];
  })();
  return { conn, status };
}

Deno.test({
  name: "HTTP: slow bodies hold no request slot and get 408 after http.request.body.timeout",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({
      env: { QDB_HTTP_NET_CONNECTION_LIMIT: "8", QDB_HTTP_REQUEST_BODY_TIMEOUT: "1500" },
    });
    const port = Number(new URL(server.httpUrl).port);
    const slow: { conn: Deno.Conn; status: Promise<string> }[] = [];
    try {
      // 80 stalled bodies (ILP /write and POST /exec): ten times the limit, more than the
      // per-address cap of 64, so the 16 oldest are evicted at once.
      for (let i = 0; i < 80; i++) slow.push(await slowBody(port, i % 2 ? "/write" : "/exec"));
      const began = Date.now();
      const ms = await timedSelect(server.exec);
      assert.ok(ms < 1000, `select 1 took ${ms} ms with 80 stalled bodies`);
      const statuses = await Promise.all(slow.map((s) => s.status));
      const waited = Date.now() - began;
      assert.deepEqual(new Set(statuses), new Set(["HTTP/1.1 408 Request Timeout"]), statuses.join());
      assert.ok(waited < 4000, `stalled bodies answered after ${waited} ms`);
      // A complete body still works, over both routes.
      const write = await fetch(`${server.httpUrl}/write`, { method: "POST", body: "flood_http v=1i\n" });
      assert.equal(write.status, 204, await write.text());
      const post = await fetch(`${server.httpUrl}/exec`, { method: "POST", body: "select 2" });
      assert.deepEqual((await post.json()).dataset, [[2]]);
    } finally {
      for (const s of slow) {
        try {
          s.conn.close();
        } catch { /* closed */ }
      }
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});
