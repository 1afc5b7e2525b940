/**
 * Issue #23: the statements BI and GUI tools send (tests/fixtures/bi/*.sql, each with the
 * source it was read from and the rows the tool needs), run as written over pgwire with node
 * `pg`: once as a simple query (psql, Metabase's JDBC in simple mode) and once as a named
 * prepared statement (Parse/Describe/Bind/Execute, what Grafana's pgx and JDBC send). Values
 * are compared as the text the server sends, so a type or format change shows.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";

const dir = new URL("../fixtures/bi/", import.meta.url).pathname;

interface Fixture {
  name: string;
  sql: string;
  expect: (string | null)[][];
}

/** A fixture file: `--` comment lines (one of them `-- expect: <JSON rows>`), then the statement. */
function readFixture(name: string): Fixture {
  const text = Deno.readTextFileSync(dir + name);
  const expectLine = /^-- expect: (.*)$/m.exec(text);
  if (!expectLine) throw new Error(`${name}: no '-- expect:' line`);
  const sql = text.split("\n").filter((l) => !l.startsWith("--")).join("\n").trim();
  return { name, sql, expect: JSON.parse(expectLine[1]) };
}

const fixtures = [...Deno.readDirSync(dir)]
  .map((e) => e.name)
  .filter((n) => n.endsWith(".sql") && !n.startsWith("_"))
  .sort()
  .map(readFixture);

/** Every type as the text the server sent (no client-side parsing into Date or number). */
const rawText = { getTypeParser: () => (v: string) => v };

Deno.test({
  name: "BI tool statements (tests/fixtures/bi) answer what the tool needs over pgwire",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const server = await startServer({ pg: true });
    const client = new pg.Client({
      host: "127.0.0.1",
      port: server.pgPort,
      user: "admin",
      password: "quest",
      database: "qdb",
      types: rawText,
    });
    try {
      await client.connect();
      const setup = Deno.readTextFileSync(dir + "_setup.sql").split(";").map((s) =>
        s.split("\n").filter((l) => !l.startsWith("--")).join("\n").trim()
      ).filter((s) => s !== "");
      for (const s of setup) await client.query(s);
      assert.ok(fixtures.length >= 10, `fixtures found: ${fixtures.length}`);
      for (const f of fixtures) {
        await t.step(f.name, async () => {
          const simple = await client.query({ text: f.sql, rowMode: "array" });
          assert.deepEqual(simple.rows, f.expect, `${f.name} (simple query)`);
          const prepared = await client.query({ name: f.name, text: f.sql, rowMode: "array" });
          assert.deepEqual(prepared.rows, f.expect, `${f.name} (prepared statement)`);
        });
      }
    } finally {
      await client.end().catch(() => {});
      await server.kill();
    }
  },
});
