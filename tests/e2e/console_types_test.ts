/**
 * QuestDB 9's types in the console (issue #19): DOUBLE[] / DOUBLE[][] arrays, DECIMAL(18,3) and
 * TIMESTAMP_NS in the result grid (text, alignment, display zone, copies), a chart of the
 * DECIMAL column over the TIMESTAMP_NS one, and the types in the schema explorer.
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

// deno-lint-ignore no-explicit-any
declare const navigator: any;
// deno-lint-ignore no-explicit-any
declare const getComputedStyle: any;

const ROWS = [
  ["2024-01-01T00:00:00.123456789Z", "12.5m", "ARRAY[1.0,2.0]", "ARRAY[[1.0,2.5],[3.0,4.0]]", "x"],
  ["2024-01-01T01:00:00.000000001Z", "cast('-3.25' as decimal(18,3))", "null", "ARRAY[[1.5]]", "y"],
  ["2024-01-01T02:00:00.999999999Z", "7.125m", "ARRAY[1e20,-0.0,1.5e-7]", "ARRAY[[0.1]]", "x"],
];

Deno.test({
  name: "console: arrays, DECIMAL and TIMESTAMP_NS in the grid, the chart and the schema",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  await ensureConsoleBuilt();
  const server = await startServer();
  const browser = await launchConsoleBrowser();
  const { page } = browser;
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => m.type() === "error" && pageErrors.push(m.text()));
  try {
    const sql = async (q: string) => {
      const body = await (await server.exec(q)).json();
      assert.equal(body.error, undefined, `${q}: ${body.error}`);
      return body;
    };
    await sql(
      "create table types9 (ts timestamp_ns, d decimal(18,3), a double[], m double[][], s symbol) " +
        "timestamp(ts) partition by day wal",
    );
    await sql(
      `insert into types9 values ${ROWS.map((r) => `('${r[0]}', ${r.slice(1, 4).join(", ")}, '${r[4]}')`)}`,
    );
    // WAL: the rows are visible once applied.
    for (let i = 0; (await sql("select count() from types9")).dataset[0][0] !== 3; i++) {
      assert.ok(i < 100, "the WAL rows were applied");
      await new Promise((r) => setTimeout(r, 100));
    }
    await openConsole(page, server.httpUrl);
    const cell = (row: number, col: number) =>
      page.locator(`[data-testid="grid-cell"][data-row="${row}"][data-col="${col}"]`);

    await t.step("the grid shows each type legibly, numbers right and arrays left", async () => {
      await setEditorText(page, "select ts, d, a, m, s from types9");
      await runWithKeyboard(page);
      const types = await page.locator('[data-testid="grid-header-type"]').allTextContents();
      assert.deepEqual(types, ["timestamp_ns", "decimal(18,3)", "double[]", "double[][]", "symbol"]);
      const text = async (row: number) => {
        const out = [];
        for (let c = 0; c < 5; c++) out.push(await cell(row, c).textContent());
        return out;
      };
      assert.deepEqual(await text(0), [
        "2024-01-01T00:00:00.123456789Z",
        "12.500",
        "[1.0,2.0]",
        "[[1.0,2.5],[3.0,4.0]]",
        "x",
      ]);
      assert.deepEqual(await text(1), ["2024-01-01T01:00:00.000000001Z", "-3.250", "null", "[[1.5]]", "y"]);
      assert.equal(await cell(1, 2).getAttribute("data-null"), "true");
      // The array text is /exp's (Java's double spelling), not JSON.stringify's `[100000000000000000000,0,...]`.
      assert.deepEqual(await text(2), [
        "2024-01-01T02:00:00.999999999Z",
        "7.125",
        "[1.0E20,-0.0,1.5E-7]",
        "[[0.1]]",
        "x",
      ]);
      const align = (row: number, col: number) =>
        cell(row, col).evaluate((el) => getComputedStyle(el).textAlign as string);
      assert.equal(await align(0, 1), "right", "DECIMAL is right-aligned like other numbers");
      assert.notEqual(await align(0, 2), "right", "arrays read as text");
      assert.notEqual(await align(0, 0), "right");
    });

    await t.step("the display zone applies to TIMESTAMP_NS, keeping all nine digits", async () => {
      const zone = page.locator(
        '[data-testid="grid-header-cell"][data-col="0"] [data-testid="grid-header-zone"]',
      );
      assert.equal(await zone.textContent(), "· UTC");
      await page.getByTestId("timezone-select").selectOption("Asia/Tokyo");
      assert.equal(await cell(0, 0).textContent(), "2024-01-01T09:00:00.123456789+09:00");
      assert.equal(await zone.textContent(), "· Asia/Tokyo");
      await page.getByTestId("timezone-select").selectOption("UTC");
      assert.equal(await cell(0, 0).textContent(), "2024-01-01T00:00:00.123456789Z");
    });

    await t.step("the rows copy as CSV and JSON", async () => {
      await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: server.httpUrl,
      });
      const copyAs = async (format: string) => {
        await page.getByTestId("copy-menu-button").click();
        await page.locator(`[data-testid="copy-result-button"][data-format="${format}"]`).click();
        await page.getByTestId("copy-result-button").first().waitFor({ state: "detached" });
        return await page.evaluate(() => navigator.clipboard.readText()) as string;
      };
      assert.equal(
        await copyAs("csv"),
        [
          "ts,d,a,m,s",
          '2024-01-01T00:00:00.123456789Z,12.500,"[1.0,2.0]","[[1.0,2.5],[3.0,4.0]]",x',
          "2024-01-01T01:00:00.000000001Z,-3.250,null,[[1.5]],y",
          '2024-01-01T02:00:00.999999999Z,7.125,"[1.0E20,-0.0,1.5E-7]",[[0.1]],x',
        ].join("\n"),
      );
      const json = JSON.parse(await copyAs("json"));
      assert.deepEqual(json[0], {
        ts: "2024-01-01T00:00:00.123456789Z",
        d: "12.500",
        a: [1, 2],
        m: [[1, 2.5], [3, 4]],
        s: "x",
      });
      assert.equal(json[1].a, null);
    });

    await t.step("a chart of DECIMAL over TIMESTAMP_NS; arrays are not offered", async () => {
      await page.getByTestId("result-view-chart").click();
      const panel = page.locator('[data-testid="chart-panel"][data-status="ready"]');
      await panel.waitFor();
      // A temporal x draws lines (a categorical x would default to bars).
      assert.equal(await panel.getAttribute("data-x"), "ts");
      assert.equal(await panel.getAttribute("data-chart-type"), "line");
      // The SYMBOL splits the DECIMAL into one line per value; without it, one line of 3 points.
      await page.locator('[data-testid="chart-panel"][data-partition="s"][data-series-count="2"]').waitFor();
      await page.getByTestId("chart-partition-select").selectOption("-1");
      await page.locator('[data-testid="chart-panel"][data-partition=""][data-series-count="1"]').waitFor();
      assert.equal(await panel.getAttribute("data-point-count"), "3");
      const series = await page.locator('[data-testid="chart-series-select"] [data-series]')
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-series")));
      assert.deepEqual(series, ["d"], "DECIMAL is a series; arrays and symbols are not");
      const xs = await page.getByTestId("chart-x-select").locator("option").allTextContents();
      assert.deepEqual(xs, ["ts", "d", "s"], "arrays are not offered as the x axis");
      // The x axis is time: hovering the middle of the plot shows a 2024-01-01 time in the legend.
      const over = panel.locator(".u-over");
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const legendX = await panel.locator(".u-legend .u-series").first().locator(".u-value").textContent();
      assert.match(legendX ?? "", /^2024-01-01 1:00am$/, `legend x value: ${legendX}`);
      const legendY = await panel.locator(".u-legend .u-series").nth(1).locator(".u-value").textContent();
      assert.equal(Number(legendY), -3.25, `legend shows the DECIMAL at 01:00: ${legendY}`);
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
      await page.getByTestId("result-view-grid").click();
    });

    await t.step("the schema explorer names the types", async () => {
      await page.getByTestId("schema-refresh-button").click();
      const table = page.locator('[data-testid="schema-table"][data-name="types9"]');
      await table.waitFor();
      await table.locator("button").first().click();
      const typeOf = (name: string) =>
        table.locator(`[data-testid="schema-column"][data-name="${name}"] .schema-type`).textContent();
      assert.equal(await typeOf("ts"), "timestamp_ns");
      assert.equal(await typeOf("d"), "decimal(18,3)");
      assert.equal(await typeOf("a"), "double[]");
      assert.equal(await typeOf("m"), "double[][]");
      assert.equal(
        await table.locator('[data-testid="schema-column"][data-name="ts"]').getAttribute("data-designated"),
        "true",
      );
    });

    assert.deepEqual(pageErrors, [], "no errors in the page");
  } finally {
    await browser.close();
    await server.kill();
  }
});
