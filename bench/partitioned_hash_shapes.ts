/**
 * Many-group GROUP BY / DISTINCT shapes of issue #16 in process (hash partitions on the workers,
 * exec/vector/hash_parallel.ts runPartitioned): median wall and CPU ms of N warm runs each (CPU
 * of the whole process, worker heaps included) and a hash of each answer. workers=0 runs them
 * on the main heap, as the plan did before the partitioned path. workersMin (default 4:
 * partitionTuning) set to 2 makes two workers run many-group shapes as hash partitions.
 *
 *   cp -r bench/data/qdb-10m /tmp/qdb && rm /tmp/qdb/_root.lock
 *   deno run -A --config deno.dev.json bench/partitioned_hash_shapes.ts /tmp/qdb [workers=2] [runs=5] [only=1,2,...] [workersMin]
 */
import { Engine } from "../engine/mod.ts";
import { partitionTuning } from "../engine/exec/vector/hash_parallel.ts";
import { processCpuMs } from "./process_cpu.ts";
import { inProcess } from "./run_queries.ts";

const [root, workersArg, runsArg, onlyArg, workersMinArg] = Deno.args;
if (workersMinArg) partitionTuning.workersMin = Number(workersMinArg);
if (!root) throw new Error("usage: partitioned_hash_shapes.ts <root> [workers] [runs] [only]");
const QUERIES = [
  // g1, d1 of bench/survey.json
  "SELECT count(*), sum(n) FROM (SELECT qty, symbol, count(*) n FROM trades GROUP BY qty, symbol)",
  "SELECT count(*) FROM (SELECT DISTINCT symbol, qty FROM trades)",
  "SELECT count(*), sum(n) FROM (SELECT ts, count(*) n FROM trades GROUP BY ts)",
  "SELECT count(*) FROM (SELECT DISTINCT price FROM trades)",
];
const runs = Number(runsArg ?? 5);
const only = onlyArg ? new Set(onlyArg.split(",").map(Number)) : undefined;
const engine = await Engine.open({
  root,
  cacheBytes: 1536 * 1024 * 1024,
  parallelWorkers: Number(workersArg ?? 2),
});
try {
  const run = inProcess(engine, 300_000);
  for (const [i, q] of QUERIES.entries()) {
    if (only && !only.has(i + 1)) continue;
    const plan = (await run(`EXPLAIN ${q}`)).rows.map((r) => r[0]).join(" | ");
    console.log(
      `${i + 1}: ${plan.match(/\[[^\]]*(parallel|partitioned|vectorized hash)[^\]]*\]/g)?.join(" ")}`,
    );
  }
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
      `${i + 1}: ${median(times).toFixed(0)} ms cpu ${median(cpus).toFixed(0)} ms answer=${
        text.slice(0, 40)
      }  ${q}`,
    );
  }
} finally {
  await engine.close();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
