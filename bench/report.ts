/**
 * The benchmark's one table, as markdown for the terminal and bench/results/*.md, plus the
 * notes under it (loads, memory, the REST path). The JSON file carries the same data with
 * every run's timings and full check messages.
 */
import type { Timing } from "./run_queries.ts";
import type { DuckdbTiming } from "./duckdb.ts";
import type { LoadReport } from "./load_engine.ts";
import type { HttpLoad } from "./http_load.ts";
import type { WasmBandwidth } from "./wasm_bandwidth.ts";

export interface QueryRow {
  id: string;
  title: string;
  ours?: Timing;
  http?: Timing;
  duckdb?: DuckdbTiming;
  /** ours in-process median ÷ DuckDB's fastest median. */
  ratio?: number;
  check: string;
}

export interface BenchResult {
  date: string;
  size: string;
  rows: number;
  machine: {
    cpu: string;
    cores: number;
    memGib: number;
    loadAvgStart: string;
    loadAvgEnd?: string;
  };
  runs: number;
  cacheBytes: number;
  /** cairo.sql.parallel.workers of our engine (absent in results from before it existed). */
  workers?: number;
  duckdb?: {
    version: string;
    client: string;
    threads: number;
    peakRssMib?: number;
    load?: unknown;
  };
  engineLoad: LoadReport;
  /** The WASM SIMD sum on one core, measured in the same run (absent with --no-bandwidth or without t2). */
  wasmBandwidth?: WasmBandwidth;
  benchPeakRssMib?: number;
  serverPeakRssMib?: number;
  httpLoad?: HttpLoad;
  queries: QueryRow[];
}

/**
 * The check column: ours in process, then whatever differs over HTTP, and a note when DuckDB
 * ran but none of its forms gave the expected answer.
 */
export function checkCell(ours: Timing | undefined, http: Timing | undefined, duckdbWrong: boolean): string {
  const parts = [ours ? ours.check : "not run"];
  // The same failure over HTTP only adds the status code: say it once.
  if (http && http.check.replace(/HTTP \d+: /, "") !== ours?.check) parts.push(`http: ${http.check}`);
  if (duckdbWrong) parts.push("duckdb: no variant gave the expected answer");
  return parts.join("; ");
}

export function ratioOf(ours: Timing | undefined, duckdb: DuckdbTiming | undefined): number | undefined {
  if (ours?.median_ms === undefined || !duckdb || duckdb.median_ms <= 0) return undefined;
  return Math.round((ours.median_ms / duckdb.median_ms) * 100) / 100;
}

/** The table and its notes; `checkWidth` cuts long check messages (the terminal's copy). */
export function markdown(r: BenchResult, options: { checkWidth?: number } = {}): string {
  const width = options.checkWidth ?? 160;
  const rows = num(r.rows);
  const lines = [
    `# trades-${r.size}: ours vs DuckDB (${r.date})`,
    "",
    `${rows} trades rows; ${r.machine.cores} cores (${r.machine.cpu}), ${r.machine.memGib} GiB; ` +
    `warm medians of ${r.runs} runs in ms after one checked warm-up.`,
    "",
    "| query | title | ours in-process | ours HTTP | DuckDB fastest (variant) | ours ÷ DuckDB | check |",
    "| --- | --- | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const q of r.queries) {
    const duck = q.duckdb ? `${fmt(q.duckdb.median_ms)} (${q.duckdb.variant})` : "-";
    const ratio = q.ratio === undefined ? "-" : `${q.ratio}×`;
    const check = q.check.length > width ? q.check.slice(0, width) + "…" : q.check;
    const times = `${timeCell(q.ours)} | ${timeCell(q.http)} | ${duck} | ${ratio}`;
    lines.push(`| ${q.id} | ${cell(q.title)} | ${times} | ${cell(check)} |`);
  }
  lines.push("", ...notes(r));
  return lines.join("\n") + "\n";
}

/**
 * CPU ms per timed run beside the median wall ms, in process and over HTTP. The two phases
 * run minutes apart on a shared machine: the same CPU over twice the wall time means other
 * work held the cores during that phase, not that the server does more (issue #16).
 */
function cpuNote(queries: QueryRow[]): string | undefined {
  const pair = (t: Timing | undefined) =>
    t?.cpu_ms === undefined || t.median_ms === undefined ? "-" : `${fmt(t.cpu_ms)}/${fmt(t.median_ms)}`;
  const cells = queries
    .filter((q) => q.ours?.cpu_ms !== undefined || q.http?.cpu_ms !== undefined)
    .map((q) => `${q.id} ${pair(q.ours)} vs ${pair(q.http)}`);
  if (cells.length === 0) return undefined;
  return `- CPU ms per run (every thread of the process running the query) / median wall ms, in process vs ` +
    `server: ${cells.join("; ")}. Equal CPU with more wall time means the machine's other work held ` +
    `the cores during that phase`;
}

/**
 * The first run of each query (the checked warm-up, ms) in process vs over HTTP: it plans,
 * reads the columns into the cache and fills the workers' heaps (issue #16 asks for first-run
 * times beside the warm medians).
 */
function firstRunNote(queries: QueryRow[]): string | undefined {
  const ms = (t: Timing | undefined) => t?.first_ms === undefined ? "-" : fmt(t.first_ms);
  const cells = queries
    .filter((q) => q.ours?.first_ms !== undefined || q.http?.first_ms !== undefined)
    .map((q) => `${q.id} ${ms(q.ours)} vs ${ms(q.http)}`);
  if (cells.length === 0) return undefined;
  return `- first runs (the checked warm-up, ms), in process vs server: ${cells.join("; ")}`;
}

function notes(r: BenchResult): string[] {
  const cacheMib = Math.round(r.cacheBytes / 1024 / 1024);
  const out = [
    `- cache budget (cairo.column.cache.bytes): ${cacheMib} MiB, in process and in the server`,
    ...(r.workers === undefined
      ? []
      : [`- worker heaps (cairo.sql.parallel.workers): ${r.workers}, in process and in the server`]),
    `- server peak RSS (VmHWM of the child): ${mib(r.serverPeakRssMib)}; ` +
    `bench process (load + in-process queries): ${mib(r.benchPeakRssMib)}`,
  ];
  const load = r.engineLoad;
  const reused = load.reused ? " (reused root, figures from when it was loaded)" : "";
  for (const [table, t] of Object.entries(load.tables)) {
    const verdict = t.errors.length ? `checksums MISMATCH ${t.errors.join("; ")}` : "checksums ok";
    out.push(
      `- our load${reused}: ${table} ${num(t.rows)} rows at ${num(t.rowsPerS)} rows/s ` +
        `(CSV parse ${t.parseMs} ms + appends ${t.appendMs} ms; the appends alone ` +
        `${num(t.appendRowsPerS)} rows/s); ${verdict}`,
    );
  }
  const cpu = cpuNote(r.queries);
  if (cpu) out.push(cpu);
  const first = firstRunNote(r.queries);
  if (first) out.push(first);
  if (r.wasmBandwidth) out.push(bandwidthNote(r.wasmBandwidth, r));
  if (r.duckdb) {
    const d = r.duckdb;
    out.push(`- DuckDB ${d.version} (${d.client}), ${d.threads} threads, peak RSS ${mib(d.peakRssMib)}`);
  }
  if (r.httpLoad) {
    const s = r.httpLoad.sequential;
    const c = r.httpLoad.concurrent;
    out.push(
      `- /exec SELECT 1: median ${s.median_ms} ms (p99 ${s.p99_ms} ms) over ${s.requests} sequential ` +
        `requests; ${num(c.requests_per_s)} requests/s with ${c.clients} concurrent clients for ` +
        `${c.seconds} s (${c.errors} errors; the clients share the machine with the server)`,
    );
  }
  out.push(`- load average at start ${r.machine.loadAvgStart}, at end ${r.machine.loadAvgEnd ?? "?"}`);
  return out;
}

/** Bytes t2 reads per row: its two DOUBLE columns, amount and price. */
const T2_BYTES_PER_ROW = 16;
/** The target: a full scan within 1.5× of the bandwidth ceiling. */
const T2_TARGET = 1.5;

/**
 * The ceiling and t2 against it: the time one core needs to stream t2's columns at the
 * measured bandwidth, and our in-process median as a multiple of it.
 */
function bandwidthNote(b: WasmBandwidth, r: BenchResult): string {
  const rows = `${Math.round(b.rows / 1e6)}M`;
  const ceiling =
    `- WASM SIMD bandwidth ceiling (one core, sum of ${rows} DOUBLEs in WASM memory): ${b.bestGBps} GB/s`;
  const ms = r.queries.find((q) => q.id === "t2")?.ours?.median_ms;
  if (ms === undefined) return ceiling;
  const bytes = r.rows * T2_BYTES_PER_ROW;
  const ceilingMs = bytes / (b.bestGBps * 1e6);
  const times = `ceiling time ${fmt(round2(ceilingMs))} ms on one core, ours ${fmt(ms)} ms in process`;
  const ratio = `${(ms / ceilingMs).toFixed(2)}× the one-core ceiling (target ≤ ${T2_TARGET}×)`;
  const effective = `effective ${(bytes / ms / 1e6).toFixed(1)} GB/s`;
  return `${ceiling}; t2 reads ${gb(bytes)} (2 DOUBLE columns): ${times} = ${ratio}, ${effective}`;
}

function gb(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${Math.round(bytes / 1e6)} MB`;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

function timeCell(t: Timing | undefined): string {
  if (!t) return "-";
  if (t.error !== undefined) return "ERROR";
  return fmt(t.median_ms!);
}

function fmt(ms: number): string {
  return ms >= 100 ? String(Math.round(ms)) : String(ms);
}

function num(x: number): string {
  return x.toLocaleString("en-US");
}

function mib(x: number | undefined): string {
  return x === undefined ? "unknown" : `${x} MiB`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}
