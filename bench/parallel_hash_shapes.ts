/**
 * The parallel hash aggregation shapes of issue #16 in process: median wall and CPU ms of N warm
 * runs each (CPU of the whole process, worker heaps included), and a hash of each answer so
 * that two builds can be checked for identical results.
 *
 *   cp -r bench/data/qdb-10m /tmp/qdb && rm /tmp/qdb/_root.lock
 *   deno run -A --config deno.dev.json bench/parallel_hash_shapes.ts /tmp/qdb [workers=2] [runs=7] [only=1,2,...]
 *
 * Run it on a copy: the engine takes the root's lock, and a bench may hold the original's.
 */
import { Engine } from "../engine/mod.ts";
import { processCpuMs } from "./process_cpu.ts";
import { inProcess } from "./run_queries.ts";

const [root, workersArg, runsArg, onlyArg] = Deno.args;
if (!root) throw new Error("usage: parallel_hash_shapes.ts <root> [workers] [runs] [only]");
const QUERIES = [
  "SELECT sum(price - amount), count(*), min(price - amount) FROM trades",
  "SELECT hour(ts) AS k0, symbol AS k1, count(*), sum(price), min(qty * 2 + 1) FROM trades " +
  "GROUP BY hour(ts), symbol ORDER BY k0, k1",
  "SELECT DISTINCT hour(ts) AS k0, qty % 7 AS k1 FROM trades ORDER BY k0, k1",
  // The slowest random shapes at 10M (seeds 1 and 2, bench/results/shapes-10m-2026-11-26T1837.json).
  "SELECT day_of_week(ts) AS k0, side AS k1, min(amount), count(*), max(qty), avg(qty) FROM trades " +
  "GROUP BY day_of_week(ts), side ORDER BY k0, k1",
  "SELECT day_of_week(ts) AS k0, side AS k1, avg(qty * 2 + 1), count(*), min(qty), sum(price * amount) " +
  "FROM trades WHERE (side = 'sell') GROUP BY day_of_week(ts), side ORDER BY k0, k1",
  "SELECT side AS k0, hour(ts) AS k1, symbol AS k2, count(*), avg(price - amount), max(price) FROM trades " +
  "GROUP BY side, hour(ts), symbol ORDER BY k0, k1, k2",
  "SELECT symbol AS k0, avg(qty * 2 + 1), sum(amount) FROM trades GROUP BY symbol ORDER BY k0",
];
const runs = Number(runsArg ?? 7);
const only = onlyArg ? new Set(onlyArg.split(",").map(Number)) : undefined;
const engine = await Engine.open({
  root,
  cacheBytes: 1536 * 1024 * 1024,
  parallelWorkers: Number(workersArg ?? 2),
});
try {
  const run = inProcess(engine, 120_000);
  for (const [i, q] of QUERIES.entries()) {
    if (only && !only.has(i + 1)) continue;
    const first = await run(q);
    const times: number[] = [], cpus: number[] = [];
    for (let r = 0; r < runs; r++) {
      const cpu0 = await processCpuMs("self") ?? 0;
      times.push((await run(q)).ms);
      cpus.push((await processCpuMs("self") ?? 0) - cpu0);
    }
    const text = JSON.stringify(first.rows, (_k, v) => typeof v === "bigint" ? `${v}` : v);
    console.log(
      `${i + 1}: ${median(times).toFixed(1)} ms cpu ${
        median(cpus).toFixed(0)
      } ms  rows=${first.rows.length} ` +
        `answer=${hash(text)}  ${q}`,
    );
  }
} finally {
  await engine.close();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function hash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}
