/**
 * Scratch blocks of WASM memory for one run of a kernel fast path, freed together. When the
 * memory is full the fast path gives up (FastPathUnavailable) and the row path runs instead.
 */
import { wasmMemory } from "../../engine-wasm/mod.ts";

/** Thrown by a fast path that cannot run; callers fall back to the generic operator. */
export class FastPathUnavailable extends Error {}

export class Scratch {
  #blocks: number[] = [];

  alloc(bytes: number): number {
    const p = wasmMemory().alloc(Math.max(16, bytes));
    if (p < 0) throw new FastPathUnavailable();
    this.#blocks.push(p);
    return p;
  }

  release(): void {
    for (const p of this.#blocks.splice(0)) wasmMemory().free(p);
  }
}
