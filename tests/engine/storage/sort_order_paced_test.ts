/**
 * sortOrderPaced (engine/storage/row_order.ts, issue #17) sorts a large batch in runs merged
 * pairwise with turns between: its order must be sortOrder's exactly (ties by position), for
 * sizes around the run length, many equal timestamps, and input already ascending (null).
 */
import assert from "node:assert/strict";
import { outOfOrderTieRanks, sortOrder, sortOrderPaced } from "../../../engine/storage/row_order.ts";
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

Deno.test("sortOrderPaced follows the out-of-order tie ranks as sortOrder does", async () => {
  const r = rng(23);
  const n = 150_001;
  const ts = new BigInt64Array(n);
  // An ascending head (the in-place rows), then rows back in time: many equal timestamps.
  for (let i = 0; i < n; i++) ts[i] = BigInt(i < 40_000 ? i >> 4 : r.int(2_500));
  const ranks = outOfOrderTieRanks(ts, null, (t) => (t / 1_000n + 1n) * 1_000n);
  assert.ok(ranks, "an out-of-order batch gets ranks");
  assert.deepEqual([ranks[0], ranks[39_999], ranks[40_000]], [0, 2, 1]);
  const got = await sortOrderPaced(ts, () => Promise.resolve(), ranks);
  assert.deepEqual(got, sortOrder(ts, ranks));
  // Equal timestamps: the moved rows (rank 2) come after the out-of-order rows (rank 1).
  const order = got!;
  for (let i = 1; i < n; i++) {
    const a = order[i - 1], b = order[i];
    if (ts[a] === ts[b]) assert.ok(ranks[a] < ranks[b] || (ranks[a] === ranks[b] && a < b), `at ${i}`);
  }
});
