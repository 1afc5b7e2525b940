/**
 * query_activity() and CANCEL QUERY with psql (issue 22): a long statement of one psql session
 * is listed with QuestDB's columns, another session cancels it by id, and the first client gets
 * QuestDB's "cancelled by user" with SQLSTATE 57014; an unknown id is an error.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

/** Runs for minutes unless stopped. */
const LONG_QUERY = "select sum(a.x * b.x) from long_sequence(100000) a cross join long_sequence(100000) b";

function psql(port: number, sql: string): Deno.ChildProcess {
  return new Deno.Command("psql", {
    args: ["-h", "127.0.0.1", "-p", String(port), "-U", "admin", "-d", "qdb", "-X", "-A", "-t", "-F", "|"]
      .concat(["-v", "ON_ERROR_STOP=1", "-v", "VERBOSITY=verbose", "-c", sql]),
    env: { PGPASSWORD: "quest", PGCONNECT_TIMEOUT: "10" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function psqlOutput(port: number, sql: string): Promise<{ code: number; out: string; err: string }> {
  const r = await psql(port, sql).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout), err: dec.decode(r.stderr) };
}

Deno.test({
  name: "CANCEL QUERY from another psql session stops a running statement with 57014",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    try {
      const started = performance.now();
      const long = psql(server.pgPort, LONG_QUERY).output();
      const listing = "select query_id, worker_id, worker_pool, username, state, is_wal, query " +
        "from query_activity() where query like '%cross join%' and query not like '%query_activity%'";
      let row: string[] | undefined;
      for (let i = 0; i < 100 && !row; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const r = await psqlOutput(server.pgPort, listing);
        assert.equal(r.code, 0, r.err);
        if (r.out.trim()) row = r.out.trim().split("|");
      }
      assert.ok(row, "the long statement shows in query_activity()");
      const [id, worker, pool, user, state, isWal, text] = row;
      assert.match(id, /^\d+$/);
      assert.equal(worker, "0");
      assert.equal(pool, "pgwire");
      assert.equal(user, "admin");
      assert.equal(state, "active");
      assert.equal(isWal, "f");
      assert.equal(text, LONG_QUERY);

      const cancel = await psqlOutput(server.pgPort, `CANCEL QUERY ${id}`);
      assert.equal(cancel.code, 0, cancel.err);
      const r = await long;
      const err = new TextDecoder().decode(r.stderr);
      assert.notEqual(r.code, 0, "the cancelled client fails");
      assert.match(err, /ERROR:\s+57014: cancelled by user/);
      assert.ok(performance.now() - started < 30_000, "stopped long before it would have finished");

      const after = await psqlOutput(server.pgPort, listing);
      assert.equal(after.out.trim(), "", "a cancelled statement leaves the registry");
      const unknown = await psqlOutput(server.pgPort, `CANCEL QUERY ${Number(id) + 100000}`);
      assert.notEqual(unknown.code, 0);
      assert.match(unknown.err, /query to cancel not found in registry \[id=\d+\]/);
    } finally {
      await server.stop();
    }
  },
});
