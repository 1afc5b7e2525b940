/**
 * The keyed SAMPLE BY kernels (assembly/groups.ts): `groupIds` numbers (bucket, key) groups
 * and `sum128` sums LONG rows exactly by group. Each is run against its TypeScript twin on
 * random keys (NULL keys, buckets going on across calls) and checked against a plain count.
 */
import assert from "node:assert/strict";
import { kernels } from "../../engine-wasm/mod.ts";
import { referenceKernels } from "../../engine-wasm/reference.ts";
import { LONG_MAX, LONG_NULL, Random, testMemory, withArena } from "./_helpers.ts";

testMemory();
const wasm = kernels();
const ref = referenceKernels();

Deno.test("groupIds: WASM and reference number the same groups, slice after slice", () => {
  for (let seed = 1; seed <= 120; seed++) {
    withArena((a) => {
      const rng = new Random(7000 + seed);
      const n = rng.pick([0, 1, 5, 17, 100, 1000, 3000]);
      const K = rng.int(0, 30);
      const keys = Array.from({ length: n }, () => rng.int(-1, K - 1));
      const keysPtr = a.i32(keys);
      // Two calls over [0, mid) and [mid, n); the second's first bucket goes on from the first's last.
      const mid = rng.int(0, n);
      const cuts = (from: number, to: number) => {
        const ends: number[] = [];
        for (let r = from + rng.int(1, 40); r < to; r += rng.int(1, 200)) ends.push(r);
        ends.push(to);
        return ends;
      };
      const label = `seed=${7000 + seed} n=${n} K=${K} mid=${mid}`;
      const state = () => ({
        stamp: a.i32(new Array(K + 1).fill(-1)),
        slotGroup: a.i32(new Array(K + 1).fill(0)),
        gid: a.i32(new Array(Math.max(1, n)).fill(0)),
        gSlot: a.i32(new Array(n + 1).fill(0)),
        gBucket: a.i32(new Array(n + 1).fill(0)),
        firstRow: a.i32(new Array(n + 1).fill(0)),
        lastRow: a.i32(new Array(n + 1).fill(0)),
        gRows: a.f64(new Array(n + 1).fill(0)),
      });
      const [w, r] = [state(), state()];
      const first = cuts(0, mid), second = cuts(mid, n);
      const groupsOf = (k: typeof wasm, s: typeof w) => {
        let groups = 0;
        for (
          const [from, to, ends, idBase] of [[0, mid, first, 0], [mid, n, second, first.length - 1]] as const
        ) {
          if (to === from) continue;
          groups = k.groupIds({
            keys: keysPtr,
            rowCount: n,
            from,
            to,
            ends: a.i32(ends),
            segCount: ends.length,
            idBase,
            keyCount: K,
            ...s,
            gid: s.gid + from * 4,
            groups,
            capacity: n + 1,
          });
        }
        return groups;
      };
      const gw = groupsOf(wasm, w), gr = groupsOf(ref, r);
      assert.equal(gw, gr, `${label} groups`);
      for (const name of ["gSlot", "gBucket", "firstRow", "lastRow"] as const) {
        assert.deepEqual(a.rows(w[name], gw), a.rows(r[name], gr), `${label} ${name}`);
      }
      assert.deepEqual(a.rows(w.gid, n), a.rows(r.gid, n), `${label} gid`);
      assert.deepEqual(
        Array.from(a.mem.f64(w.gRows, gw)),
        Array.from(a.mem.f64(r.gRows, gr)),
        `${label} rows`,
      );
      // Every row's group has its key, and the rows add up.
      const gid = a.rows(w.gid, n), gSlot = a.rows(w.gSlot, gw);
      for (let i = 0; i < n; i++) {
        assert.equal(gSlot[gid[i]], keys[i] === -1 ? K : keys[i], `${label} row ${i}`);
      }
      assert.equal(Array.from(a.mem.f64(w.gRows, gw)).reduce((x, y) => x + y, 0), n, `${label} total`);
    });
  }
});

Deno.test("groupIds: a key outside the dictionary answers -1 - its row", () => {
  withArena((a) => {
    for (const k of [wasm, ref]) {
      const n = 4, K = 3;
      const got = k.groupIds({
        keys: a.i32([0, 1, 7, 2]),
        rowCount: n,
        from: 0,
        to: n,
        ends: a.i32([n]),
        segCount: 1,
        idBase: 0,
        keyCount: K,
        stamp: a.i32([-1, -1, -1, -1]),
        slotGroup: a.i32([0, 0, 0, 0]),
        groups: 0,
        capacity: n,
        gid: a.i32([0, 0, 0, 0]),
        gSlot: a.i32([0, 0, 0, 0]),
        gBucket: a.i32([0, 0, 0, 0]),
        firstRow: a.i32([0, 0, 0, 0]),
        lastRow: a.i32([0, 0, 0, 0]),
        gRows: a.f64([0, 0, 0, 0]),
      });
      assert.equal(got, -3);
    }
  });
});

Deno.test("groupIds: a capacity too small for the rows is refused before anything runs", () => {
  withArena((a) => {
    const z = () => a.i32([0, 0]);
    assert.throws(() =>
      wasm.groupIds({
        keys: a.i32([0, 0]),
        rowCount: 2,
        from: 0,
        to: 2,
        ends: a.i32([2]),
        segCount: 1,
        idBase: 0,
        keyCount: 1,
        stamp: a.i32([-1, -1]),
        slotGroup: z(),
        groups: 1,
        capacity: 2,
        gid: z(),
        gSlot: z(),
        gBucket: z(),
        firstRow: z(),
        lastRow: z(),
        gRows: a.f64([0, 0]),
      }), /capacity/);
  });
});

Deno.test("sum128: exact sums by group past 2^63, NULLs skipped, with and without a selection", () => {
  for (let seed = 1; seed <= 60; seed++) {
    withArena((a) => {
      const rng = new Random(9000 + seed);
      const n = rng.pick([0, 1, 9, 300, 2000]);
      const groups = rng.int(1, 12);
      const values = Array.from(
        { length: n },
        () =>
          rng.chance(0.1)
            ? LONG_NULL
            : rng.chance(0.4)
            ? rng.pick([LONG_MAX, LONG_NULL + 1n, LONG_MAX - 5n])
            : BigInt(rng.int(-1000, 1000)),
      );
      const gid = Array.from({ length: n }, () => rng.int(0, groups - 1));
      const sel = rng.chance(0.5)
        ? Array.from({ length: n }, (_, i) => i).filter(() => rng.chance(0.6))
        : undefined;
      const args = {
        keys: a.i32(gid),
        data: a.i64(values),
        rowCount: n,
        keyCount: groups,
        ...(sel ? { sel: a.i32(sel), selCount: sel.length } : {}),
      };
      const expected = new Array(groups + 1).fill(0n);
      for (const row of sel ?? values.map((_, i) => i)) {
        if (values[row] !== LONG_NULL) expected[gid[row]] += values[row];
      }
      for (const k of [wasm, ref]) {
        const lo = a.i64(new Array(groups + 1).fill(0n)), hi = a.i64(new Array(groups + 1).fill(0n));
        k.sum128({ ...args, lo, hi });
        // Twice: the sums carry on from what the arrays hold.
        k.sum128({ ...args, lo, hi });
        const l = a.mem.i64(lo, groups + 1), h = a.mem.i64(hi, groups + 1);
        for (let g = 0; g <= groups; g++) {
          assert.equal(
            (h[g] << 64n) + BigInt.asUintN(64, l[g]),
            2n * expected[g],
            `seed=${9000 + seed} g=${g}`,
          );
        }
      }
    });
  }
});
