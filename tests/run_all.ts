/**
 * The project's test command (`deno task test`): builds what tests need, runs the static
 * checks (`deno fmt --check`, `deno lint`, `deno check` of what no test imports: the console,
 * the bench), runs every Deno test under tests/, and ends with the line `N passed, M failed`
 * that CI reads; each static check counts as one test. A test that was ignored (a console test
 * without Chromium) counts as failed under CI=true: CI must not stay green while a test it
 * expects to run did not. Extra arguments are passed to `deno test` (e.g. a folder or
 * `--filter`) and skip the static checks.
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
const build = await run([
  deno,
  "run",
  "-A",
  "--config",
  "deno.dev.json",
  "engine-wasm/build.ts",
  "--if-missing",
]);
if (build.code !== 0) {
  console.log("0 passed, 1 failed");
  Deno.exit(1);
}
const STATIC_CHECKS: [string, string[]][] = [
  ["deno fmt --check", [deno, "fmt", "--check"]],
  ["deno lint", [deno, "lint"]],
  ["deno check (console, bench, main)", [
    deno,
    "check",
    "--config",
    "deno.dev.json",
    "main.ts",
    "console/main.tsx",
    "console/build.ts",
    "console/screenshots.ts",
    ...[...Deno.readDirSync("bench")].filter((e) => e.isFile && e.name.endsWith(".ts")).map((e) =>
      `bench/${e.name}`
    ),
  ]],
];
let checksPassed = 0;
const checksFailed: string[] = [];
if (!Deno.args.length) {
  for (const [name, cmd] of STATIC_CHECKS) {
    const r = await run(cmd);
    if (r.code === 0) checksPassed++;
    else checksFailed.push(name);
  }
}

const targets = Deno.args.length ? Deno.args : ["tests/"];
// deno.dev.json: the packages tests, benches and the WASM build import besides the server's
// (drivers, the browser driver, the identity provider, DuckDB, the compiler), kept out of
// deno.json so that `task start` installs only what running needs.
const result = await run([deno, "test", "-A", "--no-prompt", "--config", "deno.dev.json", ...targets], {
  capture: true,
});
// Deno prints e.g. "ok | 12 passed (3 steps) | 0 failed | 1 ignored (2s)" or "FAILED | 10 passed | 2 failed (1s)".
// deno-lint-ignore no-control-regex -- strips terminal colour codes
const clean = result.out.replace(/\x1b\[[0-9;]*m/g, "");
const m = [
  ...clean.matchAll(
    /(\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed(?: \(\d+ steps?\))?(?: \| (\d+) ignored)?/g,
  ),
]
  .pop();
const passed = (m ? Number(m[1]) : 0) + checksPassed;
const ignored = m?.[3] ? Number(m[3]) : 0;
const ci = (Deno.env.get("CI") ?? "").toLowerCase() === "true";
const testsFailed = m ? Number(m[2]) : (result.code === 0 ? 0 : 1);
const failed = testsFailed + checksFailed.length + (ci ? ignored : 0);
for (const name of checksFailed) console.log(`static check failed: ${name}`);
if (ignored) {
  const names = [...clean.matchAll(/^(.*) \.\.\. ignored/gm)].map((x) => `  ${x[1]}`).join("\n");
  console.log(
    `${ignored} test(s) ignored${
      ci ? " and counted as failed (CI=true expects every test to run)" : ""
    }:\n${names}`,
  );
}
console.log(`\n${passed} passed, ${failed} failed${ignored && !ci ? `, ${ignored} skipped` : ""}`);
Deno.exit(result.code === 0 && failed === 0 ? 0 : 1);
