/**
 * psql (Debian postgresql-client) against the real server (issue 4 evidence): queries,
 * `\dt`, `\d trades`, and an error shown with its caret under the right character.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { requireCommand, run } from "./clients/pg_tools.ts";

Deno.test({
  name: "psql runs queries, lists tables, describes a table and shows an error caret",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireCommand("psql", "postgresql-client");
    const server = await startServer({ pg: true });
    const psql = (...args: string[]) =>
      run(
        "psql",
        ["-h", "127.0.0.1", "-p", String(server.pgPort), "-U", "admin", "-d", "qdb", "-X", ...args],
        {
          env: { PGPASSWORD: "quest", PGCONNECT_TIMEOUT: "10" },
          timeoutMs: 30_000,
        },
      );
    try {
      const setup = await psql(
        "-c",
        "create table trades (ts timestamp, sym symbol, price double, qty long) timestamp(ts) partition by day",
        "-c",
        "insert into trades values ('2024-01-01T00:00:00.123456Z', 'BTC', 42000.5, 3), ('2024-01-01T00:00:01Z', 'ETH', 2200.25, 7)",
      );
      assert.equal(setup.code, 0, setup.stderr);
      assert.match(setup.stdout, /INSERT 0 2/);

      const q = await psql("-A", "-t", "-c", "select sym, price, qty, ts from trades order by ts");
      assert.equal(q.code, 0, q.stderr);
      assert.equal(
        q.stdout.trim(),
        "BTC|42000.5|3|2024-01-01 00:00:00.123456\nETH|2200.25|7|2024-01-01 00:00:01.000000",
      );

      const dt = await psql("-c", "\\dt");
      assert.equal(dt.code, 0, dt.stderr);
      assert.match(dt.stdout, /public \| trades \| table/);

      const d = await psql("-c", "\\d trades");
      assert.equal(d.code, 0, d.stderr);
      assert.match(d.stdout, /Table "public\.trades"/);
      assert.match(d.stdout, /ts\s+\| timestamp without time zone/);
      assert.match(d.stdout, /sym\s+\| character varying/);
      assert.match(d.stdout, /price\s+\| double precision/);
      assert.match(d.stdout, /qty\s+\| bigint/);

      const err = await psql("-c", "select * from trades where nope = 1");
      assert.notEqual(err.code, 0);
      assert.match(err.stderr, /ERROR: {2}Invalid column: nope/);
      const lines = err.stderr.split("\n");
      const at = lines.findIndex((l) => l.startsWith("LINE 1: "));
      assert.ok(at >= 0, err.stderr);
      const caret = lines[at + 1].indexOf("^") - "LINE 1: ".length;
      assert.equal("select * from trades where nope = 1".slice(caret, caret + 4), "nope");

      const multi = await psql("-A", "-t", "-c", "select 1; select 'two'");
      assert.equal(multi.code, 0, multi.stderr);
      assert.equal(multi.stdout.trim(), "1\ntwo");
    } finally {
      await server.stop();
    }
  },
});
