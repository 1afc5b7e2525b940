/**
 * Scratch blocks of WASM memory for one run of a kernel fast path, freed together. When the
 * memory is full the fast path gives up (FastPathUnavailable) and the row path runs instead,
 * unless the owner names another error (a path that cannot fall back reports a limit).
 */
import { wasmMemory } from "../../engine-wasm/mod.ts";

/** Thrown by a fast path that cannot run; callers fall back to the generic operator. */
export class FastPathUnavailable extends Error {}

export class Scratch {
  #blocks: number[] = [];

  /** `full` makes the error thrown when the memory has no room (default: give up the fast path). */
  constructor(readonly full: () => Error = () => new FastPathUnavailable()) {}

  alloc(bytes: number): number {
    const p = wasmMemory().alloc(Math.max(16, bytes));
    if (p < 0) throw this.full();
    this.#blocks.push(p);
    return p;
  }

  /** The address of `a` in WASM memory: itself when it lives there (a cached column), else a copy. */
  of64(a: BigInt64Array): number {
    if (a.buffer === wasmMemory().buffer && a.byteOffset % 8 === 0) return a.byteOffset;
    const p = this.alloc(a.length * 8);
    wasmMemory().i64(p, a.length).set(a);
    return p;
  }

  /** The same for Int32 data (SYMBOL keys). */
  of32(a: Int32Array): number {
    if (a.buffer === wasmMemory().buffer && a.byteOffset % 4 === 0) return a.byteOffset;
    const p = this.alloc(a.length * 4);
    wasmMemory().i32(p, a.length).set(a);
    return p;
  }

  release(): void {
    for (const p of this.#blocks.splice(0)) wasmMemory().free(p);
  }
}
