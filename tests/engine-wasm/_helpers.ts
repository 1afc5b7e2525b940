/**
 * Test helpers for the kernels: one small memory per test module, an arena that frees what
 * a test allocated, and a seeded random generator for the differential tests.
 */
import { type WasmMemory, wasmMemory } from "../../engine-wasm/mod.ts";

/** Tests use a small memory; this must run before anything instantiates the kernels. */
export const TEST_MEMORY_BYTES = 256 * 1024 * 1024;

export function testMemory(): WasmMemory {
  return wasmMemory(TEST_MEMORY_BYTES);
}

export const LONG_NULL = -(2n ** 63n);
export const LONG_MAX = 2n ** 63n - 1n;
export const INT_NULL = -2147483648;

/** Allocations of one test, released together. */
export class Arena {
  readonly mem: WasmMemory;
  #blocks: number[] = [];

  constructor() {
    this.mem = testMemory();
  }

  /** A block of `bytes` (at least 16), plus `offset` bytes of lead so a column can start unaligned. */
  alloc(bytes: number, offset = 0): number {
    const ptr = this.mem.alloc(Math.max(bytes + offset, 16));
    if (ptr < 0) throw new Error("test memory full");
    this.#blocks.push(ptr);
    return ptr + offset;
  }

  f64(values: ArrayLike<number>, offsetRows = 0): number {
    const ptr = this.alloc(values.length * 8, offsetRows * 8);
    this.mem.f64(ptr, values.length).set(values);
    return ptr;
  }
  f32(values: ArrayLike<number>, offsetRows = 0): number {
    const ptr = this.alloc(values.length * 4, offsetRows * 4);
    this.mem.f32(ptr, values.length).set(values);
    return ptr;
  }
  i64(values: ArrayLike<bigint>, offsetRows = 0): number {
    const ptr = this.alloc(values.length * 8, offsetRows * 8);
    this.mem.i64(ptr, values.length).set(values);
    return ptr;
  }
  i32(values: ArrayLike<number>, offsetRows = 0): number {
    const ptr = this.alloc(values.length * 4, offsetRows * 4);
    this.mem.i32(ptr, values.length).set(values);
    return ptr;
  }
  i16(values: ArrayLike<number>, offsetRows = 0): number {
    const ptr = this.alloc(values.length * 2, offsetRows * 2);
    this.mem.i16(ptr, values.length).set(values);
    return ptr;
  }
  i8(values: ArrayLike<number>, offsetRows = 0): number {
    const ptr = this.alloc(values.length, offsetRows);
    this.mem.i8(ptr, values.length).set(values);
    return ptr;
  }
  u8(values: ArrayLike<number>): number {
    const ptr = this.alloc(values.length);
    this.mem.u8(ptr, values.length).set(values);
    return ptr;
  }

  /** Reads `n` Int32 entries. */
  rows(ptr: number, n: number): number[] {
    return Array.from(this.mem.i32(ptr, n));
  }

  release(): void {
    for (const ptr of this.#blocks) this.mem.free(ptr);
    this.#blocks = [];
  }
}

/** Runs `fn` with a fresh arena and frees it afterwards. */
export function withArena<T>(fn: (arena: Arena) => T): T {
  const arena = new Arena();
  try {
    return fn(arena);
  } finally {
    arena.release();
  }
}

/** mulberry32: a small, fast, seeded generator; `next()` is uniform in [0, 1). */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A random 64-bit signed integer. */
  long(): bigint {
    const hi = BigInt(this.int(0, 0xffffffff)), lo = BigInt(this.int(0, 0xffffffff));
    return BigInt.asIntN(64, (hi << 32n) | lo);
  }
}
