/**
 * Builds the AssemblyScript kernels in `assembly/` into `build/kernels.wasm`.
 *
 *   deno run -A engine-wasm/build.ts               build (always)
 *   deno run -A engine-wasm/build.ts --if-missing  build only when the module is absent
 *   deno run -A engine-wasm/build.ts --check       rebuild in memory; exit 1 if it differs
 *                                                  from the committed module
 *   deno run -A engine-wasm/build.ts --wat         also write build/kernels.wat (not committed)
 *
 * The compiler runs in-process through its API, so the output never touches a temporary
 * file and `--check` compares bytes. The flags are the contract with `mod.ts`: the memory is
 * imported as `env.memory` with no maximum (so any fixed-size memory fits), static data is
 * laid out from MEMORY_BASE and must end below the 1 MiB that `wasmMemory()` reserves, the
 * stub runtime is linked but never called (kernels allocate nothing), and aborts trap.
 */

const HERE = new URL(".", import.meta.url);
const OUT_URL = new URL("build/kernels.wasm", HERE);
const WAT_URL = new URL("build/kernels.wat", HERE);

/** Where the compiler starts laying out static data (below it: unused, kept for null checks). */
const MEMORY_BASE = 1024;

const FLAGS = [
  "assembly/index.ts",
  "--outFile",
  "build/kernels.wasm",
  "--optimizeLevel",
  "3",
  "--shrinkLevel",
  "0",
  "--converge",
  "--noAssert",
  "--runtime",
  "stub",
  "--enable",
  "simd",
  "--importMemory",
  "--noExportMemory",
  "--initialMemory",
  "1",
  "--memoryBase",
  String(MEMORY_BASE),
  "--use",
  "abort=assembly/index/trap",
  "--noColors",
];

/** Compiles the kernels and returns the module bytes (and the text form when asked). */
export async function compileKernels(wantText = false): Promise<{ wasm: Uint8Array; wat?: string }> {
  let wasm: Uint8Array | undefined;
  let wat: string | undefined;
  const errors: string[] = [];
  const flags = wantText ? [...FLAGS, "--textFile", "build/kernels.wat"] : FLAGS;
  // Loaded only to build: `task start` runs this with --if-missing and the committed module, so
  // a start (offline too) never fetches or loads the compiler.
  // The specifier is a variable so Deno's graph does not pull the package in ahead of time.
  const compiler = "assemblyscript/asc";
  const { default: asc } = await import(compiler);
  const { error } = await asc.main(flags, {
    readFile: (name: string, baseDir: string) => {
      try {
        return Deno.readTextFileSync(new URL(`${name}`, new URL(`${baseDir}/`, HERE)));
      } catch {
        return null;
      }
    },
    writeFile: (name: string, contents: Uint8Array | string) => {
      if (name.endsWith(".wasm")) wasm = contents as Uint8Array;
      else if (name.endsWith(".wat")) wat = contents as string;
    },
    listFiles: () => [],
    stdout: { write: (chunk: Uint8Array | string) => void errors.push(String(chunk)) },
    stderr: { write: (chunk: Uint8Array | string) => void errors.push(String(chunk)) },
  });
  if (error || !wasm) {
    throw new Error(`kernel build failed: ${error?.message ?? "no output"}\n${errors.join("")}`);
  }
  return { wasm, wat };
}

function readCommitted(): Uint8Array | undefined {
  try {
    return Deno.readFileSync(OUT_URL);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function main(args: string[]): Promise<number> {
  if (args.includes("--if-missing") && readCommitted()) return 0;
  const { wasm, wat } = await compileKernels(args.includes("--wat"));
  if (args.includes("--check")) {
    const committed = readCommitted();
    if (committed && sameBytes(committed, wasm)) {
      console.log(`engine-wasm: build/kernels.wasm is up to date (${wasm.length} bytes)`);
      return 0;
    }
    console.error(
      committed
        ? "engine-wasm: build/kernels.wasm differs from its sources; run `deno task build` and commit it"
        : "engine-wasm: build/kernels.wasm is missing; run `deno task build`",
    );
    return 1;
  }
  Deno.mkdirSync(new URL("build/", HERE), { recursive: true });
  Deno.writeFileSync(OUT_URL, wasm);
  if (wat !== undefined) Deno.writeTextFileSync(WAT_URL, wat);
  console.log(`engine-wasm: wrote build/kernels.wasm (${wasm.length} bytes)`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
