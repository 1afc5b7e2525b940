/**
 * Idle pgwire connections are closed after `pg.net.connection.timeout`, and a connection that
 * keeps talking is not; the server goes on serving new connections.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { login, query, readSome, readUntilReady, serverAnswers } from "./clients/pg_raw.ts";

Deno.test("pgwire closes idle connections after the configured timeout", async () => {
  const server = await startServer({ pg: true, env: { QDB_PG_NET_CONNECTION_TIMEOUT: "700" } });
  try {
    const idle = await login(server.pgPort);
    const busy = await login(server.pgPort);
    // The busy connection sends a query every 300 ms, well inside the timeout.
    for (let i = 0; i < 5; i++) {
      await busy.write(query("SELECT 1"));
      assert.ok((await readUntilReady(busy, 2000)).endsWith("Z"), "busy connection still answered");
      await new Promise((r) => setTimeout(r, 300));
    }
    // By now (1.5 s) the idle one has been closed by the server: a read sees the end.
    assert.equal(await readSome(idle, 2000), null, "idle connection was closed");
    assert.ok(await serverAnswers(server.pgPort));
    busy.close();
  } finally {
    await server.kill();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});
