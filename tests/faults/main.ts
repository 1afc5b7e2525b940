/** `deno task faults [--kills 100] [--seed n]`: the long kill run of issue 9. */
import { runKills } from "./kill_harness.ts";

const arg = (name: string, fallback: number) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
};
const report = await runKills({
  kills: arg("kills", 100),
  seed: arg("seed", Date.now() % 1_000_000),
  log: console.log,
});
console.log(JSON.stringify(report, null, 2));
