/**
 * The fused loop of dense keys (engine/exec/vector/dense_groups.ts) on its own: integer sums
 * stay exact past 2^53 (INT values flushed into bigints every 2^20 rows, LONG values split into
 * words first), a selection vector picks rows, a LONG past 2^53 declines the batch, and key
 * slots decode back to the key values with NULL keys grouped together.
 */
import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import type { Batch } from "../../../engine/base/values.ts";
import type { BoundExpr } from "../../../engine/plan/bound.ts";
import { DenseGroups, denseKeyOf } from "../../../engine/exec/vector/dense_groups.ts";

const INT_NULL = -2147483648;
const symKey: BoundExpr = { kind: "column", type: T.SYMBOL, index: 0 };
const intArg: BoundExpr = { kind: "column", type: T.INT, index: 1 };
const longArg: BoundExpr = { kind: "column", type: T.LONG, index: 2 };

/** Rows: symbol code (i % 3, or NULL every 4th row), INT and LONG values. */
function batchOf(n: number, int: (i: number) => number, long: (i: number) => bigint): Batch {
  const s = new Int32Array(n), x = new Int32Array(n), l = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    s[i] = i % 4 === 3 ? -1 : i % 3;
    x[i] = int(i);
    l[i] = long(i);
  }
  return {
    rowCount: n,
    columns: [{ type: T.SYMBOL, data: s }, { type: T.INT, data: x }, { type: T.LONG, data: l }],
  };
}

function groupsOf(maxGroups: number) {
  const dense = [denseKeyOf(symKey, () => 3)!];
  const aggs = [
    { fn: "sum" as const, arg: intArg, returns: T.LONG, wide: true },
    { fn: "sum" as const, arg: longArg, returns: T.LONG, wide: true },
    { fn: "min" as const, arg: longArg, returns: T.LONG, wide: true },
    { fn: "count" as const, arg: intArg, returns: T.LONG, wide: false },
    { fn: "count*" as const, returns: T.LONG, wide: false },
  ];
  return DenseGroups.create([symKey], dense, aggs, [], maxGroups)!;
}

Deno.test("dense groups: integer sums exact past 2^53, NULL keys and values, decoded keys", () => {
  const n = 65536, batches = 400; // 26M rows: INT sums past 2^53 per group, LONG sums far past
  const big = 2n ** 50n + 12345n;
  const b = batchOf(n, (i) => i % 5 === 0 ? INT_NULL : 2147483647 - (i % 7), (i) => big + BigInt(i % 11));
  const fused = groupsOf(n * batches);
  for (let k = 0; k < batches; k++) assert.equal(fused.add(b), true);
  const p = fused.partial();
  // Groups in first-appearance order: codes 0, 1, 2, then NULL (row 3).
  assert.equal(p.groups, 4);
  assert.deepEqual([...p.keys[0] as Int32Array], [0, 1, 2, -1]);
  const sumInt = [0n, 0n, 0n, 0n], sumLong = [0n, 0n, 0n, 0n], cnt = [0, 0, 0, 0], all = [0, 0, 0, 0];
  const minLong = [Infinity, Infinity, Infinity, Infinity] as (number | bigint)[];
  const slot = (i: number) => i % 4 === 3 ? 3 : i % 3;
  for (let i = 0; i < n; i++) {
    const g = slot(i);
    all[g]++;
    const l = big + BigInt(i % 11);
    sumLong[g] += l;
    if (minLong[g] === Infinity || l < (minLong[g] as bigint)) minLong[g] = l;
    if (i % 5 === 0) continue;
    sumInt[g] += BigInt(2147483647 - (i % 7));
    cnt[g]++;
  }
  const times = BigInt(batches);
  assert.deepEqual([...p.values[0] as BigInt64Array], sumInt.map((s) => BigInt.asIntN(64, s * times)));
  assert.deepEqual([...p.values[1] as BigInt64Array], sumLong.map((s) => BigInt.asIntN(64, s * times)));
  assert.deepEqual([...p.values[2] as BigInt64Array], minLong);
  assert.deepEqual([...p.counts[3]], cnt.map((c) => c * batches));
  assert.deepEqual([...p.counts[4]], all.map((c) => c * batches));
  assert.ok(sumInt[0] * times > 2n ** 53n, "the INT sum passes 2^53");
});

Deno.test("dense groups: a selection picks rows; a LONG past 2^53 declines the batch", () => {
  const b = batchOf(100, (i) => i, () => 5n);
  const fused = groupsOf(100);
  const sel = Int32Array.from([0, 3, 4, 7]); // codes 0, NULL, 1, NULL
  assert.equal(fused.add(b, sel, sel.length), true);
  const p = fused.partial();
  assert.deepEqual([...p.keys[0] as Int32Array], [0, -1, 1]);
  assert.deepEqual([...p.values[0] as BigInt64Array], [0n, 10n, 4n]);
  assert.deepEqual([...p.counts[4]], [1, 2, 1]);
  const wide = batchOf(10, () => 1, (i) => i === 6 ? 2n ** 60n : 1n);
  assert.equal(groupsOf(10).add(wide), false);
});

Deno.test("dense key domains: date parts, remainders by constants, small columns; none for others", () => {
  const ts: BoundExpr = { kind: "column", type: T.TIMESTAMP, index: 0 };
  const call = (name: string, args: BoundExpr[], type = T.INT) =>
    ({ kind: "call", name, type, args, binding: undefined as never }) as BoundExpr;
  assert.deepEqual(denseKeyOf(call("hour", [ts]), () => 0), { how: "int", lo: 0, slots: 25 });
  assert.deepEqual(denseKeyOf(call("day_of_week", [ts]), () => 0), { how: "int", lo: 1, slots: 8 });
  const seven: BoundExpr = { kind: "const", type: T.INT, value: 7 };
  assert.deepEqual(denseKeyOf(call("%", [intArg, seven]), () => 0), { how: "int", lo: -6, slots: 14 });
  assert.equal(
    denseKeyOf(call("%", [intArg, { kind: "const", type: T.INT, value: -7 }]), () => 0),
    undefined,
  );
  assert.equal(denseKeyOf(call("year", [ts]), () => 0), undefined);
  assert.equal(denseKeyOf(intArg, () => 0), undefined);
  assert.deepEqual(denseKeyOf({ kind: "column", type: T.BOOLEAN, index: 3 }, () => 0), {
    how: "bool",
    lo: 0,
    slots: 3,
  });
  assert.deepEqual(denseKeyOf(symKey, () => 41), { how: "sym", lo: 0, slots: 42 });
});
