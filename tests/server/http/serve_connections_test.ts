/**
 * The HTTP accept loop of issue 24 (server/http/serve_connections.ts) on its own: the handler
 * sees the client's own address and port, over plain HTTP and behind the TLS front (whose
 * internal pipe comes from another port); close() lets a request in progress finish.
 */
import assert from "node:assert/strict";
import { type Handler, serveConnections } from "../../../server/http/serve_connections.ts";
import { makeTestCert } from "../../e2e/clients/test_certs.ts";

const limits = {
  header: { timeoutMs: 5_000, perAddress: 64, total: 1024 },
  idle: { timeoutMs: 5_000, perAddress: 64, total: 1024 },
};
const enc = new TextEncoder();
const echoAddress: Handler = (_req, info) =>
  new Response(`${info.remoteAddr.hostname}:${info.remoteAddr.port}`);

/** One GET with Connection: close on `conn`; answers the body (the response is short). */
async function get(conn: Deno.Conn): Promise<string> {
  await conn.write(enc.encode("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  const text = await new Response(conn.readable).text();
  return text.slice(text.indexOf("\r\n\r\n") + 4);
}

Deno.test("plain HTTP: the handler sees the client's address and port", async () => {
  const served = await serveConnections(echoAddress, { hostname: "127.0.0.1", port: 0 }, limits);
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: served.port });
    const local = conn.localAddr as Deno.NetAddr;
    assert.equal(await get(conn), `127.0.0.1:${local.port}`);
  } finally {
    await served.close();
  }
});

Deno.test("HTTPS behind the TLS front: the handler sees the client's port, not the pipe's", async () => {
  const cert = await makeTestCert();
  const tls = { cert: await Deno.readTextFile(cert.certPath), key: await Deno.readTextFile(cert.keyPath) };
  const served = await serveConnections(echoAddress, { hostname: "127.0.0.1", port: 0 }, limits, tls);
  try {
    const conn = await Deno.connectTls({ hostname: "127.0.0.1", port: served.port, caCerts: [cert.ca] });
    const local = conn.localAddr as Deno.NetAddr;
    assert.equal(await get(conn), `127.0.0.1:${local.port}`);
    // And through fetch (HTTP/2 when the client offers it).
    const client = Deno.createHttpClient({ caCerts: [cert.ca] });
    try {
      const res = await fetch(`https://127.0.0.1:${served.port}/`, { client });
      assert.match(await res.text(), /^127\.0\.0\.1:\d+$/);
    } finally {
      client.close();
    }
  } finally {
    await served.close();
    await Deno.remove(cert.dir, { recursive: true });
  }
});

Deno.test("close() lets a request in progress finish, then stops accepting", async () => {
  let release = () => {};
  const gate = new Promise<void>((r) => release = r);
  const slow: Handler = async () => {
    await gate;
    return new Response("done");
  };
  const served = await serveConnections(slow, { hostname: "127.0.0.1", port: 0 }, limits);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: served.port });
  const answer = get(conn);
  await new Promise((r) => setTimeout(r, 200)); // the request is in the handler
  const closing = served.close();
  release();
  assert.equal(await answer, "done");
  await closing;
  await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port: served.port }));
});
