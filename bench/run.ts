/**
 * `deno task bench`: the side-by-side benchmark of our engine against DuckDB on the kit's
 * `trades` dataset, in one run (docs/bench.md). Generates or reuses the data, loads it into
 * DuckDB and into our engine, times queries t1–t10 in process, over HTTP and on DuckDB, and
 * prints one table, also written to bench/results/<size>-<date>.md and .json. Before our queries
 * it measures the machine's WASM SIMD bandwidth, the ceiling t2's full scan is held against.
 *
 *   deno task bench [-- --rows 10m|100m|1m] [--only t1,t2] [--runs 5] [--cache-mib 1536|3584 at 100m]
 *                   [--threads 2] [--timeout-s 300] [--no-duckdb] [--no-http] [--no-bandwidth] [--reload]
 *                   [--workers 2]   (cairo.sql.parallel.workers of our engine; 0: main thread only)
 *                   [--shapes 1,2]  (instead of t1–t10: the kit's random query shapes of those seeds,
 *                                    bench/shapes.ts, over HTTP against DuckDB)
 *                   [--survey]      (bench/survey.json, ordinary queries beyond the shapes, reported
 *                                    as seed 0; alone or beside --shapes)
 *                   [--dataset cpu] (the kit's `cpu` dataset and bench/cpu_queries.json, TSBS-style
 *                                    queries, over HTTP against DuckDB, like --shapes)
 */
import { Engine } from "../engine/mod.ts";
import { CACHE_BYTES_DEFAULT } from "../engine/storage/mod.ts";
import { ensureDataset, exists, parseRows, sizeLabel } from "./dataset.ts";
import {
  type DuckdbRun,
  ensureDuckdbClient,
  ensureDuckdbLoaded,
  fastestDuckdb,
  runDuckdb,
} from "./duckdb.ts";
import { loadEngine } from "./load_engine.ts";
import { type Expected, inProcess, measure, overHttp, type QuerySpec, type Timing } from "./run_queries.ts";
import { peakRssMib, startServer } from "./server_child.ts";
import { processCpuMs } from "./process_cpu.ts";
import { type HttpLoad, measureHttpLoad } from "./http_load.ts";
import type { WasmBandwidth } from "./wasm_bandwidth.ts";
import { type BenchResult, checkCell, markdown, type QueryRow, ratioOf } from "./report.ts";
import { runShapes } from "./shapes.ts";

const BENCH_DIR = new URL(".", import.meta.url).pathname.replace(/\/$/, "");
const REPO_DIR = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const KIT_DIR = `${BENCH_DIR}/kit`;
const DATA_DIR = `${BENCH_DIR}/data`;
/** V8 heap of the bench process, as `deno task start` gives the server (deno.json), with its --always-sparkplug. */
const HEAP_MIB = 8192;

interface Options {
  rows: number;
  only?: string;
  runs: number;
  cacheBytes: number;
  /** Our engine's worker heaps (cairo.sql.parallel.workers). */
  workers: number;
  threads: number;
  timeoutMs: number;
  duckdb: boolean;
  http: boolean;
  /** Measure the WASM SIMD bandwidth ceiling (skipped anyway when t2 is not among the queries). */
  bandwidth: boolean;
  reload: boolean;
  /** Seeds of the query shapes to run instead of t1–t10 (bench/shapes.ts). */
  shapes?: number[];
  /** Run bench/survey.json too (instead of t1–t10). */
  survey: boolean;
  /** `cpu`: the kit's cpu dataset with bench/cpu_queries.json instead of trades. */
  dataset: "trades" | "cpu";
}

function parseOptions(args: string[]): Options {
  const value = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (args.includes("--help")) {
    console.log(Deno.readTextFileSync(new URL(import.meta.url)).split("*/")[0]);
    Deno.exit(0);
  }
  const rows = parseRows(value("rows") ?? "10m");
  return {
    rows,
    only: value("only"),
    runs: Number(value("runs") ?? 5),
    cacheBytes: Number(value("cache-mib") ?? defaultCacheMib(rows)) * 1024 * 1024,
    threads: Number(value("threads") ?? 2),
    workers: Number(value("workers") ?? 2),
    timeoutMs: Number(value("timeout-s") ?? 300) * 1000,
    duckdb: !args.includes("--no-duckdb"),
    http: !args.includes("--no-http"),
    bandwidth: !args.includes("--no-bandwidth"),
    reload: args.includes("--reload"),
    shapes: value("shapes")?.split(",").map(Number) ?? (args.includes("--survey") ? [] : undefined),
    survey: args.includes("--survey"),
    dataset: datasetOf(value("dataset") ?? "trades"),
  };
}

function datasetOf(name: string): "trades" | "cpu" {
  if (name !== "trades" && name !== "cpu") throw new Error(`--dataset wants trades or cpu, not ${name}`);
  return name;
}

/**
 * The cache budget when none is given: the server's default (1.5 GiB) up to 10M rows; at 100M
 * the columns the queries read (~4 GB) fit only across the heaps, so the main heap takes what
 * wasm32 allows (3.5 GiB + scratch) and each of the 2 workers half of that. DuckDB, in the
 * same run, holds its 100M database in memory too (peak RSS ~7.5 GiB).
 */
function defaultCacheMib(rows: number): number {
  return rows > 20_000_000 ? 3584 : CACHE_BYTES_DEFAULT / 2 ** 20;
}

async function main(): Promise<void> {
  const o = parseOptions(Deno.args);
  const size = sizeLabel(o.rows);
  const spec = JSON.parse(await Deno.readTextFile(`${KIT_DIR}/queries.json`));
  const queries = (spec.queries as (QuerySpec & { dataset: string })[])
    .filter((q) => q.dataset === "trades" && (!o.only || o.only.split(",").includes(q.id)));
  const expectedFile = `${KIT_DIR}/expected/trades-${size}.json`;
  const expected: Expected | undefined = await exists(expectedFile)
    ? JSON.parse(await Deno.readTextFile(expectedFile))
    : undefined;
  if (!expected) console.log(`no expected answers for ${size}: the check column says n/a`);
  const started = new Date();
  const loadAvgStart = await loadAverage();
  if (o.dataset === "cpu") return await cpuQueries(o, size);

  const { dbFile, duckdbLoad, root, engineLoad } = await prepare(o, size, spec.datasets.trades.ddl.questdb);
  if (o.shapes) return await shapesOnly(o, size, root, dbFile);

  // The ceiling only means something next to t2, and is measured in this run because it
  // drifts with the machine and its load as much as our timings do.
  const wasmBandwidth = o.bandwidth && queries.some((q) => q.id === "t2")
    ? await measureWasmBandwidth()
    : undefined;
  const ours = await runInProcess(root, queries, o, expected);
  const benchPeakRssMib = await peakRssMib("self");
  const server = o.http ? await runOverHttp(root, queries, o, expected) : undefined;

  let duckdb: DuckdbRun | undefined;
  if (o.duckdb) {
    console.log(`duckdb: ${o.threads} threads, every equivalent form (--alt)`);
    const outFile = `${BENCH_DIR}/results/duckdb-${size}.json.tmp`;
    const expectedArg = expected ? expectedFile : undefined;
    const run = { kitDir: KIT_DIR, dbFile, threads: o.threads, runs: o.runs, only: o.only, outFile };
    // Our figures are in by now: a failing DuckDB side leaves its columns empty, no more.
    duckdb = await runDuckdb({ ...run, expectedFile: expectedArg }).catch((e) => {
      console.error(`duckdb: failed: ${e.message}`);
      return undefined;
    });
  }

  const result: BenchResult = {
    date: started.toISOString(),
    size,
    rows: o.rows,
    machine: {
      cpu: await cpuModel(),
      cores: navigator.hardwareConcurrency,
      memGib: Math.round(Deno.systemMemoryInfo().total / 2 ** 30),
      loadAvgStart,
      loadAvgEnd: await loadAverage(),
    },
    runs: o.runs,
    cacheBytes: o.cacheBytes,
    workers: o.workers,
    duckdb: duckdb && {
      version: duckdb.version,
      client: duckdb.client,
      threads: duckdb.threads,
      peakRssMib: duckdb.peak_rss_mib,
      load: duckdbLoad,
    },
    engineLoad,
    wasmBandwidth,
    benchPeakRssMib,
    serverPeakRssMib: server?.peakRssMib,
    httpLoad: server?.load,
    queries: tableRows(queries, { ours, http: server?.timings, duckdb }),
  };
  console.log("\n" + markdown(result));
  await writeResult(result, { partial: o.only !== undefined || !o.duckdb || !o.http });
}

/** `--shapes`: the seeds' shapes on our server and DuckDB, written to results/shapes-<size>-<date>.json. */
async function shapesOnly(o: Options, size: string, root: string, dbFile: string): Promise<void> {
  if (!o.duckdb) throw new Error("--shapes compares with DuckDB: drop --no-duckdb");
  const started = new Date().toISOString();
  const runs = await runShapes({
    kitDir: KIT_DIR,
    repoDir: REPO_DIR,
    root,
    dbFile,
    seeds: o.shapes!,
    survey: o.survey,
    cacheBytes: o.cacheBytes,
    workers: o.workers,
    runs: Math.min(o.runs, 3),
    timeoutMs: Math.min(o.timeoutMs, 60_000),
  });
  for (const r of runs) console.log(`seed ${r.seed}: ${r.summary}`);
  await Deno.mkdir(`${BENCH_DIR}/results`, { recursive: true });
  const file = `${BENCH_DIR}/results/shapes-${size}-${started.slice(0, 16).replace(":", "")}.json`;
  await Deno.writeTextFile(file, JSON.stringify({ date: started, size, runs }, null, 1) + "\n");
  console.log(`wrote ${file}`);
}

/**
 * `--dataset cpu`: bench/cpu_queries.json (TSBS-style queries in both dialects) on our server
 * against DuckDB, written to results/cpu-<size>-<date>.json. The kit's DuckDB loader has no DDL
 * for `cpu`, so bench/cpu_duckdb_load.mjs loads it with the DDL of cpu_queries.json.
 */
async function cpuQueries(o: Options, size: string): Promise<void> {
  if (!o.duckdb) throw new Error("--dataset cpu compares with DuckDB: drop --no-duckdb");
  const file = `${BENCH_DIR}/cpu_queries.json`;
  const spec = JSON.parse(await Deno.readTextFile(file));
  const loader = `${BENCH_DIR}/cpu_duckdb_load.mjs`;
  const { root, dbFile } = await prepare(o, size, spec.ddl.questdb, loader);
  const started = new Date().toISOString();
  const [run] = await runShapes({
    kitDir: KIT_DIR,
    repoDir: REPO_DIR,
    root,
    dbFile,
    seeds: [],
    files: [file],
    cacheBytes: o.cacheBytes,
    workers: o.workers,
    runs: Math.min(o.runs, 3),
    timeoutMs: Math.min(o.timeoutMs, 60_000),
  });
  run.seed = "cpu";
  console.log(`cpu: ${run.summary}`);
  await Deno.mkdir(`${BENCH_DIR}/results`, { recursive: true });
  const out = `${BENCH_DIR}/results/cpu-${size}-${started.slice(0, 16).replace(":", "")}.json`;
  await Deno.writeTextFile(out, JSON.stringify({ date: started, size, runs: [run] }, null, 1) + "\n");
  console.log(`wrote ${out}`);
}

/** Data, DuckDB's database and our root: made when missing, reused when complete. */
async function prepare(o: Options, size: string, ddl: string[], duckdbLoader?: string) {
  if (o.duckdb) await ensureDuckdbClient(KIT_DIR);
  const dataDir = await ensureDataset(o.rows, { dataRoot: DATA_DIR, kitDir: KIT_DIR, dataset: o.dataset });
  const name = o.dataset === "trades" ? size : `${o.dataset}-${size}`;
  const dbFile = `${DATA_DIR}/duckdb/${o.dataset}-${size}.duckdb`;
  let duckdbLoad: unknown;
  if (o.duckdb) {
    await Deno.mkdir(`${DATA_DIR}/duckdb`, { recursive: true });
    const load = { kitDir: KIT_DIR, dbFile, threads: o.threads, loader: duckdbLoader };
    duckdbLoad = await ensureDuckdbLoaded(dataDir, load);
  }
  const root = `${DATA_DIR}/qdb-${name}`;
  if (o.reload) await Deno.remove(`${root}/bench_loaded.json`).catch(() => {});
  console.log(`ours: loading ${dataDir} into ${root} (in process, storage API)`);
  const engineLoad = await loadEngine(dataDir, { root, ddl, cacheBytes: o.cacheBytes });
  if (engineLoad.reused) console.log(`ours: reusing ${root} (loaded and verified before)`);
  return { dbFile, duckdbLoad, root, engineLoad };
}

/**
 * Best GB/s of the WASM SIMD sum of 50M DOUBLEs (400 MB) on one core, from
 * bench/wasm_bandwidth.ts run as a subprocess: its WASM memory must not come out of this
 * process's heaps, and the bench's own heap state must not slow it down. 400 MB is well past
 * the CPU caches yet quick (about 3 s, mostly filling the column). A run takes ~35 ms, so
 * the best of 20 costs little and is steadier than the best of 5, which swung by 20% between
 * runs on a 2-core VM. A failure only leaves the line out of the report.
 */
async function measureWasmBandwidth(): Promise<WasmBandwidth | undefined> {
  const script = `${BENCH_DIR}/wasm_bandwidth.ts`;
  const args = ["run", "-A", script, "--rows", "50000000", "--runs", "20", "--json"];
  try {
    const out = await new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "piped" }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr).trim());
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    const result: WasmBandwidth = JSON.parse(lines[lines.length - 1]);
    console.log(`wasm bandwidth ceiling: ${result.bestGBps} GB/s on one core (best of ${result.runs})`);
    return result;
  } catch (e) {
    console.error(`wasm bandwidth: failed: ${(e as Error).message}`);
    return undefined;
  }
}

async function runInProcess(
  root: string,
  queries: QuerySpec[],
  o: Options,
  expected: Expected | undefined,
): Promise<Map<string, Timing>> {
  console.log(`ours in process: ${queries.length} queries, 1 checked warm-up + ${o.runs} runs each`);
  const timings = new Map<string, Timing>();
  const engine = await Engine.open({ root, cacheBytes: o.cacheBytes, parallelWorkers: o.workers });
  try {
    for (const q of queries) {
      const cpuMs = () => processCpuMs("self");
      const t = await measure(q, inProcess(engine, o.timeoutMs), { runs: o.runs, expected, cpuMs });
      timings.set(q.id, t);
      progress(q.id, t);
    }
  } finally {
    await engine.close();
  }
  return timings;
}

async function runOverHttp(
  root: string,
  queries: QuerySpec[],
  o: Options,
  expected: Expected | undefined,
): Promise<{ timings: Map<string, Timing>; load: HttpLoad; peakRssMib?: number }> {
  const server = await startServer(root, { repoDir: REPO_DIR, cacheBytes: o.cacheBytes, workers: o.workers });
  console.log(`ours over HTTP: server pid ${server.pid} at ${server.url}`);
  try {
    const timings = new Map<string, Timing>();
    for (const q of queries) {
      // The server's CPU, not this client's: the query runs there.
      const cpuMs = () => processCpuMs(server.pid);
      const t = await measure(q, overHttp(server.url, o.timeoutMs), { runs: o.runs, expected, cpuMs });
      timings.set(q.id, t);
      progress(q.id, t);
    }
    console.log("ours over HTTP: SELECT 1 latency (1000 sequential) and throughput (20 clients, 5 s)");
    const load = await measureHttpLoad(server.url, { requests: 1000, clients: 20, seconds: 5 });
    return { timings, load, peakRssMib: await server.peakRssMib() };
  } finally {
    await server.stop();
  }
}

function tableRows(
  queries: QuerySpec[],
  runs: { ours: Map<string, Timing>; http?: Map<string, Timing>; duckdb?: DuckdbRun },
): QueryRow[] {
  const fastest = runs.duckdb ? fastestDuckdb(runs.duckdb) : new Map();
  return queries.map((q) => {
    const ours = runs.ours.get(q.id);
    const http = runs.http?.get(q.id);
    const duckdb = fastest.get(q.id);
    const check = checkCell(ours, http, runs.duckdb !== undefined && duckdb === undefined);
    return { id: q.id, title: q.title, ours, http, duckdb, ratio: ratioOf(ours, duckdb), check };
  });
}

/** bench/results/<size>-<date>.md and .json; runs leaving something out are marked partial. */
async function writeResult(result: BenchResult, options: { partial: boolean }): Promise<void> {
  const stamp = result.date.slice(0, 16).replace(":", "");
  await Deno.mkdir(`${BENCH_DIR}/results`, { recursive: true });
  const base = `${BENCH_DIR}/results/${result.size}-${stamp}${options.partial ? "-partial" : ""}`;
  await Deno.writeTextFile(`${base}.md`, markdown(result, { checkWidth: 100_000 }));
  await Deno.writeTextFile(`${base}.json`, JSON.stringify(result, null, 1) + "\n");
  console.log(`wrote ${base}.md and ${base}.json`);
}

function progress(id: string, t: Timing): void {
  const time = t.median_ms === undefined ? "" : `median ${t.median_ms} ms (first ${t.first_ms} ms)  `;
  console.log(`  ${id.padEnd(4)} ${time}${t.check}`);
}

async function cpuModel(): Promise<string> {
  const info = await Deno.readTextFile("/proc/cpuinfo").catch(() => "");
  return /^model name\s*:\s*(.+)$/m.exec(info)?.[1] ?? Deno.build.arch;
}

async function loadAverage(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "?");
  return text.split(" ").slice(0, 3).join(" ");
}

/**
 * The server runs with the heap flag of `deno task start`; in-process timings must too, or a
 * query with a large JS working set (t5 holds millions of groups) spends its time in the
 * garbage collector of the default 4 GiB heap. `deno task bench` starts without the flag, so
 * the bench starts itself again with it. Returns false when this process already has it.
 */
async function withServerHeap(): Promise<boolean> {
  const { default: v8 } = await import("node:v8");
  if (v8.getHeapStatistics().heap_size_limit >= HEAP_MIB * 1024 * 1024) return false;
  const script = new URL(import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `--v8-flags=--max-old-space-size=${HEAP_MIB},--always-sparkplug`,
      script,
      ...Deno.args,
    ],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  Deno.exit((await child.status).code);
}

if (import.meta.main && !(await withServerHeap())) await main();
