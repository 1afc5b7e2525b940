/** The first-fit allocator behind `wasmMemory().alloc`. */
import assert from "node:assert/strict";
import { Heap } from "../../engine-wasm/heap.ts";
import { withScratch } from "../../engine-wasm/mod.ts";
import { testMemory } from "./_helpers.ts";

testMemory();

Deno.test("heap hands out 16-byte aligned blocks above its base", () => {
  const heap = new Heap(1000, 10_000);
  const a = heap.alloc(1), b = heap.alloc(17);
  assert.equal(a, 1008);
  assert.equal(b, a + 16);
  assert.equal(heap.sizeOf(b), 32);
  assert.equal(heap.bytesUsed, 48);
});

Deno.test("heap reuses and merges freed blocks", () => {
  const heap = new Heap(0, 4096);
  const a = heap.alloc(1024), b = heap.alloc(1024), c = heap.alloc(1024);
  assert.equal(heap.alloc(2048), -1);
  heap.free(a);
  heap.free(b);
  assert.equal(heap.alloc(2048), a); // a and b merged
  heap.free(c);
  assert.equal(heap.bytesUsed, 2048);
  assert.throws(() => heap.free(c));
});

Deno.test("withScratch frees its block even when the callback throws", () => {
  const memory = testMemory();
  const before = memory.heap.bytesUsed;
  assert.equal(withScratch(100, (ptr) => ptr % 16), 0);
  assert.throws(() =>
    withScratch(64, () => {
      throw new Error("boom");
    }), /boom/);
  assert.equal(memory.heap.bytesUsed, before);
  assert.throws(() => withScratch(1e12, () => 0), RangeError);
});
