/**
 * Logs (issue 22): with log.level=debug every statement is one line with level and component,
 * a statement slower than cairo.sql.slow.query.threshold is logged with its time at info, and no
 * secret (pg.password, passwords in SQL text, a wrong login password) ever reaches the log.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";

const PG_SECRET = "Pg-Secret-7731";
const SQL_SECRET = "S3cret-Passw0rd-4412";
const WRONG_SECRET = "Wrong-Secret-9921";

function psql(port: number, password: string, sql: string): Promise<Deno.CommandOutput> {
  return new Deno.Command("psql", {
    args: ["-h", "127.0.0.1", "-p", String(port), "-U", "admin", "-d", "qdb", "-X", "-c", sql],
    env: { PGPASSWORD: password, PGCONNECT_TIMEOUT: "10" },
    stdout: "piped",
    stderr: "piped",
  }).output();
}

Deno.test({
  name: "logs: one line per statement, slow statements with their time, no secrets",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({
      pg: true,
      env: {
        QDB_LOG_LEVEL: "debug",
        QDB_CAIRO_SQL_SLOW_QUERY_THRESHOLD: "200",
        QDB_PG_PASSWORD: PG_SECRET,
      },
    });
    try {
      const slow = "select sum(a.x * b.x) from long_sequence(3000) a cross join long_sequence(3000) b";
      assert.equal((await server.exec(slow)).status, 200);
      assert.equal((await server.exec("select 1 quick")).status, 200);
      await (await server.exec(`CREATE USER bob WITH PASSWORD '${SQL_SECRET}'`)).text();
      await (await server.exec(`ALTER USER bob WITH PASSWORD '${SQL_SECRET}'`)).text();
      assert.equal((await psql(server.pgPort, PG_SECRET, "select 2 over_pg")).code, 0);
      assert.notEqual((await psql(server.pgPort, WRONG_SECRET, "select 3")).code, 0);
      await new Promise((r) => setTimeout(r, 300));
      const text = server.log();

      const stamp = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;
      const slowLine = new RegExp(
        `^${stamp} I sql slow query \\[id=\\d+, time=(\\d+)ms, outcome=completed, user=admin, protocol=http\\] select sum`,
        "m",
      ).exec(text);
      assert.ok(slowLine, `the slow statement is logged with its time:\n${text}`);
      assert.ok(Number(slowLine[1]) >= 200);
      assert.match(
        text,
        new RegExp(`^${stamp} D sql query \\[id=\\d+, time=\\d+ms.*\\] select 1 quick$`, "m"),
      );
      assert.match(text, new RegExp(`^${stamp} D sql query \\[.*protocol=pgwire\\] select 2 over_pg$`, "m"));
      assert.match(text, /CREATE USER bob WITH PASSWORD '\*\*\*\*'/);
      for (const secret of [PG_SECRET, SQL_SECRET, WRONG_SECRET]) {
        assert.ok(!text.includes(secret), `the log holds a secret (${secret})`);
      }
    } finally {
      await server.stop();
    }
  },
});
