/**
 * Memory bandwidth of the WebAssembly kernels against plain JavaScript loops: the sum of
 * 100M DOUBLEs (800 MB) resident in the WASM heap, NULLs skipped, as in `sum(price)`.
 *
 *   deno run -A bench/wasm_bandwidth.ts [--rows 100000000] [--runs 5] [--json]
 *
 * Prints the best and median of `runs` timed runs (after one warm-up) in GB/s and rows/s.
 * `--json` times only the WASM SIMD sum and prints one `WasmBandwidth` line: `deno task bench`
 * runs it as a subprocess for the ceiling t2 is held against, so that its WASM memory is not
 * carved out of the bench process's heaps.
 * The ceiling on the reference machine is 17.5 GB/s for a WASM SIMD sum on one core
 * (../shared/bench/README.md). A second column with 1% NULLs shows the cost of the masked
 * path; a filter count and a filter writing a selection show the filter kernels' speed.
 */
import { kernels, wasmMemory } from "../engine-wasm/mod.ts";

function flag(name: string, fallback: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}

/** The `--json` output: the one-core ceiling of a column scan. */
export interface WasmBandwidth {
  rows: number;
  runs: number;
  bestGBps: number;
  medianGBps: number;
}

const ROWS = flag("rows", 100_000_000);
const RUNS = flag("runs", 5);
const JSON_MODE = Deno.args.includes("--json");
const BYTES = ROWS * 8;

// The column, a selection vector for half of it, and room to spare.
const memory = wasmMemory(BYTES + ROWS * 2 + 64 * 1024 * 1024);
const k = kernels();
const data = memory.alloc(BYTES);
const selection = memory.alloc(ROWS * 2);
if (data < 0 || selection < 0) throw new Error("not enough WASM memory for the column");
const column = memory.f64(data, ROWS);

/** Times `fn` RUNS times after a warm-up; returns sorted milliseconds and the last result. */
function time<T>(fn: () => T): { ms: number[]; result: T } {
  let result = fn();
  const ms: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    result = fn();
    ms.push(performance.now() - t0);
  }
  return { ms: ms.sort((a, b) => a - b), result };
}

/** Prints timings as bandwidth over `rowCount` DOUBLE rows scanned. */
function report(label: string, { ms, result }: { ms: number[]; result: unknown }, rowCount = ROWS): void {
  const best = ms[0], median = ms[Math.floor(ms.length / 2)];
  const gbs = (t: number) => ((rowCount * 8) / t / 1e6).toFixed(2);
  const rows = (t: number) => (rowCount / t / 1e3).toFixed(0);
  console.log(
    `${label.padEnd(34)} best ${best.toFixed(1).padStart(7)} ms ${gbs(best).padStart(6)} GB/s ${
      rows(best).padStart(5)
    } M rows/s` +
      ` | median ${median.toFixed(1).padStart(7)} ms ${gbs(median).padStart(6)} GB/s  result ${
        String(result)
      }`,
  );
}

/** Sum skipping NULL (NaN, ±Infinity), the semantics of the kernel. */
function jsSum(): number {
  let s = 0;
  for (let i = 0; i < ROWS; i++) {
    const x = column[i];
    if (x - x === 0) s += x;
  }
  return s;
}

/** A raw sum with no NULL test: the JS ceiling. */
function jsRawSum(): number {
  let s = 0;
  for (let i = 0; i < ROWS; i++) s += column[i];
  return s;
}

function wasmSum(): number {
  return k.stats("f64", { data, rowCount: ROWS }).sum;
}

function wasmCount(): number {
  return k.filter("f64", { data, rowCount: ROWS, op: "gt", value: 105 });
}

/** A filter writing the indexes of half of the first ROWS / 2 rows (a 200 MB selection). */
function wasmSelect(): number {
  return k.filter("f64", { data, rowCount: ROWS / 2, op: "gt", value: 105, out: selection });
}

for (let i = 0; i < ROWS; i++) column[i] = 100 + (i % 1000) * 0.01;
if (JSON_MODE) {
  // No NULLs: the unmasked SIMD path is the ceiling; a NULL-free DOUBLE column takes it too.
  const { ms } = time(wasmSum);
  const gbps = (t: number) => Math.round((BYTES / t / 1e6) * 100) / 100;
  const out: WasmBandwidth = {
    rows: ROWS,
    runs: RUNS,
    bestGBps: gbps(ms[0]),
    medianGBps: gbps(ms[Math.floor(RUNS / 2)]),
  };
  console.log(JSON.stringify(out));
  Deno.exit(0);
}

console.log(
  `${ROWS.toLocaleString()} DOUBLE rows, ${(BYTES / 1e6).toFixed(0)} MB, ${RUNS} runs after a warm-up`,
);
console.log("no NULLs:");
report("  wasm stats (count/sum/min/max)", time(wasmSum));
report("  wasm filter count (x > 105)", time(wasmCount));
report("  wasm filter to selection", time(wasmSelect), ROWS / 2);
report("  js loop, NULL-skipping sum", time(jsSum));
report("  js loop, raw sum", time(jsRawSum));

for (let i = 0; i < ROWS; i += 100) column[i] = NaN;
console.log("1% NULLs (every 100th row):");
report("  wasm stats (count/sum/min/max)", time(wasmSum));
report("  js loop, NULL-skipping sum", time(jsSum));
