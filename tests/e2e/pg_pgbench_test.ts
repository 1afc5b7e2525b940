/**
 * pgbench (Debian) with a custom script of simple selects: 20 concurrent clients for 10
 * seconds over the simple and the extended protocol, zero errors (issue 4 evidence). TPS is
 * printed for the record; bench/pgbench/run.ts is the benchmark proper.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { requireCommand } from "./clients/pg_tools.ts";
import { runPgbench } from "../../bench/pgbench/pgbench.ts";

Deno.test({
  name: "pgbench: 20 clients for 10 seconds of simple selects without errors",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireCommand("pgbench", "pgbench (postgresql-contrib / postgresql-client)");
    const server = await startServer({ pg: true });
    try {
      for (const protocol of ["simple", "prepared"] as const) {
        const r = await runPgbench(server.pgPort, {
          clients: 20,
          seconds: protocol === "simple" ? 10 : 5,
          protocol,
        });
        assert.equal(r.failed, 0, r.output);
        assert.ok(r.transactions > 0, r.output);
        console.log(`pgbench ${protocol}: ${r.tps.toFixed(0)} TPS, ${r.transactions} transactions`);
      }
    } finally {
      await server.stop();
    }
  },
});
