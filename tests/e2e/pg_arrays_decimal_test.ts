/**
 * DOUBLE arrays (OID 1022) and DECIMAL (NUMERIC, OID 1700) through real drivers (issues #18,
 * #19; spec/protocols.md §12.7, §12.8): psycopg 3 (binary and text) and asyncpg from Debian's
 * Python, node `pg` in process. Each binds arrays and decimals as parameters and reads them
 * back decoded by the driver.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, expectClientOk, pgOptions, requireFile } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/pg_arrays_decimal_client.py", import.meta.url).pathname;
const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "psycopg 3 (binary, text) and asyncpg bind and read DOUBLE[] and DECIMAL",
  ...options,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const server = await startServer({ pg: true });
    try {
      await expectClientOk(DEBIAN_PYTHON, [CLIENT, String(server.pgPort)], /OK arrays decimal/, {
        timeoutMs: 60_000,
      });
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "node pg binds number arrays and numeric text; reads float8[] and numeric",
  ...options,
  async fn() {
    const server = await startServer({ pg: true });
    const c = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      await c.connect();
      await c.query("create table na (id int, arr double[], d decimal(10,2))");
      // node pg sends arrays as text `{"1","2.5"}` with OID 0: the server infers DOUBLE[].
      await c.query("insert into na values ($1, $2, $3)", [1, [1, 2.5], "7.5"]);
      await c.query("insert into na values ($1, $2, $3)", [2, [], null]);
      const rows = (await c.query("select id, arr, d, arr = $1 eq from na order by id", [[1, 2.5]])).rows;
      // pg parses _float8 into numbers and leaves numeric as text.
      assert.deepEqual(rows, [
        { id: 1, arr: [1, 2.5], d: "7.50", eq: true },
        { id: 2, arr: [], d: null, eq: false },
      ]);
      const sliced = await c.query("select ARRAY[[1.0, 2.0], [3.0, 4.0]][2:] s, 10.00m / 3.00m q");
      assert.deepEqual(sliced.rows, [{ s: [[3, 4]], q: "3.33" }]);
      const types = sliced.fields.map((f: { dataTypeID: number }) => f.dataTypeID);
      assert.deepEqual(types, [1022, 1700]);
    } finally {
      await c.end();
      await server.stop();
    }
  },
});
