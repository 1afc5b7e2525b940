/**
 * Transactions as QuestDB defines them, through real clients (spec/protocols.md §12.10):
 * inserts of a BEGIN … COMMIT block are visible only at COMMIT, ROLLBACK discards them,
 * savepoints roll back single statements, and the ReadyForQuery status drives the drivers.
 * psql, pyodbc with its defaults (psqlODBC's statement-level rollback), asyncpg, pgjdbc and
 * node `pg`. The Python and Java checks live in clients/.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { type ServerProcess, startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, JDBC_JAR, pgOptions, requireCommand, requireFile, run } from "./clients/pg_tools.ts";

const PY_CLIENT = new URL("./clients/pg_transactions_client.py", import.meta.url).pathname;
const JAVA_CLIENT = new URL("./clients/PgJdbcTransactions.java", import.meta.url).pathname;

async function withServer(body: (server: ServerProcess) => Promise<void>): Promise<void> {
  const server = await startServer({ pg: true });
  try {
    await body(server);
  } finally {
    await server.stop();
  }
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "psql: BEGIN/INSERT/ROLLBACK keeps nothing; a savepoint rolls back one insert",
  ...options,
  async fn() {
    await requireCommand("psql", "postgresql-client");
    await withServer(async (server) => {
      const script = `
create table psql_tx (ts timestamp, x long) timestamp(ts) partition by day;
begin;
insert into psql_tx values ('2024-01-01T00:00:00Z', 1);
rollback;
begin;
insert into psql_tx values ('2024-01-01T00:00:01Z', 2);
savepoint s1;
insert into psql_tx values ('2024-01-01T00:00:02Z', 3);
rollback to savepoint s1;
release savepoint s1;
insert into psql_tx values ('2024-01-01T00:00:03Z', 4);
commit;
select 'rows', string_agg(x::string, ',') from (select x from psql_tx order by x);
`;
      const r = await run(
        "psql",
        ["-h", "127.0.0.1", "-p", String(server.pgPort), "-U", "admin", "-d", "qdb", "-X", "-A", "-t"],
        { env: { PGPASSWORD: "quest", PGCONNECT_TIMEOUT: "10" }, stdin: script, timeoutMs: 30_000 },
      );
      assert.equal(r.code, 0, `psql failed:\n${r.stdout}\n${r.stderr}`);
      assert.equal(r.stderr, "", "no errors");
      assert.match(r.stdout, /^rows\|2,4$/m);
    });
  },
});

Deno.test({
  name: "pyodbc with its defaults (autocommit off, statement-level rollback) commits and rolls back",
  ...options,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const probe = await run(DEBIAN_PYTHON, ["-c", "import pyodbc"]);
    assert.equal(
      probe.code,
      0,
      `python3-pyodbc is not installed; run .ci/install_pg_clients.sh\n${probe.stderr}`,
    );
    const driver = await findOdbcDriver();
    await withServer(async (server) => {
      const r = await run(DEBIAN_PYTHON, [PY_CLIENT, "odbc", String(server.pgPort), driver], {
        timeoutMs: 90_000,
      });
      assert.equal(r.code, 0, `odbc failed:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /OK odbc/);
    });
  },
});

Deno.test({
  name: "asyncpg: transaction() with a nested savepoint transaction rolled back",
  ...options,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    await withServer(async (server) => {
      const r = await run(DEBIAN_PYTHON, [PY_CLIENT, "asyncpg", String(server.pgPort)], {
        timeoutMs: 90_000,
      });
      assert.equal(r.code, 0, `asyncpg failed:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /OK asyncpg/);
    });
  },
});

Deno.test({
  name: "pgjdbc: setAutoCommit(false), setSavepoint, rollback(savepoint), commit, rollback",
  ...options,
  async fn() {
    await requireCommand("java", "a Java runtime");
    await requireFile(JDBC_JAR, "libpostgresql-jdbc-java");
    await withServer(async (server) => {
      const r = await run("java", ["-cp", JDBC_JAR, JAVA_CLIENT, String(server.pgPort)], {
        timeoutMs: 90_000,
      });
      assert.equal(r.code, 0, `jdbc client failed:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /OK jdbc transactions/);
    });
  },
});

Deno.test({
  name: "node pg: a parameterised insert inside BEGIN is discarded by ROLLBACK TO and kept by COMMIT",
  ...options,
  async fn() {
    await withServer(async (server) => {
      const connect = async () => {
        const c = new pg.Client({
          ...pgOptions(server.pgPort),
        });
        await c.connect();
        return c;
      };
      const a = await connect();
      const b = await connect();
      try {
        const count = async () => (await b.query("select count() n from node_tx")).rows[0].n;
        await a.query("create table node_tx (ts timestamp, x long) timestamp(ts) partition by day");
        await a.query("BEGIN");
        const insert = "insert into node_tx values ($1, $2)";
        await a.query(insert, ["2024-01-01T00:00:00Z", 1]);
        await a.query("SAVEPOINT sp");
        await a.query(insert, ["2024-01-01T00:00:01Z", 2]);
        await assert.rejects(a.query("select * from no_such_table"), /no_such_table/);
        await assert.rejects(a.query("select 1"), (e: { code?: string }) => e.code === "25P02");
        await a.query("ROLLBACK TO SAVEPOINT sp");
        assert.equal(String(await count()), "0", "nothing visible before COMMIT");
        await a.query(insert, ["2024-01-01T00:00:02Z", 3]);
        const done = await a.query("COMMIT");
        assert.equal(done.command, "COMMIT");
        const rows = (await b.query("select x from node_tx order by x")).rows.map((r: { x: unknown }) =>
          String(r.x)
        );
        assert.deepEqual(rows, ["1", "3"]);
      } finally {
        await a.end();
        await b.end();
      }
    });
  },
});

/** psqlodbcw.so (the Unicode driver) under the multiarch library directory. */
async function findOdbcDriver(): Promise<string> {
  for await (const dir of Deno.readDir("/usr/lib")) {
    const path = `/usr/lib/${dir.name}/odbc/psqlodbcw.so`;
    try {
      await Deno.stat(path);
      return path;
    } catch { /* not this one */ }
  }
  throw new Error("psqlodbcw.so (odbc-postgresql) is missing; run .ci/install_pg_clients.sh");
}
