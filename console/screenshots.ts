/**
 * Regenerates docs/screenshots/*.png, the console's main views at 1280×800 that the README
 * shows: a query with its grid and the schema explorer, the chart, an error marker, and
 * autocomplete. Starts the real server on a temporary data root with a small demo table and
 * drives Debian's Chromium. Run with `deno task screenshots` (builds the console first).
 */
import { startServer } from "../tests/e2e/server_process.ts";
import {
  ensureConsoleBuilt,
  hasChromium,
  launchConsoleBrowser,
  openConsole,
  runWithKeyboard,
  setEditorText,
} from "../tests/e2e/console_browser.ts";

const OUT = new URL("../docs/screenshots/", import.meta.url);

const DEMO_TABLE = `create table trades as (
  select timestamp_sequence('2024-01-01T00:00:00.000000Z', 15000000L) ts,
         rnd_symbol('BTC-USD', 'ETH-USD', 'SOL-USD') symbol,
         60000 + 800 * sin(x / 900.0) + 150 * sin(x / 97.0) + rnd_double() * 40 price,
         rnd_double() * 2 amount
  from long_sequence(20000)
) timestamp(ts) partition by day`;

// TODO(#5): show a SAMPLE BY query here once the engine runs it.
const QUERY = `-- Latest BTC trades with their notional value
select ts, symbol, price, amount, price * amount notional
from trades
where symbol = 'BTC-USD' and amount > 0.2
limit 3000;`;

async function main(): Promise<void> {
  if (!hasChromium()) throw new Error("/usr/bin/chromium is missing: run .ci/install_browser.sh");
  await ensureConsoleBuilt();
  await Deno.mkdir(OUT, { recursive: true });
  const server = await startServer();
  const browser = await launchConsoleBrowser({ width: 1280, height: 800 });
  const { page } = browser;
  const shot = async (name: string) => {
    await page.waitForTimeout(250);
    await page.screenshot({ path: new URL(name, OUT).pathname });
    console.log(`docs/screenshots/${name}`);
  };
  try {
    const created = await server.exec(DEMO_TABLE);
    if (!created.ok) throw new Error(`demo table: ${await created.text()}`);
    await openConsole(page, server.httpUrl);
    await page.locator('[data-testid="schema-table"][data-name="trades"] button').first().click();

    await setEditorText(page, QUERY);
    await page.keyboard.press("ArrowUp");
    await runWithKeyboard(page);
    await shot("console_query.png");

    await page.getByTestId("result-view-chart").click();
    await page.locator('[data-testid="chart-panel"][data-status="ready"]').waitFor();
    await page.getByTestId("chart-series-select").locator('[data-series="amount"] input').uncheck();
    await page.getByTestId("chart-series-select").locator('[data-series="notional"] input').uncheck();
    await shot("console_chart.png");
    await page.getByTestId("result-view-grid").click();

    await setEditorText(page, "select ts, symbol, price\nfrom trades\nwhere pricee > 60050\nlimit 10;");
    await runWithKeyboard(page);
    await page.getByTestId("editor-error-marker").first().hover();
    await page.getByTestId("editor-error-message").waitFor();
    await shot("console_error.png");

    await setEditorText(page, "select ts, ");
    await page.keyboard.type("sy");
    await page.keyboard.press("End");
    await page.keyboard.insertText("\nfrom trades");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("End");
    await page.keyboard.press("Control+Space");
    await page.getByTestId("autocomplete-popup").waitFor();
    await shot("console_autocomplete.png");
  } finally {
    await browser.close();
    await server.kill();
  }
}

if (import.meta.main) await main();
