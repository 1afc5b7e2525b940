/**
 * @module
 * The one door to WebAssembly (STYLE.md §1 "The kernels"): owns the linear memory, hands out
 * regions for column data and scratch space, gives typed-array views of them, and calls the
 * AssemblyScript kernels in `build/kernels.wasm` after checking their arguments.
 *
 * The memory is created once at its full size (the column cache budget) and never grows, so
 * views handed out stay valid for the life of the process. Imported by engine/storage and
 * engine/exec only.
 */
import { Heap } from "./heap.ts";

const PAGE_BYTES = 65_536;
/** Default memory size: the column cache budget and kernel scratch space together. */
export const DEFAULT_MEMORY_BYTES = 2 * 1024 * 1024 * 1024;
/** wasm32 addresses at most 4 GiB; keep one page free so that `ptr + len` never wraps. */
const MEMORY_BYTES_MAX = 4 * 1024 * 1024 * 1024 - PAGE_BYTES;

export class WasmMemory {
  readonly memory: WebAssembly.Memory;
  readonly heap: Heap;

  constructor(bytes: number, reservedLow: number) {
    const pages = Math.ceil(Math.min(bytes, MEMORY_BYTES_MAX) / PAGE_BYTES);
    this.memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    this.heap = new Heap(reservedLow, pages * PAGE_BYTES);
  }

  get buffer(): ArrayBuffer {
    return this.memory.buffer as ArrayBuffer;
  }

  /** A 16-byte aligned block of `bytes`, or -1 when the memory is full. */
  alloc(bytes: number): number {
    return this.heap.alloc(bytes);
  }

  free(ptr: number): void {
    this.heap.free(ptr);
  }

  u8(ptr: number, length: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, ptr, length);
  }
  i8(ptr: number, length: number): Int8Array {
    return new Int8Array(this.memory.buffer, ptr, length);
  }
  i16(ptr: number, length: number): Int16Array {
    return new Int16Array(this.memory.buffer, ptr, length);
  }
  u16(ptr: number, length: number): Uint16Array {
    return new Uint16Array(this.memory.buffer, ptr, length);
  }
  i32(ptr: number, length: number): Int32Array {
    return new Int32Array(this.memory.buffer, ptr, length);
  }
  f32(ptr: number, length: number): Float32Array {
    return new Float32Array(this.memory.buffer, ptr, length);
  }
  f64(ptr: number, length: number): Float64Array {
    return new Float64Array(this.memory.buffer, ptr, length);
  }
  i64(ptr: number, length: number): BigInt64Array {
    return new BigInt64Array(this.memory.buffer, ptr, length);
  }
}

let shared: WasmMemory | undefined;

/**
 * The process-wide memory. The first call fixes its size (`bytes`, default
 * DEFAULT_MEMORY_BYTES); later calls return the same instance.
 */
export function wasmMemory(bytes = DEFAULT_MEMORY_BYTES): WasmMemory {
  // The low 1 MiB is left to the kernels' static data and stack.
  shared ??= new WasmMemory(bytes, 1024 * 1024);
  return shared;
}
