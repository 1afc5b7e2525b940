/**
 * The session time zone over pgwire (issue 10), with node-postgres and psycopg 3
 * (clients/pg_timezone_client.py): SET TIME ZONE answered by ParameterStatus, SHOW and
 * current_setting, timestamptz results with the session offset (DST in New York: -05 in
 * winter, -04 in summer) while TIMESTAMP columns stay OID 1114 without a zone, timestamptz
 * parameters with their offset honoured, an unknown zone refused with 22023.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, pgOptions, requireFile, run } from "./clients/pg_tools.ts";

const PY_CLIENT = new URL("./clients/pg_timezone_client.py", import.meta.url).pathname;
/** Rows as the text the server sent (no driver parsing). */
const RAW = { getTypeParser: () => (v: string) => v };

Deno.test({
  name: "SET TIME ZONE is honoured per connection by node-postgres and psycopg 3",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const server = await startServer({ pg: true });
    const client = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    const other = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      await client.connect();
      await other.connect();
      const statuses: string[] = [];
      (client as unknown as {
        connection: {
          on(e: string, f: (m: { parameterName: string; parameterValue: string }) => void): void;
        };
      })
        .connection.on("parameterStatus", (m) => statuses.push(`${m.parameterName}=${m.parameterValue}`));

      await client.query("SET TIME ZONE 'America/New_York'");
      assert.deepEqual(statuses, ["TimeZone=America/New_York"]);
      assert.deepEqual((await client.query("SHOW timezone")).rows, [{ TimeZone: "America/New_York" }]);
      assert.deepEqual((await client.query("select current_setting('TimeZone') tz")).rows, [{
        tz: "America/New_York",
      }]);

      await client.query("create table tz_t (ts timestamp, n int) timestamp(ts) partition by day");
      await client.query(
        "insert into tz_t values ('2024-01-15T17:00:00Z', 1), ('2024-07-15T17:00:00.25Z', 2)",
      );
      const sql = "select ts::timestamptz tz, ts, cast(ts as timestamptz) as c from tz_t order by ts";
      const simple = await client.query({ text: sql, types: RAW });
      assert.deepEqual(simple.fields.map((f: { dataTypeID: number }) => f.dataTypeID), [1184, 1114, 1184]);
      assert.deepEqual(simple.rows, [
        { tz: "2024-01-15 12:00:00-05", ts: "2024-01-15 17:00:00.000000", c: "2024-01-15 12:00:00-05" },
        { tz: "2024-07-15 13:00:00.25-04", ts: "2024-07-15 17:00:00.250000", c: "2024-07-15 13:00:00.25-04" },
      ]);
      // Extended protocol (a parameter makes node-postgres prepare): same types and text.
      const prepared = await client.query({
        text: "select ts::timestamptz tz from tz_t where n = $1",
        values: [2],
        types: RAW,
      });
      assert.equal(prepared.fields[0].dataTypeID, 1184);
      assert.deepEqual(prepared.rows, [{ tz: "2024-07-15 13:00:00.25-04" }]);
      // Parsed by the driver: the same instant whatever the zone.
      const parsed = await client.query("select ts::timestamptz tz from tz_t where n = 1");
      assert.equal((parsed.rows[0].tz as Date).toISOString(), "2024-01-15T17:00:00.000Z");

      // A timestamptz parameter's offset is honoured (node-postgres sends Dates with one).
      await client.query("insert into tz_t values ($1, 3)", [new Date(Date.UTC(2024, 2, 1, 4, 0, 0))]);
      await client.query({
        text: "insert into tz_t values ($1::timestamptz, 4)",
        values: ["2024-03-01 09:30:00+05:30"],
      });
      const both = await client.query({ text: "select ts from tz_t where n in (3, 4)", types: RAW });
      assert.deepEqual(both.rows, [{ ts: "2024-03-01 04:00:00.000000" }, {
        ts: "2024-03-01 04:00:00.000000",
      }]);

      // Per connection: another session still shows UTC.
      const otherRows = await other.query({
        text: "select ts::timestamptz tz from tz_t where n = 1",
        types: RAW,
      });
      assert.deepEqual(otherRows.rows, [{ tz: "2024-01-15 17:00:00+00" }]);

      // An unknown zone: 22023, and the session keeps its zone.
      await assert.rejects(client.query("SET TIME ZONE 'Not/AZone'"), (e: Error & { code?: string }) => {
        assert.equal(e.code, "22023");
        assert.match(e.message, /invalid value for parameter "TimeZone"/);
        return true;
      });
      assert.deepEqual((await client.query("SHOW timezone")).rows, [{ TimeZone: "America/New_York" }]);

      // Offsets in hours, UTC, and back to the default.
      await client.query("SET TIME ZONE -3");
      const minus3 = await client.query({
        text: "select ts::timestamptz tz from tz_t where n = 1",
        types: RAW,
      });
      assert.deepEqual(minus3.rows, [{ tz: "2024-01-15 14:00:00-03" }]);
      await client.query("SET TimeZone = 'UTC'");
      await client.query("SET TIME ZONE DEFAULT");
      assert.equal(statuses.at(-1), "TimeZone=GMT");
      const back = await client.query({
        text: "select ts::timestamptz tz from tz_t where n = 1",
        types: RAW,
      });
      assert.deepEqual(back.rows, [{ tz: "2024-01-15 17:00:00+00" }]);

      const py = await run(DEBIAN_PYTHON, [PY_CLIENT, String(server.pgPort)], { timeoutMs: 60_000 });
      assert.equal(py.code, 0, `psycopg time zone checks failed:\n${py.stdout}\n${py.stderr}`);
      assert.match(py.stdout, /OK timezone/);
    } finally {
      await client.end().catch(() => {});
      await other.end().catch(() => {});
      await server.stop();
    }
  },
});
