/**
 * Statements on the worker heaps through the real listeners (issue #17): a heavy join runs on a
 * worker (EXPLAIN says `Worker`); a pgwire CancelRequest (postgres.js `cancel()`), pgwire
 * `statement_timeout` and an HTTP client that disconnects each stop it promptly, the worker is
 * free again afterwards, and `SELECT 1` is answered while it runs.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { startServer } from "./server_process.ts";
import { pgOptions } from "./clients/pg_tools.ts";

/** 200K rows joined on 100 keys: 400M pairs, runs for minutes unless stopped. */
const ENDLESS = "SELECT count(), sum(a.x + b.x) FROM big a JOIN big b ON a.k = b.k";
const SHORT = "SELECT count() FROM big a JOIN big b ON a.x = b.x WHERE a.x < 10";

Deno.test({
  name: "offloaded statements are cancelled, timed out and dropped on disconnect promptly",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const sql = postgres({
      ...pgOptions(server.pgPort),
      max: 2,
    });
    const http = async (q: string) => {
      const r = await server.exec(q);
      const j = await r.json();
      assert.ok(!j.error, `${q}: ${j.error}`);
      return j.dataset as unknown[][];
    };
    /** The short offloaded join answers in time: no worker is still busy with a stopped one. */
    const workersFree = async (what: string) => {
      for (let k = 0; k < 2; k++) {
        const t0 = performance.now();
        assert.equal((await http(SHORT))[0][0], 9, what);
        const took = performance.now() - t0;
        assert.ok(took < 3000, `${what}: a short statement took ${Math.round(took)} ms`);
      }
    };
    try {
      await http(
        "CREATE TABLE big AS (SELECT timestamp_sequence('2024-01-01', 1_000_000L) ts, x, x % 100 k " +
          "FROM long_sequence(200_000)) TIMESTAMP(ts) PARTITION BY DAY",
      );
      assert.equal((await http(`EXPLAIN ${ENDLESS}`))[0][0], "Worker");
      // The first statement on each worker loads its planner (seconds on a loaded machine): not timed.
      for (let k = 0; k < 2; k++) assert.equal((await http(SHORT))[0][0], 9, "warm-up");

      // pgwire CancelRequest.
      let t0 = performance.now();
      const slow = sql.unsafe(ENDLESS);
      setTimeout(() => slow.cancel(), 500);
      // SELECT 1 over HTTP while the join runs on a worker.
      await new Promise((r) => setTimeout(r, 200));
      const probe = performance.now();
      assert.deepEqual(await http("SELECT 1"), [[1]]);
      assert.ok(performance.now() - probe < 500, "SELECT 1 waited for the join");
      await assert.rejects(slow, (e: { code: string }) => e.code === "57014");
      assert.ok(
        performance.now() - t0 < 2500,
        `cancel answered after ${Math.round(performance.now() - t0)} ms`,
      );
      await workersFree("after cancel");

      // statement_timeout.
      await sql.begin(async (tx) => {
        await tx.unsafe("SET statement_timeout = 400");
        t0 = performance.now();
        await assert.rejects(tx.unsafe(ENDLESS), (e: { message: string }) => /timeout/.test(e.message));
      }).catch((e) => {
        // The transaction itself failed with the timeout: what is asserted above.
        if (!/timeout/.test(String(e?.message))) throw e;
      });
      assert.ok(
        performance.now() - t0 < 2500,
        `timeout answered after ${Math.round(performance.now() - t0)} ms`,
      );
      await workersFree("after timeout");

      // An HTTP client that goes away.
      const ac = new AbortController();
      const gone = fetch(`${server.httpUrl}/exec?query=${encodeURIComponent(ENDLESS)}`, {
        signal: ac.signal,
      });
      setTimeout(() => ac.abort(), 500);
      await assert.rejects(gone);
      const listed = "SELECT count() FROM query_activity() WHERE query LIKE '%a.k = b.k%' " +
        "AND query NOT LIKE '%query_activity%'";
      let running = 1;
      for (let k = 0; k < 40 && running > 0; k++) {
        await new Promise((r) => setTimeout(r, 100));
        running = Number((await http(listed))[0][0]);
      }
      assert.equal(running, 0, "the disconnected client's statement still runs");
      await workersFree("after disconnect");
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
      await server.stop();
    }
  },
});
