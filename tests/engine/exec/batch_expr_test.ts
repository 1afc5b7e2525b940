/**
 * The batch expression compiler (engine/exec/vector/batch_expr.ts) on hand-built batches: NULL
 * sentinels in and out, int32 wrapping, LONG values past 2^53 handed to the row path (-1), and
 * the shapes it must decline. Agreement with the row path over generated SQL is
 * vector_differential_test.ts's job.
 */
import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { type Batch, INT_NULL, LONG_NULL } from "../../../engine/base/values.ts";
import { compileBatchExpr } from "../../../engine/exec/vector/batch_expr.ts";
import { fieldFn } from "../../../engine/exec/vector/batch_time.ts";
import type { BoundExpr } from "../../../engine/plan/bound.ts";
import type { ScalarBinding } from "../../../engine/functions/registry_types.ts";

const binding = {} as ScalarBinding;
const col = (index: number, type = T.INT): BoundExpr => ({ kind: "column", index, type });
const k = (value: number | bigint | null, type = T.INT): BoundExpr => ({ kind: "const", type, value });
const call = (name: string, type: typeof T.INT, ...args: BoundExpr[]): BoundExpr => ({
  kind: "call",
  name,
  type,
  binding,
  args,
});

const batch: Batch = {
  rowCount: 4,
  columns: [
    { type: T.INT, data: new Int32Array([7, -7, INT_NULL, 2147483647]) },
    { type: T.LONG, data: new BigInt64Array([10n, LONG_NULL, -3n, 4n]) },
    {
      type: T.TIMESTAMP,
      data: new BigInt64Array([0n, 1704067200000000n + 3_600_000_000n * 5n, LONG_NULL, -1n]),
    },
    { type: T.DOUBLE, data: new Float64Array([1.5, NaN, Infinity, -0]) },
  ],
};

Deno.test("INT arithmetic wraps as int32 and keeps NULL", () => {
  const run = compileBatchExpr(call("+", T.INT, call("%", T.INT, col(0), k(3)), k(1)), "value")!;
  const out = new Int32Array(4);
  assert.equal(run(batch, out), 4);
  assert.deepEqual([...out], [2, 0, INT_NULL, 2]);
  const wrap = compileBatchExpr(call("*", T.INT, col(0), k(2)), "value")!;
  wrap(batch, out);
  assert.equal(out[3], -2);
});

Deno.test("LONG results are written as int64 words; NULL is LONG_MIN", () => {
  const run = compileBatchExpr(call("*", T.LONG, col(1, T.LONG), k(2)), "value")!;
  const data = new BigInt64Array(4);
  run(batch, new Int32Array(data.buffer));
  assert.deepEqual([...data], [20n, LONG_NULL, -6n, 8n]);
});

Deno.test("a LONG past 2^53 sends the batch to the row path", () => {
  const big: Batch = { rowCount: 1, columns: [{ type: T.LONG, data: new BigInt64Array([2n ** 60n]) }] };
  const run = compileBatchExpr(call("+", T.LONG, col(0, T.LONG), k(1)), "value")!;
  assert.equal(run(big, new Int32Array(2)), -1);
  const overflow = compileBatchExpr(call("*", T.LONG, col(1, T.LONG), k(2n ** 50n, T.LONG)), "value")!;
  assert.equal(overflow(batch, new Int32Array(8)), -1);
});

Deno.test("hour() and day_of_week() of TIMESTAMP, NULL in, NULL out", () => {
  const out = new Int32Array(4);
  compileBatchExpr(call("hour", T.INT, col(2, T.TIMESTAMP)), "value")!(batch, out);
  assert.deepEqual([...out], [0, 5, INT_NULL, 23]);
  compileBatchExpr(call("day_of_week", T.INT, col(2, T.TIMESTAMP)), "value")!(batch, out);
  assert.deepEqual([...out], [4, 1, INT_NULL, 3]);
});

Deno.test("comparisons follow QuestDB's NULL rules; non-finite doubles are NULL", () => {
  const sel = new Int32Array(4);
  const eqNull = compileBatchExpr(call("=", T.BOOLEAN, col(3, T.DOUBLE), k(null, T.DOUBLE)), "select")!;
  assert.deepEqual([...sel.subarray(0, eqNull(batch, sel))], [1, 2]);
  const lt = compileBatchExpr(call("<", T.BOOLEAN, col(3, T.DOUBLE), k(null, T.DOUBLE)), "select")!;
  assert.equal(lt(batch, sel), 0);
  const ge = compileBatchExpr(call(">=", T.BOOLEAN, col(3, T.DOUBLE), k(0, T.DOUBLE)), "select")!;
  assert.deepEqual([...sel.subarray(0, ge(batch, sel))], [0, 3]);
});

Deno.test("expressions without a batch form are declined", () => {
  assert.equal(compileBatchExpr(call("concat", T.STRING, col(0), col(0)), "value"), undefined);
  assert.equal(compileBatchExpr(call("length", T.INT, col(0)), "value"), undefined);
  assert.equal(compileBatchExpr(col(0), "select"), undefined);
});

Deno.test("day fields computed per run of one day agree with the per-row functions", () => {
  // Runs of one day, day changes back and forth, pre-1970 days, NULLs and a leap day.
  const times: bigint[] = [];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const day = 86_400_000_000;
  for (let run = 0; run < 60; run++) {
    const base = Math.floor((rnd() - 0.3) * 40_000) * day + Math.floor(rnd() * day);
    const len = 1 + Math.floor(rnd() * 20);
    for (let i = 0; i < len; i++) {
      times.push(rnd() < 0.05 ? LONG_NULL : BigInt(base + Math.floor(rnd() * 2 * day) - day));
    }
  }
  times.push(BigInt(Date.UTC(2024, 1, 29, 23, 59, 59)) * 1000n + 999_999n, 0n, -1n, BigInt(-day));
  const ts: Batch = {
    rowCount: times.length,
    columns: [{ type: T.TIMESTAMP, data: new BigInt64Array(times) }],
  };
  const names = [
    "hour",
    "minute",
    "second",
    "day_of_week",
    "day_of_week_sunday_first",
    "year",
    "month",
    "day",
  ];
  // Several fields of one source share its day cache: a sum of all of them exercises that.
  const all = names.map((n) => call(n, T.INT, col(0, T.TIMESTAMP)))
    .reduce((a, b) => call("+", T.INT, call("*", T.INT, a, k(3)), b));
  const sumOut = new Int32Array(times.length);
  compileBatchExpr(all, "value")!(ts, sumOut);
  const expectSum = new Array(times.length).fill(0);
  for (const n of names) {
    const out = new Int32Array(times.length);
    compileBatchExpr(call(n, T.INT, col(0, T.TIMESTAMP)), "value")!(ts, out);
    const f = fieldFn(n)!;
    times.forEach((t, i) => {
      const want = t === LONG_NULL ? INT_NULL : f(Number(t));
      assert.equal(out[i], want, `${n}(${t})`);
      expectSum[i] = t === LONG_NULL ? INT_NULL : Math.imul(expectSum[i], 3) + want;
    });
  }
  times.forEach((t, i) => assert.equal(sumOut[i], t === LONG_NULL ? INT_NULL : expectSum[i], `sum at ${t}`));
  // Time-of-day fields alone move the day inside their own steps: hour and minute together,
  // then with day_of_week added after them (the day gets its own step again).
  for (const extra of [[], ["day_of_week"]]) {
    const parts = ["hour", "minute", "second", ...extra];
    const e = parts.map((n) => call(n, T.INT, col(0, T.TIMESTAMP)))
      .reduce((a, b) => call("+", T.INT, call("*", T.INT, a, k(100)), b));
    const out = new Int32Array(times.length);
    compileBatchExpr(e, "value")!(ts, out);
    times.forEach((t, i) => {
      const want = t === LONG_NULL
        ? INT_NULL
        : parts.reduce((acc, n) => Math.imul(acc, 100) + fieldFn(n)!(Number(t)), 0);
      assert.equal(out[i], want, `${parts.join(",")} at ${t}`);
    });
  }
});

Deno.test("% by a constant (inlined into the loop when a positive int32) matches the remainder", () => {
  const xs = [0, 7, -7, 13, -13, 2147483647, -2147483647, 100];
  const b: Batch = {
    rowCount: xs.length + 1,
    columns: [{ type: T.INT, data: new Int32Array([...xs, INT_NULL]) }],
  };
  for (const m of [1, 2, 7, 2147483647, -3, 0]) {
    const out = new Int32Array(b.rowCount);
    assert.equal(compileBatchExpr(call("%", T.INT, col(0), k(m)), "value")!(b, out), b.rowCount);
    const want = xs.map((x) => m === 0 ? INT_NULL : x % m || 0);
    assert.deepEqual([...out], [...want, INT_NULL], `% ${m}`);
  }
});
