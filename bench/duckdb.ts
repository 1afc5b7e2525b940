/**
 * The DuckDB side, run through the kit's own scripts with node (bench/kit/duckdb): install
 * the pinned client from bench/kit/package-lock.json, load the CSVs once (the kit's loader
 * verifies the checksums), and time the queries with every equivalent DuckDB form (--alt).
 */
import { exists } from "./dataset.ts";
import { peakRssMib } from "./server_child.ts";

/** How often the DuckDB process's peak RSS is sampled (VmHWM only grows; the last one counts). */
const RSS_POLL_MS = 200;

export interface DuckdbTiming {
  id: string;
  query: string;
  variant: string;
  median_ms: number;
  min_ms: number;
  max_ms: number;
  check: string;
}

export interface DuckdbRun {
  version: string;
  client: string;
  threads: number;
  /** VmHWM of the node process running the queries, polled from /proc; undefined elsewhere. */
  peak_rss_mib?: number;
  queries: DuckdbTiming[];
}

/**
 * Installs the pinned client in `dir` (bench/kit, which holds package.json and the lock file)
 * unless it is there. `npm install` rather than `npm ci`: the lock file only lists the
 * platform packages the registry here serves, which `npm ci` refuses as out of sync, while
 * the exact version pins in package.json and in @duckdb/node-api keep the install exact.
 */
export async function ensureDuckdbClient(dir: string): Promise<void> {
  if (await exists(`${dir}/node_modules/@duckdb/node-api/package.json`)) return;
  console.log(`duckdb: npm install in ${dir} (the DuckDB binary ships inside the npm package)`);
  await node(["npm", "install", "--no-audit", "--no-fund"], dir);
}

/**
 * Loads the dataset into `dbFile` unless a load finished before: the kit's loader (or `loader`,
 * a script with the same arguments, for datasets the kit's loader has no DDL for) deletes
 * and refills the file, so a marker written after a verified load tells complete from partial.
 */
export async function ensureDuckdbLoaded(
  dataDir: string,
  options: { kitDir: string; dbFile: string; threads: number; loader?: string },
): Promise<unknown> {
  const marker = `${options.dbFile}.loaded.json`;
  if (await exists(options.dbFile) && await exists(marker)) {
    console.log(`duckdb: reusing ${options.dbFile}`);
    return { reused: true, ...JSON.parse(await Deno.readTextFile(marker)) };
  }
  console.log(`duckdb: loading ${dataDir} into ${options.dbFile}`);
  const args = [options.loader ?? `${options.kitDir}/duckdb/load.mjs`, dataDir, "--db", options.dbFile];
  const { text } = await node(["node", ...args, "--threads", String(options.threads)]);
  const report = JSON.parse(text.trim().split("\n").pop()!);
  await Deno.writeTextFile(marker, JSON.stringify(report) + "\n");
  return report;
}

/** Runs the kit's duckdb/run.mjs and returns its JSON report. */
export async function runDuckdb(options: {
  kitDir: string;
  dbFile: string;
  threads: number;
  runs: number;
  only?: string;
  expectedFile?: string;
  outFile: string;
}): Promise<DuckdbRun> {
  const args = ["node", `${options.kitDir}/duckdb/run.mjs`, "--db", options.dbFile, "--alt"];
  args.push("--out", options.outFile, "--threads", String(options.threads), "--runs", String(options.runs));
  if (options.only) args.push("--only", options.only);
  if (options.expectedFile) args.push("--expected", options.expectedFile);
  // run.mjs exits 1 on a wrong DuckDB answer; the report still says which one, so read it,
  // but never one left over from an earlier run.
  await Deno.remove(options.outFile).catch(() => {});
  const { peakRssMib } = await node(args, undefined, { allowFailure: true });
  const run: DuckdbRun = JSON.parse(await Deno.readTextFile(options.outFile));
  return { ...run, peak_rss_mib: peakRssMib };
}

/** The fastest variant per query among those whose answer was not wrong. */
export function fastestDuckdb(run: DuckdbRun): Map<string, DuckdbTiming> {
  const best = new Map<string, DuckdbTiming>();
  for (const q of run.queries) {
    if (q.check.startsWith("MISMATCH")) continue;
    const b = best.get(q.query);
    if (!b || q.median_ms < b.median_ms) best.set(q.query, q);
  }
  return best;
}

/**
 * Runs a node/npm command with its output shown; returns stdout and the child's peak RSS.
 * The peak is polled from /proc rather than taken from the kit's own figure: node's
 * resourceUsage().maxRSS includes the high-water mark of the process that spawned it
 * (Linux keeps it across fork and exec), which here is this Deno process.
 */
async function node(
  cmd: string[],
  cwd?: string,
  options: { allowFailure?: boolean } = {},
): Promise<{ text: string; peakRssMib?: number }> {
  const child = new Deno.Command(cmd[0], { args: cmd.slice(1), cwd, stdout: "piped", stderr: "inherit" })
    .spawn();
  let peak: number | undefined;
  const poll = setInterval(async () => {
    const now = await peakRssMib(child.pid);
    if (now !== undefined) peak = Math.max(peak ?? 0, now);
  }, RSS_POLL_MS);
  let text = "";
  let shown = 0;
  try {
    for await (const s of child.stdout.pipeThrough(new TextDecoderStream())) {
      text += s;
      // Echo whole lines as progress; the JSON report lines stay quiet.
      const end = text.lastIndexOf("\n") + 1;
      for (const line of text.slice(shown, end).split("\n")) {
        if (line.trim() && !line.startsWith("{")) console.log(`  ${line}`);
      }
      shown = Math.max(shown, end);
    }
  } finally {
    clearInterval(poll);
  }
  const status = await child.status;
  if (!status.success && !options.allowFailure) {
    throw new Error(`${cmd.join(" ")} exited with ${status.code}`);
  }
  return { text, peakRssMib: peak };
}
