/**
 * The responsiveness probe of the issue #17 tests: while a heavy statement runs, `SELECT 1` is
 * due on another session every 10 ms, timed from when it is due (a statement holding the event
 * loop delays the timer itself, not only the answer). The probe its end lets through counts
 * too: it waited for the last piece.
 */
import assert from "node:assert/strict";
import process from "node:process";
import type { Engine } from "../../engine/mod.ts";
import { rows } from "./_result_rows.ts";

export interface Probed {
  /** The heavy statement's rows. */
  rows: unknown[][];
  /** Each probe's wait in ms, from when it was due until SELECT 1 answered. */
  latencies: number[];
  /** The heavy statement's wall time in ms. */
  took: number;
  /**
   * The process's user CPU ms between consecutive answers: what the event loop ran in a gap,
   * less sensitive than the gap itself to other processes on a shared machine.
   */
  cpuMs: number[];
  /**
   * The main thread's CPU ms between consecutive answers (/proc/thread-self/schedstat), where
   * the kernel keeps it: worker threads' CPU is not in it. Empty elsewhere.
   */
  mainCpuMs: number[];
}

/** The calling thread's CPU time in ms, or undefined where /proc does not show it. */
export function threadCpuMs(): number | undefined {
  try {
    return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** Runs `sql` while probing SELECT 1 every 10 ms. */
export async function probed(engine: Engine, sql: string): Promise<Probed> {
  let running = true;
  const started = performance.now();
  const heavy = rows(engine, sql).finally(() => running = false);
  const latencies: number[] = [], cpuMs: number[] = [], mainCpuMs: number[] = [];
  let cpu = process.cpuUsage().user;
  let main = threadCpuMs();
  while (running) {
    const due = performance.now() + 10;
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(await rows(engine, "SELECT 1"), [[1]]);
    latencies.push(performance.now() - due);
    const now = process.cpuUsage().user;
    cpuMs.push((now - cpu) / 1000);
    cpu = now;
    const mainNow = threadCpuMs();
    if (main !== undefined && mainNow !== undefined) mainCpuMs.push(mainNow - main);
    main = mainNow;
  }
  return { rows: await heavy, latencies, took: performance.now() - started, cpuMs, mainCpuMs };
}

/**
 * Logs the probes of `name` and asserts the bounds of these tests: at least five answered,
 * the median under 100 ms, none waiting 300 ms (generous: the test machine is shared).
 */
export function assertResponsive(name: string, p: Probed): void {
  const sorted = [...p.latencies].sort((a, b) => a - b);
  const shown = `${name}: ${p.latencies.length} answered in ${Math.round(p.took)} ms, ` +
    `median ${(sorted[sorted.length >> 1] ?? 0).toFixed(1)}, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
  console.log(shown);
  assert.ok(p.latencies.length >= 5, shown);
  assert.ok(sorted[sorted.length >> 1] < 100, shown);
  assert.ok(sorted.at(-1)! < 300, shown);
}

/**
 * Asserts that `run(limit)` (the heavy statement with a statement timeout of `limit` ms) stops
 * with the timeout error within 800 ms of its limit. A run that beat its limit (the machine's
 * load varies run to run) is tried again with half the limit, twice at most.
 */
export async function assertStopsAtTimeout(run: (limitMs: number) => Promise<unknown>, limitMs: number) {
  let limit = limitMs;
  for (let attempt = 0;; attempt++) {
    const t1 = performance.now();
    const err = await run(limit).then(() => undefined, (e: Error) => e);
    const stopped = performance.now() - t1;
    if (!err && attempt < 2) {
      limit = Math.max(5, Math.floor(limit / 2));
      continue;
    }
    assert.match(String(err), new RegExp(`timeout, query aborted \\[timeout=${limit}ms\\]`));
    assert.ok(stopped < limit + 800, `the ${limit} ms timeout fired after ${Math.round(stopped)} ms`);
    return;
  }
}
