/**
 * Single sign-on in a real browser (Debian Chromium through playwright-core) against a real
 * OpenID Connect provider (npm oidc-provider): the console redirects to the provider with a
 * PKCE S256 challenge and a state, the user signs in and consents on the provider's own pages,
 * the console exchanges the code, runs a query with the Bearer token, shows the user's name,
 * refreshes the short-lived access token, and logs out. A user without the HTTP permission and
 * a user with empty groups are authenticated but see the refusal on the login screen.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  ensureConsoleBuilt,
  hasChromium,
  launchConsoleBrowser,
  runWithKeyboard,
  setEditorText,
} from "./console_browser.ts";
import { loginAtProvider, startIdp } from "./oidc_provider.ts";
import { freePort, startServer } from "./server_process.ts";

// deno-lint-ignore no-explicit-any
declare const localStorage: any;

/** Clicks the SSO button and walks the provider's login and consent pages. */
async function signInAtProvider(page: Page, issuer: string, user: string): Promise<void> {
  await page.getByTestId("sso-login-button").click();
  await loginAtProvider(page, issuer, user);
}

Deno.test({
  name:
    "console signs in with OIDC + PKCE at a real provider, queries, refreshes, logs out, and shows refusals",
  ignore: !hasChromium(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureConsoleBuilt();
    const port = freePort();
    const origin = `http://127.0.0.1:${port}`;
    const idp = await startIdp({
      accounts: {
        alice: { name: "Alice Analyst", groups: ["idp-readers"] },
        nora: { name: "Nora NoHttp", groups: ["idp-nohttp"] },
        emma: { name: "Emma Empty", groups: [] },
      },
      clients: { "qdb-console": [`${origin}/index.html`, `${origin}/`] },
      accessTokenTtlS: 8,
    });
    const server = await startServer({
      env: {
        QDB_HTTP_BIND_TO: `127.0.0.1:${port}`,
        QDB_ACL_ENABLED: "true",
        QDB_ACL_OIDC_ENABLED: "true",
        QDB_ACL_OIDC_CLIENT_ID: "qdb-console",
        QDB_ACL_OIDC_CONFIGURATION_URL: idp.discoveryUrl,
        QDB_ACL_OIDC_CACHE_TTL: "1000",
        QDB_ACL_OIDC_SCOPE: "openid profile",
      },
    });
    const admin = { authorization: "Basic " + btoa("admin:quest") };
    for (
      const sql of [
        "create table t (ts timestamp, a int) timestamp(ts) partition by day",
        "insert into t values ('2024-01-01T00:00:00Z', 42)",
        "create group readers with external alias 'idp-readers'",
        "grant http to readers",
        "grant select on t to readers",
        "create group nohttp with external alias 'idp-nohttp'",
        "grant select on t to nohttp",
      ]
    ) {
      const r = await fetch(`${server.httpUrl}/exec?query=${encodeURIComponent(sql)}`, { headers: admin });
      assert.equal(r.status, 200, await r.text());
    }
    const browser = await launchConsoleBrowser();
    const execAuth: string[] = [];
    browser.context.on("request", (r) => {
      if (new URL(r.url()).pathname === "/exec") execAuth.push(r.headers()["authorization"] ?? "");
    });
    try {
      const page = browser.page;
      await page.goto(`${origin}/`);
      await page.locator('[data-testid="app-root"][data-state="login"]').waitFor({ timeout: 20_000 });
      await signInAtProvider(page, idp.issuer, "alice");
      await page.locator('[data-testid="app-root"][data-state="ready"]').waitFor({ timeout: 20_000 }).catch(
        async (err) => {
          throw new Error(
            `not ready at ${page.url()}: ${(await page.locator("body").textContent())?.slice(0, 500)}`,
            { cause: err },
          );
        },
      );
      assert.equal(await page.getByTestId("current-user").textContent({ timeout: 10_000 }), "alice");

      const authorize = idp.authorizeRequests.at(-1)!;
      assert.equal(authorize.get("response_type"), "code");
      assert.equal(authorize.get("code_challenge_method"), "S256");
      assert.match(authorize.get("code_challenge") ?? "", /^[A-Za-z0-9_-]{43}$/);
      assert.ok((authorize.get("state") ?? "").length >= 60);
      assert.equal(authorize.get("client_id"), "qdb-console");
      assert.equal(authorize.get("scope"), "openid profile");
      assert.equal(authorize.get("redirect_uri"), `${origin}/index.html`);
      assert.deepEqual(idp.tokenRequests[0], { grantType: "authorization_code", codeVerifier: true });
      assert.ok(!/[?&](code|state)=/.test(page.url()), page.url());
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
      assert.ok(!/eyJ|Bearer/.test(stored), "no token in localStorage");

      await setEditorText(page, "select a from t");
      await runWithKeyboard(page);
      const entry = page.getByTestId("query-log-entry").first();
      assert.equal(await entry.getAttribute("data-status"), "success");
      assert.ok(execAuth.length > 0 && execAuth.every((h) => h.startsWith("Bearer ")));

      // The 8 s access token is refreshed before it expires; queries keep working after its end.
      const deadline = Date.now() + 15_000;
      while (!idp.tokenRequests.some((t) => t.grantType === "refresh_token") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.ok(idp.tokenRequests.some((t) => t.grantType === "refresh_token"), "a refresh_token grant");
      await new Promise((r) => setTimeout(r, 5_000)); // past the first token's expiry
      await setEditorText(page, "select count(*) from t");
      await runWithKeyboard(page);
      assert.equal(await page.getByTestId("query-log-entry").first().getAttribute("data-status"), "success");
      assert.ok(new Set(execAuth).size >= 2, "a new token was sent after the refresh");

      await page.getByTestId("logout-button").click();
      await page.locator('[data-testid="app-root"][data-state="login"]').waitFor({ timeout: 10_000 });

      // Without the HTTP permission (and with empty groups) the login does not succeed and says why.
      for (const user of ["nora", "emma"]) {
        await signInAtProvider(page, idp.issuer, user);
        await page.locator('[data-testid="app-root"][data-state="login"]').waitFor({ timeout: 20_000 });
        const error = await page.getByTestId("login-error").textContent({ timeout: 10_000 });
        assert.match(
          error ?? "",
          new RegExp(`Not authorized to use the Web Console: Access denied for ${user} \\[HTTP\\]`),
        );
      }
    } finally {
      await browser.close();
      await server.stop();
      await idp.close();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
