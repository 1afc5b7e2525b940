/**
 * PairSet (engine/exec/vector/pair_set.ts) against a Set of pairs: ranges growing batch by
 * batch (the bit rectangle widens in either direction and keeps the pairs it holds), a range
 * too sparse or too large for bits (the pairs move to the hash, which then answers alone), pairs
 * repeated within one batch, and empty batches.
 */
import assert from "node:assert/strict";
import { PairSet } from "../../../engine/exec/vector/pair_set.ts";
import { rng } from "../../fuzz/prng.ts";

function check(seed: number, spans: (batch: number) => [number, number], batches: number): PairSet {
  const r = rng(seed);
  const set = new PairSet();
  const want = new Set<string>();
  for (let batch = 0; batch < batches; batch++) {
    const [spanA, spanB] = spans(batch);
    const n = batch % 9 === 8 ? 0 : 1 + r.int(4000);
    const a = new Int32Array(n), b = new Int32Array(n), out = new Uint8Array(n).fill(7);
    for (let i = 0; i < n; i++) {
      a[i] = r.int(spanA);
      b[i] = r.int(spanB);
    }
    const fresh = set.markNew(a, b, n, out);
    let count = 0;
    for (let i = 0; i < n; i++) {
      const k = `${a[i]},${b[i]}`;
      const isNew = !want.has(k);
      want.add(k);
      assert.equal(out[i], isNew ? 1 : 0, `seed ${seed} batch ${batch} row ${i} (${k})`);
      count += out[i];
    }
    assert.equal(fresh, count);
    assert.equal(set.size, want.size);
  }
  return set;
}

Deno.test("PairSet marks first-seen pairs while its bit rectangle widens", () => {
  for (const seed of [1, 2, 3]) {
    // One side grows at a time: a widening must keep what the other side holds.
    const set = check(seed, (batch) => batch % 2 ? [3 + batch, 40] : [5, 16 << Math.min(8, batch >> 2)], 50);
    assert.ok(set.bytes <= (1 << 20), `bits stay small: ${set.bytes}`);
  }
});

Deno.test("PairSet moves its pairs to the hash when bits would be sparse or too many", () => {
  for (const seed of [4, 5]) {
    // 300 groups x 2^17 values (2^26 bits) for ~40K pairs: past the bits allowed per pair held
    // (a rectangle would take 8 MB).
    const sparse = check(seed, (batch) => batch < 10 ? [50, 300] : [300, 1 << 17], 30);
    assert.ok(sparse.bytes < 4 << 20, `hashed: ${sparse.bytes}`);
    // Past 2^28 bits whatever the pairs held.
    const large = check(seed, (batch) => batch < 5 ? [4, 100] : [1 << 20, 1 << 10], 12);
    assert.ok(large.bytes < 4 << 20, `hashed: ${large.bytes}`);
  }
});
