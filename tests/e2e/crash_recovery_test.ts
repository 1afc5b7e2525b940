/**
 * Kills a server with SIGKILL while it is inserting (many times, at random moments) and
 * shows that after a restart every acknowledged row is there and nothing half-written is.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

const ROWS_PER_INSERT = 200;
const KILLS = 12;

function insertSql(batch: number): string {
  const values: string[] = [];
  for (let i = 0; i < ROWS_PER_INSERT; i++) {
    const n = batch * ROWS_PER_INSERT + i;
    // Every few batches go back in time, so out-of-order merges are killed too.
    const ts = (batch % 5 === 4 ? n - 150 * ROWS_PER_INSERT : n) * 1_000_000 + 3_600_000_000 * 24 * 365;
    values.push(`(${ts}, ${n}, 'k${n % 7}')`);
  }
  return `INSERT INTO t VALUES ${values.join(",")}`;
}

Deno.test("acknowledged inserts survive SIGKILL at random moments", async () => {
  let server = await startServer();
  const root = server.root;
  try {
    const created = await server.exec(
      "CREATE TABLE t (ts TIMESTAMP, n LONG, k SYMBOL) TIMESTAMP(ts) PARTITION BY HOUR",
    );
    assert.equal(created.status, 200, await created.text());
    let acked = 0;
    for (let round = 0; round < KILLS; round++) {
      const killAfterMs = 50 + Math.floor(Math.random() * 400);
      let inFlight = false;
      const started = Date.now();
      const writer = (async () => {
        while (Date.now() - started < 5_000) {
          inFlight = true;
          try {
            const r = await server.exec(insertSql(acked));
            const body = await r.text();
            if (r.status !== 200) throw new Error(body);
            acked++;
          } catch (err) {
            // The kill shows up as a failed fetch (connection reset or refused); anything else is a bug.
            if (!(err instanceof TypeError)) throw err;
            return;
          } finally {
            inFlight = false;
          }
        }
      })();
      await new Promise((r) => setTimeout(r, killAfterMs));
      const wasInFlight = inFlight;
      await server.kill();
      await writer;
      server = await startServer({ root });
      const r = await server.exec("SELECT count() c, count_distinct(n) d, min(n) lo, max(n) hi FROM t");
      const body = await r.json();
      const [c, d, lo, hi] = body.dataset[0];
      const allowed = wasInFlight
        ? [acked * ROWS_PER_INSERT, (acked + 1) * ROWS_PER_INSERT]
        : [acked * ROWS_PER_INSERT];
      assert.ok(allowed.includes(c), `round ${round}: ${c} rows, acknowledged ${acked * ROWS_PER_INSERT}`);
      assert.equal(d, c, "no duplicated or torn rows");
      if (c > 0) {
        assert.equal(lo, 0);
        assert.equal(hi, c - 1);
      }
      // An insert that committed without its reply being seen counts as acknowledged from now on.
      acked = c / ROWS_PER_INSERT;
    }
    assert.ok(acked >= KILLS, `the writer got ${acked} inserts acknowledged over ${KILLS} kills`);
    console.log(`survived ${KILLS} kills with ${acked * ROWS_PER_INSERT} acknowledged rows`);
    const sym = await (await server.exec("SELECT k, count() FROM t ORDER BY k")).json();
    assert.equal(sym.dataset.length, Math.min(7, acked * ROWS_PER_INSERT));
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
