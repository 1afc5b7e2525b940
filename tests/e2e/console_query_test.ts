/**
 * The console in a real browser (Debian Chromium): run a query with the keyboard and see the
 * rows, the error marker at the server's position, autocomplete of a table created a moment
 * before, tabs kept across a reload, and no request to any other host (spec/console.md §6.3).
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { editorText, ensureConsoleBuilt, hasChromium, launchConsoleBrowser, openConsole, runWithKeyboard, setEditorText } from "./console_browser.ts";

const ignore = !hasChromium();
if (ignore) console.log("console e2e skipped: /usr/bin/chromium is missing (run .ci/install_browser.sh)");

Deno.test({ name: "console: query, error marker, autocomplete, tabs", ignore, sanitizeOps: false, sanitizeResources: false }, async (t) => {
  await ensureConsoleBuilt();
  const server = await startServer();
  const browser = await launchConsoleBrowser();
  const { page } = browser;
  try {
    await openConsole(page, server.httpUrl);

    await t.step("a query typed and run with Ctrl+Enter shows its rows in the grid", async () => {
      await setEditorText(page, "select x, x*2 as y from long_sequence(5)");
      await runWithKeyboard(page);
      const exec = browser.requests.filter((u) => u.includes("/exec?") && u.includes("long_sequence%285%29")).pop();
      assert.ok(exec, "an /exec request was sent");
      const params = new URL(exec).searchParams;
      assert.equal(params.get("count"), "true");
      assert.equal(params.get("timings"), "true");
      assert.equal(params.get("limit"), "0,1000");
      assert.equal(await page.getByTestId("result-row-count").textContent(), "5");
      assert.equal(await page.getByTestId("grid-row").count(), 5);
      assert.deepEqual(await page.getByTestId("grid-header-cell").evaluateAll((els) => els.map((e) => e.getAttribute("data-type"))), ["long", "long"]);
      assert.equal(await page.locator('[data-testid="grid-cell"][data-row="4"][data-col="1"]').textContent(), "10");
      const entry = page.getByTestId("query-log-entry").first();
      assert.equal(await entry.getAttribute("data-status"), "success");
      assert.match(await entry.getByTestId("timing-execute").textContent() ?? "", /\d/);
      assert.match(await entry.getByTestId("timing-total").textContent() ?? "", /\d/);
    });

    await t.step("F9 runs too, and 64-bit integers keep every digit", async () => {
      await setEditorText(page, "select 9007199254740993 big");
      await runWithKeyboard(page, "F9");
      assert.equal(await page.locator('[data-testid="grid-cell"][data-row="0"][data-col="0"]').textContent(), "9007199254740993");
    });

    await t.step("a wrong query shows the server's error and a marker under the reported character", async () => {
      const sql = "select * from long_sequence(10) where nope > 1";
      await setEditorText(page, sql);
      await runWithKeyboard(page);
      const marker = page.getByTestId("editor-error-marker").first();
      await marker.waitFor();
      const from = sql.indexOf("nope");
      assert.equal(await marker.getAttribute("data-from"), String(from));
      assert.equal(await marker.getAttribute("data-to"), String(from + 4));
      assert.equal(await marker.textContent(), "nope");
      assert.match(await page.getByTestId("result-error-message").textContent() ?? "", /nope/);
      assert.equal(await page.getByTestId("query-log-entry").first().getAttribute("data-status"), "error");
      await marker.hover();
      await page.getByTestId("editor-error-message").waitFor();
      assert.match(await page.getByTestId("editor-error-message").textContent() ?? "", /nope/);
    });

    await t.step("the marker maps back through the statement offset when the error is in a later statement", async () => {
      const sql = "select 1;\n\nselect x from long_sequence(3) where missing_col = 2;";
      await setEditorText(page, sql);
      await runWithKeyboard(page);
      const marker = page.getByTestId("editor-error-marker").first();
      await marker.waitFor();
      assert.equal(await marker.getAttribute("data-from"), String(sql.indexOf("missing_col")));
    });

    await t.step("autocomplete offers a table created a moment before, then its columns", async () => {
      await setEditorText(page, "create table trades(ts timestamp, sym symbol, price double) timestamp(ts) partition by day");
      await runWithKeyboard(page);
      await page.locator('[data-testid="schema-table"][data-name="trades"]').waitFor();
      await setEditorText(page, "");
      await page.keyboard.type("select * from tr");
      const option = page.locator('[data-testid="autocomplete-option"][data-kind="table"][data-label="trades"]');
      await option.waitFor();
      await page.getByTestId("autocomplete-popup").waitFor();
      await page.keyboard.press("Enter");
      assert.equal(await editorText(page), "select * from trades ");

      await setEditorText(page, "select  from trades");
      await page.keyboard.press("Home");
      for (let i = 0; i < "select ".length; i++) await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Control+Space");
      for (const [name, type] of [["ts", "timestamp"], ["sym", "symbol"], ["price", "double"]]) {
        const col = page.locator(`[data-testid="autocomplete-option"][data-kind="column"][data-label="${name}"]`);
        await col.waitFor();
        assert.equal(await col.getAttribute("data-type"), type);
      }
      await page.keyboard.press("Escape");
    });

    await t.step("the schema explorer marks the designated timestamp and partitioning", async () => {
      const table = page.locator('[data-testid="schema-table"][data-name="trades"]');
      assert.equal(await table.getAttribute("data-partition-by"), "DAY");
      await table.locator("button").first().click();
      const ts = table.locator('[data-testid="schema-column"][data-name="ts"]');
      assert.equal(await ts.getAttribute("data-designated"), "true");
      assert.equal(await table.locator('[data-testid="schema-column"][data-name="price"]').getAttribute("data-type"), "double");
      await page.getByTestId("schema-filter-input").fill("pri");
      assert.equal(await page.getByTestId("schema-table").count(), 1);
      await page.getByTestId("schema-filter-input").fill("");
    });

    await t.step("tabs and their query history are kept across a reload", async () => {
      await page.getByTestId("new-tab-button").click();
      await setEditorText(page, "select 42 answer");
      await runWithKeyboard(page);
      await page.waitForTimeout(500); // the tab store saves after a short debounce
      await page.reload();
      await page.locator('[data-testid="app-root"][data-state="ready"]').waitFor();
      assert.equal(await page.getByTestId("editor-tab").count(), 2);
      assert.equal(await page.locator('[data-testid="editor-tab"][data-active="true"]').count(), 1);
      assert.equal(await editorText(page), "select 42 answer");
      await page.getByTestId("query-log-toggle").click();
      assert.match(await page.getByTestId("query-log-entry").first().textContent() ?? "", /select 42 answer/);
    });

    await t.step("no request leaves the server's origin", () => {
      const origin = new URL(server.httpUrl).origin;
      const foreign = browser.requests.filter((u) => !u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("blob:"));
      assert.deepEqual(foreign, []);
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
