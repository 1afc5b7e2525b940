/**
 * CSV import from the console in a real browser (Debian Chromium): a file dropped on the
 * dropzone (a DataTransfer dispatched as the spec suggests) and one picked with Browse are
 * checked with `chk`, uploaded through `imp` with partitioning and a designated timestamp,
 * show their result and column details, appear in the schema tree, and View data runs them;
 * a second upload to an existing table overwrites it (spec/console.md §2.10, §6.3 flow 6).
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { startServer } from "./server_process.ts";
import {
  ensureConsoleBuilt,
  hasChromium,
  launchConsoleBrowser,
  openConsole,
  saveArtifact,
} from "./console_browser.ts";

const ignore = !hasChromium();
if (ignore) console.log("console e2e skipped: /usr/bin/chromium is missing (run .ci/install_browser.sh)");

// deno-lint-ignore no-explicit-any
declare const document: any;
// deno-lint-ignore no-explicit-any
declare const DataTransfer: any;
// deno-lint-ignore no-explicit-any
declare const File: any;
// deno-lint-ignore no-explicit-any
declare const DragEvent: any;
// deno-lint-ignore no-explicit-any
declare const getComputedStyle: any;

const CSV = "ts,sym,price\n" +
  "2024-01-01T00:00:00.000000Z,a,1.5\n" +
  "2024-01-01T12:00:00.000000Z,b,2.5\n" +
  "2024-01-02T00:00:00.000000Z,a,3.5\n";

Deno.test({
  name: "console: CSV import by drop and Browse, overwrite, view data",
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
    await page.getByTestId("import-panel-button").click();
    const panel = page.getByTestId("import-panel");
    await panel.waitFor();

    await t.step("a dropped file is checked, uploaded with partitioning and shown in the tree", async () => {
      await page.getByTestId("import-dropzone").evaluate((zone, csv) => {
        const dt = new DataTransfer();
        dt.items.add(new File([csv], "prices.csv", { type: "text/csv" }));
        zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, CSV);
      const row = panel.locator('[data-testid="import-file-row"][data-file="prices.csv"]');
      await row.waitFor();
      assert.equal(await row.getByTestId("import-table-name").inputValue(), "prices.csv");
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="import-file-row"] .badge')?.textContent === "new"
      );
      await row.getByTestId("import-table-name").fill("prices");
      await row.getByTestId("import-table-name").press("Tab");
      await row.getByTestId("import-partition").selectOption("DAY");
      assert.ok(await row.getByTestId("import-upload-button").isDisabled(), "partitioning needs a timestamp");
      await row.getByTestId("import-timestamp").fill("ts");
      const [request] = await Promise.all([
        page.waitForRequest((r) => new URL(r.url()).pathname === "/imp"),
        row.getByTestId("import-upload-button").click(),
      ]);
      const params = new URL(request.url()).searchParams;
      assert.equal(params.get("name"), "prices");
      assert.equal(params.get("partitionBy"), "DAY");
      assert.equal(params.get("timestamp"), "ts");
      assert.equal(params.get("overwrite"), "false");
      await row.locator('[data-status="done"]').or(
        panel.locator('[data-testid="import-file-row"][data-status="done"]'),
      )
        .first().waitFor();
      const result = row.getByTestId("import-result");
      assert.equal(await result.getAttribute("data-rows-imported"), "3");
      assert.equal(await result.getAttribute("data-rows-rejected"), "0");
      await result.getByText("Details").click();
      assert.deepEqual(
        await result.locator('[data-testid="import-result-details"] tbody tr').evaluateAll((els) =>
          els.map((e) => e.getAttribute("data-name"))
        ),
        ["ts", "sym", "price"],
      );

      console.log(`import screenshot: ${await saveArtifact(page, "console_import.png")}`);
      await page.getByTestId("tables-panel-button").click();
      const table = page.locator('[data-testid="schema-table"][data-name="prices"]');
      await table.waitFor();
      assert.equal(await table.getAttribute("data-partition-by"), "DAY");
      await page.getByTestId("import-panel-button").click();
      // Switching panels keeps the queued files.
      assert.equal(await panel.getByTestId("import-file-row").count(), 1);
    });

    await t.step("View data runs the imported table", async () => {
      await panel.getByTestId("import-view-data").click();
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="query-log-entry"]')?.getAttribute("data-status") === "success"
      );
      assert.equal(await page.getByTestId("result-row-count").textContent(), "3");
    });

    await t.step("a file picked with Browse overwrites an existing table", async () => {
      await panel.getByTestId("import-file-input").setInputFiles({
        name: "more.csv",
        mimeType: "text/csv",
        buffer: Buffer.from("ts,sym,price\n2024-02-01T00:00:00.000000Z,z,9.5\n"),
      });
      const row = panel.locator('[data-testid="import-file-row"][data-file="more.csv"]');
      await row.waitFor();
      await row.getByTestId("import-table-name").fill("prices");
      await row.getByTestId("import-table-name").press("Tab");
      await panel.locator('[data-testid="import-file-row"][data-file="more.csv"][data-exists="true"]')
        .waitFor();
      await row.getByTestId("import-write-mode").selectOption("overwrite");
      await row.getByTestId("import-upload-button").click();
      await panel.locator('[data-testid="import-file-row"][data-file="more.csv"][data-status="done"]')
        .waitFor();
      const res = await fetch(
        `${server.httpUrl}/exec?query=${encodeURIComponent("select count() from prices")}`,
      );
      assert.deepEqual((await res.json()).dataset, [[1]]);
      await row.getByTestId("import-remove-button").click();
      assert.equal(await panel.getByTestId("import-file-row").count(), 1);
    });
    await t.step("rejected rows show in the error colour with their line and reason", async () => {
      await panel.getByTestId("import-file-input").setInputFiles({
        name: "bad.csv",
        mimeType: "text/csv",
        buffer: Buffer.from('k,v\na,1\nb,2,extra\nc,3\nd,"never closed\ne,5\n'),
      });
      const row = panel.locator('[data-testid="import-file-row"][data-file="bad.csv"]');
      await row.waitFor();
      await row.getByTestId("import-upload-button").click();
      await panel.locator('[data-testid="import-file-row"][data-file="bad.csv"][data-status="done"]')
        .waitFor();
      const result = row.getByTestId("import-result");
      assert.equal(await result.getAttribute("data-rows-imported"), "2");
      assert.equal(await result.getAttribute("data-rows-rejected"), "2");
      const lines = await row.getByTestId("import-rejected-line").evaluateAll((els) =>
        els.map((e) => [e.getAttribute("data-line"), e.textContent])
      );
      assert.deepEqual(lines, [
        ["3", "line 3: too many values [expected=2, actual=3]"],
        ["5", "line 5: unclosed quoted field: the rest of the file was read as its value"],
      ]);
      // The count is in the error colour, not the success colour of the imported rows.
      const colours = await row.evaluate((el) => {
        const probe = (v: string) => {
          const s = document.createElement("span");
          s.style.color = `var(${v})`;
          el.appendChild(s);
          const c = getComputedStyle(s).color;
          s.remove();
          return c;
        };
        return {
          rejected: getComputedStyle(el.querySelector('[data-testid="import-rejected"]')).color,
          err: probe("--err"),
          ok: probe("--ok"),
        };
      });
      assert.equal(colours.rejected, colours.err);
      assert.notEqual(colours.rejected, colours.ok);
      await saveArtifact(page, "console_import_rejected.png");
    });
  } finally {
    await browser.close();
    await server.stop();
    await Deno.remove(server.root, { recursive: true }).catch(() => {});
  }
});
