/**
 * IntPairHash (engine/exec/vector/int_hash.ts) against a Map of first-insertion ids: pairs whose
 * ranges grow batch by batch (the direct rectangle widens, keeping the pairs it holds), pairs
 * outside it (negative, large), pairs inserted into the hash before a widening that covers them,
 * mapBatch and idOf interleaved, and single-column batches.
 */
import assert from "node:assert/strict";
import { IntPairHash } from "../../../engine/exec/vector/int_hash.ts";
import { rng } from "../../fuzz/prng.ts";

Deno.test("IntPairHash gives first-insertion ids while its rectangle widens", () => {
  for (const seed of [1, 2, 3, 4]) {
    const r = rng(seed);
    const h = new IntPairHash();
    const want = new Map<string, number>();
    const idOf = (a: number, b: number) => {
      const k = `${a},${b}`;
      let id = want.get(k);
      if (id === undefined) want.set(k, id = want.size);
      return id;
    };
    for (let batch = 0; batch < 60; batch++) {
      // Ranges grow with the batch: the rectangle widens in steps, up to its largest size; every
      // other batch keeps one side narrow, so a widening must keep what the other side holds.
      const wideA = 4 + batch * 3, wideB = 16 << Math.min(10, batch >> 2);
      const spanA = batch % 2 ? 3 : wideA, spanB = batch % 2 ? wideB : 8;
      const n = 1 + r.int(3000);
      const a = new Int32Array(n), b = new Int32Array(n), out = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        // Pairs outside the rectangle in some batches only: a batch with one keeps it as it is.
        const kind = batch % 5 === 4 ? r.int(20) : 99;
        a[i] = kind === 0 ? -1 - r.int(5) : kind === 1 ? 1_000_000 + r.int(5) : r.int(spanA);
        b[i] = kind === 2 ? 3_000_000 + r.int(5) : r.int(spanB);
      }
      if (batch % 7 === 3) {
        for (let i = 0; i < n; i++) assert.equal(h.idOf(a[i], b[i]), idOf(a[i], b[i]));
        continue;
      }
      h.mapBatch(a, b, n, out);
      for (let i = 0; i < n; i++) {
        assert.equal(out[i], idOf(a[i], b[i]), `seed ${seed} batch ${batch} row ${i}`);
      }
      assert.equal(h.size, want.size);
    }
  }
  // One column: (a, 0) pairs.
  const h = new IntPairHash();
  const a = Int32Array.from([5, 3, 5, 70000, -2, 3, 70000]), out = new Int32Array(a.length);
  h.mapBatch(a, undefined, a.length, out);
  assert.deepEqual([...out], [0, 1, 0, 2, 3, 1, 2]);
});
