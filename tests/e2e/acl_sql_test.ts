/**
 * Access control over REST and pgwire against the real server (issue 6 evidence): Basic
 * authentication with 401/403, users, groups and grants at database, table and column level,
 * GRANT without grant option refused, SQL injection attempts in user and group names failing
 * safely, the store surviving a restart without clear-text passwords, and with access control
 * off the open-source behaviour (REST open, pgwire admin/quest).
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startServer } from "./server_process.ts";

const ACL_ENV = { QDB_ACL_ENABLED: "true" };

function basic(user: string, password: string): string {
  return "Basic " + btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)));
}

async function call(httpUrl: string, sql: string, auth?: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${httpUrl}/exec?query=${encodeURIComponent(sql)}`, {
    headers: auth ? { authorization: auth } : {},
  });
  return { status: res.status, body: await res.text() };
}

async function pgConnect(port: number, user: string, password: string): Promise<pg.Client> {
  const client = new pg.Client({ host: "127.0.0.1", port, user, password, database: "qdb" });
  await client.connect();
  return client;
}

Deno.test({
  name: "acl: REST and pgwire enforce users, groups and table/column grants",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true, env: ACL_ENV });
    const admin = basic("admin", "quest");
    const bob = basic("bob", "s3cr:et"); // a colon inside the password
    const run = (sql: string, auth = admin) => call(server.httpUrl, sql, auth);
    const ok = async (sql: string, auth = admin) => {
      const r = await run(sql, auth);
      assert.equal(r.status, 200, `${sql}: ${r.body}`);
      return JSON.parse(r.body);
    };
    try {
      // T1/T2: no credentials, bad password, malformed header → 401; never 500.
      assert.equal((await call(server.httpUrl, "select 1")).status, 401);
      assert.equal((await run("select 1", basic("admin", "nope"))).status, 401);
      assert.equal((await run("select 1", "Basic !!!notbase64")).status, 401);
      assert.equal((await run("select 1", "Negotiate abc")).status, 401);
      assert.equal((await fetch(`${server.httpUrl}/settings`)).status, 200);
      const settings = JSON.parse(await (await fetch(`${server.httpUrl}/settings`)).text()).config;
      assert.equal(settings["acl.enabled"], true);
      assert.equal(settings["acl.oidc.enabled"], false);

      await ok("create table t (ts timestamp, a int, secret string) timestamp(ts) partition by day");
      await ok("insert into t values ('2024-01-01T00:00:00Z', 1, 'x')");
      await ok("create user bob with password 's3cr:et'");
      // A new user has no permissions, not even HTTP.
      let r = await run("select 1", bob);
      assert.equal(r.status, 403);
      assert.match(JSON.parse(r.body).error, /^Access denied for bob \[HTTP\]$/);
      await ok("grant http, pgwire to bob");
      // Without any permission on t, t looks missing (issue #24); with one (INSERT), reads are refused.
      r = await run("select a from t", bob);
      assert.equal(r.status, 400);
      assert.equal(JSON.parse(r.body).error, "table does not exist [table=t]");
      await ok("grant insert on t to bob");
      r = await run("select a from t", bob);
      assert.equal(r.status, 403);
      assert.match(JSON.parse(r.body).error, /Access denied for bob \[SELECT on t\.a\]/);
      await ok("revoke insert on t from bob");

      // Column level: only the granted column (and, implicitly, the designated timestamp).
      await ok("grant select on t(a) to bob");
      assert.deepEqual((await ok("select ts, a from t", bob)).dataset, [["2024-01-01T00:00:00.000000Z", 1]]);
      assert.equal((await run("select * from t", bob)).status, 403);
      assert.equal((await run("select a from t where secret = 'x'", bob)).status, 403);
      assert.equal((await run("select a from t where a = (select length(secret) from t)", bob)).status, 403);
      assert.equal((await run("insert into t values (now(), 2, 'y')", bob)).status, 403);

      // Group level: membership brings the group's table grant.
      await ok("create group analysts");
      await ok("grant select on t to analysts");
      await ok("add user bob to analysts");
      assert.equal((await ok("select * from t", bob)).count, 1);
      assert.deepEqual((await ok("show groups bob")).dataset, [["analysts"]]);
      await ok("remove user bob from analysts");
      assert.equal((await run("select * from t", bob)).status, 403);

      // GRANT needs the grant option (T11); with it, the grantee may pass the permission on.
      await ok("create user carol with password 'c'");
      r = await run("grant select on t(a) to carol", bob);
      assert.equal(r.status, 403);
      assert.match(JSON.parse(r.body).error, /Access denied for bob \[SELECT on t\.a WITH GRANT OPTION\]/);
      assert.equal((await run("grant select on t to bob with grant option", bob)).status, 403);
      await ok("grant select on t(a) to bob with grant option");
      await ok("grant select on t(a) to carol", bob);
      assert.equal((await run("grant insert on t to carol", bob)).status, 403);
      assert.equal((await run("create user mallory", bob)).status, 403);
      assert.equal((await run("grant http to admin")).status, 403); // nobody changes the built-in admin

      // DDL and DML permissions per table.
      assert.equal((await run("create table b1 (x int)", bob)).status, 403);
      await ok("grant create table to bob");
      await ok("create table b1 (x int)", bob);
      await ok("insert into b1 values (1)", bob); // the creator owns the new table
      assert.equal((await run("drop table t", bob)).status, 403);
      await ok("revoke select on t(a) from bob");
      assert.equal((await run("select a from t", bob)).status, 400); // no permission left on t: missing

      // SHOW statements.
      const users = (await ok("show users")).dataset.map((row: string[]) => row[0]);
      assert.deepEqual(users.sort(), ["admin", "bob", "carol"]);
      const perms = (await ok("show permissions bob")).dataset as unknown[][];
      assert.ok(perms.some((p) => p[0] === "CREATE TABLE" && p[1] === null));
      assert.equal((await run("show users", bob)).status, 403);
      assert.equal((await run("show permissions", bob)).status, 200); // own info is always visible

      // SQL injection attempts in names (T17): a name is one token; nothing else runs.
      await ok(`create user 'x'';drop table t;--' with password 'p'`);
      await ok(`create group "g""); drop table t; --"`);
      assert.equal((await ok("select count(*) from t")).dataset[0][0], 1);
      assert.ok((await ok("show users")).dataset.some((row: string[]) => row[0] === "x';drop table t;--"));
      assert.equal((await run("create user bad; drop table t")).status, 400);
      assert.equal((await run(`grant select on t to "a'); drop table t; --"`)).status, 200);
      assert.equal((await ok("select count(*) from t")).dataset[0][0], 1);
      assert.equal((await run("select 1", basic("x';drop table t;--", "p"))).status, 403); // authenticated, no HTTP
      assert.equal((await run("select 1", basic("' or '1'='1", "' or '1'='1"))).status, 401);
      assert.equal((await run("create user 'a\u0001b'")).status, 400);

      // pgwire: password check, PGWIRE permission, 42501 for a refused statement.
      await assert.rejects(pgConnect(server.pgPort, "bob", "wrong"), /invalid username\/password/);
      await assert.rejects(pgConnect(server.pgPort, "carol", "c"), /Access denied for carol \[PGWIRE\]/);
      await ok("grant insert on t to bob"); // some permission on t: t is visible, reads are refused
      const client = await pgConnect(server.pgPort, "bob", "s3cr:et");
      try {
        await assert.rejects(client.query("select * from t"), (e: { code?: string; message: string }) => {
          assert.equal(e.code, "42501");
          assert.match(e.message, /Access denied for bob \[SELECT on t\./);
          return true;
        });
        assert.deepEqual((await client.query("select x from b1")).rows, [{ x: 1 }]);
        // A revoked permission applies to the open connection's next statement.
        await ok("revoke select on b1 from bob");
        await assert.rejects(client.query("select x from b1"), /Access denied/);
        await ok("alter user bob disable");
        assert.equal((await run("select 1", bob)).status, 403);
        await assert.rejects(client.query("select 1 from b1"), /Access denied/);
        await ok("alter user bob enable");
      } finally {
        await client.end().catch(() => {});
      }
      const adminPg = await pgConnect(server.pgPort, "admin", "quest");
      assert.equal(String((await adminPg.query("select count(*) c from t")).rows[0].c), "1");
      await adminPg.end();
    } finally {
      await server.stop();
    }

    // The store is durable and holds no clear-text password.
    const text = await Deno.readTextFile(`${server.root}/acl.json`);
    assert.ok(!text.includes("s3cr:et"));
    assert.match(text, /"iterations": 100000/);
    const again = await startServer({ root: server.root, env: ACL_ENV });
    try {
      assert.equal((await call(again.httpUrl, "select 1", bob)).status, 200);
      assert.equal((await call(again.httpUrl, "select 1", basic("bob", "wrong"))).status, 401);
    } finally {
      await again.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});

Deno.test({
  name: "acl off: REST is open, pgwire takes admin/quest, ACL statements say how to enable them",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    try {
      assert.equal((await call(server.httpUrl, "select 1")).status, 200);
      const r = await call(server.httpUrl, "create user bob");
      assert.equal(r.status, 400);
      assert.match(JSON.parse(r.body).error, /acl\.enabled=true/);
      const settings = JSON.parse(await (await fetch(`${server.httpUrl}/settings`)).text()).config;
      assert.equal(settings["release.type"], "OSS");
      assert.equal(settings["acl.enabled"], undefined);
      const client = await pgConnect(server.pgPort, "admin", "quest");
      assert.equal((await client.query("select 1 x")).rows[0].x, 1);
      await client.end();
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
