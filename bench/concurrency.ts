/**
 * `deno task bench:concurrency`: head-of-line blocking and multi-core use (issue #17). Our
 * server runs as a child on the kit's `trades` table; then
 *
 * 1. per protocol (HTTP /exec, pgwire) and heavy query, the kit's `latency.mjs`
 *    (bench/kit/concurrency, an unchanged copy of ../shared/bench/concurrency/latency.mjs) times
 *    `SELECT 1` from one client idle and while 2 other clients loop the heavy query;
 * 2. per heavy query, its throughput over HTTP from 1 client alone and from 2 clients together
 *    (queries per second over a fixed time; the target is 2 clients ≥ 1.6× one).
 *
 *   deno task bench:concurrency [-- --rows 10m|1m] [--workers 2] [--n 300] [--seconds 10]
 *                               [--cache-mib 1536] [--only t5,groupby] [--via http,pg]
 *                               [--query id=SQL ...] [--statement-rows-min N]
 *
 * The heavy queries: `t5` (the kit's keyed SAMPLE BY, from queries.json) and `groupby`
 * (`SELECT symbol, side, count(*), avg(price) FROM trades GROUP BY symbol, side`) by default;
 * `--only` also names `t8` (the kit's ASOF JOIN of trades and quotes), `join` (a hash join of
 * trades and quotes on symbol and time) and `latest` (LATEST ON over symbol and price bucket),
 * and each `--query id=SQL` adds a query of one's own (run with `--only` naming it, or alone).
 * `--statement-rows-min` sets the server's cairo.sql.parallel.statement.rows.min (-1 keeps
 * every statement on the main thread: the "before" of statement offload). Results are printed
 * and written to bench/results/concurrency-<size>-<date>.json and .md.
 */
import { CACHE_BYTES_DEFAULT } from "../engine/storage/mod.ts";
import { ensureDataset, parseRows, sizeLabel } from "./dataset.ts";
import { loadEngine } from "./load_engine.ts";
import { startServer } from "./server_child.ts";

const BENCH_DIR = new URL(".", import.meta.url).pathname.replace(/\/$/, "");
const REPO_DIR = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const KIT_DIR = `${BENCH_DIR}/kit`;
const DATA_DIR = `${BENCH_DIR}/data`;
const LATENCY = `${KIT_DIR}/concurrency/latency.mjs`;
const GROUP_BY = "SELECT symbol, side, count(*), avg(price) FROM trades GROUP BY symbol, side";
/** Heavy queries of the main thread before statements ran on the workers (issue #17). */
const JOIN =
  "SELECT count(*) n, sum(t.price - q.bid) FROM trades t JOIN quotes q ON t.symbol = q.symbol AND t.ts = q.ts";
const LATEST =
  "SELECT count(*) n, sum(price) FROM (SELECT * FROM trades LATEST ON ts PARTITION BY symbol, qty)";

/** One latency.mjs record (its own field names). */
interface Latency {
  via: string;
  bg: number;
  n: number;
  idle_p50: number;
  idle_p99: number;
  loaded_p50: number;
  loaded_p99: number;
  loaded_max: number;
  long_done: number;
  long_mean_ms: number;
}

interface Throughput {
  query: string;
  clients: number;
  seconds: number;
  done: number;
  qps: number;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<void> {
  const args = Deno.args;
  if (args.includes("--help")) {
    console.log(Deno.readTextFileSync(new URL(import.meta.url)).split("*/")[0]);
    return;
  }
  const rows = parseRows(option(args, "rows") ?? "10m");
  const size = sizeLabel(rows);
  const workers = Number(option(args, "workers") ?? navigator.hardwareConcurrency);
  const n = Number(option(args, "n") ?? 300);
  const seconds = Number(option(args, "seconds") ?? 10);
  const cacheBytes = Number(option(args, "cache-mib") ?? CACHE_BYTES_DEFAULT / 2 ** 20) * 2 ** 20;
  const vias = (option(args, "via") ?? "http,pg").split(",");
  const spec = JSON.parse(await Deno.readTextFile(`${KIT_DIR}/queries.json`));
  const kit = (id: string) =>
    (spec.queries as { id: string; questdb: string }[]).find((q) => q.id === id)!.questdb;
  const own = Object.fromEntries(
    args.flatMap((a, i) =>
      args[i - 1] === "--query" ? [[a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]] : []
    ),
  );
  const only = option(args, "only")?.split(",") ??
    (Object.keys(own).length ? Object.keys(own) : ["t5", "groupby"]);
  const heavy = Object.entries({
    t5: kit("t5"),
    groupby: GROUP_BY,
    t8: kit("t8"),
    join: JOIN,
    latest: LATEST,
    ...own,
  })
    .filter(([id]) => only.includes(id));
  const rowsMin = option(args, "statement-rows-min");

  const dataDir = await ensureDataset(rows, { dataRoot: DATA_DIR, kitDir: KIT_DIR });
  const root = `${DATA_DIR}/qdb-${size}`;
  await loadEngine(dataDir, { root, ddl: spec.datasets.trades.ddl.questdb, cacheBytes });
  const started = new Date();
  const env: Record<string, string> = rowsMin === undefined
    ? {}
    : { QDB_CAIRO_SQL_PARALLEL_STATEMENT_ROWS_MIN: rowsMin };
  const server = await startServer(root, { repoDir: REPO_DIR, cacheBytes, workers, env });
  console.log(
    `server pid ${server.pid}: ${server.url}, pg ${server.pg}, ${workers} workers` +
      (rowsMin === undefined ? "" : `, statement rows min ${rowsMin}`),
  );
  const latency: (Latency & { query: string })[] = [];
  const throughput: Throughput[] = [];
  try {
    // Warm the caches: the first run of each heavy query reads the columns from disk.
    for (const [, sql] of heavy) await httpQuery(server.url, sql);
    for (const [id, sql] of heavy) {
      for (const clients of [1, 2]) {
        const t = await loopFor(server.url, sql, clients, seconds);
        throughput.push({ query: id, ...t });
        console.log(`${id}: ${clients} client(s): ${t.done} in ${t.seconds} s = ${t.qps} q/s`);
      }
    }
    for (const via of vias) {
      const target = via === "http"
        ? ["--http", server.url]
        : ["--pg", `postgres://admin:quest@${server.pg}/qdb`];
      for (const [id, sql] of heavy) {
        const r = await runLatency([...target, "--long", sql, "--bg", "2", "--n", String(n)]);
        latency.push({ query: id, ...r });
        console.log(`${via} ${id}: ${JSON.stringify(r)}`);
      }
    }
  } finally {
    await server.stop();
  }
  const report = markdown(size, workers, latency, throughput, heavy, rowsMin);
  console.log(report);
  const stamp = started.toISOString().slice(0, 16).replace(":", "");
  const base = `${BENCH_DIR}/results/concurrency-${size}-${stamp}`;
  await Deno.writeTextFile(`${base}.md`, report);
  await Deno.writeTextFile(
    `${base}.json`,
    JSON.stringify(
      {
        date: started.toISOString(),
        size,
        rows,
        workers,
        n,
        statementRowsMin: rowsMin,
        queries: heavy,
        latency,
        throughput,
      },
      null,
      1,
    ),
  );
  console.log(`written ${base}.md and .json`);
}

async function httpQuery(url: string, sql: string): Promise<void> {
  const r = await fetch(`${url}/exec?query=${encodeURIComponent(sql)}`);
  const j = await r.json();
  if (j.error) throw new Error(`${sql}: ${j.error}`);
}

/** `clients` HTTP clients loop `sql` for `seconds`; queries finished inside the window per second. */
async function loopFor(url: string, sql: string, clients: number, seconds: number) {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const start = performance.now();
  let last = start;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < end) {
      await httpQuery(url, sql);
      done++;
      last = Math.max(last, performance.now());
    }
  }));
  const s = (last - start) / 1000;
  return { clients, seconds: +s.toFixed(2), done, qps: +(done / s).toFixed(2) };
}

async function runLatency(args: string[]): Promise<Latency> {
  // --config: bench/kit holds a package.json, which would hide deno.dev.json's `pg` import.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${REPO_DIR}/deno.dev.json`, LATENCY, ...args],
    cwd: REPO_DIR,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success) throw new Error(`latency.mjs failed: ${text.slice(-500)}`);
  return JSON.parse(text.split("\n").at(-1)!);
}

function markdown(
  size: string,
  workers: number,
  lat: (Latency & { query: string })[],
  tp: Throughput[],
  heavy: [string, string][],
  rowsMin: string | undefined,
) {
  const lines = [
    `# Concurrency, trades ${size}, ${workers} workers, ${navigator.hardwareConcurrency} cores` +
    (rowsMin === undefined ? "" : `, cairo.sql.parallel.statement.rows.min=${rowsMin}`),
    "",
    ...heavy.map(([id, sql]) => `- ${id}: \`${sql}\``),
    "",
    "`SELECT 1` latency (ms) from a third client while 2 clients loop the heavy query:",
    "",
    "| via | heavy query | idle p50 | idle p99 | loaded p50 | loaded p99 | loaded max | heavy done | heavy mean ms |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...lat.map((r) =>
      `| ${r.via} | ${r.query} | ${r.idle_p50} | ${r.idle_p99} | ${r.loaded_p50} | ${r.loaded_p99} | ${r.loaded_max} | ${r.long_done} | ${r.long_mean_ms} |`
    ),
    "",
    "Heavy query throughput over HTTP (queries/s):",
    "",
    "| query | 1 client | 2 clients | 2 ÷ 1 |",
    "| --- | --- | --- | --- |",
  ];
  for (const q of new Set(tp.map((t) => t.query))) {
    const one = tp.find((t) => t.query === q && t.clients === 1)!;
    const two = tp.find((t) => t.query === q && t.clients === 2)!;
    lines.push(`| ${q} | ${one.qps} | ${two.qps} | ${(two.qps / one.qps).toFixed(2)} |`);
  }
  return lines.join("\n") + "\n";
}

if (import.meta.main) await main();
