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
import { pgOptions } from "./clients/pg_tools.ts";

const dir = new URL("../fixtures/bi/", import.meta.url).pathname;

type Rows = (string | null)[][];

interface Fixture {
  name: string;
  sql: string;
  /** The whole answer, in order; or rows that must be among the answer (catalog-wide reads). */
  expect?: Rows;
  includes?: Rows;
  /** The result's column names, where the tool reads columns by name. */
  columns?: string[];
}

/**
 * A fixture file: `--` comment lines, then the statement. One of them is `-- expect: <JSON
 * rows>` (the whole answer) or `-- expect-includes: <JSON rows>` (rows the answer must hold,
 * each compared with the start of an answer row, for wide catalog rows and whole-catalog
 * reads); `-- columns: <JSON names>` checks the column names. Lines starting with `--` inside
 * the statement (npgsql's commented query) are kept as sent.
 */
function readFixture(name: string): Fixture {
  const text = Deno.readTextFileSync(dir + name);
  const lines = text.split("\n");
  const header = lines.findIndex((l) => !l.startsWith("--"));
  const json = (key: string) => {
    const line = lines.slice(0, header).find((l) => l.startsWith(`-- ${key}: `));
    return line === undefined ? undefined : JSON.parse(line.slice(key.length + 5));
  };
  const f = {
    name,
    sql: lines.slice(header).join("\n").trim(),
    expect: json("expect"),
    includes: json("expect-includes"),
    columns: json("columns"),
  };
  if (!f.expect && !f.includes) throw new Error(`${name}: no '-- expect:' or '-- expect-includes:' line`);
  return f;
}

function check(f: Fixture, result: pg.QueryResult, how: string): void {
  if (f.expect) assert.deepEqual(result.rows, f.expect, `${f.name} (${how})`);
  for (const row of f.includes ?? []) {
    assert.ok(
      result.rows.some((r: Rows[number]) => JSON.stringify(r.slice(0, row.length)) === JSON.stringify(row)),
      `${f.name} (${how}): no row ${JSON.stringify(row)}`,
    );
  }
  if (f.columns) {
    assert.deepEqual(result.fields.map((c: pg.FieldDef) => c.name), f.columns, `${f.name} (${how}) columns`);
  }
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
      ...pgOptions(server.pgPort),
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
          check(f, await client.query({ text: f.sql, rowMode: "array" }), "simple query");
          check(f, await client.query({ name: f.name, text: f.sql, rowMode: "array" }), "prepared statement");
        });
      }
    } finally {
      await client.end().catch(() => {});
      await server.kill();
    }
  },
});
