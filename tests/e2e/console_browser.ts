/**
 * Drives Debian's Chromium (/usr/bin/chromium) through playwright-core for the console's
 * end-to-end tests and the screenshots task: never downloads a browser, uses a fresh profile,
 * records every request (to assert /exec parameters and that nothing leaves the server's
 * origin), and knows the console's data-testid hooks (spec/console.md §6).
 */
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];
const ARTIFACTS = new URL("./artifacts/", import.meta.url);

// Functions passed to page.evaluate run in the browser; tests are type-checked without the DOM lib.
// deno-lint-ignore no-explicit-any
declare const document: any;

export function hasChromium(): boolean {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
}

/** Builds console/dist unless it is newer than every console source, so the server serves current code. */
export async function ensureConsoleBuilt(): Promise<void> {
  const build = new URL("../../console/build.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", build, "--if-stale"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("console build failed");
}

export interface ConsoleBrowser {
  context: BrowserContext;
  page: Page;
  /** Every URL the page requested, in order. */
  requests: string[];
  downloadsDir: string;
  close(): Promise<void>;
}

export async function launchConsoleBrowser(
  opts: { width?: number; height?: number } = {},
): Promise<ConsoleBrowser> {
  const profile = await Deno.makeTempDir({ prefix: "console_e2e_profile_" });
  const downloadsDir = await Deno.makeTempDir({ prefix: "console_e2e_downloads_" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    acceptDownloads: true,
    downloadsPath: downloadsDir,
  });
  const page = context.pages()[0] ?? await context.newPage();
  const requests: string[] = [];
  context.on("request", (r) => requests.push(r.url()));
  return {
    context,
    page,
    requests,
    downloadsDir,
    async close() {
      await context.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
      await Deno.remove(downloadsDir, { recursive: true }).catch(() => {});
    },
  };
}

/** Opens the console and waits until `app-root[data-state=ready]`. */
export async function openConsole(page: Page, httpUrl: string): Promise<void> {
  await page.goto(`${httpUrl}/`);
  await page.locator('[data-testid="app-root"][data-state="ready"]').waitFor({ timeout: 20_000 });
}

/** Replaces the editor's text (no key events, so no auto-closed brackets) and puts the caret at the end. */
export async function setEditorText(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("editor-input");
  await input.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  if (text) await page.keyboard.insertText(text);
  await page.keyboard.press("Escape");
}

export function editorText(page: Page): Promise<string> {
  return page.getByTestId("editor-input").evaluate((el) => {
    // CodeMirror renders one .cm-line per document line.
    return Array.from(
      el.querySelectorAll(".cm-line"),
      (l: { textContent: string | null }) => l.textContent ?? "",
    ).join("\n");
  });
}

/** Runs the statement at the caret with Ctrl+Enter and waits until its log entry is no longer running. */
export async function runWithKeyboard(page: Page, keys = "Control+Enter"): Promise<void> {
  const latest = () =>
    page.evaluate(() =>
      document.querySelector('[data-testid="query-log-entry"]')?.getAttribute("data-entry-id") ?? ""
    );
  const before = await latest();
  await page.getByTestId("editor-input").focus();
  await page.keyboard.press(keys);
  await page.waitForFunction(
    (prev) => {
      const first = document.querySelector('[data-testid="query-log-entry"]');
      return first !== null && first.getAttribute("data-entry-id") !== prev &&
        first.getAttribute("data-status") !== "running";
    },
    before,
    { timeout: 30_000 },
  );
}

/** Writes a screenshot under tests/e2e/artifacts (ignored by git) and returns its path. */
export async function saveArtifact(page: Page, name: string): Promise<string> {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await Deno.writeTextFile(new URL(".gitignore", ARTIFACTS), "*\n");
  const path = new URL(name, ARTIFACTS).pathname;
  await page.screenshot({ path });
  return path;
}
