/**
 * pgjdbc (Debian libpostgresql-jdbc-java) against the real server (issue 4 evidence):
 * PreparedStatement past prepareThreshold, batches, timestamps, DatabaseMetaData.getTables /
 * getColumns, SQLSTATEs and setFetchSize. The checks live in clients/PgJdbcClient.java,
 * run with Java's single-file source launcher.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { JDBC_JAR, requireCommand, requireFile, run } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/PgJdbcClient.java", import.meta.url).pathname;

Deno.test({
  name: "pgjdbc prepares, batches, reads metadata and timestamps",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireCommand("java", "a Java runtime");
    await requireFile(JDBC_JAR, "libpostgresql-jdbc-java");
    const server = await startServer({ pg: true });
    try {
      const r = await run("java", ["-cp", JDBC_JAR, CLIENT, String(server.pgPort)], { timeoutMs: 90_000 });
      assert.equal(r.code, 0, `jdbc client failed:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /OK jdbc/);
    } finally {
      await server.stop();
    }
  },
});
