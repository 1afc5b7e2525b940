/**
 * The timing protocol of the kit (queries.json "runs"): one warm-up run whose answer is
 * checked, then timed runs, median/min/max wall-clock ms. The same protocol drives our engine
 * in process (Engine.execute, batches drained, every value read) and over HTTP (/exec, JSON
 * parsed). A failing query becomes an ERROR record and the run goes on.
 */
import { adminSession, type Engine, readValue, type Value } from "../engine/mod.ts";
import { compare, normalise } from "./kit/lib/check.mjs";

export interface QuerySpec {
  id: string;
  title: string;
  questdb: string;
  columns: [string, string][];
  sort?: string[];
}

export interface Expected {
  queries: Record<string, { rows: unknown[][] }>;
}

export interface Timing {
  id: string;
  first_ms?: number;
  runs_ms?: number[];
  median_ms?: number;
  min_ms?: number;
  max_ms?: number;
  result_rows?: number;
  /**
   * CPU ms per timed run of the process that ran the query (all its threads), when known:
   * against median_ms it shows whether the query had the cores (bench/process_cpu.ts).
   */
  cpu_ms?: number;
  /** `ok`, `n/a` (no expected answer for this size), `MISMATCH: ...` or `ERROR: ...`. */
  check: string;
  error?: string;
}

/** Runs a statement once: wall-clock ms, result column count and rows in scalar form. */
export type RunOnce = (sql: string) => Promise<{ ms: number; columnCount: number; rows: unknown[][] }>;

/** Timed runs after a slow warm-up are cut to fit this budget (at least one run is kept). */
const RUNS_BUDGET_MS = 60_000;

export async function measure(
  q: QuerySpec,
  runOnce: RunOnce,
  options: { runs: number; expected?: Expected; cpuMs?: () => Promise<number | undefined> },
): Promise<Timing> {
  let first;
  try {
    first = await runOnce(q.questdb);
  } catch (e) {
    const error = oneLine(e);
    return { id: q.id, check: `ERROR: ${error}`, error };
  }
  const check = checkAnswer(q, first, options.expected);
  const runs = Math.max(1, Math.min(options.runs, Math.floor(RUNS_BUDGET_MS / Math.max(first.ms, 1))));
  const times: number[] = [];
  const cpuBefore = await options.cpuMs?.();
  try {
    for (let k = 0; k < runs; k++) times.push((await runOnce(q.questdb)).ms);
  } catch (e) {
    const error = `timed run failed: ${oneLine(e)}`;
    return { id: q.id, first_ms: r2(first.ms), check: `ERROR: ${error}`, error };
  }
  const cpuAfter = await options.cpuMs?.();
  return {
    id: q.id,
    first_ms: r2(first.ms),
    runs_ms: times.map(r2),
    median_ms: r2(median(times)),
    min_ms: r2(Math.min(...times)),
    max_ms: r2(Math.max(...times)),
    result_rows: first.rows.length,
    cpu_ms: cpuBefore === undefined || cpuAfter === undefined ? undefined : r2((cpuAfter - cpuBefore) / runs),
    check,
  };
}

function checkAnswer(
  q: QuerySpec,
  got: { columnCount: number; rows: unknown[][] },
  expected?: Expected,
): string {
  const want = expected?.queries[q.id];
  if (!want) return "n/a";
  if (got.columnCount !== q.columns.length) {
    return `MISMATCH: ${got.columnCount} columns, expected ${q.columns.length}`;
  }
  try {
    const errors: string[] = compare(q.columns, want.rows, normalise(q.columns, got.rows, q.sort));
    return errors.length ? `MISMATCH: ${errors.slice(0, 3).join("; ")}` : "ok";
  } catch (e) {
    return `MISMATCH: ${oneLine(e)}`;
  }
}

/** Our engine in this process: execute, drain every batch, read every value. */
export function inProcess(engine: Engine, timeoutMs: number): RunOnce {
  return async (sql) => {
    const started = performance.now();
    const outcome = await engine.execute(sql, adminSession(AbortSignal.timeout(timeoutMs)));
    if (outcome.kind !== "rows") throw new Error(`returned ${outcome.kind}, not rows`);
    const rows: Value[][] = [];
    for await (const b of outcome.batches) {
      for (let i = 0; i < b.rowCount; i++) rows.push(b.columns.map((v) => readValue(v, i)));
    }
    return { ms: performance.now() - started, columnCount: outcome.columns.length, rows };
  };
}

/** Our server's REST API: GET /exec, JSON body parsed (the kit's server/run.mjs protocol). */
export function overHttp(baseUrl: string, timeoutMs: number): RunOnce {
  return async (sql) => {
    const started = performance.now();
    const url = `${baseUrl}/exec?query=${encodeURIComponent(sql)}`;
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
    const ms = performance.now() - started;
    if (!res.ok || body.error) throw new Error(`HTTP ${res.status}: ${body.error ?? text.slice(0, 200)}`);
    return { ms, columnCount: (body.columns ?? []).length, rows: body.dataset ?? [] };
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function r2(x: number): number {
  return Math.round(x * 100) / 100;
}

function oneLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.replace(/\s+/g, " ").slice(0, 300);
}
