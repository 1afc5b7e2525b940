/** The shared kernel suite on the WebAssembly kernels, plus what only the module has: loading and layout. */
import assert from "node:assert/strict";
import { kernels } from "../../engine-wasm/mod.ts";
import { kernelCases } from "./_kernel_cases.ts";
import { testMemory } from "./_helpers.ts";

testMemory();
kernelCases("wasm kernels", kernels);

Deno.test("wasm kernels: one instance serves every call", () => {
  assert.equal(kernels(), kernels());
});

Deno.test("wasm kernels: the module imports only env.memory, without a maximum", () => {
  const bytes = Deno.readFileSync(new URL("../../engine-wasm/build/kernels.wasm", import.meta.url));
  const module = new WebAssembly.Module(bytes);
  assert.deepEqual(WebAssembly.Module.imports(module), [{ module: "env", name: "memory", kind: "memory" }]);
  // Instantiating against memories of other fixed sizes works: the import declares no maximum.
  for (const pages of [256, 1024]) {
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    const staticEnd = (instance.exports.static_end as () => number)();
    assert.ok(staticEnd > 0 && staticEnd <= 1024 * 1024, `static data ends at ${staticEnd}`);
  }
});
