/**
 * A long query does not stall other clients, and a client that goes away cancels its query
 * within a batch (ARCHITECTURE.md "Deno runs JavaScript on one event loop").
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

Deno.test("short queries are answered while a long one runs, and a disconnect cancels it", async () => {
  const server = await startServer();
  try {
    const abort = new AbortController();
    const long = fetch(
      `${server.httpUrl}/exec?query=${encodeURIComponent("SELECT count() FROM long_sequence(5000000000)")}`,
      { signal: abort.signal },
    )
      .then(() => "finished", () => "aborted");
    await new Promise((r) => setTimeout(r, 300));
    const order: string[] = [];
    long.then((x) => order.push(`long ${x}`));
    const health = await fetch(server.healthUrl);
    assert.equal(await health.text(), "Status: Healthy");
    const short = await (await server.exec("SELECT 41 + 1")).json();
    order.push("short");
    assert.deepEqual(short.dataset, [[42]]);
    assert.deepEqual(order, ["short"], "the short query came back while the long one was still running");
    abort.abort();
    assert.equal(await long, "aborted");
    // A graceful stop waits for running requests: it completes only if the query stopped.
    const stopped = await Promise.race([
      server.stop().then(() => true),
      new Promise((r) => setTimeout(() => r(false), 20_000)),
    ]);
    assert.equal(stopped, true, "the server stopped, so the cancelled query is no longer running");
  } finally {
    await server.kill();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});
