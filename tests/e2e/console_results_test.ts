/**
 * The console's result views in a real browser: the uPlot chart draws (canvas asserted and a
 * screenshot saved under tests/e2e/artifacts), the CSV download holds every row through /exp,
 * a million-row result scrolls to its last row, and a running query can be cancelled
 * (spec/console.md §6.3 flows 2, 4 and 6).
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import {
  ensureConsoleBuilt,
  hasChromium,
  launchConsoleBrowser,
  openConsole,
  runWithKeyboard,
  saveArtifact,
  setEditorText,
} from "./console_browser.ts";

const ignore = !hasChromium();
if (ignore) console.log("console e2e skipped: /usr/bin/chromium is missing (run .ci/install_browser.sh)");

// deno-lint-ignore no-explicit-any
declare const document: any;

Deno.test({
  name: "console: chart, CSV download, a million rows, cancel",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  await ensureConsoleBuilt();
  const server = await startServer();
  const browser = await launchConsoleBrowser();
  const { page } = browser;
  try {
    await openConsole(page, server.httpUrl);

    await t.step("the chart view draws a line over time, then bars", async () => {
      await setEditorText(
        page,
        "select timestamp_sequence(0, 1000000) ts, rnd_double() v from long_sequence(100)",
      );
      await runWithKeyboard(page);
      await page.getByTestId("result-view-chart").click();
      const panel = page.locator('[data-testid="chart-panel"][data-status="ready"]');
      await panel.waitFor();
      assert.equal(await panel.getAttribute("data-chart-type"), "line");
      assert.equal(await panel.getAttribute("data-x"), "ts");
      assert.equal(await panel.getAttribute("data-series-count"), "1");
      assert.equal(await panel.getAttribute("data-point-count"), "100");
      assert.equal(await panel.getAttribute("data-truncated"), "false");
      const box = await panel.locator("canvas").first().boundingBox();
      assert.ok(box && box.width > 100 && box.height > 100, `canvas has a size: ${JSON.stringify(box)}`);
      // Something was drawn: the canvas is not blank.
      const painted = await panel.locator("canvas").first().evaluate(
        // deno-lint-ignore no-explicit-any
        (c: any) => {
          const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
          return n;
        },
      );
      assert.ok(painted > 500, `canvas pixels painted: ${painted}`);
      await page.getByTestId("chart-type-select").selectOption("bar");
      assert.equal(await panel.getAttribute("data-chart-type"), "bar");
      console.log(`chart screenshot: ${await saveArtifact(page, "console_chart.png")}`);
      await page.getByTestId("result-view-grid").click();
    });

    await t.step(
      "a 100k-point chart draws every point as a line and averages bars down to 1000",
      async () => {
        await setEditorText(
          page,
          "select timestamp_sequence(0, 1000000) ts, x * 1.0 v from long_sequence(100000)",
        );
        await runWithKeyboard(page);
        await page.getByTestId("result-view-chart").click();
        const panel = page.locator(
          '[data-testid="chart-panel"][data-status="ready"][data-point-count="100000"]',
        );
        await panel.waitFor({ timeout: 20_000 });
        assert.equal(await panel.getAttribute("data-drawn-count"), "100000");
        await page.getByTestId("chart-type-select").selectOption("bar");
        assert.equal(await panel.getAttribute("data-drawn-count"), "1000");
        await page.getByTestId("result-view-grid").click();
      },
    );

    await t.step("the CSV download holds every row of the result", async () => {
      await setEditorText(page, "select x, x * x sq from long_sequence(2500)");
      await runWithKeyboard(page);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("download-csv-button").click(),
      ]);
      assert.match(download.suggestedFilename(), /^questdb-query-\d+\.csv$/);
      const path = await download.path();
      const lines = (await Deno.readTextFile(path)).trimEnd().split(/\r?\n/);
      assert.equal(lines.length, 2501);
      assert.equal(lines[0], '"x","sq"');
      assert.equal(lines[2500], "2500,6250000");
    });

    await t.step("a million-row result scrolls to its last row", async () => {
      await setEditorText(page, "select x from long_sequence(1000000)");
      await runWithKeyboard(page);
      assert.equal(await page.getByTestId("result-row-count").textContent(), "1,000,000");
      const grid = page.getByTestId("result-grid");
      await grid.locator('[data-testid="grid-cell"][data-row="0"][data-col="0"]').click();
      await page.keyboard.press("Control+End");
      const last = grid.locator('[data-testid="grid-cell"][data-row="999999"][data-col="0"]');
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="grid-cell"][data-row="999999"][data-col="0"]')
            ?.textContent === "1000000",
        null,
        { timeout: 20_000 },
      );
      assert.equal(await last.textContent(), "1000000");
      assert.ok(await last.isVisible());
      // The first page's values have at most 4 digits; the column widened when the last page
      // arrived, so the 7 digits show whole instead of as "10000…" (console/results/column_sizer.ts).
      await page.waitForFunction(
        () => {
          const el = document.querySelector('[data-testid="grid-cell"][data-row="999999"][data-col="0"]');
          return el !== null && el.scrollWidth <= el.clientWidth;
        },
        null,
        { timeout: 5_000 },
      );
      const header = grid.locator('[data-testid="grid-header-cell"][data-col="0"]');
      // deno-lint-ignore no-explicit-any
      const cellWidth = await last.evaluate((el: any) => el.getBoundingClientRect().width);
      // deno-lint-ignore no-explicit-any
      assert.equal(await header.evaluate((el: any) => el.getBoundingClientRect().width), cellWidth);
      // Scrolling by the scrollbar reaches the end too, and the middle loads its own page.
      // deno-lint-ignore no-explicit-any
      await grid.evaluate((g: any) => (g.scrollTop = g.scrollHeight / 2));
      await page.waitForFunction(
        () => {
          const rows = [...document.querySelectorAll('[data-testid="grid-row"][data-loaded="true"]')];
          // deno-lint-ignore no-explicit-any
          return rows.some((r: any) => Math.abs(Number(r.getAttribute("data-row")) - 500_000) < 1000);
        },
        null,
        { timeout: 20_000 },
      );
      const pages = browser.requests.filter((u) =>
        u.includes("nm=true") && u.includes("long_sequence%281000000%29")
      );
      assert.ok(
        pages.some((u) => new URL(u).searchParams.get("limit") === "999001,1000000"),
        "the last page was fetched with a 1-based limit",
      );
    });

    await t.step("a running query can be cancelled", async () => {
      await setEditorText(page, "select count(*) from long_sequence(2000000000)");
      await page.getByTestId("editor-input").focus();
      await page.keyboard.press("Control+Enter");
      await page.getByTestId("cancel-query-button").click();
      await page.locator('[data-testid="query-log-entry"][data-status="cancelled"]').first().waitFor();
      await page.getByTestId("run-query-button").waitFor();
      await page.getByTestId("result-cancelled").waitFor();
    });
  } finally {
    await browser.close();
    // SIGKILL: the cancelled scan may still be winding down, and this test only needed the browser's side.
    await server.kill();
  }
});
