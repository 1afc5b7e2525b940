/**
 * The project's test command (`deno task test`): builds what tests need, runs every Deno test
 * under tests/, and ends with the line `N passed, M failed` that CI reads. Extra arguments
 * are passed to `deno test` (e.g. a folder or `--filter`).
 */

async function run(cmd: string[], opts: { capture?: boolean } = {}): Promise<{ code: number; out: string }> {
  const p = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    stdout: opts.capture ? "piped" : "inherit",
    stderr: "inherit",
  }).spawn();
  if (!opts.capture) return { code: (await p.status).code, out: "" };
  const decoder = new TextDecoder();
  let out = "";
  for await (const chunk of p.stdout) {
    const s = decoder.decode(chunk, { stream: true });
    out += s;
    await Deno.stdout.write(chunk);
  }
  return { code: (await p.status).code, out };
}

const deno = Deno.execPath();
const build = await run([deno, "run", "-A", "engine-wasm/build.ts", "--if-missing"]);
if (build.code !== 0) {
  console.log("0 passed, 1 failed");
  Deno.exit(1);
}
const targets = Deno.args.length ? Deno.args : ["tests/"];
const result = await run([deno, "test", "-A", "--no-prompt", ...targets], { capture: true });
// Deno prints e.g. "ok | 12 passed (3 steps) | 0 failed (2s)" or "FAILED | 10 passed | 2 failed (1s)".
// deno-lint-ignore no-control-regex -- strips terminal colour codes
const clean = result.out.replace(/\x1b\[[0-9;]*m/g, "");
const m = [...clean.matchAll(/(\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/g)].pop();
const passed = m ? Number(m[1]) : 0;
const failed = m ? Number(m[2]) : (result.code === 0 ? 0 : 1);
console.log(`\n${passed} passed, ${failed} failed`);
Deno.exit(result.code === 0 && failed === 0 ? 0 : 1);
