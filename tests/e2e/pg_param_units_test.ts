/**
 * Typed timestamp parameters into DATE and TIMESTAMP_NS columns are converted to the column's
 * unit (issue 18): psycopg 3 datetimes in binary and text, node `pg` date strings and Dates.
 * Before, the microseconds were stored as milliseconds (DATE in year 56722) or nanoseconds
 * (TIMESTAMP_NS in 1970).
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, expectClientOk, pgOptions, requireFile } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/pg_param_units_client.py", import.meta.url).pathname;
const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "psycopg 3 timestamp parameters (binary and text) into DATE and TIMESTAMP_NS; asyncpg reads them",
  ...options,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const server = await startServer({ pg: true });
    try {
      await expectClientOk(DEBIAN_PYTHON, [CLIENT, String(server.pgPort)], /OK units/, { timeoutMs: 60_000 });
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "node pg date strings and Dates into DATE and TIMESTAMP_NS columns",
  ...options,
  async fn() {
    const server = await startServer({ pg: true });
    const c = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      await c.connect();
      await c.query("create table nd (ts timestamp, d date, tn timestamp_ns) timestamp(ts)");
      await c.query("insert into nd values ($1, $2, $3)", [
        "2024-10-02T00:00:00Z",
        "2024-10-02",
        "2024-10-02",
      ]);
      const at = new Date("2024-10-03T01:02:03.456Z");
      await c.query("insert into nd values ($1, $2, $3)", [at, at, at]);
      const rows = (await c.query("select d::string d, tn::string tn from nd order by ts")).rows;
      assert.deepEqual(rows, [
        { d: "2024-10-02T00:00:00.000Z", tn: "2024-10-02T00:00:00.000000000Z" },
        { d: "2024-10-03T01:02:03.456Z", tn: "2024-10-03T01:02:03.456000000Z" },
      ]);
    } finally {
      await c.end();
      await server.stop();
    }
  },
});
