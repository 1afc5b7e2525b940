/**
 * Issue #23 with a real Python client: pandas.read_sql over SQLAlchemy 1.4 and psycopg2 (Debian's
 * python3-pandas) reads every BI fixture (tests/fixtures/bi) and gets the fixture's rows; the
 * table reflects through SQLAlchemy's inspector. The checks live in clients/bi_pandas_client.py.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, requireFile, run } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/bi_pandas_client.py", import.meta.url).pathname;
const FIXTURES = new URL("../fixtures/bi/", import.meta.url).pathname;

Deno.test({
  name: "pandas read_sql (SQLAlchemy 1.4, psycopg2) reads every BI fixture",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const probe = await run(DEBIAN_PYTHON, ["-c", "import pandas, sqlalchemy, psycopg2"]);
    assert.equal(
      probe.code,
      0,
      `python3-pandas is not installed; run .ci/install_pg_clients.sh\n${probe.stderr}`,
    );
    const server = await startServer({ pg: true });
    try {
      const r = await run(DEBIAN_PYTHON, [CLIENT, String(server.pgPort), FIXTURES], {
        timeoutMs: 120_000,
        env: { SQLALCHEMY_SILENCE_UBER_WARNING: "1" },
      });
      assert.equal(r.code, 0, `pandas failed:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /OK pandas (\d+)/);
      assert.ok(Number(/OK pandas (\d+)/.exec(r.stdout)![1]) >= 10, r.stdout);
    } finally {
      await server.stop();
    }
  },
});
