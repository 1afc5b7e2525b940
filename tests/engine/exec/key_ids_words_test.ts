/**
 * KeyIds (engine/exec/vector/key_ids.ts) over DOUBLE and LONG keys against first-appearance ids
 * of the values as GROUP BY compares them: every non-finite double one NULL, -0 equal to 0,
 * LONG_NULL its own NULL, runs of one value (the previous row's id reused), small and large
 * values across batches.
 */
import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { LONG_NULL, readValue, type Vector } from "../../../engine/base/values.ts";
import { KeyIds } from "../../../engine/exec/vector/key_ids.ts";
import { rng } from "../../fuzz/prng.ts";

function check(
  make: (r: ReturnType<typeof rng>, n: number) => Vector,
  norm: (v: Vector, i: number) => string,
) {
  for (const seed of [1, 2, 3]) {
    const r = rng(seed);
    const ids = new KeyIds();
    const want = new Map<string, number>();
    for (let batch = 0; batch < 30; batch++) {
      const n = batch === 5 ? 0 : 1 + r.int(2000);
      const v = make(r, n);
      const out = new Int32Array(n);
      ids.map(v, n, out);
      for (let i = 0; i < n; i++) {
        const k = norm(v, i);
        let id = want.get(k);
        if (id === undefined) want.set(k, id = want.size);
        assert.equal(out[i], id, `seed ${seed} batch ${batch} row ${i} key ${k}`);
        assert.equal(String(ids.values[id]), String(readValue(v, i) ?? null));
      }
      assert.equal(ids.size, want.size);
    }
  }
}

Deno.test("KeyIds over DOUBLE keys: NULLs, -0, runs", () => {
  const pool = [0, -0, NaN, Infinity, -Infinity, 1.5, -1.5, 2 ** 40 + 0.5, 1e-300, -1e300, 0.1, 0.2];
  check((r, n) => {
    const d = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      d[i] = i > 0 && r.chance(0.5)
        ? d[i - 1]
        : r.chance(0.7)
        ? r.pick(pool)
        : Math.round(r.next() * 500) / 10;
    }
    return { type: T.DOUBLE, data: d };
  }, (v, i) => {
    const x = (v.data as Float64Array)[i];
    return Number.isFinite(x) ? String(x === 0 ? 0 : x) : "null";
  });
});

Deno.test("KeyIds over LONG keys: NULL, small and large values, runs", () => {
  const pool = [
    0n,
    1n,
    -1n,
    4095n,
    4096n,
    65535n,
    65536n,
    2n ** 32n,
    -(2n ** 32n),
    1704067200000000n,
    LONG_NULL,
  ];
  check((r, n) => {
    const d = new BigInt64Array(n);
    for (let i = 0; i < n; i++) {
      d[i] = i > 0 && r.chance(0.6)
        ? d[i - 1]
        : r.chance(0.6)
        ? r.pick(pool)
        : BigInt(r.int(100000)) * 86400000000n;
    }
    return { type: T.LONG, data: d };
  }, (v, i) => String((v.data as BigInt64Array)[i]));
});
