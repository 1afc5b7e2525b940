/**
 * RP-initiated logout in a real browser (Debian Chromium) against a real OpenID Connect
 * provider (npm oidc-provider), spec/console.md §3 item 3: with
 * `acl.oidc.end.session.endpoint=auto` the server publishes the provider's end_session_endpoint
 * in /settings, and logout drops the tokens and the server session, sends the browser to that
 * endpoint (client_id, id_token_hint, post_logout_redirect_uri), and after the provider's
 * confirmation comes back to the console's login screen; the provider's session is gone, so
 * "Continue as <user>" shows the provider's login page instead of signing in silently.
 * Without the key /settings publishes null and logout stays on the console's origin.
 */
import assert from "node:assert/strict";
import {
  ensureConsoleBuilt,
  hasChromium,
  launchConsoleBrowser,
  runWithKeyboard,
  setEditorText,
} from "./console_browser.ts";
import { loginAtProvider } from "./oidc_provider.ts";
import type { ServerProcess } from "./server_process.ts";
import { startSsoConsole } from "./sso_console.ts";

// deno-lint-ignore no-explicit-any
declare const localStorage: any;

async function published(server: ServerProcess): Promise<unknown> {
  const res = await fetch(`${server.httpUrl}/settings`);
  assert.equal(res.status, 200);
  const body = await res.json();
  const config = body.config ?? body;
  assert.ok("acl.oidc.end.session.endpoint" in config, "the key is always published");
  return config["acl.oidc.end.session.endpoint"];
}

Deno.test({
  name: "console: logout with acl.oidc.end.session.endpoint=auto ends the provider's session",
  ignore: !hasChromium(),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await ensureConsoleBuilt();
  const { idp, server, origin } = await startSsoConsole("auto");
  const browser = await launchConsoleBrowser();
  const page = browser.page;
  const state = (s: string) => page.locator(`[data-testid="app-root"][data-state="${s}"]`);
  const user = () => page.getByTestId("current-user").textContent({ timeout: 10_000 });
  try {
    await t.step("/settings publishes the discovered end_session_endpoint", async () => {
      const discovery = await (await fetch(idp.discoveryUrl)).json();
      assert.equal(discovery.end_session_endpoint, `${idp.issuer}/session/end`);
      assert.equal(await published(server), discovery.end_session_endpoint);
    });

    await t.step("sign in through the provider's pages and run a query", async () => {
      await page.goto(`${origin}/`);
      await state("login").waitFor({ timeout: 20_000 });
      await page.getByTestId("sso-login-button").click();
      await loginAtProvider(page, idp.issuer, "alice");
      await state("ready").waitFor({ timeout: 20_000 });
      assert.equal(await user(), "alice");
      await setEditorText(page, "select 1 one");
      await runWithKeyboard(page);
      assert.equal(await page.getByTestId("query-log-entry").first().getAttribute("data-status"), "success");
    });

    await t.step(
      "logout goes to the provider's end_session endpoint and back to the login screen",
      async () => {
        const sessionClosed = page.waitForRequest((r) => r.url().includes("session=false"), {
          timeout: 10_000,
        });
        await page.getByTestId("logout-button").click();
        await sessionClosed;
        await page.waitForURL((u) => u.toString().startsWith(`${idp.issuer}/session/end`), {
          timeout: 15_000,
        });
        assert.equal(idp.endSessionRequests.length, 1);
        const p = idp.endSessionRequests[0];
        assert.equal(p.get("client_id"), "qdb-console");
        assert.equal(p.get("post_logout_redirect_uri"), `${origin}/`);
        const hint = p.get("id_token_hint") ?? "";
        assert.match(hint, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/, "the ID token as id_token_hint");
        const claims = JSON.parse(atob(hint.split(".")[1].replaceAll("-", "+").replaceAll("_", "/")));
        assert.equal(claims.sub, "alice");
        // The provider's confirmation page.
        await page.locator('button[name="logout"][value="yes"]').click();
        await page.waitForURL((u) => u.toString().startsWith(origin), { timeout: 15_000 });
        await state("login").waitFor({ timeout: 20_000 });
        assert.equal(new URL(page.url()).origin, origin);
        assert.equal(await page.getByTestId("sso-continue-button").textContent(), "Continue as alice");
        const stored = await page.evaluate(() => ({ ...localStorage }));
        assert.equal(stored["sso.session.active"], undefined);
        assert.ok(!/eyJ|Bearer/.test(JSON.stringify(stored)), "no token in localStorage");
        // The server session is gone too: a credential-less query from the page is refused.
        const status = await page.evaluate(() =>
          fetch("/exec?query=select%201", { credentials: "same-origin" }).then((r) => r.status)
        );
        assert.equal(status, 401);
      },
    );

    await t.step("Continue as now shows the provider's login page (no silent sign-in)", async () => {
      const before = idp.authorizeRequests.length;
      await page.getByTestId("sso-continue-button").click();
      await page.waitForURL((u) => u.toString().startsWith(idp.issuer), { timeout: 15_000 });
      await page.locator('input[name="login"]').waitFor({ timeout: 15_000 });
      assert.equal(idp.authorizeRequests.length, before + 1);
      assert.equal(idp.authorizeRequests[before].get("prompt"), null, "no prompt=login was asked for");
      // Signing in again works.
      await loginAtProvider(page, idp.issuer, "alice");
      await state("ready").waitFor({ timeout: 20_000 });
      assert.equal(await user(), "alice");
    });

    await t.step("the SSO button also shows the provider's login page after a second logout", async () => {
      await page.getByTestId("logout-button").click();
      await page.waitForURL((u) => u.toString().startsWith(`${idp.issuer}/session/end`), { timeout: 15_000 });
      await page.locator('button[name="logout"][value="yes"]').click();
      await state("login").waitFor({ timeout: 20_000 });
      await page.getByTestId("sso-login-button").click();
      await page.waitForURL((u) => u.toString().startsWith(idp.issuer), { timeout: 15_000 });
      await page.locator('input[name="login"]').waitFor({ timeout: 15_000 });
    });
  } finally {
    await browser.close();
    await server.stop();
    await idp.close();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});

Deno.test({
  name: "console: without acl.oidc.end.session.endpoint logout stays on the console",
  ignore: !hasChromium(),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await ensureConsoleBuilt();
  const { idp, server, origin } = await startSsoConsole();
  const browser = await launchConsoleBrowser();
  const page = browser.page;
  const state = (s: string) => page.locator(`[data-testid="app-root"][data-state="${s}"]`);
  try {
    assert.equal(await published(server), null);
    await page.goto(`${origin}/`);
    await state("login").waitFor({ timeout: 20_000 });
    await page.getByTestId("sso-login-button").click();
    await loginAtProvider(page, idp.issuer, "alice");
    await state("ready").waitFor({ timeout: 20_000 });
    const navigations: string[] = [];
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) navigations.push(f.url());
    });
    await page.getByTestId("logout-button").click();
    await state("login").waitFor({ timeout: 10_000 });
    await page.waitForTimeout(500);
    assert.equal(new URL(page.url()).origin, origin);
    assert.deepEqual(navigations.filter((u) => !u.startsWith(origin)), [], "never left the console");
    assert.equal(idp.endSessionRequests.length, 0);
    assert.equal(await page.getByTestId("sso-continue-button").textContent(), "Continue as alice");
  } finally {
    await browser.close();
    await server.stop();
    await idp.close();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});
