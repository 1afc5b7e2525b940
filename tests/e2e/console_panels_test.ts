/**
 * Console features beyond the first release flows, in a real browser (Debian Chromium): the run
 * glyph's context menu (spec/console.md §2.2), the table details panel (§2.9, P1 "Table details")
 * the query inspector (P1), the server warnings banner (§2.13) and copying rows as CSV, JSON
 * or TSV (§5 gap 5), the display zone of timestamp columns (§5 gap 3) and the persistent
 * query history (§5 gap 1), the light/dark/system theme (§2.13) and the confirmation before a
 * share link runs a write (§2.2), search across tabs and tab export/import (§2.3), editor
 * settings and the shortcuts help (§2.13), and live validation (§2.2) through the server's
 * `api/v1/sql/validate`, formatting SQL (§2.2), and a chart partitioned by category (§2.7).
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { startServer } from "./server_process.ts";
import {
  editorText,
  ensureConsoleBuilt,
  hasChromium,
  launchConsoleBrowser,
  openConsole,
  saveArtifact,
  setEditorText,
} from "./console_browser.ts";

const ignore = !hasChromium();
if (ignore) console.log("console e2e skipped: /usr/bin/chromium is missing (run .ci/install_browser.sh)");

// deno-lint-ignore no-explicit-any
declare const document: any;
// deno-lint-ignore no-explicit-any
declare const navigator: any;
// deno-lint-ignore no-explicit-any
declare const getComputedStyle: any;

Deno.test({
  name: "console: panels, menus and settings beyond the first release",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  await ensureConsoleBuilt();
  const server = await startServer();
  const browser = await launchConsoleBrowser();
  const { page } = browser;
  const sql = async (query: string) => {
    const res = await fetch(`${server.httpUrl}/exec?query=${encodeURIComponent(query)}`);
    const body = await res.json();
    assert.ok(res.ok, `${query}: ${JSON.stringify(body)}`);
    return body;
  };
  /** Waits for a new log entry that has finished, and returns its text. */
  const nextEntry = async (action: () => Promise<void>) => {
    const before = await page.evaluate(() =>
      document.querySelector('[data-testid="query-log-entry"]')?.getAttribute("data-entry-id") ?? ""
    );
    await action();
    await page.waitForFunction((prev) => {
      const first = document.querySelector('[data-testid="query-log-entry"]');
      return first !== null && first.getAttribute("data-entry-id") !== prev &&
        first.getAttribute("data-status") !== "running";
    }, before);
    return page.getByTestId("query-log-entry").first();
  };
  // Requests the page sent that have not finished: named when a panel never becomes ready.
  const unfinished = new Set<string>();
  const keyOf = (r: { url(): string; method(): string }) => `${r.method()} ${r.url()}`;
  page.on("request", (r) => void unfinished.add(keyOf(r)));
  page.on("requestfinished", (r) => void unfinished.delete(keyOf(r)));
  page.on("requestfailed", (r) => void unfinished.delete(keyOf(r)));
  /**
   * Opens the details panel of `name` (reloads it when it is already open: its button toggles)
   * and waits until it has loaded; a failure says what the panel showed and what was in flight.
   */
  const openDetails = async (name: string) => {
    const open = page.locator(`[data-testid="table-details"][data-name="${name}"]`);
    if (await open.count() > 0) await open.getByTestId("table-details-refresh").click();
    else {
      const button = page.locator(`[data-testid="schema-table"][data-name="${name}"]`)
        .getByTestId("schema-table-details-button");
      await button.click();
      // A click that lands while the tree re-renders can miss its button: one more try, only
      // when no panel opened at all (a panel stuck loading fails below).
      if (!await open.waitFor({ timeout: 5_000 }).then(() => true, () => false)) await button.click();
    }
    const panel = page.locator(`[data-testid="table-details"][data-name="${name}"][data-status="ready"]`);
    try {
      await panel.waitFor({ timeout: 20_000 });
    } catch (err) {
      const shown = await page.evaluate(() =>
        Array.from(document.querySelectorAll('[data-testid="table-details"]')).map((e) =>
          `${(e as { getAttribute(n: string): string }).getAttribute("data-name")}:` +
          (e as { getAttribute(n: string): string }).getAttribute("data-status")
        )
      );
      throw new Error(
        `details of ${name} not ready: panels ${JSON.stringify(shown)}, requests in flight ` +
          `${JSON.stringify([...unfinished])}; server log tail:\n${server.log().slice(-2000)}`,
        { cause: err },
      );
    }
    return panel;
  };
  try {
    await openConsole(page, server.httpUrl);

    await t.step("right-clicking the run glyph offers run, plan and copy link", async () => {
      await setEditorText(page, "select 1 a;\nselect x from long_sequence(3)");
      const glyph = page.locator('[data-testid="statement-glyph"][data-line="2"]');
      await glyph.click({ button: "right" });
      const menu = page.getByTestId("glyph-menu");
      await menu.waitFor();
      assert.deepEqual(
        await menu.getByTestId("glyph-menu-item").evaluateAll((els) =>
          els.map((e) => e.getAttribute("data-action"))
        ),
        ["run", "explain", "copy-link"],
      );
      // A right-click only opens the menu: nothing ran.
      assert.equal(await page.getByTestId("query-log-entry").count(), 0);

      const ran = await nextEntry(() => menu.locator('[data-action="run"]').click());
      assert.equal(await ran.getAttribute("data-status"), "success");
      assert.equal(await page.getByTestId("result-row-count").textContent(), "3");
      assert.equal(await menu.count(), 0, "the menu closes after a choice");

      await glyph.click({ button: "right" });
      const plan = await nextEntry(() =>
        page.locator('[data-testid="glyph-menu-item"][data-action="explain"]').click()
      );
      assert.equal(await plan.getAttribute("data-status"), "success");
      assert.match(await plan.textContent() ?? "", /EXPLAIN select x from long_sequence\(3\)/i);

      await glyph.click({ button: "right" });
      await page.getByTestId("glyph-menu").waitFor();
      await page.keyboard.press("Escape");
      await page.getByTestId("glyph-menu").waitFor({ state: "detached" });

      await glyph.click({ button: "right" });
      await page.locator('[data-testid="glyph-menu-item"][data-action="copy-link"]').click();
      await page.locator('[data-testid="toast"][data-kind="success"]').first().waitFor();
    });

    await t.step("the details panel shows rows, WAL, columns, partitions and the DDL", async () => {
      await sql(
        "create table trips(ts timestamp, sym symbol, fare double) timestamp(ts) partition by day wal",
      );
      await sql(
        "insert into trips values ('2024-01-01T01:00:00Z','a',1.5), ('2024-01-01T02:00:00Z','b',2.5), " +
          "('2024-01-02T01:00:00Z','a',3.5)",
      );
      await page.getByTestId("schema-refresh-button").click();
      await page.locator('[data-testid="schema-table"][data-name="trips"]').waitFor();
      const panel = await openDetails("trips");
      assert.equal(await panel.getByTestId("table-details-row-count").textContent(), "3");
      const wal = panel.getByTestId("table-details-wal");
      assert.equal(await wal.getAttribute("data-wal"), "true");
      assert.equal(await wal.getAttribute("data-suspended"), "false");
      assert.equal(await panel.getByTestId("resume-wal-button").count(), 0);
      assert.deepEqual(
        await panel.getByTestId("table-details-column").evaluateAll((els) =>
          els.map((e) =>
            `${e.getAttribute("data-name")}:${e.getAttribute("data-type")}:${
              e.getAttribute("data-designated")
            }`
          )
        ),
        ["ts:timestamp:true", "sym:symbol:false", "fare:double:false"],
      );
      assert.deepEqual(
        await panel.getByTestId("table-details-partition").evaluateAll((els) =>
          els.map((e) => `${e.getAttribute("data-name")}=${e.getAttribute("data-rows")}`)
        ),
        ["2024-01-01=2", "2024-01-02=1"],
      );
      assert.match(await panel.getByTestId("table-details-ddl").textContent() ?? "", /CREATE TABLE 'trips'/);

      // "Open in editor" puts the DDL in a new tab.
      const tabs = await page.getByTestId("editor-tab").count();
      await panel.getByTestId("table-details-open-ddl").click();
      assert.equal(await page.getByTestId("editor-tab").count(), tabs + 1);
      // The new tab's editor takes the DDL a render after the tab appears.
      await page.getByTestId("editor-input").filter({ hasText: "CREATE TABLE 'trips'" }).waitFor({
        timeout: 5_000,
      })
        .catch(() => {});
      assert.match(await page.getByTestId("editor-input").textContent() ?? "", /CREATE TABLE 'trips'/);

      // The panel follows new rows when reloaded.
      await sql("insert into trips values ('2024-01-03T01:00:00Z','c',4.5)");
      await panel.getByTestId("table-details-refresh").click();
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="table-details-row-count"]')?.textContent === "4"
      );
      console.log(`details screenshot: ${await saveArtifact(page, "console_table_details.png")}`);
      await panel.getByTestId("table-details-close").click();
      await page.getByTestId("table-details").waitFor({ state: "detached" });
    });

    await t.step("a suspended WAL table is flagged, filterable and can be resumed", async () => {
      // The server suspends the table for real (ALTER TABLE SUSPEND WAL); the requests the
      // console sends are only observed, never rewritten.
      const resumes: string[] = [];
      const watch = (r: { url(): string }) => {
        const query = new URL(r.url()).searchParams.get("query") ?? "";
        if (/resume wal/i.test(query)) resumes.push(query);
      };
      page.on("request", watch);
      await sql("alter table trips suspend wal");
      // A suspended table refuses writes (docs/alter_table.md).
      const refused = await fetch(
        `${server.httpUrl}/exec?query=${encodeURIComponent("insert into trips values (now(), 'z', 1.0)")}`,
      );
      assert.equal(refused.status, 400);
      assert.match((await refused.json()).error, /table is suspended \[tableName=trips\]/);
      await sql("create table calm(ts timestamp, v double) timestamp(ts) partition by day wal");
      await page.getByTestId("schema-refresh-button").click();
      const filter = page.getByTestId("schema-suspended-filter");
      await filter.waitFor();
      assert.equal(await filter.getAttribute("data-count"), "1");
      await page.locator('[data-testid="schema-table"][data-name="calm"]').waitFor();
      await filter.click();
      assert.deepEqual(
        await page.getByTestId("schema-table").evaluateAll((els) =>
          els.map((e) => e.getAttribute("data-name"))
        ),
        ["trips"],
      );
      const row = page.locator('[data-testid="schema-table"][data-name="trips"]');
      assert.equal(await row.getAttribute("data-suspended"), "true");
      const panel = await openDetails("trips");
      assert.equal(await panel.getByTestId("table-details-wal").getAttribute("data-suspended"), "true");
      await panel.getByTestId("resume-wal-txn").fill("2");
      await panel.getByTestId("resume-wal-button").click();
      await page.locator('[data-testid="table-details-wal"][data-suspended="false"]').waitFor();
      assert.deepEqual(resumes, ["ALTER TABLE 'trips' RESUME WAL FROM TRANSACTION 2"]);
      await page.locator('[data-testid="toast"][data-kind="success"]').first().waitFor();
      // Nothing is suspended any more: the filter goes away and every table shows again.
      await filter.waitFor({ state: "detached" });
      await page.locator('[data-testid="schema-table"][data-name="calm"]').waitFor();
      page.off("request", watch);
      const wal = await (await fetch(
        `${server.httpUrl}/exec?query=${
          encodeURIComponent("select suspended from wal_tables() where name = 'trips'")
        }`,
      )).json();
      assert.deepEqual(wal.dataset, [[false]]);
    });

    await t.step("the query inspector shows the exact request and the raw reply", async () => {
      await setEditorText(page, "select x, x * 10 y from long_sequence(2)");
      const entry = await nextEntry(async () => {
        await page.getByTestId("editor-input").focus();
        await page.keyboard.press("Control+Enter");
      });
      await entry.getByTestId("query-log-inspect").click();
      const dialog = page.getByTestId("query-inspector");
      await dialog.waitFor();
      assert.equal(await dialog.getAttribute("data-status"), "200");
      assert.match(await dialog.getByTestId("inspector-url").textContent() ?? "", /^exec\?query=/);
      const params = Object.fromEntries(
        await dialog.getByTestId("inspector-param").evaluateAll((els) =>
          els.map((e) => [e.getAttribute("data-name"), e.getAttribute("data-value")])
        ),
      );
      assert.equal(params.query, "select x, x * 10 y from long_sequence(2)");
      assert.equal(params.limit, "0,1000");
      assert.equal(params.count, "true");
      assert.equal(params.timings, "true");
      assert.equal(await dialog.getByTestId("inspector-auth").textContent(), "none");
      const raw = JSON.parse(await dialog.getByTestId("inspector-raw").textContent() ?? "");
      // quoteLargeNum=true: LONG values arrive as exact strings.
      assert.equal(params.quoteLargeNum, "true");
      assert.deepEqual(raw.dataset, [["1", "10"], ["2", "20"]]);
      assert.ok(raw.timings && typeof raw.timings.execute === "number");
      await dialog.getByTestId("inspector-close").click();
      await dialog.waitFor({ state: "detached" });
    });

    await t.step("server warnings show as a banner and can be dismissed", async () => {
      // A server started under a low open-files limit really reports one (server/warnings.ts).
      const low = await startServer({ openFilesLimit: 512 });
      try {
        await openConsole(page, low.httpUrl);
        const banner = page.getByTestId("warnings-banner");
        await banner.waitFor();
        const shown = banner.getByTestId("server-warning");
        assert.deepEqual(await shown.evaluateAll((els) => els.map((e) => e.getAttribute("data-tag"))), [
          "TOO MANY OPEN FILES",
        ]);
        assert.match(
          await shown.textContent() ?? "",
          /open files limit \(ulimit -n\) is too low \[current=512,/,
        );
        await banner.getByTestId("server-warning-dismiss").click();
        await banner.waitFor({ state: "detached" });
      } finally {
        await low.stop();
      }
      // Back on this test's server: the banner mirrors its /warnings, normally empty.
      const own = await (await fetch(`${server.httpUrl}/warnings`)).json();
      const answered = page.waitForResponse(/\/warnings$/);
      await openConsole(page, server.httpUrl);
      await answered;
      await page.waitForTimeout(100);
      assert.equal(await page.getByTestId("server-warning").count(), own.length);
    });

    await t.step("the loaded rows copy as CSV, JSON and TSV, with or without headers", async () => {
      await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: server.httpUrl,
      });
      const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
      await setEditorText(page, "select x, 'a,\"b' s from long_sequence(2)");
      await nextEntry(async () => {
        await page.getByTestId("editor-input").focus();
        await page.keyboard.press("Control+Enter");
      });
      const copyAs = async (format: string) => {
        await page.getByTestId("copy-menu-button").click();
        await page.locator(`[data-testid="copy-result-button"][data-format="${format}"]`).click();
        await page.getByTestId("copy-result-button").first().waitFor({ state: "detached" });
        return await clipboard();
      };
      assert.equal(await copyAs("csv"), 'x,s\n1,"a,""b"\n2,"a,""b"');
      assert.deepEqual(JSON.parse(await copyAs("json")), [{ x: "1", s: 'a,"b' }, { x: "2", s: 'a,"b' }]);
      await page.getByTestId("copy-menu-button").click();
      await page.getByTestId("copy-with-headers").uncheck();
      await page.locator('[data-testid="copy-result-button"][data-format="tsv"]').click();
      assert.equal(await clipboard(), '1\ta,"b\n2\ta,"b');
    });

    await t.step("timestamps can be shown in another zone, named in the header", async () => {
      await setEditorText(
        page,
        "select cast('2024-01-01T00:00:00.123456Z' as timestamp) ts, 1 n from long_sequence(1)",
      );
      await nextEntry(async () => {
        await page.getByTestId("editor-input").focus();
        await page.keyboard.press("Control+Enter");
      });
      const cell = page.locator('[data-testid="grid-cell"][data-row="0"][data-col="0"]');
      const zone = page.locator(
        '[data-testid="grid-header-cell"][data-col="0"] [data-testid="grid-header-zone"]',
      );
      assert.equal(await cell.textContent(), "2024-01-01T00:00:00.123456Z");
      assert.equal(await zone.textContent(), "· UTC");
      assert.equal(
        await page.locator('[data-testid="grid-header-cell"][data-col="1"] [data-testid="grid-header-zone"]')
          .count(),
        0,
        "only timestamp columns name a zone",
      );
      await page.getByTestId("timezone-select").selectOption("Asia/Tokyo");
      assert.equal(await cell.textContent(), "2024-01-01T09:00:00.123456+09:00");
      assert.equal(await zone.textContent(), "· Asia/Tokyo");
      await page.getByTestId("timezone-select").selectOption("America/New_York");
      assert.equal(await cell.textContent(), "2023-12-31T19:00:00.123456-05:00");
      // The choice is remembered; copies stay in UTC.
      await page.reload();
      await page.locator('[data-testid="app-root"][data-state="ready"]').waitFor();
      await setEditorText(
        page,
        "select cast('2024-01-01T00:00:00.123456Z' as timestamp) ts, 1 n from long_sequence(1)",
      );
      await nextEntry(async () => {
        await page.getByTestId("editor-input").focus();
        await page.keyboard.press("Control+Enter");
      });
      assert.equal(await cell.textContent(), "2023-12-31T19:00:00.123456-05:00");
      await page.getByTestId("copy-menu-button").click();
      await page.locator('[data-testid="copy-result-button"][data-format="csv"]').click();
      assert.match(await page.evaluate(() => navigator.clipboard.readText()), /2024-01-01T00:00:00\.123456Z/);
      await page.getByTestId("timezone-select").selectOption("UTC");
      assert.equal(await cell.textContent(), "2024-01-01T00:00:00.123456Z");
    });

    await t.step("the query history is searchable, starrable and survives a reload", async () => {
      const run = async (sql: string) => {
        await setEditorText(page, sql);
        await nextEntry(async () => {
          await page.getByTestId("editor-input").focus();
          await page.keyboard.press("Control+Enter");
        });
      };
      await run("select 'alpha' hist from long_sequence(1)");
      await run("select 'beta' hist from long_sequence(2)");
      await run("select 'alpha' hist from long_sequence(1)");
      await page.getByTestId("history-panel-button").click();
      const panel = page.getByTestId("history-panel");
      await panel.waitFor();
      const items = () =>
        panel.getByTestId("history-item").evaluateAll((els) =>
          els.map((e) => `${e.getAttribute("data-query")}|${e.getAttribute("data-starred")}`)
        );
      // Newest first, and a re-run moves up instead of adding a copy.
      const all = await items();
      assert.deepEqual(all.slice(0, 2), [
        "select 'alpha' hist from long_sequence(1)|false",
        "select 'beta' hist from long_sequence(2)|false",
      ]);
      assert.equal(all.filter((i) => i.includes("'alpha'")).length, 1);
      await panel.getByTestId("history-search").fill("BETA");
      assert.deepEqual(await items(), ["select 'beta' hist from long_sequence(2)|false"]);
      await panel.getByTestId("history-star").click();
      await panel.getByTestId("history-search").fill("");
      await page.waitForTimeout(300); // the IndexedDB write of the star

      await page.reload();
      await page.locator('[data-testid="app-root"][data-state="ready"]').waitFor();
      await page.getByTestId("history-panel-button").click();
      await panel.getByTestId("history-starred-filter").click();
      assert.deepEqual(await items(), ["select 'beta' hist from long_sequence(2)|true"]);
      await panel.getByTestId("history-clear").click();
      await panel.getByTestId("history-starred-filter").click();
      assert.deepEqual(
        await items(),
        ["select 'beta' hist from long_sequence(2)|true"],
        "starred ones are kept",
      );
      const entry = await nextEntry(() => panel.getByTestId("history-run").click());
      assert.equal(await entry.getAttribute("data-status"), "success");
      assert.equal(await page.getByTestId("result-row-count").textContent(), "2");
      await page.getByTestId("history-panel-button").click();
      await panel.waitFor({ state: "hidden" });
    });

    await t.step("the theme switches between dark, light and system, and is remembered", async () => {
      const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
      assert.equal(await theme(), "dark");
      const dark = await bg();
      await page.getByTestId("theme-select").selectOption("light");
      assert.equal(await theme(), "light");
      const light = await bg();
      assert.notEqual(light, dark);
      // The editor's keywords follow the palette too.
      await setEditorText(page, "select 1");
      const keyword = () =>
        page.evaluate(() => {
          const span = [...document.querySelectorAll(".cm-line span")].find((s) =>
            s.textContent === "select"
          );
          return span ? getComputedStyle(span).color : "";
        });
      assert.equal(await keyword(), "rgb(179, 36, 106)");
      console.log(`light theme screenshot: ${await saveArtifact(page, "console_light.png")}`);
      await page.reload();
      await page.locator('[data-testid="app-root"][data-state="ready"]').waitFor();
      assert.equal(await theme(), "light");
      assert.equal(await bg(), light);
      // "System" follows the browser's preference.
      await page.emulateMedia({ colorScheme: "dark" });
      await page.getByTestId("theme-select").selectOption("system");
      assert.equal(await bg(), dark);
      await page.emulateMedia({ colorScheme: "light" });
      assert.equal(await bg(), light);
      await page.getByTestId("theme-select").selectOption("dark");
      assert.equal(await bg(), dark);
    });

    await t.step("a share link that writes asks before it runs", async () => {
      const text = "create table shared_t (x int);\ninsert into shared_t values (1)";
      const link = `${server.httpUrl}/index.html?query=${encodeURIComponent(text)}&executeQuery=true`;
      const exists = async () =>
        (await (await fetch(`${server.httpUrl}/chk?f=json&j=shared_t`)).json()).status === "Exists";
      await page.goto(link);
      const dialog = page.getByTestId("share-confirm-dialog");
      await dialog.waitFor();
      assert.deepEqual(
        await dialog.getByTestId("share-confirm-statement").evaluateAll((els) =>
          els.map((e) => e.getAttribute("data-kind"))
        ),
        ["CREATE", "INSERT"],
      );
      await dialog.getByTestId("share-confirm-cancel").click();
      await dialog.waitFor({ state: "detached" });
      assert.equal(await exists(), false, "nothing ran");

      await page.goto(link);
      await dialog.waitFor();
      await dialog.getByTestId("share-confirm-run").click();
      await page.waitForFunction(() => {
        const entries = document.querySelectorAll('[data-testid="query-log-entry"]');
        return entries.length > 0 && entries[0].getAttribute("data-status") === "success" &&
          entries[0].textContent.includes("insert into shared_t");
      });
      const res = await fetch(
        `${server.httpUrl}/exec?query=${encodeURIComponent("select count() from shared_t")}`,
      );
      assert.deepEqual((await res.json()).dataset, [[1]]);
    });

    await t.step("search across tabs finds text in open and closed tabs and reveals it", async () => {
      await page.getByTestId("new-tab-button").click();
      await setEditorText(page, "select Needle_a from t1;\nselect needle from t2");
      const firstId = await page.locator('[data-testid="editor-tab"][data-active="true"]').getAttribute(
        "data-tab-id",
      );
      await page.getByTestId("new-tab-button").click();
      await setEditorText(page, "-- a needle here\nselect needles");
      const closedId = await page.locator('[data-testid="editor-tab"][data-active="true"]').getAttribute(
        "data-tab-id",
      );
      await page.locator('[data-testid="editor-tab"][data-active="true"]').getByTestId("close-tab-button")
        .click();
      await page.getByTestId("search-panel-button").click();
      const panel = page.getByTestId("search-panel");
      await panel.getByTestId("search-input").fill("needle");
      const hits = () =>
        panel.getByTestId("search-result").evaluateAll((els) =>
          els.map((e) =>
            `${e.closest("[data-tab-id]").getAttribute("data-closed")}:${e.getAttribute("data-line")}`
          )
        );
      assert.deepEqual(await hits(), ["false:1", "false:2"], "open tabs only, case-insensitive");
      await panel.getByTestId("search-case").click();
      assert.deepEqual(await hits(), ["false:2"]);
      await panel.getByTestId("search-case").click();
      await panel.getByTestId("search-closed").click();
      assert.deepEqual(await hits(), ["false:1", "false:2", "true:1", "true:2"]);
      await panel.getByTestId("search-word").click();
      assert.deepEqual(await hits(), ["false:2", "true:1"], "whole words only");
      await panel.getByTestId("search-word").click();
      await panel.getByTestId("search-regex").click();
      await panel.getByTestId("search-input").fill("needle_\\w+|needles");
      assert.deepEqual(await hits(), ["false:1", "true:2"]);
      await panel.getByTestId("search-input").fill("needle(");
      await panel.getByTestId("search-error").waitFor();

      // Clicking a hit in a closed tab reopens it and selects the match.
      await panel.getByTestId("search-input").fill("needles");
      await panel.locator(`[data-testid="search-group"][data-tab-id="${closedId}"]`).getByTestId(
        "search-result",
      ).click();
      await page.locator(`[data-testid="editor-tab"][data-tab-id="${closedId}"][data-active="true"]`)
        .waitFor();
      await page.waitForFunction(() => document.getSelection()?.toString() === "needles");
      await panel.getByTestId("search-input").fill("Needle_a");
      await panel.getByTestId("search-result").click();
      await page.locator(`[data-testid="editor-tab"][data-tab-id="${firstId}"][data-active="true"]`)
        .waitFor();
      await page.waitForFunction(() => document.getSelection()?.toString() === "Needle_a");
      await page.getByTestId("search-panel-button").click();
    });

    await t.step("tabs export to JSON and import back, skipping duplicates and bad entries", async () => {
      await page.getByTestId("tabs-menu-button").click();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("tabs-export").click(),
      ]);
      const exported = JSON.parse(await Deno.readTextFile((await download.path())!));
      const open = await page.getByTestId("editor-tab").count();
      assert.equal(exported.format, "questdb-console-tabs");
      assert.equal(exported.tabs.length, open);
      const file = {
        ...exported,
        tabs: [
          ...exported.tabs, // every one is already open: skipped as duplicates
          { title: "Imported report", text: "select 'imported' from long_sequence(1)" },
          { title: "Broken" },
        ],
      };
      await page.getByTestId("tabs-menu-button").click();
      await page.getByTestId("tabs-import-input").setInputFiles({
        name: "tabs.json",
        mimeType: "application/json",
        buffer: Buffer.from(JSON.stringify(file)),
      });
      const summary = page.getByTestId("tabs-import-summary");
      await summary.waitFor();
      assert.equal(await summary.getAttribute("data-imported"), "1");
      assert.equal(await summary.getAttribute("data-skipped"), String(open + 1));
      await summary.getByRole("button", { name: "OK" }).click();
      assert.equal(await page.getByTestId("editor-tab").count(), open + 1);
      assert.match(
        await page.locator('[data-testid="editor-tab"][data-active="true"]').textContent() ?? "",
        /Imported report/,
      );
      await page.getByTestId("tabs-menu-button").click();
      await page.getByTestId("tabs-import-input").setInputFiles({
        name: "junk.json",
        mimeType: "application/json",
        buffer: Buffer.from("{not json"),
      });
      await summary.waitFor();
      assert.equal(await summary.getAttribute("data-imported"), "0");
      assert.match(await summary.textContent() ?? "", /not a JSON file/);
      await summary.getByRole("button", { name: "OK" }).click();
    });

    await t.step("editor settings: run with selection and the maximum column width", async () => {
      const runSelected = async () => {
        await setEditorText(page, "select 1 a;\nselect 'a long text value for width' b");
        await page.keyboard.press("Control+Home");
        await page.keyboard.press("Shift+ArrowDown"); // selects statement 1, caret on line 2
        return await nextEntry(() => page.keyboard.press("Control+Enter"));
      };
      const header = () => page.locator('[data-testid="grid-header-name"]').first().textContent();
      await runSelected();
      assert.equal(await header(), "a", "the selection ran");

      await page.getByTestId("tabs-menu-button").click();
      await page.getByTestId("editor-settings-button").click();
      const dialog = page.getByTestId("editor-settings");
      await dialog.getByTestId("setting-run-selection").uncheck();
      await dialog.getByTestId("setting-max-column-width").fill("80");
      await dialog.getByTestId("setting-max-column-width").press("Tab");
      await dialog.getByTestId("dialog-close").click();
      await runSelected();
      assert.equal(await header(), "b", "the statement at the cursor ran despite the selection");
      const box = await page.locator('[data-testid="grid-header-cell"][data-col="0"]').boundingBox();
      assert.ok(box && box.width <= 81, `column capped at 80px: ${box?.width}`);

      // Remembered across a reload; then back to the defaults.
      await page.reload();
      await page.locator('[data-testid="app-root"][data-state="ready"]').waitFor();
      await page.getByTestId("tabs-menu-button").click();
      await page.getByTestId("editor-settings-button").click();
      assert.equal(await dialog.getByTestId("setting-run-selection").isChecked(), false);
      assert.equal(await dialog.getByTestId("setting-max-column-width").inputValue(), "80");
      await dialog.getByTestId("setting-run-selection").check();
      await dialog.getByTestId("setting-max-column-width").fill("99999");
      await dialog.getByTestId("setting-max-column-width").press("Tab");
      assert.equal(await dialog.getByTestId("setting-max-column-width").inputValue(), "4000", "clamped");
      await dialog.getByTestId("setting-max-column-width").fill("420");
      await dialog.getByTestId("setting-max-column-width").press("Tab");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      await page.getByTestId("tabs-menu-button").click();
      await page.getByTestId("shortcuts-button").click();
      const help = page.getByTestId("shortcuts-help");
      assert.ok((await help.getByTestId("shortcut").count()) >= 8);
      await help.locator('[data-testid="shortcut"][data-keys="Ctrl+E"]').waitFor();
      await help.getByTestId("dialog-close").click();
      await help.waitFor({ state: "detached" });
    });

    await t.step("live validation marks an error a moment after typing, without running", async () => {
      const before = browser.requests.length;
      await setEditorText(page, "select 1;\nselect nope from long_sequence(3)");
      const sql = "select 1;\nselect nope from long_sequence(3)";
      const marker = page.locator('[data-testid="editor-error-marker"][data-source="validate"]');
      await marker.waitFor({ timeout: 10_000 });
      assert.equal(await marker.getAttribute("data-from"), String(sql.indexOf("nope")));
      assert.equal(await marker.getAttribute("data-to"), String(sql.indexOf("nope") + 4));
      const sent = browser.requests.slice(before).map((u) => new URL(u));
      assert.ok(sent.some((u) => u.pathname === "/api/v1/sql/validate"), "validated");
      assert.ok(
        !sent.some((u) => u.pathname === "/exec" && (u.searchParams.get("query") ?? "").includes("nope")),
        "nothing ran",
      );
      await marker.hover();
      assert.match(await page.getByTestId("editor-error-message").textContent() ?? "", /nope/);
      // Fixing the statement clears the marker.
      await setEditorText(page, "select 1;\nselect x from long_sequence(3)");
      await page.waitForTimeout(1500);
      assert.equal(await page.getByTestId("editor-error-marker").count(), 0);
    });

    await t.step("Alt+Shift+F formats the tab, Alt+F the selection", async () => {
      await setEditorText(page, "select a,b  from t where x>1 order by b;select 'x,  y' s from u");
      await page.keyboard.press("Alt+Shift+F");
      assert.equal(
        await editorText(page),
        "SELECT a, b\nFROM t\nWHERE x>1\nORDER BY b;\n\nSELECT 'x,  y' s\nFROM u",
      );
      await page.keyboard.press("Control+z");
      assert.equal(await editorText(page), "select a,b  from t where x>1 order by b;select 'x,  y' s from u");
      await setEditorText(page, "select 1;\nselect a,b from t");
      await page.keyboard.press("End");
      await page.keyboard.press("Shift+Home");
      await page.keyboard.press("Alt+F");
      assert.equal(await editorText(page), "select 1;\nSELECT a, b\nFROM t");

      // Alt+Shift+L links the whole tab.
      await page.keyboard.press("Alt+Shift+L");
      const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
      assert.equal(link.searchParams.get("query"), "select 1;\nSELECT a, b\nFROM t");
      assert.equal(link.searchParams.get("executeQuery"), "true");
    });

    await t.step("a chart over time with a small categorical column draws one line per value", async () => {
      await setEditorText(
        page,
        "select timestamp_sequence(0, 1000000) ts, rnd_symbol('a','b','c') sym, x * 1.0 v from long_sequence(60)",
      );
      await nextEntry(() => page.keyboard.press("Control+Enter"));
      await page.getByTestId("result-view-chart").click();
      const panel = page.locator('[data-testid="chart-panel"][data-status="ready"]');
      await panel.waitFor();
      await page.locator('[data-testid="chart-panel"][data-partition="sym"]').waitFor();
      assert.equal(await panel.getAttribute("data-series-count"), "3");
      assert.equal(await panel.getAttribute("data-point-count"), "60");
      await page.getByTestId("chart-partition-select").selectOption("-1");
      assert.equal(await panel.getAttribute("data-partition"), "");
      assert.equal(await panel.getAttribute("data-series-count"), "1");
      await page.getByTestId("result-view-grid").click();
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
