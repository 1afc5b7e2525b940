/**
 * The server as an OIDC resource server over plain HTTP and pgwire, against a real provider
 * (npm oidc-provider, tests/e2e/oidc_provider.ts). Mode A (User Info): no token → 401, a
 * forged or expired token → 401, User Info called once per token per cache TTL, a change of
 * groups at the provider visible only after the TTL, groups mapped through external aliases
 * to table and column grants, empty groups → authenticated but allowed nothing, pgwire with
 * the token as the password of `_sso`. Mode B (groups in the ID token, verified with jose
 * against the JWKS): forged, expired, other-audience and alg=none tokens refused.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { generateKeyPair, importJWK, SignJWT } from "jose";
import { startIdp, type TestIdp } from "./oidc_provider.ts";
import { startServer } from "./server_process.ts";

const CB = "http://127.0.0.1:9/cb";
const CACHE_TTL_MS = 1500;
const ADMIN = "Basic " + btoa("admin:quest");

function accounts() {
  return {
    alice: { name: "Alice Analyst", groups: ["idp-readers"] },
    nora: { name: "Nora NoHttp", groups: ["idp-nohttp"] },
    emma: { name: "Emma Empty", groups: [] },
    gus: { name: "Gus Spoof", groups: ["readers"] }, // a QuestDB group *name*, not an alias (T8)
  };
}

async function exec(url: string, sql: string, auth?: string) {
  const res = await fetch(`${url}/exec?query=${encodeURIComponent(sql)}`, {
    headers: auth ? { authorization: auth } : {},
  });
  const body = await res.text();
  return { status: res.status, body };
}

async function setUp(url: string): Promise<void> {
  for (
    const sql of [
      "create table t (ts timestamp, a int, secret string) timestamp(ts) partition by day",
      "insert into t values ('2024-01-01T00:00:00Z', 7, 'x')",
      "create group readers with external alias 'idp-readers'",
      "grant http, pgwire to readers",
      "grant select on t(a) to readers",
      "create group nohttp",
      "alter group nohttp with external alias 'idp-nohttp'",
      "grant select on t to nohttp",
    ]
  ) {
    const r = await exec(url, sql, ADMIN);
    assert.equal(r.status, 200, `${sql}: ${r.body}`);
  }
}

function oidcEnv(idp: TestIdp, extra: Record<string, string> = {}): Record<string, string> {
  return {
    QDB_ACL_ENABLED: "true",
    QDB_ACL_OIDC_ENABLED: "true",
    QDB_ACL_OIDC_CLIENT_ID: "qdb-console",
    QDB_ACL_OIDC_CONFIGURATION_URL: idp.discoveryUrl,
    QDB_ACL_OIDC_CACHE_TTL: String(CACHE_TTL_MS),
    QDB_ACL_OIDC_HTTP_TIMEOUT: "5000",
    QDB_ACL_OIDC_SCOPE: "openid profile",
    ...extra,
  };
}

Deno.test({
  name: "oidc (user info): bearer tokens, cache TTL, group mapping, refusals, pgwire token login",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const idp = await startIdp({
      accounts: accounts(),
      clients: { "qdb-console": [CB] },
      accessTokenTtlS: 5,
    });
    const server = await startServer({
      pg: true,
      env: oidcEnv(idp, { QDB_ACL_OIDC_PG_TOKEN_AS_PASSWORD_ENABLED: "true" }),
    });
    try {
      await setUp(server.httpUrl);
      const config = JSON.parse(await (await fetch(`${server.httpUrl}/settings`)).text()).config;
      assert.equal(config["acl.oidc.enabled"], true);
      assert.equal(config["acl.oidc.authorization.endpoint"], `${idp.issuer}/auth`);
      assert.equal(config["acl.oidc.token.endpoint"], `${idp.issuer}/token`);
      assert.equal(config["acl.oidc.pkce.required"], true);
      assert.equal(config["acl.oidc.client.id"], "qdb-console");

      // No token, a made-up token, an unknown scheme → 401.
      assert.equal((await exec(server.httpUrl, "select 1")).status, 401);
      assert.equal((await exec(server.httpUrl, "select 1", "Bearer not-a-real-token")).status, 401);

      // Alice: one User Info call serves every request within the TTL.
      const alice = await idp.signIn("alice", "qdb-console", CB);
      const bearer = `Bearer ${alice.access_token}`;
      const before = idp.userinfoCalls();
      const results = await Promise.all(
        [1, 2, 3, 4].map(() => exec(server.httpUrl, "select a from t", bearer)),
      );
      for (const r of results) assert.equal(r.status, 200, r.body);
      assert.deepEqual(JSON.parse(results[0].body).dataset, [[7]]);
      assert.equal(
        (await exec(server.httpUrl, "select current_user()", bearer)).body.includes('"alice"'),
        true,
      );
      assert.equal(idp.userinfoCalls() - before, 1);
      // Column-level grant through the mapped group.
      const secret = await exec(server.httpUrl, "select secret from t", bearer);
      assert.equal(secret.status, 403);
      assert.match(JSON.parse(secret.body).error, /Access denied for alice \[SELECT on t\.secret\]/);

      // pgwire: the access token is the password of user _sso.
      const client = new pg.Client({
        host: "127.0.0.1",
        port: server.pgPort,
        user: "_sso",
        password: alice.access_token,
        database: "qdb",
      });
      await client.connect();
      assert.deepEqual((await client.query("select a from t")).rows, [{ a: 7 }]);
      await client.end();
      const badPg = new pg.Client({
        host: "127.0.0.1",
        port: server.pgPort,
        user: "_sso",
        password: "forged",
        database: "qdb",
      });
      await assert.rejects(badPg.connect(), /invalid username\/password/);

      // The provider drops Alice from her group: cached until the TTL, then refused.
      const mark = idp.userinfoCalls();
      idp.accounts.alice.groups = [];
      assert.equal((await exec(server.httpUrl, "select a from t", bearer)).status, 200);
      await new Promise((r) => setTimeout(r, CACHE_TTL_MS + 200));
      const after = await exec(server.httpUrl, "select a from t", bearer);
      assert.equal(after.status, 403);
      assert.match(JSON.parse(after.body).error, /Access denied for alice \[HTTP\]/);
      assert.equal(idp.userinfoCalls() - mark, 1); // one refresh of the stale entry
      idp.accounts.alice.groups = ["idp-readers"];

      // No HTTP permission, empty groups, a group *name* instead of an alias: authenticated (403, not 401).
      for (const user of ["nora", "emma", "gus"]) {
        const t = await idp.signIn(user, "qdb-console", CB);
        const r = await exec(server.httpUrl, "select 1", `Bearer ${t.access_token}`);
        assert.equal(r.status, 403, `${user}: ${r.body}`);
        assert.match(JSON.parse(r.body).error, new RegExp(`Access denied for ${user} \\[HTTP\\]`));
      }

      // An expired access token: the provider's User Info refuses it once the cache is stale.
      await new Promise((r) => setTimeout(r, 5_500));
      assert.equal((await exec(server.httpUrl, "select 1", bearer)).status, 401);
    } finally {
      await server.stop();
      await idp.close();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});

Deno.test({
  name: "oidc (groups in the ID token): jose verifies signature, issuer, audience and expiry",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const idp = await startIdp({ accounts: accounts(), clients: { "qdb-console": [CB], "other-app": [CB] } });
    const server = await startServer({ env: oidcEnv(idp, { QDB_ACL_OIDC_GROUPS_ENCODED_IN_TOKEN: "true" }) });
    try {
      await setUp(server.httpUrl);
      const config = JSON.parse(await (await fetch(`${server.httpUrl}/settings`)).text()).config;
      assert.equal(config["acl.oidc.groups.encoded.in.token"], true);
      const calls = idp.userinfoCalls();
      const alice = await idp.signIn("alice", "qdb-console", CB);
      const ok = await exec(server.httpUrl, "select a from t", `Bearer ${alice.id_token}`);
      assert.equal(ok.status, 200, ok.body);
      assert.equal(idp.userinfoCalls(), calls); // verified locally, no User Info call

      const key = await importJWK(idp.signingKey, "RS256");
      const now = Math.floor(Date.now() / 1000);
      const claims = { sub: "alice", groups: ["idp-readers"] };
      const sign = (k: CryptoKey | Uint8Array, set: (j: SignJWT) => SignJWT, alg = "RS256") =>
        set(new SignJWT(claims).setProtectedHeader({ alg, kid: "test-key" }).setIssuer(idp.issuer)).sign(k);
      const refused = async (token: string, why: string) => {
        const r = await exec(server.httpUrl, "select 1", `Bearer ${token}`);
        assert.equal(r.status, 401, `${why}: ${r.body}`);
      };
      // Control: the provider's key, the right audience, not expired → accepted.
      const good = await sign(
        key,
        (j) => j.setAudience("qdb-console").setIssuedAt(now).setExpirationTime(now + 60),
      );
      assert.equal((await exec(server.httpUrl, "select 1", `Bearer ${good}`)).status, 200);
      await refused(
        await sign(
          key,
          (j) => j.setAudience("qdb-console").setIssuedAt(now - 600).setExpirationTime(now - 300),
        ),
        "expired",
      );
      const other = await idp.signIn("alice", "other-app", CB);
      await refused(other.id_token, "another client's token");
      await refused(
        await sign(
          key,
          (j) => j.setAudience("qdb-console").setIssuer("http://evil.example").setExpirationTime(now + 60),
        ),
        "wrong issuer",
      );
      const { privateKey: forger } = await generateKeyPair("RS256");
      await refused(
        await sign(forger, (j) => j.setAudience("qdb-console").setExpirationTime(now + 60)),
        "forged signature",
      );
      await refused(
        await sign(
          new TextEncoder().encode("x".repeat(32)),
          (j) => j.setAudience("qdb-console").setExpirationTime(now + 60),
          "HS256",
        ),
        "HMAC",
      );
      const none = `${btoa(JSON.stringify({ alg: "none" }))}.${
        btoa(JSON.stringify({ ...claims, aud: "qdb-console", exp: now + 60 }))
      }.`.replaceAll("=", "");
      await refused(none, "alg=none");
      await refused(alice.access_token, "an opaque access token");
    } finally {
      await server.stop();
      await idp.close();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
