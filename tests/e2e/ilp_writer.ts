/**
 * Two ILP writers that run until told to stop, shared by the backup and checkpoint restore tests
 * (issue 22): `acked` over HTTP (one 50-row batch per request, so every 204 acknowledges a known
 * seq) and `streamed` over TCP (200 rows per write, no acknowledgement). Each writes seq 0, 1, 2, ...
 * so a restored copy can be checked to hold a gap-free prefix.
 */
import assert from "node:assert/strict";
import type { ServerProcess } from "./server_process.ts";

export interface HttpWriterState {
  stop: boolean;
  /** Highest seq of a batch answered 204; -1 before the first. */
  acked: number;
  failures: string[];
}

export interface TcpWriterState {
  stop: boolean;
  /** Rows written to the socket so far. */
  sent: number;
}

/** Runs a query over /exec, asserts 200 and returns the dataset. */
export async function sql(server: ServerProcess, q: string): Promise<unknown[][]> {
  const res = await server.exec(q);
  const body = await res.json();
  assert.equal(res.status, 200, `${q}: ${JSON.stringify(body)}`);
  return body.dataset ?? [];
}

/** ILP over HTTP, one batch per request: `acked` holds the highest seq of a 204 reply. */
export function httpWriter(server: ServerProcess, state: HttpWriterState): Promise<void> {
  return (async () => {
    let seq = 0;
    while (!state.stop) {
      const lines: string[] = [];
      for (let i = 0; i < 50; i++, seq++) {
        lines.push(`acked,src=http seq=${seq}i ${(1_700_000_000_000 + seq) * 1_000_000}`);
      }
      const res = await fetch(`${server.httpUrl}/write`, { method: "POST", body: lines.join("\n") + "\n" });
      if (res.status !== 204) state.failures.push(`${res.status} ${await res.text()}`);
      else state.acked = seq - 1;
    }
  })();
}

/** ILP over TCP, lines as fast as the server reads them. */
export function tcpWriter(port: number, state: TcpWriterState): Promise<void> {
  return (async () => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    const enc = new TextEncoder();
    try {
      let seq = 0;
      while (!state.stop) {
        let text = "";
        for (let i = 0; i < 200; i++, seq++) {
          text += `streamed,sym=s${seq % 5} seq=${seq}i,v=${seq % 7}.5 ${
            (1_700_000_000_000 + seq) * 1_000_000
          }\n`;
        }
        const bytes = enc.encode(text);
        for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
        state.sent = seq;
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      conn.close();
    }
  })();
}

/**
 * Starts both writers against `source` and waits (up to 30 s) until HTTP has 2000 rows acknowledged
 * and TCP 5000 sent, asserting that they got there without a failed request. The caller sets
 * `stop` on both states and awaits `writers`.
 */
export async function startWriters(
  source: ServerProcess,
  http: HttpWriterState,
  tcp: TcpWriterState,
): Promise<Promise<void>[]> {
  const writers = [httpWriter(source, http), tcpWriter(source.ilpPort, tcp)];
  const warmUp = Date.now() + 30_000;
  while ((http.acked < 2000 || tcp.sent < 5000) && Date.now() < warmUp) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(http.failures, []);
  assert.ok(http.acked >= 2000 && tcp.sent >= 5000, `writers started: ${JSON.stringify({ http, tcp })}`);
  return writers;
}

/** Waits (up to 30 s) until HTTP has acknowledged more than 500 rows past `from`. */
export async function waitAckedPast(http: HttpWriterState, from: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (http.acked <= from + 500 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
}
