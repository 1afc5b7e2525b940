/**
 * The three parallel hash aggregation shapes of issue #16 in process: median of N warm runs
 * each, and a hash of each answer so that two builds can be checked for identical results.
 *
 *   cp -r bench/data/qdb-10m /tmp/qdb && rm /tmp/qdb/_root.lock
 *   deno run -A --config deno.dev.json bench/parallel_hash_shapes.ts /tmp/qdb [workers=2] [runs=7]
 *
 * Run it on a copy: the engine takes the root's lock, and a bench may hold the original's.
 */
import { Engine } from "../engine/mod.ts";
import { inProcess } from "./run_queries.ts";

const [root, workersArg, runsArg] = Deno.args;
if (!root) throw new Error("usage: parallel_hash_shapes.ts <root> [workers] [runs]");
const QUERIES = [
  "SELECT sum(price - amount), count(*), min(price - amount) FROM trades",
  "SELECT hour(ts) AS k0, symbol AS k1, count(*), sum(price), min(qty * 2 + 1) FROM trades " +
  "GROUP BY hour(ts), symbol ORDER BY k0, k1",
  "SELECT DISTINCT hour(ts) AS k0, qty % 7 AS k1 FROM trades ORDER BY k0, k1",
];
const runs = Number(runsArg ?? 7);
const engine = await Engine.open({
  root,
  cacheBytes: 1536 * 1024 * 1024,
  parallelWorkers: Number(workersArg ?? 2),
});
try {
  const run = inProcess(engine, 120_000);
  for (const q of QUERIES) {
    const first = await run(q);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push((await run(q)).ms);
    times.sort((a, b) => a - b);
    const text = JSON.stringify(first.rows, (_k, v) => typeof v === "bigint" ? `${v}` : v);
    console.log(
      `${times[times.length >> 1].toFixed(1)} ms  rows=${first.rows.length} answer=${hash(text)}  ${q}`,
    );
  }
} finally {
  await engine.close();
}

function hash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}
