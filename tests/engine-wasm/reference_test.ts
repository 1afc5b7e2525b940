/** The shared kernel suite on the TypeScript twins. */
import { referenceKernels } from "../../engine-wasm/reference.ts";
import { kernelCases } from "./_kernel_cases.ts";
import { testMemory } from "./_helpers.ts";

testMemory();
kernelCases("reference kernels", referenceKernels);
