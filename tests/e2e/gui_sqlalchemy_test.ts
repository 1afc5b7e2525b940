/**
 * SQLAlchemy's stock PostgreSQL dialect (psycopg2) against the real server (issue 10
 * evidence): the inspector reflects table names, columns with types, primary key and indexes
 * through pg_catalog, then Core insert()/select() round-trip rows. The checks live in
 * clients/gui_sqlalchemy_client.py.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, requireFile, run } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/gui_sqlalchemy_client.py", import.meta.url).pathname;

Deno.test({
  name: "SQLAlchemy inspects tables, columns, keys and indexes and round-trips Core insert/select",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const probe = await run(DEBIAN_PYTHON, ["-c", "import sqlalchemy, psycopg2"]);
    assert.equal(
      probe.code,
      0,
      `python3-sqlalchemy is not installed; run .ci/install_pg_clients.sh\n${probe.stderr}`,
    );
    const server = await startServer({ pg: true });
    try {
      const r = await run(DEBIAN_PYTHON, [CLIENT, String(server.pgPort)], {
        timeoutMs: 90_000,
        env: { SQLALCHEMY_SILENCE_UBER_WARNING: "1" },
      });
      assert.equal(r.code, 0, `sqlalchemy failed:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /OK sqlalchemy/);
    } finally {
      await server.stop();
    }
  },
});
