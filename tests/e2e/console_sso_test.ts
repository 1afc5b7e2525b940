/**
 * Single sign-on across reloads, in a real browser (Debian Chromium) against a real OpenID
 * Connect provider (npm oidc-provider): a reload goes back to the provider with `prompt=none`
 * and is signed in again without a login page; after logout the login screen offers
 * "Continue as <user>" (no prompt) and "Choose a different account" (`prompt=login`); when the
 * provider's session is gone the silent attempt ends on the login screen without an error and
 * without a redirect loop; a 401 is recovered once with a refresh token, a second refusal signs
 * out (spec/console.md §2.14.3, §2.14.6, §2.14.7, P0 item 3).
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
import { startSsoConsole } from "./sso_console.ts";

// deno-lint-ignore no-explicit-any
declare const localStorage: any;
// deno-lint-ignore no-explicit-any
declare const document: any;
// deno-lint-ignore no-explicit-any
declare const MutationObserver: any;

Deno.test({
  name: "console: SSO reload is silent, Continue as, and an ended provider session",
  ignore: !hasChromium(),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await ensureConsoleBuilt();
  const { idp, server, origin } = await startSsoConsole();
  const browser = await launchConsoleBrowser();
  const page = browser.page;
  const state = (s: string) => page.locator(`[data-testid="app-root"][data-state="${s}"]`);
  const user = () => page.getByTestId("current-user").textContent({ timeout: 10_000 });
  try {
    await t.step("sign in with SSO; only non-secret crumbs are stored", async () => {
      await page.goto(`${origin}/`);
      await state("login").waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId("sso-continue-button").count(), 0, "nobody to continue as yet");
      await page.getByTestId("sso-login-button").click();
      await loginAtProvider(page, idp.issuer, "alice");
      await state("ready").waitFor({ timeout: 20_000 });
      assert.equal(await user(), "alice");
      const stored = await page.evaluate(() => ({ ...localStorage }));
      assert.equal(stored["sso.session.active"], "true");
      assert.equal(stored["sso.username.qdb-console"], "alice");
      assert.ok(!/eyJ|Bearer/.test(JSON.stringify(stored)), "no token in localStorage");
    });

    await t.step("a reload signs in again silently with prompt=none", async () => {
      const before = idp.authorizeRequests.length;
      const states: string[] = [];
      const record = (s: string | null) => s && states.push(s);
      await page.exposeFunction("recordAppState", record);
      await page.addInitScript(() => {
        // Records every state app-root goes through, to prove the login screen never showed.
        new MutationObserver(() => {
          const s = document.querySelector('[data-testid="app-root"]')?.getAttribute("data-state");
          // deno-lint-ignore no-explicit-any
          if (s) (globalThis as any).recordAppState(s);
        }).observe(document, { subtree: true, childList: true, attributes: true });
      });
      await page.reload();
      await state("ready").waitFor({ timeout: 20_000 });
      assert.equal(await user(), "alice");
      const silent = idp.authorizeRequests.slice(before);
      assert.equal(silent.length, 1);
      assert.equal(silent[0].get("prompt"), "none");
      assert.ok(
        states.includes("ready") && !states.includes("login"),
        `no login screen: ${states.join(",")}`,
      );
      assert.ok(!/[?&](code|state)=/.test(page.url()), page.url());
    });

    await t.step("after logout, Continue as signs back in without a prompt", async () => {
      await page.getByTestId("logout-button").click();
      await state("login").waitFor({ timeout: 10_000 });
      assert.equal(await page.getByTestId("sso-continue-button").textContent(), "Continue as alice");
      assert.equal(await page.getByTestId("sso-login-button").textContent(), "Choose a different account");
      const stored = await page.evaluate(() => ({ ...localStorage }));
      assert.equal(stored["sso.session.active"], undefined, "logout ends the silent re-auth");
      const before = idp.authorizeRequests.length;
      await page.getByTestId("sso-continue-button").click();
      await state("ready").waitFor({ timeout: 20_000 });
      assert.equal(await user(), "alice");
      assert.equal(idp.authorizeRequests[before].get("prompt"), null);
    });

    await t.step("a 401 is recovered once with a refresh; a second refusal signs out", async () => {
      let refuse = 1;
      const sent: string[] = [];
      await page.route(/\/exec\?/, (route) => {
        if (refuse > 0) {
          refuse--;
          return route.fulfill({ status: 401, body: "Unauthorized" });
        }
        sent.push(route.request().headers()["authorization"] ?? "");
        return route.continue();
      });
      const refreshes = () => idp.tokenRequests.filter((r) => r.grantType === "refresh_token").length;
      const before = refreshes();
      await state("ready").waitFor();
      await setEditorText(page, "select 1 one");
      await runWithKeyboard(page);
      assert.equal(await page.getByTestId("query-log-entry").first().getAttribute("data-status"), "success");
      assert.equal(refreshes(), before + 1, "one refresh_token grant");
      assert.ok(sent.length > 0 && sent.every((h) => h.startsWith("Bearer ")), "retried with a Bearer token");
      await state("ready").waitFor();

      // Refused again even after the recovery window: back to the login screen.
      await page.unroute(/\/exec\?/);
      await page.route(/\/exec\?/, (route) => route.fulfill({ status: 401, body: "Unauthorized" }));
      await setEditorText(page, "select 2 two");
      await page.getByTestId("editor-input").focus();
      await page.keyboard.press("Control+Enter");
      await state("login").waitFor({ timeout: 20_000 });
      await page.unroute(/\/exec\?/);
    });

    await t.step("an ended provider session lands on the login screen, once", async () => {
      // Drop the provider's session (cookies are per host, so this drops ours too).
      await browser.context.clearCookies();
      const before = idp.authorizeRequests.length;
      await page.reload();
      await state("login").waitFor({ timeout: 20_000 });
      assert.equal(idp.authorizeRequests.length, before + 1, "one silent attempt, no loop");
      assert.equal(idp.authorizeRequests[before].get("prompt"), "none");
      assert.equal(await page.getByTestId("login-error").count(), 0, "not shown as an error");
      assert.equal(await page.getByTestId("sso-continue-button").textContent(), "Continue as alice");
      assert.ok(!/[?&](code|state|error)=/.test(page.url()), page.url());
      // Another reload does not try again silently.
      await page.reload();
      await state("login").waitFor({ timeout: 20_000 });
      assert.equal(idp.authorizeRequests.length, before + 1);
    });
  } finally {
    await browser.close();
    await server.stop();
    await idp.close();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});
