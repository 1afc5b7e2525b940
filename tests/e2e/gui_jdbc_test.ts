/**
 * pgjdbc DatabaseMetaData (Debian libpostgresql-jdbc-java) against the real server (issue 10
 * evidence): getSchemas, getTables, getColumns, getPrimaryKeys, getIndexInfo, getTypeInfo and
 * getFunctions, the calls GUI tools make to browse a database, run without errors and name
 * the right schema, table and columns. The checks live in clients/GuiJdbcMetaClient.java,
 * run with Java's single-file source launcher.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { JDBC_JAR, requireCommand, requireFile, run } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/GuiJdbcMetaClient.java", import.meta.url).pathname;

Deno.test({
  name: "pgjdbc DatabaseMetaData lists schemas, tables, columns, keys, indexes, types and functions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireCommand("java", "a Java runtime");
    await requireFile(JDBC_JAR, "libpostgresql-jdbc-java");
    const server = await startServer({ pg: true });
    try {
      const r = await run("java", ["-cp", JDBC_JAR, CLIENT, String(server.pgPort)], { timeoutMs: 120_000 });
      assert.equal(r.code, 0, `jdbc metadata client failed:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /OK jdbc meta/);
    } finally {
      await server.stop();
    }
  },
});
