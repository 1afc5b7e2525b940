/**
 * The console when the browser's IndexedDB never answers (headless and some private modes): the
 * open request fires no event at all. The console must not hang on "Loading…": after a short
 * deadline (console/ui/idb_store.ts) it runs with tabs and history in memory and says so.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import {
  ensureConsoleBuilt,
  hasChromium,
  launchConsoleBrowser,
  openConsole,
  runWithKeyboard,
  setEditorText,
} from "./console_browser.ts";

const ignore = !hasChromium();
if (ignore) console.log("console e2e skipped: /usr/bin/chromium is missing (run .ci/install_browser.sh)");

Deno.test({
  name: "console: an IndexedDB that never answers does not hang the console",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  await ensureConsoleBuilt();
  const server = await startServer();
  const browser = await launchConsoleBrowser();
  try {
    // A working IndexedDB: no notice.
    await openConsole(browser.page, server.httpUrl);
    assert.equal(await browser.page.getByTestId("storage-notice").count(), 0);

    const page = await browser.context.newPage();
    await page.addInitScript(() => {
      // deno-lint-ignore no-explicit-any
      const g = globalThis as any;
      // A request object whose events never fire, as a stuck IndexedDB hands out.
      g.indexedDB.open = () => ({
        result: undefined,
        error: null,
        readyState: "pending",
        onsuccess: null,
        onerror: null,
        onupgradeneeded: null,
        onblocked: null,
        addEventListener() {},
        removeEventListener() {},
      });
    });
    const started = Date.now();
    await page.goto(`${server.httpUrl}/`);
    await page.locator('[data-testid="app-root"][data-state="ready"]').waitFor({ timeout: 10_000 });
    const waited = Date.now() - started;
    assert.ok(waited < 8_000, `ready after ${waited} ms`);
    await page.getByTestId("storage-notice").waitFor();
    assert.match(await page.getByTestId("storage-notice").textContent() ?? "", /History not saved/);
    // The console works without persistence: a query runs and lands in the (in-memory) log.
    await setEditorText(page, "select 41 + 1 answer");
    await runWithKeyboard(page);
    assert.equal(
      await page.locator('[data-testid="grid-cell"][data-row="0"][data-col="0"]').textContent(),
      "42",
    );
    await page.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
