/**
 * The console's password login on a server with access control, in a real browser (Debian
 * Chromium): the login opens the server's cookie session (`session=true`, spec/console.md
 * §1.3), no credential is stored in the browser, a reload resumes through the cookie, the CSV
 * download streams through `/exp` on the cookie alone, and logout ends the session.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import {
  ensureConsoleBuilt,
  hasChromium,
  launchConsoleBrowser,
  runWithKeyboard,
  setEditorText,
} from "./console_browser.ts";

const ignore = !hasChromium();
if (ignore) console.log("console e2e skipped: /usr/bin/chromium is missing (run .ci/install_browser.sh)");

// deno-lint-ignore no-explicit-any
declare const localStorage: any;
// deno-lint-ignore no-explicit-any
declare const sessionStorage: any;

Deno.test({
  name: "console: password login with a server session cookie",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  await ensureConsoleBuilt();
  const server = await startServer({ env: { QDB_ACL_ENABLED: "true" } });
  const browser = await launchConsoleBrowser();
  const { page } = browser;
  const seen: { url: string; auth: string }[] = [];
  browser.context.on("request", (r) => seen.push({ url: r.url(), auth: r.headers()["authorization"] ?? "" }));
  const state = (s: string) => page.locator(`[data-testid="app-root"][data-state="${s}"]`);
  const signIn = async (user: string, password: string) => {
    await page.getByTestId("login-username").fill(user);
    await page.getByTestId("login-password").fill(password);
    await page.getByTestId("login-submit").click();
  };
  try {
    await t.step("a wrong password is refused on the login screen", async () => {
      await page.goto(`${server.httpUrl}/`);
      await state("login").waitFor({ timeout: 20_000 });
      await signIn("admin", "wrong");
      assert.equal(await page.getByTestId("login-error").textContent(), "Invalid username or password");
    });

    await t.step("the login opens a session and stores no credential", async () => {
      await signIn("admin", "quest");
      await state("ready").waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId("current-user").textContent({ timeout: 10_000 }), "admin");
      const login = seen.find((r) => r.url.includes("session=true") && r.auth.startsWith("Basic "));
      assert.ok(login, "the login probe asked for a session");
      const cookies = await browser.context.cookies();
      const session = cookies.find((c) => c.name === "qdb_session");
      assert.ok(session?.httpOnly, "the server set an HttpOnly session cookie");
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
      assert.ok(!/quest|Basic|YWRtaW46/.test(stored), `no credential stored: ${stored}`);
    });

    await t.step("a reload resumes on the cookie, without the password", async () => {
      const from = seen.length;
      await page.reload();
      await state("ready").waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId("current-user").textContent({ timeout: 10_000 }), "admin");
      await setEditorText(page, "select x from long_sequence(3)");
      await runWithKeyboard(page);
      assert.equal(await page.getByTestId("query-log-entry").first().getAttribute("data-status"), "success");
      const execs = seen.slice(from).filter((r) => new URL(r.url).pathname === "/exec");
      assert.ok(
        execs.length > 0 && execs.every((r) => r.auth === ""),
        "no Authorization header after reload",
      );
    });

    await t.step("the CSV download streams through /exp on the cookie alone", async () => {
      await setEditorText(page, "select x from long_sequence(2500)");
      await runWithKeyboard(page);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("download-csv-button").click(),
      ]);
      const text = await Deno.readTextFile((await download.path())!);
      assert.equal(text.trim().split("\n").length, 2501, "a header and every row");
      const exp = seen.filter((r) => new URL(r.url).pathname === "/exp").pop();
      assert.ok(exp && exp.auth === "", "/exp carried no Authorization header");
      assert.ok(!/Basic|Bearer|YWRtaW46|password|token/i.test(exp.url), "no credential in the URL");
    });

    await t.step("logout ends the server session", async () => {
      await page.getByTestId("logout-button").click();
      await state("login").waitFor({ timeout: 10_000 });
      await page.waitForFunction(async () => (await fetch("exec?query=select%201")).status === 401, null, {
        timeout: 10_000,
      });
      await page.reload();
      await state("login").waitFor({ timeout: 20_000 });
    });
  } finally {
    await browser.close();
    await server.stop();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});
