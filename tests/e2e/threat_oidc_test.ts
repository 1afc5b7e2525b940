/**
 * Threat-model rows of spec/security.md §7 about single sign-on that oidc_http_test.ts does not
 * already show, against a real provider (npm oidc-provider): T4 a token signed with the right
 * key material but naming a key id the JWKS does not publish; T6 a cached verification never
 * outlives the token's own `exp`, however long acl.oidc.cache.ttl is; T7/T8 in Mode B (groups
 * in the token) an empty groups claim or a QuestDB group *name* grants nothing; T22 /settings
 * publishes only the provider's configured endpoints, and the server runs no code exchange of
 * its own (the console does it with PKCE).
 */
import assert from "node:assert/strict";
import { importJWK, SignJWT } from "jose";
import { startIdp } from "./oidc_provider.ts";
import { startServer } from "./server_process.ts";

const CB = "http://127.0.0.1:9/cb";
const ADMIN = "Basic " + btoa("admin:quest");

async function exec(url: string, sql: string, auth?: string) {
  const res = await fetch(`${url}/exec?query=${encodeURIComponent(sql)}`, {
    headers: auth ? { authorization: auth } : {},
  });
  return { status: res.status, body: await res.text() };
}

Deno.test({
  name:
    "threat model (security.md §7, OIDC): unknown kid, cache bounded by exp, group spoofing, no code exchange",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const idp = await startIdp({
      accounts: { alice: { name: "Alice", groups: ["idp-readers"] } },
      clients: { "qdb-console": [CB] },
    });
    const server = await startServer({
      env: {
        QDB_ACL_ENABLED: "true",
        QDB_ACL_OIDC_ENABLED: "true",
        QDB_ACL_OIDC_CLIENT_ID: "qdb-console",
        QDB_ACL_OIDC_CONFIGURATION_URL: idp.discoveryUrl,
        QDB_ACL_OIDC_GROUPS_ENCODED_IN_TOKEN: "true",
        QDB_ACL_OIDC_CACHE_TTL: "600000", // ten minutes: only the token's exp may end a cache entry early
      },
    });
    try {
      for (const sql of ["create group readers with external alias 'idp-readers'", "grant http to readers"]) {
        assert.equal((await exec(server.httpUrl, sql, ADMIN)).status, 200);
      }
      const key = await importJWK(idp.signingKey, "RS256");
      const now = () => Math.floor(Date.now() / 1000);
      const token = (claims: Record<string, unknown>, exp: number, kid = "test-key") =>
        new SignJWT({ sub: "alice", ...claims }).setProtectedHeader({ alg: "RS256", kid }).setIssuer(
          idp.issuer,
        )
          .setAudience("qdb-console").setIssuedAt(now()).setExpirationTime(exp).sign(key);

      await t.step("T4: a key id the provider's JWKS does not publish is refused", async () => {
        const good = await token({ groups: ["idp-readers"] }, now() + 60);
        assert.equal((await exec(server.httpUrl, "select 1", `Bearer ${good}`)).status, 200);
        const wrongKid = await token({ groups: ["idp-readers"] }, now() + 60, "no-such-key");
        assert.equal((await exec(server.httpUrl, "select 1", `Bearer ${wrongKid}`)).status, 401);
      });

      await t.step("T6: a cached token stops working at its exp, not at the cache TTL", async () => {
        const shortLived = await token({ groups: ["idp-readers"] }, now() + 2);
        assert.equal((await exec(server.httpUrl, "select 1", `Bearer ${shortLived}`)).status, 200);
        // Past exp plus the 5 s clock-skew allowance jose is given (CLOCK_SKEW_S in the server).
        await new Promise((r) => setTimeout(r, 7_300));
        assert.equal((await exec(server.httpUrl, "select 1", `Bearer ${shortLived}`)).status, 401);
      });

      await t.step("T7/T8: empty groups and group names that are not aliases grant nothing", async () => {
        for (const groups of [[], ["readers"], undefined]) {
          const claims = groups === undefined ? {} : { groups };
          const r = await exec(server.httpUrl, "select 1", `Bearer ${await token(claims, now() + 60)}`);
          assert.equal(r.status, 403, `${JSON.stringify(groups)}: ${r.body}`);
        }
      });

      await t.step(
        "T22: /settings publishes the provider's own endpoints; the server exchanges no codes",
        async () => {
          const config = JSON.parse(await (await fetch(`${server.httpUrl}/settings`)).text()).config;
          const discovery = await (await fetch(idp.discoveryUrl)).json();
          assert.equal(config["acl.oidc.authorization.endpoint"], discovery.authorization_endpoint);
          assert.equal(config["acl.oidc.token.endpoint"], discovery.token_endpoint);
          assert.equal(config["acl.oidc.pkce.required"], true);
          for (
            const path of [
              "/token",
              "/oauth2/token",
              "/callback?code=abc&state=x",
              "/auth?redirect_uri=http://evil.example",
            ]
          ) {
            const r = await fetch(`${server.httpUrl}${path}`, {
              method: path.startsWith("/callback") ? "GET" : "POST",
              redirect: "manual",
            });
            const body = await r.text();
            assert.ok(!/access_token|id_token/.test(body), `${path} answered with tokens`);
            assert.ok(
              !(r.headers.get("location") ?? "").includes("evil.example"),
              `${path} redirects off-site`,
            );
          }
        },
      );
    } finally {
      await server.stop();
      await idp.close();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
