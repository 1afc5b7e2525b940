/**
 * The set-up of the console single sign-on tests: a real OpenID Connect provider (npm
 * oidc-provider) with alice in group idp-readers, and the server on a free port whose console
 * is the provider's registered public client, with that group mapped to a readers group
 * holding HTTP.
 */
import assert from "node:assert/strict";
import { startIdp, type TestIdp } from "./oidc_provider.ts";
import { freePort, type ServerProcess, startServer } from "./server_process.ts";

/**
 * Provider and server; `endSession` sets acl.oidc.end.session.endpoint (unset: not configured).
 */
export async function startSsoConsole(endSession?: string): Promise<
  { idp: TestIdp; server: ServerProcess; origin: string }
> {
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  const idp = await startIdp({
    accounts: { alice: { name: "Alice Analyst", groups: ["idp-readers"] } },
    clients: {
      "qdb-console": {
        redirectUris: [`${origin}/index.html`, `${origin}/`],
        postLogoutRedirectUris: [`${origin}/`],
      },
    },
  });
  const env: Record<string, string> = {
    QDB_HTTP_BIND_TO: `127.0.0.1:${port}`,
    QDB_ACL_ENABLED: "true",
    QDB_ACL_OIDC_ENABLED: "true",
    QDB_ACL_OIDC_CLIENT_ID: "qdb-console",
    QDB_ACL_OIDC_CONFIGURATION_URL: idp.discoveryUrl,
    QDB_ACL_OIDC_SCOPE: "openid profile",
  };
  if (endSession !== undefined) env.QDB_ACL_OIDC_END_SESSION_ENDPOINT = endSession;
  const server = await startServer({ env });
  const admin = { authorization: "Basic " + btoa("admin:quest") };
  for (const sql of ["create group readers with external alias 'idp-readers'", "grant http to readers"]) {
    const r = await fetch(`${server.httpUrl}/exec?query=${encodeURIComponent(sql)}`, { headers: admin });
    assert.equal(r.status, 200, await r.text());
  }
  return { idp, server, origin };
}
