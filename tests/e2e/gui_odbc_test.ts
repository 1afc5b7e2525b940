/**
 * psqlODBC (Debian odbc-postgresql on unixODBC) through pyodbc against the real server
 * (issue 10 evidence): a DSN-less connection, SQLTables and SQLColumns answered from
 * pg_catalog, and a query with `?` parameters. The checks live in clients/gui_odbc_client.py.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, requireFile, run } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/gui_odbc_client.py", import.meta.url).pathname;

/** psqlodbcw.so (the Unicode driver) under the multiarch library directory. */
async function findDriver(): Promise<string> {
  for await (const dir of Deno.readDir("/usr/lib")) {
    const path = `/usr/lib/${dir.name}/odbc/psqlodbcw.so`;
    try {
      await Deno.stat(path);
      return path;
    } catch { /* not this one */ }
  }
  throw new Error("psqlodbcw.so (odbc-postgresql) is missing; run .ci/install_pg_clients.sh");
}

Deno.test({
  name: "psqlODBC lists tables and columns and runs a parameterised query through pyodbc",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const probe = await run(DEBIAN_PYTHON, ["-c", "import pyodbc"]);
    assert.equal(
      probe.code,
      0,
      `python3-pyodbc is not installed; run .ci/install_pg_clients.sh\n${probe.stderr}`,
    );
    const driver = await findDriver();
    const server = await startServer({ pg: true });
    try {
      const r = await run(DEBIAN_PYTHON, [CLIENT, String(server.pgPort), driver], { timeoutMs: 90_000 });
      assert.equal(r.code, 0, `odbc failed:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /OK odbc/);
    } finally {
      await server.stop();
    }
  },
});
