/**
 * pgwire statement_timeout (issue 9): `SET statement_timeout` (ms or with a unit) and the
 * startup `options=-c statement_timeout=...` stop a long statement with SQLSTATE 57014, the
 * connection stays usable, and 0 turns the timeout off again. Uses node-postgres.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";

/** Runs for minutes without a timeout. */
const LONG_QUERY = "select sum(a.x * b.x) from long_sequence(100000) a cross join long_sequence(100000) b";

async function expectTimeout(client: pg.Client, startedMaxMs: number): Promise<void> {
  const started = performance.now();
  await assert.rejects(client.query(LONG_QUERY), (err: { code?: string; message?: string }) => {
    assert.equal(err.code, "57014");
    assert.match(err.message ?? "", /canceling statement due to statement timeout/);
    return true;
  });
  const took = performance.now() - started;
  assert.ok(took < startedMaxMs, `the statement stopped after ${Math.round(took)} ms`);
}

Deno.test({
  name: "pg statement_timeout from SET and from startup options cancels with 57014",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const connect = async (options?: string) => {
      const client = new pg.Client({
        host: "127.0.0.1",
        port: server.pgPort,
        user: "admin",
        password: "quest",
        options,
      });
      await client.connect();
      return client;
    };
    try {
      const a = await connect();
      try {
        // Until a SET, the server's query.timeout applies (60s by default).
        assert.deepEqual((await a.query("SHOW statement_timeout")).rows, [{ statement_timeout: "60000" }]);
        await a.query("SET statement_timeout = 300");
        assert.deepEqual((await a.query("SHOW statement_timeout")).rows, [{ statement_timeout: "300" }]);
        await expectTimeout(a, 10_000);
        // The connection is still fine, in the simple and the extended protocol.
        assert.deepEqual((await a.query("select 1 as one")).rows, [{ one: 1 }]);
        await assert.rejects(a.query({ text: LONG_QUERY + " where a.x > $1", values: [0] }), {
          code: "57014",
        });
        assert.deepEqual((await a.query("select $1::int as two", [2])).rows, [{ two: 2 }]);
        // A unit string, then 0 = off: a short query is not affected either way.
        await a.query("SET statement_timeout TO '1s'");
        await expectTimeout(a, 15_000);
        await a.query("SET statement_timeout = 0");
        assert.deepEqual((await a.query("select count() n from long_sequence(100000)")).rows, [{
          n: "100000",
        }]);
      } finally {
        await a.end();
      }

      const b = await connect("-c statement_timeout=250");
      try {
        await expectTimeout(b, 10_000);
        assert.deepEqual((await b.query("select 3 as three")).rows, [{ three: 3 }]);
      } finally {
        await b.end();
      }
    } finally {
      await server.stop();
    }
  },
});
