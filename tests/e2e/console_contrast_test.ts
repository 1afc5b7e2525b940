/**
 * WCAG AA contrast (4.5:1 for normal text) of the console's coloured text in both palettes,
 * measured in the browser from computed styles: the schema badges (partitioning, WAL,
 * suspended), the active Grid/Chart toggle, and numbers in the result grid (plain, odd row,
 * selected). The background is every ancestor's background composited, so translucent row
 * tints count.
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
declare const document: any;
// deno-lint-ignore no-explicit-any
declare const getComputedStyle: any;

const AA = 4.5;

Deno.test({
  name: "console: badges, the active toggle and grid numbers meet WCAG AA in light and dark",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  await ensureConsoleBuilt();
  const server = await startServer();
  const browser = await launchConsoleBrowser();
  const { page } = browser;
  try {
    for (
      const q of [
        "create table trades (ts timestamp, x long) timestamp(ts) partition by day wal",
        "alter table trades suspend wal",
      ]
    ) {
      const res = await server.exec(q);
      assert.ok(res.ok, `${q}: ${await res.text()}`);
    }
    await openConsole(page, server.httpUrl);
    await page.locator(".badge.warn").first().waitFor();
    await setEditorText(page, "select x, x * 1000 big from long_sequence(5)");
    await runWithKeyboard(page);
    await page.locator('[data-testid="grid-cell"][data-row="1"][data-col="1"]').click();

    for (const theme of ["light", "dark"]) {
      await page.getByTestId("theme-select").selectOption(theme);
      const measured: { what: string; ratio: number; fg: string; bg: string }[] = await page.evaluate(
        () => {
          type Rgba = [number, number, number, number];
          const parse = (c: string): Rgba => {
            const m = /rgba?\(([^)]+)\)/.exec(c);
            if (!m) return [0, 0, 0, 0];
            const p = m[1].split(/[,\s/]+/).filter(Boolean).map(Number);
            return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
          };
          const over = (top: Rgba, under: Rgba): Rgba => {
            const a = top[3] + under[3] * (1 - top[3]);
            if (a === 0) return [0, 0, 0, 0];
            const ch = (i: number) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a;
            return [ch(0), ch(1), ch(2), a];
          };
          // deno-lint-ignore no-explicit-any
          const background = (el: any): Rgba => {
            const layers: Rgba[] = [];
            for (let e = el; e; e = e.parentElement) layers.push(parse(getComputedStyle(e).backgroundColor));
            let acc: Rgba = [255, 255, 255, 1]; // the canvas under everything
            for (const l of layers.reverse()) acc = over(l, acc);
            return acc;
          };
          const luminance = (c: Rgba) => {
            const f = (v: number) => {
              const s = v / 255;
              return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
            };
            return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
          };
          const out: { what: string; ratio: number; fg: string; bg: string }[] = [];
          const check = (what: string, selector: string) => {
            const els = [...document.querySelectorAll(selector)];
            if (els.length === 0) out.push({ what, ratio: 0, fg: "missing", bg: "missing" });
            for (const el of els) {
              const bg = background(el);
              const fg = over(parse(getComputedStyle(el).color), bg);
              const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
              out.push({
                what,
                ratio: (hi + 0.05) / (lo + 0.05),
                fg: fg.map((v) => Math.round(v)).join(","),
                bg: bg.map((v) => Math.round(v)).join(","),
              });
            }
          };
          check("partition badge", '[data-testid="schema-partition"]');
          check("WAL badge", ".badge.dim-badge");
          check("suspended badge", ".badge.warn");
          check("active toggle", ".segmented button.active");
          check("grid number", '[data-testid="grid-row"]:not(.odd) .grid-cell.num:not(.selected)');
          check("grid number, odd row", '[data-testid="grid-row"].odd .grid-cell.num:not(.selected)');
          check("grid number, selected", ".grid-cell.num.selected");
          return out;
        },
      );
      const failing = measured.filter((m) => !(m.ratio >= AA));
      assert.deepEqual(
        failing.map((m) => `${m.what}: ${m.ratio.toFixed(2)} (fg ${m.fg} on ${m.bg})`),
        [],
        `${theme} theme below ${AA}:1`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
