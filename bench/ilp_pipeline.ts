/**
 * In-process ILP/HTTP pipeline benchmark without HTTP: for each 8 MiB chunk of the `trades`
 * ILP data, parse (LineParser), prepare and commit (the ingest door's commitBlocks) into a fresh engine, timing
 * each phase, so a change can be attributed to parse or to prepare+commit. Run under
 * `--cpu-prof` to profile the whole path.
 *
 *   deno run -A bench/ilp_pipeline.ts [--file …/part-00000.ilp]
 */
import { fileURLToPath } from "node:url";
import { adminSession, Engine } from "../engine/mod.ts";
import { LineParser } from "../server/line_protocol/line_parser.ts";

const args = Deno.args;
const opt = (name: string, dflt: string) => {
  const i = args.indexOf("--" + name);
  return i >= 0 ? args[i + 1] : dflt;
};
const repo = fileURLToPath(new URL("..", import.meta.url));
const file = opt("file", `${repo}bench/data/trades-1m-ilp/trades/part-00000.ilp`);
const chunkBytes = Number(opt("chunk-mib", "8")) * 1024 * 1024;

const data = await Deno.readFile(file);
const root = await Deno.makeTempDir({ prefix: "qdb_ilp_pipeline_" });
const engine = await Engine.open({ root, cacheBytes: 256 * 1024 * 1024 });
const writer = engine.ingest(adminSession(), { partitionBy: "DAY" });
let parseMs = 0, commitMs = 0, rows = 0;
const t0 = performance.now();
try {
  for (let from = 0; from < data.length;) {
    let to = Math.min(data.length, from + chunkBytes);
    if (to < data.length) to = data.lastIndexOf(10, to - 1) + 1;
    const chunk = data.subarray(from, to);
    from = to;
    const t1 = performance.now();
    const parser = new LineParser({ precision: "n" });
    const r = parser.parse(chunk, 0, chunk.length, true);
    if (r.error) throw new Error(`line ${r.error.line}: ${r.error.message}`);
    const blocks = parser.take();
    const t2 = performance.now();
    const outcome = await writer.commitBlocks(blocks, { mode: "all" });
    if (outcome.error || outcome.failure) throw new Error(JSON.stringify(outcome));
    rows += outcome.rows;
    commitMs += performance.now() - t2;
    parseMs += t2 - t1;
  }
} finally {
  await engine.close();
  await Deno.remove(root, { recursive: true });
}
const total = performance.now() - t0;
console.log(
  `pipeline: ${rows} rows in ${total.toFixed(0)} ms = ${
    Math.round(rows / total * 1000).toLocaleString("en-US")
  } rows/s; ` +
    `parse ${parseMs.toFixed(0)} ms, prepare+commit ${commitMs.toFixed(0)} ms (load ${
      Deno.loadavg()[0].toFixed(2)
    })`,
);
