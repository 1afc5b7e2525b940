/**
 * REST tokens (security.md §4.1, §5.1, T3, T18): `ALTER USER u CREATE TOKEN TYPE REST WITH TTL`
 * returns one row (name, token, expires_at, refresh) with a `qt1` token usable as
 * `Authorization: Bearer` and as the pgwire password; it is stored only as a digest; DROP
 * TOKEN revokes at once; creating a token for someone else needs CREATE REST TOKEN; the
 * console's `... refresh transient` login works for the built-in admin; no secret reaches
 * the log or an error message.
 */
import assert from "node:assert/strict";
import { ACL_ENV, basic, call, pgConnect, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

Deno.test({
  name: "acl: REST tokens authenticate REST and pgwire, are stored hashed and can be dropped",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true, env: ACL_ENV });
    const { ok, run, refused } = runner(server.httpUrl);
    const jo = basic("jo", "pw-jo");
    const bearer = (t: string) => `Bearer ${t}`;
    try {
      await ok("create table tk (a int)");
      await ok("insert into tk values (1)");
      await ok("create user jo with password 'pw-jo'");
      await ok("create user kai with password 'pw-kai'");
      await ok("grant http, pgwire to jo");
      await ok("grant select on tk to jo");

      // Own token: allowed without CREATE REST TOKEN.
      const made = await ok("alter user jo create token type rest with ttl '1d' refresh", jo);
      assert.deepEqual(made.columns.map((c: { name: string }) => c.name), [
        "name",
        "token",
        "expires_at",
        "refresh",
      ]);
      const [name, token, expiresAt, refresh] = made.dataset[0];
      assert.equal(name, "jo");
      assert.match(token, /^qt1[A-Za-z0-9_-]{43}$/);
      assert.equal(refresh, true);
      const left = Date.parse(expiresAt) - Date.now();
      assert.ok(left > 86_000_000 && left <= 86_400_000, expiresAt);

      assert.deepEqual((await ok("select a from tk", bearer(token))).dataset, [[1]]);
      assert.equal(
        (await run("select 1", bearer(token.slice(0, -1) + (token.endsWith("A") ? "B" : "A")))).status,
        401,
      );
      assert.equal((await run("select 1", bearer("qt1short"))).status, 401);
      assert.deepEqual((await ok("show user jo")).dataset, [["Password", true], ["JWK Token", false], [
        "REST Token",
        true,
      ]]);

      // The token is the pgwire password of its owner only.
      const client = await pgConnect(server.pgPort, "jo", token);
      assert.deepEqual((await client.query("select a from tk")).rows, [{ a: 1 }]);
      await client.end();
      await assert.rejects(pgConnect(server.pgPort, "kai", token), /invalid username\/password/);

      // Someone else's token needs CREATE REST TOKEN; the admin's only the admin.
      await refused(
        "alter user kai create token type rest with ttl '1h'",
        jo,
        "Access denied for jo [CREATE REST TOKEN]",
      );
      await refused(
        "alter user admin create token type rest with ttl '1h'",
        jo,
        "the built-in admin cannot be changed",
      );
      await refused(
        `alter user jo drop token type rest '${token}'`,
        basic("kai", "pw-kai"),
        "Access denied for kai [HTTP]",
      );

      // TTL limits (1 minute .. 3650 days) and syntax.
      for (const ttl of ["30s", "3651d", "1y", "", "-1d"]) {
        const r = await run(`alter user jo create token type rest with ttl '${ttl}'`, jo);
        assert.equal(r.status, 400, ttl);
      }

      // DROP TOKEN works at once, for one token or all; unknown tokens are not echoed.
      const second = (await ok("alter user jo create token type rest with ttl '1m'", jo)).dataset[0][1];
      await ok(`alter user jo drop token type rest '${token}'`, jo);
      assert.equal((await run("select 1", bearer(token))).status, 401);
      assert.equal((await run("select 1", bearer(second))).status, 200);
      const missing = await run(`alter user jo drop token type rest '${token}'`, jo);
      assert.equal(missing.status, 400);
      assert.equal(JSON.parse(missing.body).error, "token does not exist"); // the reply's `query` echoes the caller's own text only
      await ok("alter user jo drop token type rest", jo);
      assert.equal((await run("select 1", bearer(second))).status, 401);

      // Disabled owner → 403; a token issued before a DISABLE stays dead after ENABLE (issue #24),
      // over REST and as a pgwire password; one issued after works.
      const third = (await ok("alter user jo create token type rest with ttl '1h'")).dataset[0][1];
      await ok("alter user jo disable");
      assert.equal((await run("select 1", bearer(third))).status, 403);
      await ok("alter user jo enable");
      assert.equal((await run("select 1", bearer(third))).status, 401);
      await assert.rejects(pgConnect(server.pgPort, "jo", third), /invalid username\/password/);
      const fourth = (await ok("alter user jo create token type rest with ttl '1h'", jo)).dataset[0][1];
      assert.equal((await run("select 1", bearer(fourth))).status, 200);

      // A JWK needs CREATE JWK, for oneself too (security.md §2.3); dropping one's own key does not.
      await refused("alter user jo create token type jwk", jo, "Access denied for jo [CREATE JWK]");
      await ok("grant create jwk to jo");
      const jwk = await ok("alter user jo create token type jwk", jo);
      assert.equal(jwk.dataset[0][0], "jo");
      await ok("revoke create jwk from jo");
      await ok("alter user jo drop token type jwk", jo);
      await refused("alter user kai drop token type jwk", jo, "Access denied for jo [DROP JWK]");

      // The Web Console's login statement, for the built-in admin, with a session cookie.
      const consoleLogin = await fetch(
        `${server.httpUrl}/exec?query=${
          encodeURIComponent("alter user 'admin' create token type rest with ttl '1d' refresh transient")
        }&session=true`,
        { headers: { authorization: basic("admin", "quest") } },
      );
      assert.equal(consoleLogin.status, 200);
      const adminToken = JSON.parse(await consoleLogin.text()).dataset[0][1];
      assert.equal((await call(server.httpUrl, "select count() from tk", bearer(adminToken))).status, 200);

      // Service accounts get tokens too.
      await ok("create service account robot");
      await ok("grant http to robot");
      await ok("grant select on tk to robot");
      const robot =
        (await ok("alter service account robot create token type rest with ttl '2h'")).dataset[0][1];
      assert.deepEqual((await ok("select a from tk", bearer(robot))).dataset, [[1]]);
      await ok("drop service account robot");
      assert.equal((await run("select 1", bearer(robot))).status, 401);

      // T18: nothing secret in the store or the log; transient tokens are not stored at all.
      const stored = await Deno.readTextFile(`${server.root}/acl.json`);
      for (const secret of [token, second, third, fourth, adminToken, "pw-jo"]) {
        assert.ok(!stored.includes(secret), "store leaks a secret");
        assert.ok(!server.log().includes(secret), "log leaks a secret");
      }
      assert.ok(!stored.includes(adminToken.slice(3, 11)), "a transient token was stored");
    } finally {
      await server.stop();
    }
    // Persisted tokens survive a restart; transient ones do not.
    const again = await startServer({ root: server.root, env: ACL_ENV });
    try {
      // The third (dead since the DISABLE, kept until it expires) and the fourth.
      const stored = JSON.parse(await Deno.readTextFile(`${server.root}/acl.json`)).tokens;
      assert.equal(stored.length, 2);
    } finally {
      await again.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
