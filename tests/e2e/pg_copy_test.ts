/**
 * COPY over pgwire (issue 10): psql `\copy` in and out (CSV with header, text format),
 * psycopg 3's copy API (clients/pg_copy_client.py), node-postgres with a hand-written COPY
 * (a Submittable, the mechanism pg-copy-streams uses), the extended protocol, and the failure
 * cases: a bad row or a CopyFail writes nothing and the error names the line and column.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import pg from "pg";
import { startServer } from "./server_process.ts";
import { DEBIAN_PYTHON, pgOptions, requireCommand, requireFile, run } from "./clients/pg_tools.ts";
import { concat, cstr, login, message, query, readUntilReady } from "./clients/pg_raw.ts";

const PY_CLIENT = new URL("./clients/pg_copy_client.py", import.meta.url).pathname;

/**
 * A node-postgres Submittable running one COPY in the simple query protocol: sends `input`
 * (then CopyDone, or CopyFail when `fail` is set) on CopyInResponse and collects CopyData.
 */
class Copy {
  readonly text: string;
  readonly input: string[];
  readonly fail: string | undefined;
  tag = "";
  error: Error | undefined;
  readonly output: Buffer[] = [];
  readonly done: Promise<void>;
  #finish!: () => void;

  constructor(text: string, input: string[] = [], fail?: string) {
    this.text = text;
    this.input = input;
    this.fail = fail;
    this.done = new Promise((resolve) => (this.#finish = resolve));
  }
  submit(connection: pg.Connection) {
    (connection as unknown as { query(text: string): void }).query(this.text);
  }
  handleCopyInResponse(connection: pg.Connection) {
    const c = connection as unknown as {
      sendCopyFromChunk(b: Buffer): void;
      endCopyFrom(): void;
      sendCopyFail(m: string): void;
    };
    for (const chunk of this.input) c.sendCopyFromChunk(Buffer.from(chunk));
    if (this.fail) c.sendCopyFail(this.fail);
    else c.endCopyFrom();
  }
  handleCopyData(msg: { chunk: Buffer }) {
    this.output.push(msg.chunk);
  }
  handleCommandComplete(msg: { text: string }) {
    this.tag = msg.text;
  }
  handleError(err: Error) {
    // The client forgets the active query on an error: ReadyForQuery will not reach us.
    this.error = err;
    this.#finish();
  }
  handleReadyForQuery() {
    this.#finish();
  }
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
}

async function copy(client: pg.Client, text: string, input: string[] = [], fail?: string): Promise<Copy> {
  const c = new Copy(text, input, fail);
  client.query(c as never);
  await c.done;
  return c;
}

Deno.test({
  name: "COPY FROM STDIN and TO STDOUT with psql, psycopg 3, node-postgres and raw extended protocol",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireCommand("psql", "postgresql-client");
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const server = await startServer({ pg: true });
    const dir = await Deno.makeTempDir({ prefix: "qdb_copy_" });
    const psql = (...args: string[]) =>
      run(
        "psql",
        ["-h", "127.0.0.1", "-p", String(server.pgPort), "-U", "admin", "-d", "qdb", "-X", ...args],
        {
          env: { PGPASSWORD: "quest", PGCONNECT_TIMEOUT: "10" },
          timeoutMs: 30_000,
        },
      );
    const client = new pg.Client({
      ...pgOptions(server.pgPort),
    });
    try {
      // --- psql \copy: CSV with a header in, CSV and text out.
      const create = await psql(
        "-c",
        "create table trades (ts timestamp, sym symbol, price double, qty long, ok boolean, note varchar) timestamp(ts) partition by day",
      );
      assert.equal(create.code, 0, create.stderr);
      await Deno.writeTextFile(
        `${dir}/in.csv`,
        'ts,sym,price,qty,ok,note\n2024-01-01T00:00:00Z,BTC,42000.5,3,true,"a, ""quoted"" b"\n' +
          "2024-01-01 00:00:01,ETH,2200.25,7,f,\n2024-01-01T00:00:02.5Z,BTC,1.5,,t,multi\n",
      );
      const load = await psql("-c", `\\copy trades from '${dir}/in.csv' csv header`);
      assert.equal(load.code, 0, load.stderr);
      assert.match(load.stdout, /COPY 3/);

      await Deno.writeTextFile(
        `${dir}/in.txt`,
        "2024-01-02 00:00:00\tXRP\t0.5\t\\N\tf\ttab\\there\\\\back\n",
      );
      const text = await psql("-c", `\\copy trades from '${dir}/in.txt'`);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /COPY 1/);

      const out = await psql(
        "-c",
        `\\copy (select * from trades order by ts) to '${dir}/out.csv' csv header`,
      );
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /COPY 4/);
      assert.equal(
        await Deno.readTextFile(`${dir}/out.csv`),
        "ts,sym,price,qty,ok,note\n" +
          '2024-01-01 00:00:00.000000,BTC,42000.5,3,t,"a, ""quoted"" b"\n' +
          "2024-01-01 00:00:01.000000,ETH,2200.25,7,f,\n" +
          "2024-01-01 00:00:02.500000,BTC,1.5,,t,multi\n" +
          "2024-01-02 00:00:00.000000,XRP,0.5,,f,tab\there\\back\n",
      );
      const outText = await psql("-c", `\\copy trades (sym, note) to '${dir}/out.txt'`);
      assert.equal(outText.code, 0, outText.stderr);
      assert.equal(
        await Deno.readTextFile(`${dir}/out.txt`),
        'BTC\ta, "quoted" b\nETH\t\\N\nBTC\tmulti\nXRP\ttab\\there\\\\back\n',
      );

      // A bad row: the error names line and column, and nothing of the file is written.
      await Deno.writeTextFile(
        `${dir}/bad.csv`,
        "ts,sym,price,qty,ok,note\n2024-01-03T00:00:00Z,BTC,1,1,t,x\n2024-01-03T00:00:01Z,BTC,oops,1,t,x\n",
      );
      const bad = await psql("-c", `\\copy trades from '${dir}/bad.csv' csv header`);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /invalid input syntax for type DOUBLE: "oops".*line 3, column price/);
      await Deno.writeTextFile(`${dir}/short.csv`, "2024-01-03T00:00:00Z,BTC,1\n");
      const missing = await psql("-c", `\\copy trades from '${dir}/short.csv' csv`);
      assert.match(missing.stderr, /missing data for column "qty".*line 1/);
      const count = await psql("-A", "-t", "-c", "select count() from trades");
      assert.equal(count.stdout.trim(), "4");

      // --- psycopg 3: write_row, raw chunks, rows(), a bad row and CopyFail.
      const py = await run(DEBIAN_PYTHON, [PY_CLIENT, String(server.pgPort)], { timeoutMs: 60_000 });
      assert.equal(py.code, 0, `psycopg copy failed:\n${py.stdout}\n${py.stderr}`);
      assert.match(py.stdout, /OK copy/);

      // --- node-postgres with a hand-written COPY.
      await client.connect();
      await client.query(
        "create table node_copy (ts timestamp, n int, s varchar) timestamp(ts) partition by day",
      );
      const rows = Array.from(
        { length: 5000 },
        (_, i) => `${new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString()}\t${i}\ts${i}\n`,
      );
      const chunks: string[] = [];
      // Chunks that split rows in the middle (and a multi-byte character) on purpose.
      const all = rows.join("") + "2024-02-01T00:00:00Z\t-1\tépée\n";
      for (let k = 0; k < all.length; k += 999) chunks.push(all.slice(k, k + 999));
      const inCopy = await copy(client, "COPY node_copy FROM STDIN", chunks);
      assert.equal(inCopy.error, undefined);
      assert.equal(inCopy.tag, "COPY 5001");
      assert.deepEqual((await client.query("select s from node_copy where n = -1")).rows, [{ s: "épée" }]);

      // CSV: a quoted empty field is an empty string, an unquoted one NULL.
      const empties = await copy(client, "COPY node_copy FROM STDIN (FORMAT csv)", [
        '2024-02-02T00:00:00Z,-2,""\n2024-02-02T00:00:01Z,-3,\n',
      ]);
      assert.equal(empties.tag, "COPY 2");
      assert.deepEqual(
        (await client.query("select n, s from node_copy where n in (-2, -3) order by n")).rows,
        [
          { n: -3, s: null },
          { n: -2, s: "" },
        ],
      );

      const failed = await copy(
        client,
        "COPY node_copy FROM STDIN",
        ["2024-03-01T00:00:00Z\t1\tx\n"],
        "client gave up",
      );
      assert.match(String(failed.error), /COPY from stdin failed: client gave up/);
      assert.equal((failed.error as unknown as { code: string }).code, "57014");
      const badRow = await copy(client, "COPY node_copy (ts, n) FROM STDIN WITH (FORMAT csv)", [
        "2024-03-01T00:00:00Z,1\n2024-03-01T00:00:01Z,2\n2024-03-01T00:00:02Z,3.5\n",
      ]);
      assert.match(String(badRow.error), /line 3, column n/);
      assert.equal((badRow.error as unknown as { code: string }).code, "22P02");
      assert.deepEqual((await client.query("select count() c from node_copy")).rows, [{ c: "5003" }]);
      // The connection is usable after the failed COPYs.
      assert.deepEqual((await client.query("select 1 x")).rows, [{ x: 1 }]);

      const outCopy = await copy(
        client,
        "COPY (select n, s from node_copy where n between -1 and 2 order by n) TO STDOUT WITH (FORMAT csv, HEADER)",
      );
      assert.equal(outCopy.tag, "COPY 4");
      assert.equal(Buffer.concat(outCopy.output).toString(), "n,s\n-1,épée\n0,s0\n1,s1\n2,s2\n");
      const outAll = await copy(client, "COPY node_copy TO STDOUT");
      assert.equal(outAll.tag, "COPY 5003");
      assert.equal(outAll.output.length, 5003); // one CopyData per row, as Postgres sends

      const missingTable = await copy(client, "COPY nope FROM STDIN");
      assert.equal((missingTable.error as unknown as { code: string }).code, "42P01");
      const file = await copy(client, "COPY node_copy FROM '/etc/passwd'");
      assert.equal((file.error as unknown as { code: string }).code, "0A000");

      // --- Extended protocol: Parse/Bind/Execute/Sync, then CopyData/CopyDone (libpq's order).
      const conn = await login(server.pgPort);
      try {
        const copyText = "COPY node_copy (ts, n, s) FROM STDIN";
        await conn.write(concat(
          message("P", concat(cstr(""), cstr(copyText), new Uint8Array([0, 0]))),
          message("B", concat(cstr(""), cstr(""), new Uint8Array([0, 0, 0, 0, 0, 0]))),
          message("E", concat(cstr(""), new Uint8Array([0, 0, 0, 0]))),
          message("S"),
          message("d", new TextEncoder().encode("2024-04-01T00:00:00Z\t7\text\n")),
          message("c"),
          message("S"),
        ));
        // The Sync sent before the data is ignored in copy-in mode; the one after CopyDone answers.
        assert.equal(await readUntilReady(conn, 10_000), "12GCZ");
        await conn.write(query("select count() from node_copy where s = 'ext'"));
        assert.match(await readUntilReady(conn, 10_000), /TDCZ/);
      } finally {
        conn.close();
      }
      assert.deepEqual((await client.query("select n from node_copy where s = 'ext'")).rows, [{ n: 7 }]);
    } finally {
      await client.end().catch(() => {});
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "COPY FROM needs INSERT and COPY TO needs SELECT on the table when access control is on",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true, env: { QDB_ACL_ENABLED: "true" } });
    const admin = "Basic " + btoa("admin:quest");
    const ok = async (sql: string) => {
      const res = await fetch(`${server.httpUrl}/exec?query=${encodeURIComponent(sql)}`, {
        headers: { authorization: admin },
      });
      const body = await res.text();
      assert.equal(res.status, 200, `${sql}: ${body}`);
    };
    const bob = new pg.Client({
      host: "127.0.0.1",
      port: server.pgPort,
      user: "bob",
      password: "b0b",
      database: "qdb",
    });
    try {
      await ok("create table acl_copy (ts timestamp, a int) timestamp(ts) partition by day");
      await ok("create user bob with password 'b0b'");
      await ok("grant pgwire to bob");
      await bob.connect();
      const code = (c: Copy) => (c.error as unknown as { code?: string } | undefined)?.code;
      const row = ["2024-01-01T00:00:00Z\t1\n"];

      // Without any permission the table is hidden: COPY answers as for a missing table.
      const hiddenIn = await copy(bob, "COPY acl_copy FROM STDIN", row);
      assert.equal(code(hiddenIn), "42P01");
      assert.match(String(hiddenIn.error), /table does not exist \[table=acl_copy\]/);
      assert.equal(code(await copy(bob, "COPY acl_copy TO STDOUT")), "42P01");
      assert.equal(code(await copy(bob, "COPY (select * from acl_copy) TO STDOUT")), "42P01");

      // With INSERT only, the table is visible and reading it is refused.
      await ok("grant insert on acl_copy to bob");
      assert.equal(code(await copy(bob, "COPY acl_copy TO STDOUT")), "42501");
      await ok("revoke insert on acl_copy from bob");

      await ok("grant select on acl_copy to bob");
      const out = await copy(bob, "COPY acl_copy TO STDOUT");
      assert.equal(out.error, undefined);
      assert.equal(out.tag, "COPY 0");
      const denyIn = await copy(bob, "COPY acl_copy FROM STDIN", row);
      assert.equal(code(denyIn), "42501");
      assert.match(String(denyIn.error), /Access denied for bob \[INSERT on acl_copy\]/);

      await ok("grant insert on acl_copy to bob");
      const written = await copy(bob, "COPY acl_copy FROM STDIN", row);
      assert.equal(written.error, undefined);
      assert.equal(written.tag, "COPY 1");
    } finally {
      await bob.end().catch(() => {});
      await server.stop();
    }
  },
});
