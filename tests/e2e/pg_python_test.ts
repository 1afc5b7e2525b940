/**
 * psycopg2, psycopg 3 and asyncpg against the real server (issue 4 evidence): connect,
 * create, insert with parameters, executemany, select with timestamps round-tripping to the
 * microsecond, binary results (psycopg binary cursor, asyncpg), errors with SQLSTATEs.
 * The checks live in clients/pg_python_client.py.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, requireFile, run } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/pg_python_client.py", import.meta.url).pathname;
const MODULES: Record<string, string> = {
  psycopg2: "python3-psycopg2",
  psycopg: "python3-psycopg",
  asyncpg: "python3-asyncpg",
};

Deno.test({
  name: "psycopg2, psycopg 3 and asyncpg create, insert, executemany and read timestamps exactly",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    for (const [module, pkg] of Object.entries(MODULES)) {
      const probe = await run(DEBIAN_PYTHON, ["-c", `import ${module}`]);
      assert.equal(probe.code, 0, `${pkg} is not installed; run .ci/install_pg_clients.sh\n${probe.stderr}`);
    }
    const server = await startServer({ pg: true });
    try {
      for (const driver of Object.keys(MODULES)) {
        const r = await run(DEBIAN_PYTHON, [CLIENT, String(server.pgPort), driver], { timeoutMs: 60_000 });
        assert.equal(r.code, 0, `${driver} failed:\n${r.stdout}\n${r.stderr}`);
        assert.match(r.stdout, new RegExp(`OK ${driver}`));
      }
    } finally {
      await server.stop();
    }
  },
});
