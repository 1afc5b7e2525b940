/**
 * The threat model of spec/security.md §7, one step per row that a server with access control
 * (and no identity provider) can show: T1 missing credentials, T2 malformed Authorization,
 * T9 missing endpoint permissions, T10 disabled users with open sessions, T11 escalation via
 * GRANT, T14 column-level bypass, T15 ILP auto-create, T17 injection through names, T18 secrets
 * in logs, T19 session cookies, T20 uniform login errors, T23 cancel-request abuse. The OIDC
 * rows (T4–T8, T22) are in threat_oidc_test.ts; tokens (T3), service accounts (T12) and the
 * ILP TCP challenge (T21) are listed in docs/threat_model.md with the tests that cover them.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import pg from "pg";
import { startServer } from "./server_process.ts";

const ADMIN = basic("admin", "quest");

function basic(user: string, password: string): string {
  return "Basic " + btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)));
}

interface Reply {
  status: number;
  body: string;
  headers: Headers;
}

async function request(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.text(), headers: res.headers };
}

Deno.test({
  name: "threat model (security.md §7): what a server with access control must refuse",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const server = await startServer({ pg: true, env: { QDB_ACL_ENABLED: "true" } });
    const url = server.httpUrl;
    const exec = (sql: string, auth?: string, extra = "") =>
      request(`${url}/exec?query=${encodeURIComponent(sql)}${extra}`, {
        headers: auth ? { authorization: auth } : {},
      });
    const ok = async (sql: string, auth = ADMIN) => {
      const r = await exec(sql, auth);
      assert.equal(r.status, 200, `${sql}: ${r.body}`);
      return JSON.parse(r.body);
    };
    const count = async (table: string) => (await ok(`select count() from '${table}'`)).dataset[0][0];
    try {
      await ok("create table t (ts timestamp, a int, secret string) timestamp(ts) partition by day");
      await ok("insert into t values ('2024-01-01T00:00:00Z', 1, 'x')");
      await ok("create table u (ts timestamp, a int, b int) timestamp(ts) partition by day");
      await ok("insert into u values ('2024-01-01T00:00:00Z', 1, 2)");

      await t.step("T1: no credentials on every data endpoint → 401 and no side effects", async () => {
        const csv = new FormData();
        csv.append("data", new Blob(["a,b\n1,2\n"]), "x.csv");
        const replies = [
          await exec("create table t1_made (x int)"),
          await request(`${url}/exp?query=${encodeURIComponent("select * from t")}`),
          await request(`${url}/imp?name=t1_imp`, { method: "POST", body: csv }),
          await request(`${url}/chk?j=t&f=json`),
          await request(`${url}/write`, { method: "POST", body: "t1_ilp x=1i\n" }),
          await request(`${url}/settings`, { method: "PUT", body: "{}" }),
        ];
        for (const r of replies) {
          assert.equal(r.status, 401, r.body);
          assert.ok(!r.body.includes('"dataset"') && !r.body.includes("Exists"), r.body);
        }
        for (const name of ["t1_made", "t1_imp", "t1_ilp"]) {
          assert.equal(
            (await ok(`select count() from tables() where table_name = '${name}'`)).dataset[0][0],
            0,
          );
        }
        // GET /settings is public but carries no secret: neither the admin password nor any key material.
        const settings = await request(`${url}/settings`);
        assert.equal(settings.status, 200);
        assert.ok(!/quest|password|secret|private/i.test(settings.body), settings.body);
      });

      await t.step("T2: malformed Authorization headers → 401 (400 when oversize), never 500", async () => {
        const malformed = [
          "Basic !!!notbase64",
          "Basic " + btoa("nocolon"),
          "Basic",
          "Basic " + btoa(":"),
          "Bearer",
          "Bearer ",
          "Digest username=admin",
          "basic " + btoa("admin:wrong"),
          "Basic " + btoa("admin:quest\u0000"),
        ];
        for (const h of malformed) {
          const r = await exec("select 1", h);
          assert.equal(r.status, 401, `${h}: ${r.status} ${r.body}`);
        }
        const huge = await exec("select 1", "Basic " + "A".repeat(64 * 1024));
        assert.ok(
          huge.status === 400 || huge.status === 401 || huge.status === 431,
          `oversize: ${huge.status}`,
        );
      });

      await t.step(
        "T9: a user without HTTP / PGWIRE / ILP is refused at request or connection start",
        async () => {
          await ok("create user t9 with password 'pw9'");
          const u = basic("t9", "pw9");
          let r = await exec("select 1", u);
          assert.equal(r.status, 403);
          assert.match(JSON.parse(r.body).error, /Access denied for t9 \[HTTP\]/);
          r = await request(`${url}/write`, {
            method: "POST",
            body: "t9_ilp x=1i\n",
            headers: { authorization: u },
          });
          assert.equal(r.status, 403);
          const client = new pg.Client({
            host: "127.0.0.1",
            port: server.pgPort,
            user: "t9",
            password: "pw9",
          });
          await assert.rejects(client.connect(), /Access denied for t9 \[PGWIRE\]/);
          await client.end().catch(() => {});
          await ok("grant http to t9");
          assert.equal((await exec("select 1", u)).status, 200);
          // HTTP alone does not allow ILP writes: the table write needs CREATE TABLE / INSERT.
          r = await request(`${url}/write`, {
            method: "POST",
            body: "t9_ilp x=1i\n",
            headers: { authorization: u },
          });
          assert.equal(r.status, 403, r.body);
          assert.match(r.body, /Access denied for t9 \[CREATE TABLE\]/);
        },
      );

      await t.step(
        "T10: disabling or dropping a user ends its cookie sessions and open connections",
        async () => {
          await ok("create user t10 with password 'pw10'");
          await ok("grant http, pgwire to t10");
          await ok("grant select on t to t10");
          const login = await exec("select 1", basic("t10", "pw10"), "&session=true");
          assert.equal(login.status, 200);
          const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
          assert.match(cookie, /=qs1/);
          assert.equal((await request(`${url}/exec?query=select+1`, { headers: { cookie } })).status, 200);
          const client = new pg.Client({
            host: "127.0.0.1",
            port: server.pgPort,
            user: "t10",
            password: "pw10",
          });
          await client.connect();
          assert.equal((await client.query("select count() c from t")).rows.length, 1);

          await ok("alter user t10 disable");
          assert.notEqual((await request(`${url}/exec?query=select+1`, { headers: { cookie } })).status, 200);
          await assert.rejects(client.query("select count() from t"));
          await ok("alter user t10 enable");
          // The session opened before the disable stays dead: the user must log in again.
          assert.equal((await request(`${url}/exec?query=select+1`, { headers: { cookie } })).status, 401);
          const again = await exec("select 1", basic("t10", "pw10"), "&session=true");
          const cookie2 = (again.headers.get("set-cookie") ?? "").split(";")[0];
          assert.equal(
            (await request(`${url}/exec?query=select+1`, { headers: { cookie: cookie2 } })).status,
            200,
          );
          await ok("drop user t10");
          assert.equal(
            (await request(`${url}/exec?query=select+1`, { headers: { cookie: cookie2 } })).status,
            401,
          );
          await client.end().catch(() => {});
        },
      );

      await t.step(
        "T11: GRANT cannot escalate: grant option, ALL, group membership, external aliases",
        async () => {
          await ok("create user t11 with password 'pw11'");
          await ok("create user t11b with password 'pw11b'");
          await ok("create group t11g");
          await ok("grant select on u to t11g");
          await ok("grant http to t11");
          await ok("grant select on t to t11 with grant option");
          const u = basic("t11", "pw11");
          // ALL expands only to what the grantor may grant: SELECT on t, nothing else.
          const all = await exec("grant all on t to t11b", u);
          if (all.status === 200) {
            const perms = (await ok("show permissions t11b")).dataset as unknown[][];
            assert.ok(perms.every((p) => p[0] === "SELECT"), JSON.stringify(perms));
          } else assert.equal(all.status, 403, all.body);
          assert.equal((await exec("grant insert on t to t11b", u)).status, 403);
          assert.equal((await exec("grant select on u to t11b", u)).status, 403);
          // Without ADD USER nobody joins a group, not even themselves.
          let r = await exec("add user t11 to t11g", u);
          assert.equal(r.status, 403, r.body);
          // No permission on u at all: it answers as a missing table (issue #24).
          r = await exec("select * from u", u);
          assert.equal(r.status, 400, r.body);
          assert.equal(JSON.parse(r.body).error, "table does not exist [table=u]");
          // Mapping an identity-provider group is a grant in disguise: it needs ADD EXTERNAL ALIAS.
          r = await exec("alter group t11g with external alias 'idp-admins'", u);
          assert.equal(r.status, 403, r.body);
          // The built-in admin cannot be changed by anyone.
          assert.equal((await exec("revoke http from admin", ADMIN)).status, 403);
          assert.equal((await exec("alter user admin with password 'x'", u)).status, 403);
        },
      );

      await t.step(
        "T13: views cannot launder rights: CREATE VIEW is refused (views are not supported)",
        async () => {
          await ok("create user t13 with password 'pw13'");
          await ok("grant http, create table to t13");
          for (const auth of [basic("t13", "pw13"), ADMIN]) {
            const r = await exec("create view v13 as (select secret from t)", auth);
            assert.equal(r.status, 400, r.body);
          }
          assert.equal((await ok("select count() from tables() where table_name = 'v13'")).dataset[0][0], 0);
        },
      );

      await t.step("T14: column checks cover *, WHERE, ORDER BY, JOIN, functions and UPDATE", async () => {
        await ok("create user t14 with password 'pw14'");
        await ok("grant http to t14");
        await ok("grant select on t(a) to t14");
        await ok("grant select on u(a) to t14");
        await ok("grant update on t(a) to t14");
        const u = basic("t14", "pw14");
        assert.equal((await exec("select ts, a from t", u)).status, 200);
        for (
          const sql of [
            "select * from t",
            "select a from t where secret = 'x'",
            "select a from t order by secret",
            "select length(secret) from t",
            "select t.a from t join u on t.a = u.b",
            "select a, count() from t group by secret, a",
            "select a from t latest on ts partition by secret",
            "update t set a = 2 where secret = 'x'",
            "update t set secret = 'y'",
          ]
        ) {
          const r = await exec(sql, u);
          assert.equal(r.status, 403, `${sql}: ${r.status} ${r.body}`);
        }
        assert.equal((await exec("update t set a = a + 0", u)).status, 200);
        assert.deepEqual((await ok("select secret from t")).dataset, [["x"]]);
      });

      await t.step("T15: ILP writes need CREATE TABLE, ADD COLUMN and INSERT", async () => {
        await ok("create user t15 with password 'pw15'");
        await ok("grant http to t15");
        const u = basic("t15", "pw15");
        const write = (body: string) =>
          request(`${url}/write`, { method: "POST", body, headers: { authorization: u } });
        let r = await write("t15 x=1i 1704067200000000000\n");
        assert.equal(r.status, 403);
        await ok("grant create table to t15");
        r = await write("t15 x=1i 1704067200000000000\n");
        assert.equal(r.status, 204, r.body); // the creator owns the table it creates
        // The creator got every table permission; keep INSERT only.
        await ok("revoke all on t15 from t15");
        await ok("grant insert on t15 to t15");
        r = await write("t15 x=2i,extra=3i 1704067201000000000\n");
        assert.equal(r.status, 403, r.body);
        assert.match(r.body, /ADD COLUMN on t15/);
        assert.equal(await count("t15"), 1);
        // INSERT on the existing table but nothing else: rows in known columns are accepted.
        r = await write("t15 x=3i 1704067202000000000\n");
        assert.equal(r.status, 204, r.body);
        await ok("revoke insert on t15 from t15");
        r = await write("t15 x=4i 1704067203000000000\n");
        assert.equal(r.status, 403, r.body);
        assert.equal(await count("t15"), 2);
      });

      await t.step("T17: names never become SQL: /chk, /imp, ILP table names, SHOW", async () => {
        const evil = "t'; drop table t; --";
        let r = await request(`${url}/chk?j=${encodeURIComponent(evil)}&f=json`, {
          headers: { authorization: ADMIN },
        });
        assert.equal(r.status, 200);
        assert.equal(JSON.parse(r.body).status, "Does not exist");
        const csv = new FormData();
        csv.append("data", new Blob(["a,b\n1,2\n"]), "x.csv");
        r = await request(`${url}/imp?name=${encodeURIComponent(evil)}&fmt=json`, {
          method: "POST",
          body: csv,
          headers: { authorization: ADMIN },
        });
        assert.ok(r.status < 500, `${r.status} ${r.body}`);
        r = await request(`${url}/write`, {
          method: "POST",
          body: `t\\'\\;drop\\ table\\ t x=1i\n`,
          headers: { authorization: ADMIN },
        });
        assert.ok(r.status < 500, `${r.status} ${r.body}`);
        r = await exec(`show permissions 'nobody''; drop table t; --'`, ADMIN);
        assert.ok(r.status === 400 || r.status === 200, r.body);
        r = await exec("create user 'nul\u0000name' with password 'p'", ADMIN);
        assert.equal(r.status, 400);
        assert.equal(await count("t"), 1);
      });

      await t.step(
        "T17: path traversal in table names (SQL, /imp, ILP) never leaves the data root",
        async () => {
          const names = ["../escape1", "..", "a/../../escape2", "/tmp/escape3", "x\\..\\escape4"];
          for (const name of names) {
            const sql = await exec(`create table '${name}' (x int)`, ADMIN);
            assert.equal(sql.status, 400, `${name}: ${sql.body}`);
            const csv = new FormData();
            csv.append("data", new Blob(["a,b\n1,2\n"]), `${name}.csv`);
            const imp = await request(`${url}/imp?name=${encodeURIComponent(name)}&fmt=json`, {
              method: "POST",
              body: csv,
              headers: { authorization: ADMIN },
            });
            assert.ok(imp.status < 500, `${name}: ${imp.status} ${imp.body}`);
            assert.match(JSON.parse(imp.body).status, /invalid table name/, `${name}: ${imp.body}`);
          }
          assert.equal(
            (await ok("select count() from tables() where table_name like '%escape%'")).dataset[0][0],
            0,
          );
          // A file name with a path is only a default table name: the table stays inside the root.
          const csv = new FormData();
          csv.append("data", new Blob(["a,b\n1,2\n"]), "../../escape5.csv");
          const imp = await request(`${url}/imp?fmt=json`, {
            method: "POST",
            body: csv,
            headers: { authorization: ADMIN },
          });
          assert.ok(imp.status < 500, `${imp.status} ${imp.body}`);
          const ilp = await request(`${url}/write`, {
            method: "POST",
            body: "..\\/escape6 x=1i\n",
            headers: { authorization: ADMIN },
          });
          assert.equal(ilp.status, 400, ilp.body);
          const parent = `${server.root}/..`;
          for (const entry of Deno.readDirSync(parent)) {
            assert.ok(!entry.name.startsWith("escape"), `${entry.name} outside the root`);
          }
          for (const entry of Deno.readDirSync("/tmp")) {
            assert.ok(!/^escape\d/.test(entry.name), `/tmp/${entry.name}`);
          }
        },
      );

      await t.step("T18: passwords and tokens never reach the log or an error message", async () => {
        const secrets = ["Sup3r-s3cret-pw", "An0ther-s3cret", "Wr0ng-guess-pw"];
        await ok(`create user t18 with password '${secrets[0]}'`);
        await ok(`alter user t18 with password '${secrets[1]}'`);
        await exec("select 1", basic("t18", secrets[2]));
        await exec("select 1", basic("nobody-t18", secrets[2]));
        const bad = await exec(`create user t18b with password '${secrets[0]}' garbage`, ADMIN);
        assert.equal(bad.status, 400);
        assert.ok(!JSON.parse(bad.body).error.includes(secrets[0]), bad.body);
        const client = new pg.Client({
          host: "127.0.0.1",
          port: server.pgPort,
          user: "t18",
          password: secrets[2],
        });
        await assert.rejects(client.connect(), (e: Error) => !e.message.includes(secrets[2]));
        await client.end().catch(() => {});
        await new Promise((r) => setTimeout(r, 200));
        const log = server.log();
        for (const s of secrets) assert.ok(!log.includes(s), `the log holds a secret: ${s}`);
        const store = await Deno.readTextFile(`${server.root}/acl.json`);
        for (const s of secrets) assert.ok(!store.includes(s), "the store holds a clear-text password");
      });

      await t.step(
        "T19: the session cookie is HttpOnly, SameSite=Strict, Path=/, qs1 + 128+ random bits, dropped on logout",
        async () => {
          const login = await exec("select 1", ADMIN, "&session=true");
          const header = login.headers.get("set-cookie") ?? "";
          assert.match(header, /HttpOnly/i);
          assert.match(header, /SameSite=Strict/i);
          assert.match(header, /Path=\//);
          const cookie = header.split(";")[0];
          const id = cookie.slice(cookie.indexOf("=") + 1);
          assert.ok(id.startsWith("qs1"));
          assert.ok((id.length - 3) * 6 >= 128, `session id too short: ${id.length}`);
          const other = (await exec("select 1", ADMIN, "&session=true")).headers.get("set-cookie") ?? "";
          assert.notEqual(other.split(";")[0], cookie);
          assert.equal((await request(`${url}/exec?query=select+1`, { headers: { cookie } })).status, 200);
          await request(`${url}/exec?query=select+1&session=false`, { headers: { cookie } });
          assert.equal((await request(`${url}/exec?query=select+1`, { headers: { cookie } })).status, 401);
          // A made-up session id is not a login.
          const forged = await request(`${url}/exec?query=select+1`, {
            headers: { cookie: `${cookie.split("=")[0]}=qs1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA` },
          });
          assert.equal(forged.status, 401);
        },
      );

      await t.step("T20: unknown user and wrong password get the same answer", async () => {
        await ok("create user t20 with password 'pw20'");
        const wrong = await exec("select 1", basic("t20", "nope"));
        const unknown = await exec("select 1", basic("no-such-user-t20", "nope"));
        assert.equal(wrong.status, 401);
        assert.equal(unknown.status, 401);
        assert.equal(wrong.body, unknown.body);
        const messages: string[] = [];
        for (const user of ["t20", "no-such-user-t20"]) {
          const client = new pg.Client({ host: "127.0.0.1", port: server.pgPort, user, password: "nope" });
          await client.connect().catch((e: Error) => messages.push(e.message));
          await client.end().catch(() => {});
        }
        assert.equal(messages.length, 2);
        assert.equal(messages[0], messages[1]);
      });

      await t.step(
        "T23: a CancelRequest with the wrong secret cancels nothing; the right one cancels",
        async () => {
          const client = new pg.Client({
            host: "127.0.0.1",
            port: server.pgPort,
            user: "admin",
            password: "quest",
          });
          await client.connect();
          // node-postgres keeps the BackendKeyData it received.
          const c = client as unknown as { processID: number; secretKey: number };
          const sendCancel = (pid: number, secret: number) =>
            new Promise<string>((resolve) => {
              const socket = connect(server.pgPort, "127.0.0.1", () => {
                const m = Buffer.alloc(16);
                m.writeInt32BE(16, 0);
                m.writeInt32BE(80877102, 4);
                m.writeInt32BE(pid, 8);
                m.writeInt32BE(secret, 12);
                socket.write(m);
              });
              let got = "";
              socket.on("data", (d) => got += d.toString("hex"));
              socket.on("close", () => resolve(got));
              socket.on("error", () => resolve(got));
            });
          const started = Date.now();
          const long = client.query(
            "select count() from long_sequence(100000) a cross join long_sequence(100000) b where a.x * b.x = -1",
          )
            .then(() => "finished", (e: Error) => e.message);
          await new Promise((r) => setTimeout(r, 300));
          assert.equal(
            await sendCancel(c.processID, c.secretKey ^ 0x5a5a5a5a),
            "",
            "no reply to a cancel request",
          );
          assert.equal(await sendCancel(c.processID + 1000, c.secretKey), "");
          await new Promise((r) => setTimeout(r, 700));
          const still = await Promise.race([long, new Promise((r) => setTimeout(() => r("running"), 10))]);
          assert.equal(still, "running", "a wrong secret must not cancel the query");
          assert.equal(await sendCancel(c.processID, c.secretKey), "");
          const outcome = await long;
          assert.match(String(outcome), /cancel/i);
          assert.ok(Date.now() - started < 60_000);
          assert.equal((await client.query("select 1 x")).rows[0].x, 1); // the connection stays usable
          await client.end();
        },
      );
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
