/**
 * Runs Debian's pgbench with the custom script select.sql against a pg port and parses its
 * summary: transactions, failed transactions and TPS. Used by bench/pgbench/run.ts (prints
 * TPS) and tests/e2e/pg_pgbench_test.ts (asserts zero errors).
 */

export const SCRIPT = new URL("./select.sql", import.meta.url).pathname;

export interface PgbenchResult {
  tps: number;
  transactions: number;
  failed: number;
  output: string;
}

/** Runs pgbench (`-n`: no vacuum of pgbench tables, which do not exist here). */
export async function runPgbench(
  port: number,
  opts: { clients: number; seconds: number; protocol?: "simple" | "extended" | "prepared" },
): Promise<PgbenchResult> {
  const args = [
    "-h",
    "127.0.0.1",
    "-p",
    String(port),
    "-U",
    "admin",
    "-n",
    "-c",
    String(opts.clients),
    "-j",
    "2",
    "-T",
    String(opts.seconds),
    "-M",
    opts.protocol ?? "simple",
    "-f",
    SCRIPT,
    "qdb",
  ];
  const out = await new Deno.Command("pgbench", {
    args,
    env: { PGPASSWORD: "quest" },
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
  return {
    tps: num(/tps = ([\d.]+)/),
    transactions: num(/number of transactions actually processed: (\d+)/),
    failed: out.success
      ? (Number.isNaN(num(/number of failed transactions: (\d+)/))
        ? 0
        : num(/number of failed transactions: (\d+)/))
      : -1,
    output: text,
  };
}
