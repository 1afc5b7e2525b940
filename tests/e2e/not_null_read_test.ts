/**
 * Reading NOT NULL columns (spec/sql.md §2.1, §5.1): a value of a NOT NULL column is never
 * reported as NULL, so the NULL sentinel stored in rows from before `ALTER COLUMN ... SET NOT
 * NULL` prints as its number (-2147483648 for INT, -9223372036854775808 for LONG), and so do rows
 * older than a column added NOT NULL (they store nothing: spec/sql.md §5.3 "existing rows read the
 * type's sentinel, printed as a number", QuestDB's current AlterTableAddColumnTest), over every
 * protocol: /exec JSON (a few cells as text, more through the row kernel),
 * /exp CSV, and pgwire text (node `pg`, postgres.js prepared) and binary (psycopg 3, asyncpg). A value computed
 * from such a column keeps the NULL rules (`a + 1` of the sentinel is NULL), and so does a
 * nullable column beside it.
 */
import assert from "node:assert/strict";
import pg from "pg";
import postgres from "postgres";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, expectClientOk, pgOptions, requireFile } from "./clients/pg_tools.ts";

const CLIENT = new URL("./clients/not_null_read_client.py", import.meta.url).pathname;

const INT_MIN = "-2147483648";
const LONG_MIN = "-9223372036854775808";

Deno.test({
  name: "NOT NULL INT and LONG columns show stored sentinels as numbers on /exec, /exp and pgwire",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const server = await startServer({ pg: true });
    const sql = postgres({ ...pgOptions(server.pgPort), max: 1, onnotice: () => {} });
    const client = new pg.Client(pgOptions(server.pgPort));
    const exec = async (q: string) => {
      const body = await (await server.exec(q)).json();
      assert.equal(body.error, undefined, `${q}: ${body.error}`);
      return body;
    };
    try {
      await exec("CREATE TABLE nn (ts TIMESTAMP, a INT, b LONG, c LONG) TIMESTAMP(ts) PARTITION BY DAY");
      // Row 1 has values; rows 2..20 NULL in a, b and c (enough rows for the row kernel's path).
      await exec(
        "INSERT INTO nn SELECT timestamp_sequence('2024-01-01', 3600000000L), " +
          "CASE WHEN x = 1 THEN 1 END, CASE WHEN x = 1 THEN 10L END, CASE WHEN x = 1 THEN 100L END " +
          "FROM long_sequence(20)",
      );
      await exec("ALTER TABLE nn ALTER COLUMN a SET NOT NULL");
      await exec("ALTER TABLE nn ALTER COLUMN c SET NOT NULL");
      // Added NOT NULL: the older rows stored nothing and read the LONG sentinel as a number.
      await exec("ALTER TABLE nn ADD COLUMN d LONG NOT NULL");

      // A few cells: rendered as text.
      const few = await exec("SELECT a, b, c, d FROM nn LIMIT 2");
      assert.deepEqual(few.dataset, [[1, 10, 100, Number(LONG_MIN)], [
        Number(INT_MIN),
        null,
        Number(LONG_MIN),
        Number(LONG_MIN),
      ]]);
      // Many cells (the WASM row kernel): the same values; checked in the raw text, since
      // JSON.parse rounds the LONG.
      const manyText = await (await server.exec("SELECT a, b, c, a + 1, d FROM nn")).text();
      const cell = "(-?\\d+|null)";
      const rows = [...manyText.matchAll(new RegExp(`\\[${Array(5).fill(cell).join(",")}\\]`, "g"))]
        .map((m) => m.slice(1));
      assert.equal(rows.length, 20, manyText.slice(0, 300));
      assert.deepEqual(rows[0], ["1", "10", "100", "2", LONG_MIN]);
      for (const r of rows.slice(1)) assert.deepEqual(r, [INT_MIN, "null", LONG_MIN, "null", LONG_MIN]);
      // Through a subquery, a filter and an ORDER BY the column is still the table's.
      const nested =
        await (await server.exec("SELECT a FROM (SELECT * FROM nn WHERE ts > 0) ORDER BY ts DESC LIMIT 1"))
          .text();
      assert.match(nested, new RegExp(`"dataset":\\[\\[${INT_MIN}\\]\\]`));
      // Aggregates are computed values: the sentinel is NULL to them.
      assert.deepEqual((await exec("SELECT count(a), max(c), count(d) FROM nn")).dataset, [[1, 100, 0]]);

      const csv = await (await fetch(
        `${server.httpUrl}/exp?query=${encodeURIComponent("SELECT a, b, c, d FROM nn LIMIT 2")}`,
      ))
        .text();
      assert.deepEqual(csv.trim().split("\n").map((l) => l.trim()), [
        '"a","b","c","d"',
        `1,10,100,${LONG_MIN}`,
        `${INT_MIN},,${LONG_MIN},${LONG_MIN}`,
      ]);

      await client.connect();
      const text = await client.query({ text: "SELECT a, b, c, d FROM nn LIMIT 2", rowMode: "array" });
      // node pg parses int4 into a number and keeps int8 as text.
      assert.deepEqual(text.rows, [[1, "10", "100", LONG_MIN], [Number(INT_MIN), null, LONG_MIN, LONG_MIN]]);
      // Binary results (node pg's binary parser garbles such bytes): psycopg 3 and asyncpg.
      await expectClientOk(DEBIAN_PYTHON, [CLIENT, String(server.pgPort)], /OK not null/, {
        timeoutMs: 60_000,
      });
      // postgres.js as it runs by default (a prepared statement, text results).
      const prepared = await sql.unsafe("SELECT a, c, d FROM nn ORDER BY ts DESC LIMIT $1", [1], {
        prepare: true,
      })
        .values();
      assert.deepEqual(prepared.map((r) => r.map((x) => (x === null ? null : String(x)))), [[
        INT_MIN,
        LONG_MIN,
        LONG_MIN,
      ]]);
    } finally {
      await client.end().catch(() => {});
      await sql.end();
      await server.stop();
    }
  },
});
