/**
 * The console in a real browser (Debian Chromium): run a query with the keyboard and see the
 * rows, the error marker at the server's position, autocomplete of a table created a moment
 * before, tabs kept across a reload, and no request to any other host (spec/console.md §6.3).
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import {
  editorText,
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
  name: "console: query, error marker, autocomplete, tabs",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  await ensureConsoleBuilt();
  const server = await startServer();
  const browser = await launchConsoleBrowser();
  const { page } = browser;
  /** Origin of the access-controlled server the login step starts. */
  let aclOrigin = "";
  try {
    await openConsole(page, server.httpUrl);

    await t.step("a query typed and run with Ctrl+Enter shows its rows in the grid", async () => {
      await setEditorText(page, "select x, x*2 as y from long_sequence(5)");
      await runWithKeyboard(page);
      const exec = browser.requests.filter((u) => u.includes("/exec?") && u.includes("long_sequence%285%29"))
        .pop();
      assert.ok(exec, "an /exec request was sent");
      const params = new URL(exec).searchParams;
      assert.equal(params.get("count"), "true");
      assert.equal(params.get("timings"), "true");
      assert.equal(params.get("limit"), "0,1000");
      assert.equal(await page.getByTestId("result-row-count").textContent(), "5");
      assert.equal(await page.getByTestId("grid-row").count(), 5);
      assert.deepEqual(
        await page.getByTestId("grid-header-cell").evaluateAll((els) =>
          els.map((e) => e.getAttribute("data-type"))
        ),
        ["long", "long"],
      );
      assert.equal(
        await page.locator('[data-testid="grid-cell"][data-row="4"][data-col="1"]').textContent(),
        "10",
      );
      const entry = page.getByTestId("query-log-entry").first();
      assert.equal(await entry.getAttribute("data-status"), "success");
      assert.match(await entry.getByTestId("timing-execute").textContent() ?? "", /\d/);
      assert.match(await entry.getByTestId("timing-total").textContent() ?? "", /\d/);
    });

    await t.step("F9 runs too, and 64-bit integers keep every digit", async () => {
      await setEditorText(page, "select 9007199254740993 big");
      await runWithKeyboard(page, "F9");
      assert.equal(
        await page.locator('[data-testid="grid-cell"][data-row="0"][data-col="0"]').textContent(),
        "9007199254740993",
      );
    });

    await t.step(
      "a wrong query shows the server's error and a marker under the reported character",
      async () => {
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
      },
    );

    await t.step(
      "the marker maps back through the statement offset when the error is in a later statement",
      async () => {
        const sql = "select 1;\n\nselect x from long_sequence(3) where missing_col = 2;";
        await setEditorText(page, sql);
        await runWithKeyboard(page);
        const marker = page.getByTestId("editor-error-marker").first();
        await marker.waitFor();
        assert.equal(await marker.getAttribute("data-from"), String(sql.indexOf("missing_col")));
      },
    );

    await t.step("Ctrl+E shows the plan, and an EXPLAIN error maps back past the prefix", async () => {
      await setEditorText(page, "select x from long_sequence(3)");
      await runWithKeyboard(page, "Control+e");
      // The plan opens as monospace text (its indentation is the tree); the grid is one click away.
      assert.match(await page.getByTestId("query-plan").textContent() ?? "", /long_sequence/);
      await page.getByTestId("result-view-grid").click();
      assert.equal(await page.getByTestId("grid-header-name").first().textContent(), "QUERY PLAN");
      const sql = "select * from long_sequence(3) where nope > 1";
      await setEditorText(page, sql);
      await runWithKeyboard(page, "Control+e");
      const marker = page.getByTestId("editor-error-marker").first();
      await marker.waitFor();
      assert.equal(await marker.getAttribute("data-from"), String(sql.indexOf("nope")));
    });

    await t.step("autocomplete offers a table created a moment before, then its columns", async () => {
      await setEditorText(
        page,
        "create table trades(ts timestamp, sym symbol, price double) timestamp(ts) partition by day",
      );
      await runWithKeyboard(page);
      await page.locator('[data-testid="schema-table"][data-name="trades"]').waitFor();
      const option = page.locator(
        '[data-testid="autocomplete-option"][data-kind="table"][data-label="trades"]',
      );
      // On a loaded machine the popup can be re-rendered (a newer completion result) between
      // the wait and the key press, and Enter then lands in the text: type again, up to 3 times.
      let text = "";
      for (let attempt = 0; attempt < 3 && text !== "select * from trades "; attempt++) {
        await setEditorText(page, "");
        await page.keyboard.type("select * from tr");
        await option.waitFor();
        await page.getByTestId("autocomplete-popup").waitFor();
        await page.waitForTimeout(100);
        await page.keyboard.press("Enter");
        text = await editorText(page);
      }
      assert.equal(text, "select * from trades ");

      await setEditorText(page, "select  from trades");
      await page.keyboard.press("Home");
      for (let i = 0; i < "select ".length; i++) await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Control+Space");
      for (const [name, type] of [["ts", "timestamp"], ["sym", "symbol"], ["price", "double"]]) {
        const col = page.locator(
          `[data-testid="autocomplete-option"][data-kind="column"][data-label="${name}"]`,
        );
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
      assert.equal(
        await table.locator('[data-testid="schema-column"][data-name="price"]').getAttribute("data-type"),
        "double",
      );
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

    await t.step("run all asks first and stops after the first failure", async () => {
      await setEditorText(page, "select 1 a;\nselect nope from long_sequence(1);\nselect 3 c;");
      await page.keyboard.press("Control+Shift+Enter");
      assert.equal(await page.getByTestId("stop-after-failure-checkbox").isChecked(), true);
      await page.getByTestId("run-all-confirm").click();
      await page.locator('[data-testid="query-log-entry"][data-status="error"]').first().waitFor();
      await page.getByTestId("run-query-button").waitFor();
      const log = page.getByTestId("query-log");
      if ((await log.getAttribute("data-expanded")) !== "true") {
        await page.getByTestId("query-log-toggle").click();
      }
      const texts = await page.getByTestId("query-log-entry").allTextContents();
      assert.match(texts[0], /nope/);
      assert.match(texts[1], /select 1 a/);
      assert.ok(!texts.some((x) => x.includes("select 3 c")), "the statement after the failure did not run");
      await page.getByTestId("query-log-toggle").click();
    });

    await t.step("a password login keeps credentials in memory only", async () => {
      // A second server with access control on (its /settings says acl.enabled), whose admin
      // password is not the default: only the typed credentials can log in.
      const acl = await startServer({
        env: { QDB_ACL_ENABLED: "true", QDB_ACL_ADMIN_PASSWORD: "quest-secret" },
      });
      aclOrigin = new URL(acl.httpUrl).origin;
      const login = await browser.context.newPage();
      try {
        const headers: (string | undefined)[] = [];
        login.on("request", (r) => r.url().includes("/exec?") && headers.push(r.headers()["authorization"]));
        await login.goto(`${acl.httpUrl}/`);
        await login.locator('[data-testid="app-root"][data-state="login"]').waitFor();
        // A wrong password is refused by the server and the console stays on the login form.
        await login.getByTestId("login-username").fill("admin");
        await login.getByTestId("login-password").fill("quest");
        await login.getByTestId("login-submit").click();
        await login.getByTestId("login-error").waitFor();
        assert.equal(await login.locator('[data-testid="app-root"]').getAttribute("data-state"), "login");
        headers.length = 0;
        await login.getByTestId("login-password").fill("quest-secret");
        await login.getByTestId("login-submit").click();
        await login.locator('[data-testid="app-root"][data-state="ready"]').waitFor();
        assert.ok(headers.length > 0 && headers.every((h) => h === "Basic " + btoa("admin:quest-secret")));
        const stored = await login.evaluate(async () => {
          // deno-lint-ignore no-explicit-any
          const g = globalThis as any;
          const local = JSON.stringify({ ...g.localStorage }) + JSON.stringify({ ...g.sessionStorage });
          const idb = await new Promise<string>((resolve) => {
            const req = g.indexedDB.open("web-console");
            req.onsuccess = () => {
              const all = req.result.transaction("kv").objectStore("kv").getAll();
              all.onsuccess = () => resolve(JSON.stringify(all.result));
            };
          });
          return local + idb;
        });
        assert.ok(
          !stored.includes("quest-secret") && !stored.includes(btoa("admin:quest-secret")),
          "no credentials in storage",
        );
        await login.getByTestId("logout-button").click();
        await login.locator('[data-testid="app-root"][data-state="login"]').waitFor();
      } finally {
        await login.close();
        await acl.stop();
      }
    });

    await t.step("a share link opens its query in a tab and runs it when it only reads", async () => {
      await page.goto(
        `${server.httpUrl}/index.html?query=${encodeURIComponent("select 7 seven")}&executeQuery=true`,
      );
      await page.locator('[data-testid="app-root"][data-state="ready"]').waitFor();
      await page.locator('[data-testid="grid-cell"][data-row="0"][data-col="0"]').waitFor();
      assert.equal(
        await page.locator('[data-testid="grid-cell"][data-row="0"][data-col="0"]').textContent(),
        "7",
      );
      assert.equal(
        await page.locator('[data-testid="editor-tab"][data-active="true"]').textContent(),
        "Shared query×",
      );
      assert.ok(!page.url().includes("query="), "the share parameters are removed from the address");
    });

    await t.step("no request leaves the server's origin", () => {
      const origin = new URL(server.httpUrl).origin;
      // The login step's page talked to its own access-controlled server, and only to it.
      const foreign = browser.requests.filter((u) =>
        !u.startsWith(origin) && !(aclOrigin && u.startsWith(aclOrigin)) && !u.startsWith("data:") &&
        !u.startsWith("blob:")
      );
      assert.deepEqual(foreign, []);
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
