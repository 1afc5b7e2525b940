/**
 * How long a GET /exec may be. Deno's HTTP layer (hyper, in Rust) refuses a request line of
 * about 64 KiB or more before the handler runs: it answers `400 Bad Request` with an empty body
 * and `connection: close`, and no JavaScript hook sees it. QuestDB's own limit is its 64 KiB
 * request header buffer (`http.request.header.buffer.size`); past it QuestDB logs `url is too
 * long` and drops the connection without an answer. So both refuse such a URL; SQL that long
 * goes in the body of `POST /exec`, which has no such limit. This test pins that: a URL just
 * under the limit answers, one over gets the 400 and the server keeps serving, and the same SQL
 * as a POST body answers.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

/** A statement whose text is `size` characters: a long string literal. */
function sqlOfLength(size: number): { sql: string; literal: number } {
  const head = "SELECT length('", tail = "') n";
  const literal = size - head.length - tail.length;
  return { sql: head + "a".repeat(literal) + tail, literal };
}

/** Sends a raw GET and returns the response's head and body (the server may close the socket). */
async function rawGet(url: URL, target: string): Promise<string> {
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  try {
    const request = `GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`;
    const bytes = new TextEncoder().encode(request);
    for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(65536);
    for (;;) {
      const n = await conn.read(buf).catch(() => null); // a reset after the answer ends the read
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
    return new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
  } finally {
    try {
      conn.close();
    } catch {
      // closed by the server
    }
  }
}

Deno.test({
  name: "GET /exec over ~64 KiB gets 400 and a closed connection; the same SQL as a POST body answers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer();
    try {
      const url = new URL(server.httpUrl);
      const under = sqlOfLength(60_000);
      const ok = await rawGet(url, `/exec?query=${encodeURIComponent(under.sql)}`);
      assert.match(ok, /^HTTP\/1\.1 200/);
      assert.match(ok, new RegExp(`"dataset":\\[\\[${under.literal}\\]\\]`));

      const over = sqlOfLength(70_000);
      const refused = await rawGet(url, `/exec?query=${encodeURIComponent(over.sql)}`);
      assert.match(refused, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.match(refused, /\r\nconnection: close\r\n/i);

      const still = await server.exec("SELECT 1 x");
      assert.equal(still.status, 200);
      assert.deepEqual((await still.json()).dataset, [[1]]);

      const posted = await fetch(`${server.httpUrl}/exec`, { method: "POST", body: over.sql });
      assert.equal(posted.status, 200);
      assert.deepEqual((await posted.json()).dataset, [[over.literal]]);
    } finally {
      await server.stop();
    }
  },
});
