/** The committed module must be what the sources compile to (STYLE.md §1 "The kernels"). */
import assert from "node:assert/strict";

const BUILD = new URL("../../engine-wasm/build.ts", import.meta.url).pathname;
// The compiler is a development package (deno.dev.json), not one the server installs.
const DEV_CONFIG = new URL("../../deno.dev.json", import.meta.url).pathname;

async function build(...flags: string[]): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", DEV_CONFIG, BUILD, ...flags],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code, output: text.decode(stdout) + text.decode(stderr) };
}

Deno.test("build: build/kernels.wasm matches its AssemblyScript sources", async () => {
  const { code, output } = await build("--check");
  assert.equal(code, 0, output);
  assert.match(output, /up to date/);
});

Deno.test("build: --if-missing leaves an existing module alone", async () => {
  const path = new URL("../../engine-wasm/build/kernels.wasm", import.meta.url);
  const before = Deno.statSync(path).mtime;
  const { code, output } = await build("--if-missing");
  assert.equal(code, 0, output);
  assert.deepEqual(Deno.statSync(path).mtime, before);
});
