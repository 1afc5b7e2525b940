/**
 * Issue 24, HTTP: slow headers (1,500 sockets holding half a request line) do not slow a
 * normal query down and are closed past http.request.header.timeout, or at once by newer ones
 * over the per-address cap; a keep-alive connection idle past http.net.connection.timeout is
 * closed, never in the middle of a response; slow bodies neither hold
 * http.net.connection.limit slots (a request waiting for its body is out of the limit) nor
 * stay forever: past http.request.body.timeout, or evicted by newer ones over the per-address
 * cap, they get 408.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { assertFileLimit, flood } from "./flood_clients.ts";
import { makeTestCert } from "./clients/test_certs.ts";

const enc = new TextEncoder();

async function timedSelect(exec: (sql: string) => Promise<Response>): Promise<number> {
  const began = Date.now();
  const res = await exec("select 1");
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual((await res.json()).dataset, [[1]]);
  return Date.now() - began;
}

Deno.test({
  name:
    "HTTP: 1,500 half-sent request lines are closed by http.request.header.timeout; queries answer throughout",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertFileLimit(1500);
    const server = await startServer({ env: { QDB_HTTP_REQUEST_HEADER_TIMEOUT: "1000" } });
    try {
      const port = Number(new URL(server.httpUrl).port);
      const began = Date.now();
      const flooding = flood(port, 1500, enc.encode("GET /exec?qu"));
      // A query while the flood is still opening sockets from the same address.
      await new Promise((r) => setTimeout(r, 200));
      const during = await timedSelect(server.exec);
      const f = await flooding;
      try {
        assert.equal(f.opened, 1500);
        const after = await timedSelect(server.exec);
        assert.ok(
          during < 2000 && after < 2000,
          `select 1 took ${during} ms during, ${after} ms after the flood`,
        );
        // The per-address cap (64) closes most at once, the header deadline the rest.
        const closed = await f.closedByServer(5000);
        assert.equal(closed, 1500, "every half-sent request line was closed by the server");
        const seconds = (Date.now() - began) / 1000;
        assert.ok(seconds < 15, `the flood was gone ${seconds} s after it began`);
        await timedSelect(server.exec);
      } finally {
        f.close();
      }
      // The health port drops half-sent requests in the same way (its keys default to these).
      const health = await flood(Number(new URL(server.healthUrl).port), 20, enc.encode("GET /sta"));
      try {
        assert.equal(await health.closedByServer(4000), 20, "health port: half-sent requests closed");
        assert.equal(await (await fetch(server.healthUrl)).text(), "Status: Healthy");
      } finally {
        health.close();
      }
    } finally {
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "HTTP: over http.request.header.limit.per.address a new connection closes the oldest pending one",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // A deadline far away: whatever closes here, the cap closed.
    const server = await startServer({
      env: { QDB_HTTP_REQUEST_HEADER_TIMEOUT: "60000", QDB_HTTP_REQUEST_HEADER_LIMIT_PER_ADDRESS: "10" },
    });
    const port = Number(new URL(server.httpUrl).port);
    const old = await flood(port, 20, enc.encode("GET /exec?qu"));
    const young = await flood(port, 10, enc.encode("GET /exec?qu"));
    try {
      assert.equal(await old.closedByServer(2000), 20, "the 20 oldest pending connections were closed");
      assert.equal(await young.closedByServer(500), 0, "the 10 youngest stay within the cap");
      // A client that sends its request at once is answered; its connection got its request
      // in before it would have counted as pending, so it evicted nobody.
      await timedSelect(server.exec);
      assert.equal(await young.closedByServer(500), 0, "the 10 youngest are still open");
    } finally {
      old.close();
      young.close();
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "HTTPS: a stalled TLS handshake and a half-sent request line over TLS are closed by the deadline",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const cert = await makeTestCert();
    const server = await startServer({
      env: {
        QDB_HTTP_TLS_ENABLED: "true",
        QDB_HTTP_TLS_CERT_PATH: cert.certPath,
        QDB_HTTP_TLS_PRIVATE_KEY_PATH: cert.keyPath,
        QDB_HTTP_REQUEST_HEADER_TIMEOUT: "1000",
      },
    });
    const port = Number(new URL(server.httpUrl).port);
    // 20 sockets that never send a ClientHello...
    const silent = await flood(port, 20, new Uint8Array(0));
    // ...and 20 that finish the handshake and send half a request line.
    const tls: Deno.TlsConn[] = [];
    const client = Deno.createHttpClient({ caCerts: [cert.ca] });
    try {
      for (let i = 0; i < 20; i++) {
        const c = await Deno.connectTls({ hostname: "127.0.0.1", port, caCerts: [cert.ca] });
        tls.push(c);
        await c.handshake();
        await c.write(enc.encode("GET /exec?qu"));
      }
      const res = await fetch(`${server.httpUrl}/exec?query=select%2042`, { client });
      assert.deepEqual((await res.json()).dataset, [[42]]);
      assert.equal(await silent.closedByServer(4000), 20, "stalled handshakes closed");
      const closed = await Promise.all(tls.map((c) => closedWithin(c, 4000)));
      assert.ok(closed.every((ms) => ms < 4000), `half-sent TLS requests closed after ${closed.join()} ms`);
      const again = await fetch(`${server.httpUrl}/exec?query=select%2043`, { client });
      assert.deepEqual((await again.json()).dataset, [[43]]);
    } finally {
      silent.close();
      for (const c of tls) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      client.close();
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
      await Deno.remove(cert.dir, { recursive: true }).catch(() => {});
    }
  },
});

/**
 * Sends one request on a raw connection and reads its whole response (Content-Length or
 * chunked, pausing `pauseMs` after the first read); answers the status line and the body.
 */
async function rawRequest(
  conn: Deno.Conn,
  path: string,
  pauseMs = 0,
): Promise<{ status: string; body: string }> {
  await conn.write(enc.encode(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
  const dec = new TextDecoder();
  const buf = new Uint8Array(64 * 1024);
  let text = "";
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) throw new Error(`connection closed in the middle of the response: ${text.slice(0, 200)}`);
    text += dec.decode(buf.subarray(0, n), { stream: true });
    const headEnd = text.indexOf("\r\n\r\n");
    if (headEnd >= 0) {
      const head = text.slice(0, headEnd);
      const rest = text.slice(headEnd + 4);
      const status = head.split("\r\n")[0];
      const length = /content-length: (\d+)/i.exec(head);
      if (length && rest.length >= Number(length[1])) return { status, body: rest };
      if (!length && rest.endsWith("\r\n0\r\n\r\n")) return { status, body: unchunk(rest) };
    }
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    pauseMs = 0;
  }
}

/** The body of a chunked transfer (ASCII sizes; the CSV here is ASCII too). */
function unchunk(chunked: string): string {
  let body = "";
  for (let at = 0;;) {
    const eol = chunked.indexOf("\r\n", at);
    const size = parseInt(chunked.slice(at, eol), 16);
    if (size === 0) return body;
    body += chunked.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** Milliseconds until the server closes `conn` (EOF or reset), or Infinity after `waitMs`. */
async function closedWithin(conn: Deno.Conn, waitMs: number): Promise<number> {
  const began = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"open">((r) => timer = setTimeout(() => r("open"), waitMs));
  try {
    const n = await Promise.race([conn.read(new Uint8Array(1024)).catch(() => null), timeout]);
    if (n === "open") return Infinity;
    assert.equal(n, null, "no bytes after the response");
    return Date.now() - began;
  } finally {
    clearTimeout(timer);
  }
}

Deno.test({
  name: "HTTP: a keep-alive connection idle past http.net.connection.timeout is closed, a busy one is not",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({
      env: { QDB_HTTP_NET_CONNECTION_TIMEOUT: "1000", QDB_HTTP_REQUEST_HEADER_TIMEOUT: "1000" },
    });
    const port = Number(new URL(server.httpUrl).port);
    const conns: Deno.Conn[] = [];
    const connect = async () => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port });
      conns.push(c);
      return c;
    };
    try {
      // Idle after one answer: closed about a second later.
      const idle = await connect();
      assert.equal((await rawRequest(idle, "/exec?query=select%201")).status, "HTTP/1.1 200 OK");
      const ms = await closedWithin(idle, 5000);
      assert.ok(ms >= 500 && ms < 4000, `idle keep-alive connection closed after ${ms} ms`);

      // Requests every 300 ms keep one connection open past three idle timeouts.
      const busy = await connect();
      for (let i = 0; i < 10; i++) {
        const answer = await rawRequest(busy, `/exec?query=select%20${i}`);
        assert.deepEqual(JSON.parse(answer.body).dataset, [[i]]);
        await new Promise((r) => setTimeout(r, 300));
      }

      // A response that the client stops reading for longer than the idle timeout is not cut
      // off: the idle clock starts when the response has gone out. 10 MB of CSV is more than the
      // socket buffers hold, so the server is still writing while the client pauses.
      const slow = await connect();
      const began = Date.now();
      const csv = await rawRequest(
        slow,
        `/exp?query=${
          encodeURIComponent("select x, x * 2 y, 'padding-padding' s from long_sequence(300000)")
        }`,
        1500,
      );
      const took = Date.now() - began;
      assert.equal(csv.status, "HTTP/1.1 200 OK");
      const rows = csv.body.trimEnd().split("\n");
      assert.equal(rows.length, 300_001, "the export arrived whole (a header and 300,000 rows)");
      assert.equal(rows.at(-1), '300000,600000,"padding-padding"');
      assert.ok(took > 1000, `the slow read took ${took} ms, not longer than the idle timeout`);
      assert.ok((await closedWithin(slow, 5000)) < 4000, "then idle, it was closed");
    } finally {
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
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
