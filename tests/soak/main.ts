/**
 * `deno task soak [--seconds 300] [--rest 50] [--pg 20] [--long 2]`: the long soak run of
 * issue 9. Prints the report, writes it to bench/results/soak-<time>.md, and exits non-zero on
 * any failed request, lost ILP row or RSS growth beyond 256 MiB after warm-up.
 */
import { formatReport, runSoak } from "./soak.ts";

function arg(name: string, fallback: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}

const report = await runSoak({
  seconds: arg("seconds", 300),
  restClients: arg("rest", 50),
  pgClients: arg("pg", 20),
  longClients: arg("long", 2),
  log: (l) => console.log(l),
});
const text = formatReport(report);
console.log(text);
const out = new URL(
  `../../bench/results/soak-${new Date().toISOString().slice(0, 16).replace(":", "")}.md`,
  import.meta.url,
);
await Deno.writeTextFile(out, text + "\n");
const failures = Object.values(report.endpoints).reduce((n, s) => n + s.failures, 0);
const bad = failures > 0 || report.ilpRowsVisible !== report.ilpRowsSent || report.rssGrowthMiB > 256;
if (bad) console.log("soak FAILED");
Deno.exit(bad ? 1 : 0);
