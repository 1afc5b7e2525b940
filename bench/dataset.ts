/**
 * The generated `trades` (or `cpu`) dataset: its size names, its manifest, and generating it with the
 * kit's generator (bench/kit/gen.mjs, run with node) unless a complete copy exists. The
 * generator writes manifest.json last, so its presence means the parts are complete.
 */

export interface TableInfo {
  rows: number;
  min_ts: number;
  max_ts: number;
  sums: Record<string, number>;
  parts: string[];
}

export interface Manifest {
  dataset: string;
  rows: number;
  seed: number;
  format: string;
  tables: Record<string, TableInfo>;
  /** Per table: [name, kit type] in CSV order. */
  columns: Record<string, [string, string][]>;
}

/** `10m`, `100m`, `1m` or a plain row count (`250000`) as a number of rows. */
export function parseRows(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!m) throw new Error(`--rows wants e.g. 10m, 100m or 250000, not ${text}`);
  const scale = { "": 1, k: 1_000, m: 1_000_000 }[m[2].toLowerCase()]!;
  const rows = Math.round(Number(m[1]) * scale);
  if (rows < 10) {
    throw new Error(`--rows must be at least 10 (quotes get rows/10)`);
  }
  return rows;
}

/** The generator's folder suffix for a row count (gen.mjs: whole millions become `Nm`). */
export function sizeLabel(rows: number): string {
  return rows % 1_000_000 === 0 ? `${rows / 1_000_000}m` : String(rows);
}

export async function readManifest(dataDir: string): Promise<Manifest> {
  return JSON.parse(await Deno.readTextFile(`${dataDir}/manifest.json`));
}

export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** Returns the dataset folder for `rows`, generating it first when it is missing or partial. */
export async function ensureDataset(
  rows: number,
  options: { dataRoot: string; kitDir: string; dataset?: "trades" | "cpu" },
): Promise<string> {
  const dataset = options.dataset ?? "trades";
  const dir = `${options.dataRoot}/${dataset}-${sizeLabel(rows)}`;
  if (await exists(`${dir}/manifest.json`)) {
    console.log(`dataset: reusing ${dir}`);
    return dir;
  }
  console.log(`dataset: generating ${dir} with node ${options.kitDir}/gen.mjs`);
  const status = await new Deno.Command("node", {
    args: [
      `${options.kitDir}/gen.mjs`,
      "--dataset",
      dataset,
      "--rows",
      String(rows),
      "--out",
      options.dataRoot,
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!status.success) throw new Error(`gen.mjs failed with exit code ${status.code}`);
  return dir;
}
