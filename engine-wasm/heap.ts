/**
 * A first-fit allocator over a range of WebAssembly linear memory, with coalescing frees.
 *
 * Only `engine-wasm/mod.ts` creates one. Blocks are 16-byte aligned (SIMD loads), so views
 * of any element type can be made at any returned offset.
 */

const ALIGN = 16;

export class Heap {
  /** Free blocks sorted by offset: [offset, size] pairs. */
  #free: { ptr: number; size: number }[];
  #sizes = new Map<number, number>();
  #used = 0;
  readonly base: number;
  readonly limit: number;

  constructor(base: number, limit: number) {
    this.base = Math.ceil(base / ALIGN) * ALIGN;
    this.limit = limit;
    this.#free = [{ ptr: this.base, size: limit - this.base }];
  }

  get bytesUsed(): number {
    return this.#used;
  }

  get bytesFree(): number {
    return this.limit - this.base - this.#used;
  }

  /** Returns the offset of a block of at least `bytes`, or -1 when no free block is large enough. */
  alloc(bytes: number): number {
    const size = Math.max(ALIGN, Math.ceil(bytes / ALIGN) * ALIGN);
    for (let i = 0; i < this.#free.length; i++) {
      const block = this.#free[i];
      if (block.size < size) continue;
      const ptr = block.ptr;
      if (block.size === size) this.#free.splice(i, 1);
      else {
        block.ptr += size;
        block.size -= size;
      }
      this.#sizes.set(ptr, size);
      this.#used += size;
      return ptr;
    }
    return -1;
  }

  free(ptr: number): void {
    const size = this.#sizes.get(ptr);
    if (size === undefined) throw new Error(`heap: free of unknown block ${ptr}`);
    this.#sizes.delete(ptr);
    this.#used -= size;
    // Insert sorted and merge with neighbours so large column reads can reuse the space.
    let lo = 0, hi = this.#free.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#free[mid].ptr < ptr) lo = mid + 1;
      else hi = mid;
    }
    this.#free.splice(lo, 0, { ptr, size });
    const next = this.#free[lo + 1];
    if (next && ptr + size === next.ptr) {
      this.#free[lo].size += next.size;
      this.#free.splice(lo + 1, 1);
    }
    const prev = this.#free[lo - 1];
    if (prev && prev.ptr + prev.size === ptr) {
      prev.size += this.#free[lo].size;
      this.#free.splice(lo, 1);
    }
  }

  sizeOf(ptr: number): number | undefined {
    return this.#sizes.get(ptr);
  }
}
