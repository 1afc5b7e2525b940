/**
 * sortOrderPaced (engine/storage/row_order.ts, issue #17) sorts a large batch in runs merged
 * pairwise with turns between: its order must be sortOrder's exactly (ties by position), for
 * sizes around the run length, many equal timestamps, and input already ascending (null).
 */
import assert from "node:assert/strict";
import { sortOrder, sortOrderPaced } from "../../../engine/storage/row_order.ts";
import { rng } from "../../fuzz/prng.ts";

Deno.test("sortOrderPaced gives sortOrder's order, with turns taken", async () => {
  const r = rng(17);
  for (const n of [65_536, 65_537, 131_072, 200_003, 300_000]) {
    for (const spread of [50, 1_000_000_000]) {
      // Timestamps around 2024 with a few distinct values (many ties) or almost all distinct.
      const ts = new BigInt64Array(n);
      for (let i = 0; i < n; i++) ts[i] = 1_704_067_200_000_000n + BigInt(r.int(spread));
      let turns = 0;
      const got = await sortOrderPaced(ts, () => {
        turns++;
        return Promise.resolve();
      });
      assert.deepEqual(got, sortOrder(ts), `n=${n} spread=${spread}`);
      if (n > 65_536) assert.ok(turns > 1, `n=${n}: ${turns} turns`);
    }
  }
  const ascending = new BigInt64Array(100_000).map((_, i) => BigInt(i >> 3));
  assert.equal(await sortOrderPaced(ascending, () => Promise.resolve()), null);
});
