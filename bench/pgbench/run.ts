/**
 * pgbench against the pg listener: starts the server on free ports with a temporary data
 * root, runs select.sql with 20 clients for 10 seconds per protocol mode and prints TPS.
 * Usage: deno run -A bench/pgbench/run.ts [--clients N] [--seconds S]
 */
import { startServer } from "../../tests/e2e/server_process.ts";
import { runPgbench } from "./pgbench.ts";

function arg(name: string, fallback: number): number {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}

const clients = arg("--clients", 20);
const seconds = arg("--seconds", 10);
const server = await startServer({ pg: true });
try {
  for (const protocol of ["simple", "extended", "prepared"] as const) {
    const r = await runPgbench(server.pgPort, { clients, seconds, protocol });
    if (Number.isNaN(r.tps)) {
      console.error(r.output);
      throw new Error("pgbench failed");
    }
    console.log(
      `pgbench ${protocol}: ${clients} clients, ${seconds} s: ${
        r.tps.toFixed(0)
      } TPS, ${r.transactions} transactions, ${r.failed} failed`,
    );
  }
} finally {
  await server.stop();
}
