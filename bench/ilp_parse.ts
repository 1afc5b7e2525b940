/**
 * Parse-only micro-benchmark of the ILP line parser: reads one part of the `trades` ILP data,
 * cuts it into newline-terminated 8 MiB chunks (as bench/ilp_load.ts posts them) and times
 * `LineParser.parse` + `take` per chunk, as ILP over HTTP does per request. Prints the median
 * of several passes so that a noisy machine (other work on the 2 cores) matters less.
 *
 *   deno run -A bench/ilp_parse.ts [--file bench/data/trades-1m-ilp/trades/part-00000.ilp] [--passes 5]
 *     [--parser path/to/another/line_parser.ts]   (a saved copy, to compare before/after)
 */
import { fileURLToPath } from "node:url";
import process from "node:process";

const args = Deno.args;
const opt = (name: string, dflt: string) => {
  const i = args.indexOf("--" + name);
  return i >= 0 ? args[i + 1] : dflt;
};
const repo = fileURLToPath(new URL("..", import.meta.url));
const file = opt("file", `${repo}bench/data/trades-1m-ilp/trades/part-00000.ilp`);
const passes = Number(opt("passes", "5"));
const chunkBytes = Number(opt("chunk-mib", "8")) * 1024 * 1024;
const parserModule = opt("parser", "");
const { LineParser } = await import(
  parserModule
    ? new URL(parserModule, `file://${Deno.cwd()}/`).href
    : "../server/line_protocol/line_parser.ts"
) as typeof import("../server/line_protocol/line_parser.ts");

const data = await Deno.readFile(file);
const chunks: Uint8Array[] = [];
for (let from = 0; from < data.length;) {
  let to = Math.min(data.length, from + chunkBytes);
  if (to < data.length) to = data.lastIndexOf(10, to - 1) + 1;
  chunks.push(data.subarray(from, to));
  from = to;
}

// CPU time as well as wall time: with other work on the machine, wall time mostly measures
// the wait for a core, while this process's CPU time stays comparable between runs.
const times: number[] = [];
const cpus: number[] = [];
let rows = 0;
for (let p = 0; p < passes; p++) {
  rows = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (const chunk of chunks) {
    const parser = new LineParser({ precision: "n" });
    const r = parser.parse(chunk, 0, chunk.length, true);
    if (r.error) throw new Error(`line ${r.error.line}: ${r.error.message}`);
    for (const b of parser.take()) rows += b.rowCount;
  }
  times.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpus.push((c.user + c.system) / 1000);
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[sorted.length >> 1];
const cpuMedian = [...cpus].sort((a, b) => a - b)[cpus.length >> 1];
console.log(
  `parse: ${rows} rows, ${(data.length / 1e6).toFixed(0)} MB in ${chunks.length} chunks; ` +
    `median ${median.toFixed(0)} ms (cpu ${cpuMedian.toFixed(0)} ms, min ${sorted[0].toFixed(0)} ms) = ${
      Math.round(rows / median * 1000).toLocaleString("en-US")
    } rows/s ` +
    `(passes: ${times.map((t) => t.toFixed(0)).join(" ")}; load ${Deno.loadavg()[0].toFixed(2)})`,
);
