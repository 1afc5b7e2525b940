/**
 * The console's query log lists the statements running on the server (query_activity()) and
 * cancels one (issue 22): a long query started in one browser page is listed in another page's
 * expanded query log, its Cancel button runs CANCEL QUERY, and the first page's log reports the
 * query cancelled by the server. The list is polled only while the log is expanded.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import {
  ensureConsoleBuilt,
  hasChromium,
  launchConsoleBrowser,
  openConsole,
  setEditorText,
} from "./console_browser.ts";

const ignore = !hasChromium();
if (ignore) console.log("console e2e skipped: /usr/bin/chromium is missing (run .ci/install_browser.sh)");

// Minutes of work unless cancelled (the same shape tests/e2e/cancel_query_test.ts uses).
const LONG_QUERY = "select sum(a.x * b.x) from long_sequence(100000) a cross join long_sequence(100000) b";

// deno-lint-ignore no-explicit-any
declare const document: any;

Deno.test({
  name: "console: the query log lists running statements and cancels one with CANCEL QUERY",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  await ensureConsoleBuilt();
  const server = await startServer();
  const browser = await launchConsoleBrowser();
  try {
    const runner = browser.page;
    await openConsole(runner, server.httpUrl);
    await setEditorText(runner, LONG_QUERY);
    await runner.getByTestId("editor-input").focus();
    await runner.keyboard.press("Control+Enter");
    await runner.locator('[data-testid="query-log-entry"][data-status="running"]').first().waitFor({
      timeout: 10_000,
    });

    const watcher = await browser.context.newPage();
    await openConsole(watcher, server.httpUrl);
    // Collapsed: nothing polls query_activity().
    const polls = () => browser.requests.filter((u) => u.includes("query_activity")).length;
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(polls(), 0, "no polling while the query log is collapsed");

    await watcher.getByTestId("query-log-toggle").click();
    const row = watcher.locator(`[data-testid="running-query"][data-query="${LONG_QUERY}"]`);
    await row.waitFor({ timeout: 10_000 });
    const id = await row.getAttribute("data-query-id");
    assert.match(id ?? "", /^\d+$/, "the row carries the server's query_id");
    assert.equal(await row.getAttribute("data-state"), "active");
    assert.equal(
      await watcher.locator(`[data-testid="running-query"][data-query*="query_activity"]`).count(),
      0,
      "the console's own poll is not listed",
    );

    await row.getByTestId("running-query-cancel").click();
    const sent = browser.requests.find((u) => {
      const q = new URL(u).searchParams.get("query");
      return q === `CANCEL QUERY ${id}`;
    });
    assert.ok(sent, "the Cancel button sent CANCEL QUERY <id> to /exec");

    // The long query's own page reports it stopped by the server.
    const entry = runner.locator('[data-testid="query-log-entry"]').first();
    await runner.waitForFunction(
      () =>
        document.querySelector('[data-testid="query-log-entry"]')?.getAttribute("data-status") !== "running",
      undefined,
      { timeout: 15_000 },
    );
    assert.equal(await entry.getAttribute("data-status"), "error");
    assert.match(await entry.getByTestId("log-summary").textContent() ?? "", /cancelled by user/);

    // It leaves the list; collapsing stops the polling.
    await row.waitFor({ state: "detached", timeout: 10_000 });
    assert.ok(polls() > 0);
    await watcher.getByTestId("query-log-toggle").click();
    await new Promise((r) => setTimeout(r, 300));
    const afterCollapse = polls();
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(polls(), afterCollapse, "polling stops when the log is collapsed");
  } finally {
    await browser.close();
    await server.stop();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});
