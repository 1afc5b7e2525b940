/**
 * Issue #17 "No query blocks another": while one client streams a huge result as fast as it
 * can read it (over pgwire, /exec or /exp), `SELECT 1` on another connection answers promptly,
 * over pgwire and over HTTP. The reader keeps nothing (a raw pgwire socket, a fetch body
 * drained chunk by chunk), so the server, not the client, is what is measured.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { type ServerProcess, startServer } from "./server_process.ts";
import { streamQuery } from "./pg_raw_stream.ts";

// Wide rows: encoding a batch of them for the client takes far longer than producing it.
const BIG = "select x, x * 2 y, x * 0.5 d, cast(x as string) s, cast(x as timestamp) ts, " +
  "x % 7 = 0 b, concat('row ', x) c from long_sequence(1000000000)";
const PROBES = 20;

interface Streaming {
  /** Rows (pgwire) or bytes (HTTP) received so far. */
  progress(): number;
  stop(): void;
}

async function streamPg(server: ServerProcess): Promise<Streaming> {
  const s = await streamQuery(server.pgPort, BIG);
  return { progress: s.rows, stop: s.stop };
}

function streamHttp(server: ServerProcess, endpoint: "exec" | "exp"): Streaming {
  let bytes = 0;
  const abort = new AbortController();
  (async () => {
    const r = await fetch(`${server.httpUrl}/${endpoint}?query=${encodeURIComponent(BIG)}`, {
      signal: abort.signal,
    });
    for await (const chunk of r.body!) bytes += chunk.length;
  })().catch(() => {}); // aborted at the end of the test
  return { progress: () => bytes, stop: () => abort.abort() };
}

async function waitForProgress(s: Streaming): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (s.progress() === 0) {
    if (Date.now() > deadline) throw new Error("the big result did not start streaming");
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 300)); // well into the stream
}

/** Latencies (ms) of PROBES `SELECT 1`s, one after another with a short pause. */
async function probe(run: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  return times.sort((a, b) => a - b);
}

function assertPrompt(what: string, times: number[]): void {
  const median = times[Math.floor(times.length / 2)];
  const max = times[times.length - 1];
  const shown = times.map((t) => t.toFixed(0)).join(" ");
  console.log(`${what}: median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
  assert.ok(median < 100, `${what}: median ${median.toFixed(1)} ms (all: ${shown})`);
  assert.ok(max < 500, `${what}: max ${max.toFixed(1)} ms (all: ${shown})`);
}

for (const source of ["pgwire", "exec", "exp"] as const) {
  Deno.test(`SELECT 1 answers promptly while a huge result streams over ${source}`, async () => {
    const server = await startServer({ pg: true });
    const client = new pg.Client({
      host: "127.0.0.1",
      port: server.pgPort,
      user: "admin",
      password: "quest",
    });
    let stream: Streaming | undefined;
    try {
      await client.connect();
      stream = source === "pgwire" ? await streamPg(server) : streamHttp(server, source);
      await waitForProgress(stream);
      const before = stream.progress();
      const overPg = await probe(async () => {
        const r = await client.query("select 1 one");
        assert.equal(r.rows[0].one, 1);
      });
      const overHttp = await probe(async () => {
        const r = await fetch(`${server.httpUrl}/exec?query=${encodeURIComponent("select 1")}`);
        assert.equal(r.status, 200, await r.text());
      });
      // The big result kept streaming while the probes ran: they did not just find it stalled.
      assert.ok(stream.progress() > before, `${source} stream made no progress during the probes`);
      assertPrompt(`${source} stream, SELECT 1 over pgwire`, overPg);
      assertPrompt(`${source} stream, SELECT 1 over HTTP`, overHttp);
    } finally {
      stream?.stop();
      await client.end().catch(() => {});
      await server.kill();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  });
}
