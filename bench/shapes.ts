/**
 * `deno task bench -- --shapes 1,2`: the kit's random query shapes (issue #16) on our server
 * over HTTP against DuckDB in process, per seed. `bench/kit/shapes/` holds unchanged copies of
 * ../shared/bench/shapes: gen_shapes.mjs writes `shapes-<seed>.json` (both dialects), and
 * run_shapes.mjs times every shape on both engines, checks the answers agree and prints the
 * ratio per shape, the geometric mean and the worst. They sit in `kit/` (not `bench/shapes/`)
 * so that Node resolves `@duckdb/node-api` from `kit/node_modules`.
 */
import { exists } from "./dataset.ts";
import { startServer } from "./server_child.ts";

export interface ShapesRun {
  /** The seed, 0 for the survey, or the file's name for `files`. */
  seed: number | string;
  /** run_shapes.mjs's per-shape records (id, kind, ours_ms, duck_ms, ratio, check or error). */
  records: { id: string; ratio?: number; check?: string; error?: string }[];
  summary: string;
}

/** Generates the shapes of `seed` when missing; answers the file. */
async function shapesFile(kitDir: string, seed: number, count: number): Promise<string> {
  const file = `${kitDir}/shapes/shapes-${seed}.json`;
  if (await exists(file)) return file;
  const out = await new Deno.Command("node", {
    args: [`${kitDir}/shapes/gen_shapes.mjs`, "--seed", String(seed), "--n", String(count)],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`gen_shapes.mjs --seed ${seed} failed`);
  await Deno.writeFile(file, out.stdout);
  return file;
}

/** Starts our server on `root` and runs every seed's shapes against it and `dbFile`. */
export async function runShapes(options: {
  kitDir: string;
  repoDir: string;
  root: string;
  dbFile: string;
  seeds: number[];
  /** Also run bench/survey.json (ordinary queries beyond the shapes), reported as seed 0. */
  survey?: boolean;
  /** Further shapes files (same format), reported under their file names. */
  files?: string[];
  cacheBytes: number;
  workers: number;
  runs: number;
  timeoutMs: number;
}): Promise<ShapesRun[]> {
  const server = await startServer(options.root, {
    repoDir: options.repoDir,
    cacheBytes: options.cacheBytes,
    workers: options.workers,
  });
  console.log(`shapes: server pid ${server.pid} at ${server.url}`);
  const results: ShapesRun[] = [];
  try {
    const runsOf: (number | string)[] = [
      ...options.seeds,
      ...(options.survey ? [0] : []),
      ...(options.files ?? []),
    ];
    for (const seed of runsOf) {
      const file = typeof seed === "string"
        ? seed
        : seed === 0
        ? `${options.repoDir}/bench/survey.json`
        : await shapesFile(options.kitDir, seed, 30);
      const json = await Deno.makeTempFile({ suffix: ".json" });
      console.log(`shapes: seed ${seed} (${file})`);
      const child = new Deno.Command("node", {
        args: [
          `${options.kitDir}/shapes/run_shapes.mjs`,
          "--url",
          server.url,
          "--db",
          options.dbFile,
          "--shapes",
          file,
          "--runs",
          String(options.runs),
          "--timeout",
          String(options.timeoutMs),
          "--json",
          json,
        ],
        cwd: `${options.kitDir}/shapes`,
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      let text = "";
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
        text += chunk;
        await Deno.stdout.write(new TextEncoder().encode(chunk));
      }
      const status = await child.status;
      if (!status.success) throw new Error(`run_shapes.mjs failed for seed ${seed}`);
      const records = JSON.parse(await Deno.readTextFile(json));
      await Deno.remove(json);
      const summary = text.trim().split("\n").filter((l) => l.startsWith("shapes:")).pop() ?? "";
      results.push({ seed, records, summary });
    }
  } finally {
    await server.stop();
  }
  return results;
}
