/**
 * Randomized differential tests: the WebAssembly kernels against their TypeScript twins on
 * random columns with random NULLs, random constants and random selections (fixed seeds, so
 * a failure names a reproducible case).
 */
import assert from "node:assert/strict";
import {
  type CompareOp,
  kernels,
  KEYED_FOLD_COLUMNS,
  KEYED_FOLD_SLOT_BYTES,
  type MeasureKind,
  type NumericKind,
  type RowWidth,
} from "../../engine-wasm/mod.ts";
import { referenceKernels } from "../../engine-wasm/reference.ts";
import { type Arena, INT_NULL, LONG_MAX, LONG_NULL, Random, testMemory, withArena } from "./_helpers.ts";
import { store } from "./_kernel_cases.ts";

testMemory();
const wasm = kernels();
const ref = referenceKernels();

const KINDS: NumericKind[] = ["f64", "f32", "i64", "i32", "i16", "i8"];
const MEASURES: MeasureKind[] = ["f64", "f32", "i64", "i32"];
const OPS: CompareOp[] = ["eq", "ne", "lt", "le", "gt", "ge", "between"];
const LENGTHS = [0, 1, 3, 15, 16, 17, 31, 100, 1023, 1024, 1025, 2500, 5000];

function randomValue(kind: NumericKind, rng: Random, nullRate: number): number | bigint {
  const isNull = rng.chance(nullRate);
  const small = rng.int(-20, 20);
  switch (kind) {
    case "f64":
    case "f32": {
      if (isNull) return rng.pick([NaN, Infinity, -Infinity]);
      const r = rng.next();
      if (r < 0.5) return small;
      if (r < 0.55) return rng.pick([-0, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 0.1]);
      return (rng.next() - 0.5) * 10 ** rng.int(-5, 12);
    }
    case "i64":
      if (isNull) return LONG_NULL;
      if (rng.chance(0.05)) return rng.pick([LONG_NULL + 1n, LONG_MAX, 0n]);
      return rng.chance(0.5) ? BigInt(small) : rng.long() === LONG_NULL ? 0n : rng.long();
    case "i32":
      if (isNull) return INT_NULL;
      if (rng.chance(0.05)) return rng.pick([INT_NULL + 1, 2147483647, 0]);
      return rng.chance(0.5) ? small : rng.int(INT_NULL + 1, 2147483647);
    case "i16":
      return rng.chance(0.5) ? small : rng.int(-32768, 32767);
    case "i8":
      return rng.int(-128, 127);
  }
}

function randomConstant(kind: NumericKind, rng: Random, values: (number | bigint)[]): number | bigint | null {
  const r = rng.next();
  if (r < 0.1) return null;
  if (r < 0.6 && values.length) return values[rng.int(0, values.length - 1)];
  if (kind === "i64") {
    return rng.chance(0.5) ? BigInt(rng.int(-20, 20)) : rng.pick([LONG_NULL + 1n, LONG_MAX, rng.long()]);
  }
  const v = rng.int(-20, 20) + (rng.chance(0.3) ? 0.5 : 0);
  return rng.chance(0.1) ? rng.pick([1e300, -1e300, 3e9, -3e9, NaN, 0.1]) : v;
}

function randomSelection(a: Arena, rng: Random, n: number): { sel?: number; selCount?: number } {
  if (n === 0 || rng.chance(0.5)) return {};
  const rows = Array.from({ length: n }, (_, i) => i).filter(() => rng.chance(0.6));
  if (rng.chance(0.2)) rows.reverse();
  return { sel: a.i32(rows), selCount: rows.length };
}

/** Zero with either sign reads as 0: SIMD lanes may meet -0 and 0 in another order. */
function zeroless(x: number): number {
  return x === 0 ? 0 : x;
}

function closeSum(actual: number, expected: number, scale: number, label: string): void {
  const tolerance = 1e-12 * scale + 1e-300;
  if (Number.isFinite(expected)) {
    assert.ok(Math.abs(actual - expected) <= tolerance, `${label}: ${actual} vs ${expected}`);
  } else {assert.ok(
      Object.is(actual, expected) || (!Number.isFinite(actual) && !Number.isFinite(expected)),
      label,
    );}
}

Deno.test("differential: filters and stats agree on random columns", () => {
  for (let seed = 1; seed <= 400; seed++) {
    withArena((a) => {
      const rng = new Random(seed);
      const kind = rng.pick(KINDS);
      const n = rng.pick(LENGTHS);
      const nullRate = rng.pick([0, 0, 0.01, 0.3, 1]);
      const values = Array.from({ length: n }, () => randomValue(kind, rng, nullRate));
      const data = store(a, kind, values, rng.int(0, 3));
      const selection = randomSelection(a, rng, n);
      const op = rng.pick(OPS);
      const value = randomConstant(kind, rng, values);
      const value2 = op === "between" ? randomConstant(kind, rng, values) : undefined;
      const label = `seed=${seed} ${kind} n=${n} ${op} ${String(value)} ${String(value2)} sel=${
        selection.sel !== undefined
      }`;
      const capacity = selection.selCount ?? n;
      const outs = [a.alloc(capacity * 4), a.alloc(capacity * 4)];
      const args = { data, rowCount: n, ...selection, op, value, value2 };
      // deno-lint-ignore no-explicit-any
      const run = (k: typeof wasm, out?: number) => (k.filter as any)(kind, { ...args, out });
      const [nw, nr] = [run(wasm, outs[0]), run(ref, outs[1])];
      assert.equal(nw, nr, label);
      assert.deepEqual(a.rows(outs[0], nw), a.rows(outs[1], nr), label);
      assert.equal(run(wasm), nr, `${label} (count)`);

      // deno-lint-ignore no-explicit-any
      const stats = (k: typeof wasm) => (k.stats as any)(kind, { data, rowCount: n, ...selection });
      const [sw, sr] = [stats(wasm), stats(ref)];
      assert.equal(sw.count, sr.count, `${label} count`);
      if (kind === "f64" || kind === "f32") {
        const scale = values.reduce(
          (s: number, x) => (Number.isFinite(x) ? s + Math.abs(x as number) : s),
          0,
        );
        closeSum(sw.sum, sr.sum, scale, `${label} sum`);
        assert.deepEqual(
          [zeroless(sw.min), zeroless(sw.max)],
          [zeroless(sr.min), zeroless(sr.max)],
          `${label} min/max`,
        );
      } else {
        assert.deepEqual(sw, sr, label);
      }
    });
  }
});

Deno.test("differential: keyed aggregates agree on random keys", () => {
  for (let seed = 1; seed <= 150; seed++) {
    withArena((a) => {
      const rng = new Random(1000 + seed);
      const kind = rng.pick(MEASURES);
      const n = rng.pick(LENGTHS);
      const keyCount = rng.int(0, 40);
      // Keys in -1..keyCount-1, plus a few strays past the end that count as NULL.
      const keys = a.i32(
        Array.from({ length: n }, () => rng.chance(0.02) ? keyCount + 3 : rng.int(-1, keyCount - 1)),
      );
      const values = Array.from({ length: n }, () => randomValue(kind, rng, rng.pick([0, 0.2])));
      const data = store(a, kind, values);
      const base = { keys, rowCount: n, keyCount, ...randomSelection(a, rng, n) };
      const slots = keyCount + 1;
      const label = `seed=${1000 + seed} ${kind} n=${n} K=${keyCount}`;
      const nul = kind === "i64" ? LONG_NULL : kind === "i32" ? INT_NULL : NaN;
      const width = kind === "f64" || kind === "i64" ? 8 : 4;
      const arrays = () => ({
        counts: a.i64(new Array(slots).fill(0n)),
        rows: a.i64(new Array(slots).fill(0n)),
        sums: kind === "f64" || kind === "f32"
          ? a.f64(new Array(slots).fill(0))
          : a.i64(new Array(slots).fill(0n)),
        mins: store(a, kind, new Array(slots).fill(nul)),
        maxs: store(a, kind, new Array(slots).fill(nul)),
      });
      const [w, r] = [arrays(), arrays()];
      for (const [k, o] of [[wasm, w], [ref, r]] as const) {
        k.keyedCount({ ...base, counts: o.rows });
        k.keyedSum(kind, { ...base, data, counts: o.counts, sums: o.sums });
        k.keyedMin(kind, { ...base, data, out: o.mins });
        k.keyedMax(kind, { ...base, data, out: o.maxs });
      }
      const bytes = (p: number, w: number) => Array.from(a.mem.u8(p, slots * w));
      assert.deepEqual(bytes(w.rows, 8), bytes(r.rows, 8), `${label} rows`);
      assert.deepEqual(bytes(w.counts, 8), bytes(r.counts, 8), `${label} counts`);
      assert.deepEqual(bytes(w.sums, 8), bytes(r.sums, 8), `${label} sums`);
      assert.deepEqual(bytes(w.mins, width), bytes(r.mins, width), `${label} mins`);
      assert.deepEqual(bytes(w.maxs, width), bytes(r.maxs, width), `${label} maxs`);
    });
  }
});

Deno.test("differential: keyedFold of several columns agrees with the one-column keyed kernels", () => {
  for (let seed = 1; seed <= 150; seed++) {
    withArena((a) => {
      const rng = new Random(4000 + seed);
      const n = rng.pick(LENGTHS);
      const keyCount = rng.int(0, 40);
      const keys = a.i32(
        Array.from({ length: n }, () => rng.chance(0.02) ? keyCount + 3 : rng.int(-1, keyCount - 1)),
      );
      const base = { keys, rowCount: n, keyCount, ...randomSelection(a, rng, n) };
      const slots = keyCount + 1;
      // The last third: four DOUBLE/LONG columns, the kinds of the specialised four-column exports.
      const wide = seed > 100;
      const columns = Array.from(
        { length: wide ? KEYED_FOLD_COLUMNS : rng.int(1, KEYED_FOLD_COLUMNS) },
        () => {
          const kind = wide ? rng.pick<MeasureKind>(["f64", "i64"]) : rng.pick(MEASURES);
          const values = Array.from({ length: n }, () => randomValue(kind, rng, rng.pick([0, 0.2, 0.9])));
          return { kind, data: store(a, kind, values), extremes: rng.chance(0.5) };
        },
      );
      const label = `seed=${4000 + seed} n=${n} K=${keyCount} ${columns.map((c) => c.kind).join(",")}`;
      const accOf = (kind: MeasureKind) => {
        const float = kind === "f64" || kind === "f32";
        const acc = a.alloc(slots * KEYED_FOLD_SLOT_BYTES);
        for (let s = 0; s < slots; s++) {
          const p = acc + s * KEYED_FOLD_SLOT_BYTES;
          a.mem.i64(p, 2).fill(0n);
          if (float) a.mem.f64(p + 16, 2).set([Infinity, -Infinity]);
          else a.mem.i64(p + 16, 2).set([LONG_MAX, LONG_NULL]);
        }
        return acc;
      };
      const runs = [wasm, ref].map((k) => {
        const rows = a.i64(new Array(slots).fill(0n));
        const cols = columns.map((c) => ({ ...c, acc: accOf(c.kind) }));
        k.keyedFold({ ...base, rows, columns: cols });
        return { rows, accs: cols.map((c) => c.acc) };
      });
      const bytes = (p: number, w: number) => Array.from(a.mem.u8(p, slots * w));
      assert.deepEqual(bytes(runs[0].rows, 8), bytes(runs[1].rows, 8), `${label} rows`);
      columns.forEach((_c, i) => {
        assert.deepEqual(
          bytes(runs[0].accs[i], KEYED_FOLD_SLOT_BYTES),
          bytes(runs[1].accs[i], KEYED_FOLD_SLOT_BYTES),
          `${label} column ${i}`,
        );
      });
      // Against the one-column kernels: rows, non-NULL counts, sums and (where asked) extremes.
      const rowCounts = a.i64(new Array(slots).fill(0n));
      wasm.keyedCount({ ...base, counts: rowCounts });
      assert.deepEqual(bytes(runs[0].rows, 8), bytes(rowCounts, 8), `${label} keyedCount`);
      columns.forEach((c, i) => {
        const float = c.kind === "f64" || c.kind === "f32";
        const nul = c.kind === "i64" ? LONG_NULL : c.kind === "i32" ? INT_NULL : NaN;
        const counts = a.i64(new Array(slots).fill(0n));
        const sums = float ? a.f64(new Array(slots).fill(0)) : a.i64(new Array(slots).fill(0n));
        const mins = store(a, c.kind, new Array(slots).fill(nul));
        const maxs = store(a, c.kind, new Array(slots).fill(nul));
        wasm.keyedSum(c.kind, { ...base, data: c.data, counts, sums });
        wasm.keyedMin(c.kind, { ...base, data: c.data, out: mins });
        wasm.keyedMax(c.kind, { ...base, data: c.data, out: maxs });
        const acc = runs[0].accs[i];
        const ai = a.mem.i64(acc, slots * 4), af = a.mem.f64(acc, slots * 4);
        const widen = (p: number, s: number) =>
          c.kind === "f64"
            ? a.mem.f64(p, slots)[s]
            : c.kind === "f32"
            ? a.mem.f32(p, slots)[s]
            : c.kind === "i64"
            ? a.mem.i64(p, slots)[s]
            : BigInt(a.mem.i32(p, slots)[s]);
        for (let s = 0; s < slots; s++) {
          const count = a.mem.i64(rowCounts, slots)[s] - ai[s * 4];
          assert.equal(count, a.mem.i64(counts, slots)[s], `${label} column ${i} slot ${s} count`);
          const sum = float ? af[s * 4 + 1] : ai[s * 4 + 1];
          assert.equal(
            sum,
            float ? a.mem.f64(sums, slots)[s] : a.mem.i64(sums, slots)[s],
            `${label} sum ${s}`,
          );
          if (!c.extremes || count === 0n) continue;
          const [lo, hi] = float ? [af[s * 4 + 2], af[s * 4 + 3]] : [ai[s * 4 + 2], ai[s * 4 + 3]];
          const plain = (v: number | bigint) => (typeof v === "number" ? zeroless(v) : v);
          assert.equal(plain(lo), plain(widen(mins, s)), `${label} min ${s}`);
          assert.equal(plain(hi), plain(widen(maxs, s)), `${label} max ${s}`);
        }
      });
    });
  }
});

Deno.test("keyedFold refuses more than KEYED_FOLD_COLUMNS columns", () => {
  withArena((a) => {
    const data = a.f64([1]);
    const acc = a.alloc(2 * KEYED_FOLD_SLOT_BYTES);
    const columns = Array.from({ length: KEYED_FOLD_COLUMNS + 1 }, () => ({
      kind: "f64" as const,
      data,
      acc,
      extremes: false,
    }));
    for (const k of [wasm, ref]) {
      assert.throws(
        () => k.keyedFold({ keys: a.i32([0]), rowCount: 1, keyCount: 1, rows: a.alloc(16), columns }),
        /too many columns/,
      );
    }
  });
});

Deno.test("differential: segmented reduce agrees on random buckets", () => {
  for (let seed = 1; seed <= 150; seed++) {
    withArena((a) => {
      const rng = new Random(2000 + seed);
      const kind = rng.pick(MEASURES);
      const n = rng.pick(LENGTHS);
      const values = Array.from({ length: n }, () => randomValue(kind, rng, rng.pick([0, 0.1, 0.9])));
      const data = store(a, kind, values, rng.int(0, 3));
      const selection = randomSelection(a, rng, n);
      const limit = selection.selCount ?? n;
      const from = rng.int(0, limit);
      const segCount = rng.int(0, 20);
      const ends = Array.from({ length: segCount }, () => rng.int(from, limit + 5)).sort((x, y) => x - y);
      if (segCount > 2) ends[1] = ends[0] - 1; // a decreasing end makes an empty segment
      const width = kind === "f64" || kind === "i64" ? 8 : 4;
      const args = { data, rowCount: n, ...selection, from, ends: a.i32(ends), segCount };
      const label = `seed=${2000 + seed} ${kind} n=${n} segs=${segCount}`;
      const outs = () => ({
        counts: a.alloc(segCount * 8),
        sums: a.alloc(segCount * 8),
        mins: a.alloc(segCount * width),
        maxs: a.alloc(segCount * width),
        firsts: a.alloc(segCount * width),
        lasts: a.alloc(segCount * width),
      });
      const [w, r] = [outs(), outs()];
      wasm.segments(kind, { ...args, ...w });
      ref.segments(kind, { ...args, ...r });
      const bytes = (p: number, w: number) => Array.from(a.mem.u8(p, segCount * w));
      assert.deepEqual(bytes(w.counts, 8), bytes(r.counts, 8), `${label} counts`);
      assert.deepEqual(bytes(w.firsts, width), bytes(r.firsts, width), `${label} firsts`);
      assert.deepEqual(bytes(w.lasts, width), bytes(r.lasts, width), `${label} lasts`);
      if (kind === "f64" || kind === "f32") {
        const [ws, rs] = [a.mem.f64(w.sums, segCount), a.mem.f64(r.sums, segCount)];
        const scale = values.reduce(
          (t: number, x) => (Number.isFinite(x) ? t + Math.abs(x as number) : t),
          0,
        );
        for (let s = 0; s < segCount; s++) closeSum(ws[s], rs[s], scale, `${label} sum ${s}`);
        const view = (p: number) =>
          Array.from(kind === "f64" ? a.mem.f64(p, segCount) : a.mem.f32(p, segCount), zeroless);
        assert.deepEqual(view(w.mins), view(r.mins), `${label} mins`);
        assert.deepEqual(view(w.maxs), view(r.maxs), `${label} maxs`);
      } else {
        assert.deepEqual(bytes(w.sums, 8), bytes(r.sums, 8), `${label} sums`);
        assert.deepEqual(bytes(w.mins, width), bytes(r.mins, width), `${label} mins`);
        assert.deepEqual(bytes(w.maxs, width), bytes(r.maxs, width), `${label} maxs`);
      }
    });
  }
});

Deno.test("differential: searches, gathers and reverses agree", () => {
  for (let seed = 1; seed <= 100; seed++) {
    withArena((a) => {
      const rng = new Random(3000 + seed);
      const n = rng.pick(LENGTHS);
      const sorted = Array.from({ length: n }, () => BigInt(rng.int(-50, 50) * 1000)).sort((
        x,
        y,
      ) => (x < y ? -1 : x > y ? 1 : 0));
      const data = a.i64(sorted);
      const from = rng.int(0, n), to = rng.int(from, n);
      const label = `seed=${3000 + seed} n=${n} [${from}, ${to})`;
      for (let i = 0; i < 20; i++) {
        const value = rng.chance(0.5) && n
          ? sorted[rng.int(0, n - 1)]
          : BigInt(rng.int(-60, 60) * 1000 + rng.int(-1, 1));
        const args = { data, rowCount: n, from, to, value };
        assert.equal(wasm.lowerBound(args), ref.lowerBound(args), `${label} lower ${value}`);
        assert.equal(wasm.upperBound(args), ref.upperBound(args), `${label} upper ${value}`);
      }
      const probes = Array.from({ length: rng.int(0, 40) }, () => BigInt(rng.int(-60, 60) * 1000)).sort((
        x,
        y,
      ) => (x < y ? -1 : x > y ? 1 : 0));
      const values = a.i64(probes);
      const [ow, or] = [a.alloc(probes.length * 4), a.alloc(probes.length * 4)];
      wasm.lowerBounds({ data, rowCount: n, from, to, values, count: probes.length, out: ow });
      ref.lowerBounds({ data, rowCount: n, from, to, values, count: probes.length, out: or });
      assert.deepEqual(a.rows(ow, probes.length), a.rows(or, probes.length), `${label} bounds`);

      const width = rng.pick([1, 2, 4, 8, 16, 32] as RowWidth[]);
      const column = a.alloc(n * width);
      a.mem.u8(column, n * width).forEach((_, i, bytes) => (bytes[i] = rng.int(0, 255)));
      const selRows = n ? Array.from({ length: rng.int(0, 2 * n) }, () => rng.int(0, n - 1)) : [];
      const sel = a.i32(selRows);
      const [gw, gr] = [
        a.alloc(Math.max(selRows.length, n) * width),
        a.alloc(Math.max(selRows.length, n) * width),
      ];
      wasm.gather({ width, data: column, rowCount: n, sel, selCount: selRows.length, out: gw });
      ref.gather({ width, data: column, rowCount: n, sel, selCount: selRows.length, out: gr });
      const bytes = (p: number, count: number) => Array.from(a.mem.u8(p, count * width));
      assert.deepEqual(bytes(gw, selRows.length), bytes(gr, selRows.length), `${label} gather ${width}`);
      wasm.reverse({ width, data: column, rowCount: n, out: gw });
      ref.reverse({ width, data: column, rowCount: n, out: gr });
      assert.deepEqual(bytes(gw, n), bytes(gr, n), `${label} reverse ${width}`);
    });
  }
});

Deno.test("differential: a DOUBLE sum of 10M values stays within 1e-9 of the sequential sum", () => {
  withArena((a) => {
    const rng = new Random(42);
    const n = 10_000_000;
    const data = a.alloc(n * 8);
    const column = a.mem.f64(data, n);
    for (const spread of ["prices", "signed"]) {
      for (let i = 0; i < n; i++) {
        column[i] = spread === "prices" ? 100 + rng.next() * 50 : (rng.next() - 0.5) * 1e6;
      }
      let sequential = 0;
      for (let i = 0; i < n; i++) sequential += column[i];
      const { count, sum } = wasm.stats("f64", { data, rowCount: n });
      assert.equal(count, n);
      const relative = Math.abs(sum - sequential) / Math.abs(sequential);
      assert.ok(relative < 1e-9, `${spread}: ${sum} vs ${sequential} (relative ${relative})`);
    }
  });
});

Deno.test("differential: the ASOF merge agrees step by step, ties, strict (LT), key tables and stops included", () => {
  const sorted = (n: number, rng: Random, spread: number) =>
    Array.from({ length: n }, () => BigInt(rng.int(0, spread))).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  for (let seed = 1; seed <= 200; seed++) {
    withArena((a) => {
      const rng = new Random(7000 + seed);
      const n = rng.pick(LENGTHS), m = rng.pick(LENGTHS);
      const slotCount = rng.int(1, 12);
      // Small timestamp spreads make ties between and within the sides common.
      const spread = rng.pick([5, 50, 5000]);
      const leftTs = a.i64(sorted(n, rng, spread)), rightTs = a.i64(sorted(m, rng, spread));
      // Keys are slots themselves, or go through a table (entry 0: NULL and keys outside it).
      const side = (count: number) => {
        if (rng.chance(0.5)) return { keys: Array.from({ length: count }, () => rng.int(0, slotCount - 1)) };
        const table = Array.from({ length: rng.int(1, 8) }, () => rng.int(0, slotCount - 1));
        const keys = Array.from({ length: count }, () => rng.int(-1, table.length + 1));
        const slot = (k: number) => table[k + 1 >= 0 && k + 1 < table.length ? k + 1 : 0];
        return { keys, table, slot };
      };
      const left = side(n), right = side(m);
      const leftKeys = a.i32(left.keys), rightKeys = a.i32(right.keys);
      const leftTable = left.table && a.i32(left.table), rightTable = right.table && a.i32(right.table);
      const strict = rng.chance(0.5);
      const state = [0, 1].map(() => ({
        lastRow: a.i32(new Array(slotCount).fill(-1)),
        match: a.i32(new Array(n).fill(-2)),
      }));
      // Feed the right side in random-sized batches, as the join does; both must stop alike.
      let from = 0, rBatch = 0;
      const label = `seed=${7000 + seed} n=${n} m=${m} slots=${slotCount} strict=${strict}`;
      let rFrom = 0;
      for (let step = 0; step < 10_000 && from < n; step++) {
        const rCount = rBatch >= m ? 0 : rng.int(1, m - rBatch);
        const more = rBatch + rCount < m;
        const args = (s: number) => ({
          leftTs,
          leftKeys,
          leftTable,
          leftTableLength: left.table?.length,
          from,
          to: n,
          rightTs: rightTs + rBatch * 8,
          rightKeys: rightKeys + rBatch * 4,
          rightTable,
          rightTableLength: right.table?.length,
          rightFrom: rFrom,
          rightCount: rCount,
          rightBase: rBatch,
          lastRow: state[s].lastRow,
          slotCount,
          match: state[s].match,
          strict,
          more,
        });
        const w = wasm.asofMerge(args(0)), r = ref.asofMerge(args(1));
        assert.deepEqual(w, r, `${label} step ${step}`);
        from = w.left;
        if (from < n) {
          assert.ok(more, `${label}: stopped without more right rows`);
          rBatch += rCount;
          rFrom = 0;
        } else rFrom = w.right;
      }
      assert.equal(from, n, `${label}: every left row decided`);
      assert.deepEqual(a.rows(state[0].match, n), a.rows(state[1].match, n), `${label} match`);
      assert.deepEqual(
        a.rows(state[0].lastRow, slotCount),
        a.rows(state[1].lastRow, slotCount),
        `${label} lastRow`,
      );
      // The answer itself, by brute force: the last right row of the slot at or before (LT: before) the left row.
      const lts = a.mem.i64(leftTs, n), rts = a.mem.i64(rightTs, m), match = a.mem.i32(state[0].match, n);
      const ls = left.keys.map((k) => left.slot ? left.slot(k) : k),
        rs = right.keys.map((k) => right.slot ? right.slot(k) : k);
      for (let i = 0; i < n; i++) {
        let want = -1;
        for (let j = 0; j < m; j++) {
          if (rs[j] === ls[i] && (strict ? rts[j] < lts[i] : rts[j] <= lts[i])) want = j;
        }
        assert.equal(match[i], want, `${label} row ${i}`);
      }
    });
  }
  withArena((a) => {
    const ts = a.i64([1n, 2n]), keys = a.i32([0, 5]);
    const args = {
      leftTs: ts,
      leftKeys: keys,
      from: 0,
      to: 2,
      rightTs: ts,
      rightKeys: keys,
      rightFrom: 0,
      rightCount: 2,
      rightBase: 0,
      lastRow: a.i32([-1, -1]),
      slotCount: 2,
      match: a.i32([0, 0]),
      strict: false,
      more: false,
    };
    assert.throws(() => wasm.asofMerge(args), "a slot outside slotCount traps");
    assert.throws(() => ref.asofMerge(args), RangeError);
  });
});

Deno.test("differential: gatherOrNull agrees, NULL rows and every width included", () => {
  for (let seed = 1; seed <= 100; seed++) {
    withArena((a) => {
      const rng = new Random(8000 + seed);
      const n = rng.pick(LENGTHS), count = rng.pick(LENGTHS);
      const width = rng.pick([1, 2, 4, 8] as const);
      const data = a.alloc(Math.max(n, 1) * width);
      a.mem.u8(data, n * width).forEach((_, i, bytes) => (bytes[i] = rng.int(0, 255)));
      const match = a.i32(
        Array.from({ length: count }, () => (n === 0 || rng.chance(0.2) ? -1 : rng.int(0, n - 1))),
      );
      const nul = rng.pick([-1n, -(2n ** 63n), 0x7ff8000000000000n, -2147483648n]);
      const [ow, or] = [a.alloc(count * width), a.alloc(count * width)];
      wasm.gatherOrNull({ width, data, rowCount: n, match, count, out: ow, nul });
      ref.gatherOrNull({ width, data, rowCount: n, match, count, out: or, nul });
      const bytes = (p: number) => Array.from(a.mem.u8(p, count * width));
      assert.deepEqual(bytes(ow), bytes(or), `seed=${8000 + seed} width=${width} n=${n} count=${count}`);
    });
  }
  withArena((a) => {
    const args = {
      width: 8 as const,
      data: a.alloc(16),
      rowCount: 2,
      match: a.i32([0, 2]),
      count: 2,
      out: a.alloc(16),
      nul: -1n,
    };
    assert.throws(() => wasm.gatherOrNull(args), "a match past rowCount traps");
    assert.throws(() => ref.gatherOrNull(args), RangeError);
  });
});
