/**
 * Hostile patterns (issue #24): `'aaa…!' ~ '(a+)+$'` ran 154 s on a backtracking engine, past
 * its statement timeout, and froze every other client. With RE2 the match itself is fast, and a
 * long statement of costly regex rows stops at its timeout while other connections are served,
 * over pgwire (statement_timeout) and REST (Statement-Timeout header).
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";

const CATASTROPHIC = "SELECT 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' ~ '(a+)+$' AS m";
/** Minutes of work without a timeout: a regex over a fresh 2,000-character value per row. */
const LONG =
  "SELECT count() FROM long_sequence(1000000000) WHERE rpad('a', 2000 + (x % 7)::int, 'b') ~ '(a+)+$'";
const PROBES = 7;

/** Latencies (ms) of `SELECT 1` sent one after another, 100 ms apart, while something else runs. */
async function probeLatencies(select1: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < PROBES; i++) {
    const started = performance.now();
    await select1();
    out.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 100));
  }
  return out;
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

Deno.test({
  name:
    "regex: catastrophic patterns are fast, and a long regex statement stops at its timeout while others run",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const connect = async () => {
      const c = new pg.Client({ host: "127.0.0.1", port: server.pgPort, user: "admin", password: "quest" });
      await c.connect();
      return c;
    };
    const a = await connect(), b = await connect();
    try {
      await a.query("SET statement_timeout = 1000");
      let started = performance.now();
      assert.deepEqual((await a.query(CATASTROPHIC)).rows, [{ m: false }]);
      assert.ok(performance.now() - started < 1000, "the catastrophic match is fast");

      // pgwire: the long statement ends with 57014 within 2 s of its 1 s timeout; meanwhile the
      // other connection's SELECT 1 is answered at once.
      started = performance.now();
      const long = a.query(LONG).then(
        () => "finished",
        (e: { code?: string }) => e.code,
      );
      const latencies = await probeLatencies(async () => {
        assert.deepEqual((await b.query("SELECT 1 AS one")).rows, [{ one: 1 }]);
      });
      assert.equal(await long, "57014");
      const took = performance.now() - started;
      assert.ok(
        took < 3000,
        `the statement stopped ${Math.round(took)} ms after it started (timeout 1000 ms)`,
      );
      assert.ok(median(latencies) < 50, `SELECT 1 took ${latencies.map(Math.round).join(", ")} ms`);
      assert.ok(Math.max(...latencies) < 200, `SELECT 1 took ${latencies.map(Math.round).join(", ")} ms`);
      assert.deepEqual(
        (await a.query("SELECT 2 AS two")).rows,
        [{ two: 2 }],
        "the connection is still usable",
      );

      // REST: the same with the Statement-Timeout header.
      const exec = (sql: string, headers: Record<string, string> = {}) =>
        fetch(`${server.httpUrl}/exec?query=${encodeURIComponent(sql)}`, { headers });
      const fast = await (await exec(CATASTROPHIC, { "Statement-Timeout": "1000" })).json();
      assert.deepEqual(fast.dataset, [[false]]);
      started = performance.now();
      const restLong = exec(LONG, { "Statement-Timeout": "1000" }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
      const restLatencies = await probeLatencies(async () => {
        assert.deepEqual((await (await exec("SELECT 1")).json()).dataset, [[1]]);
      });
      const answer = await restLong;
      const restTook = performance.now() - started;
      assert.match(answer.body.error, /^timeout, query aborted \[timeout=1000ms\]/, JSON.stringify(answer));
      assert.ok(restTook < 3000, `REST: stopped ${Math.round(restTook)} ms after it started`);
      assert.ok(
        median(restLatencies) < 50,
        `REST SELECT 1 took ${restLatencies.map(Math.round).join(", ")} ms`,
      );
    } finally {
      await a.end().catch(() => {});
      await b.end().catch(() => {});
      await server.stop();
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
  },
});
