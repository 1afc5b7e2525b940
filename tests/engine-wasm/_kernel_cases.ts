/**
 * The shared suite of the `Kernels` interface (the Hono "common case" pattern): every case
 * runs against whichever implementation it is given. `mod_test.ts` runs it on the
 * WebAssembly kernels, `reference_test.ts` on the TypeScript twins.
 */
import assert from "node:assert/strict";
import type { CompareOp, Kernels, MeasureKind, NumericKind, RowWidth } from "../../engine-wasm/mod.ts";
import { type Arena, INT_NULL, LONG_MAX, LONG_NULL, withArena } from "./_helpers.ts";

type Value = number | bigint | null;
type Case = [op: CompareOp, value: Value, expected: number[], value2?: Value];

/** Asserts that filtering (to rows and count-only) selects `expected`, whole or through `sel`. */
function expectFilter(
  k: Kernels,
  a: Arena,
  kind: NumericKind,
  column: { data: number; rowCount: number; sel?: number; selCount?: number },
  [op, value, expected, value2]: Case,
): void {
  const capacity = column.sel === undefined ? column.rowCount : column.selCount!;
  const out = a.alloc(capacity * 4);
  // deno-lint-ignore no-explicit-any
  const filter = k.filter.bind(k) as (kind: NumericKind, args: any) => number;
  const label = `${kind} ${op} ${String(value)}${value2 === undefined ? "" : ` ${String(value2)}`}`;
  const n = filter(kind, { ...column, op, value, value2, out });
  assert.deepEqual(a.rows(out, n), expected, label);
  assert.equal(filter(kind, { ...column, op, value, value2 }), expected.length, `${label} (count)`);
}

function runCases(k: Kernels, a: Arena, kind: NumericKind, data: number, rowCount: number, cases: Case[]) {
  for (const c of cases) expectFilter(k, a, kind, { data, rowCount }, c);
}

export function kernelCases(name: string, impl: () => Kernels): void {
  const test = (title: string, fn: (k: Kernels, a: Arena) => void) =>
    Deno.test(`${name}: ${title}`, () => withArena((a) => fn(impl(), a)));

  test("DOUBLE filters follow the NULL rules of each operator", (k, a) => {
    const data = a.f64([1, 2, 3, NaN, 3, Infinity, -Infinity, 4, -0, 5]);
    runCases(k, a, "f64", data, 10, [
      ["eq", 3, [2, 4]],
      ["ne", 3, [0, 1, 3, 5, 6, 7, 8, 9]],
      ["lt", 3, [0, 1, 8]],
      ["le", 3, [0, 1, 2, 4, 8]],
      ["gt", 3, [7, 9]],
      ["ge", 3, [2, 4, 7, 9]],
      ["between", 2, [1, 2, 4, 7], 4],
      ["between", 4, [], 2],
      ["eq", 0, [8]],
      ["eq", null, [3, 5, 6]],
      ["eq", NaN, [3, 5, 6]],
      ["eq", -Infinity, [3, 5, 6]],
      ["ne", null, [0, 1, 2, 4, 7, 8, 9]],
      ["lt", null, []],
      ["gt", null, []],
      ["le", null, [3, 5, 6]],
      ["ge", null, [3, 5, 6]],
      ["between", null, [], 4],
      ["between", 2, [], null],
      ["lt", -Number.MAX_VALUE, []],
      ["gt", Number.MAX_VALUE, []],
      ["ge", -Number.MAX_VALUE, [0, 1, 2, 4, 7, 8, 9]],
    ]);
  });

  test("FLOAT filters compare the exact value of each float", (k, a) => {
    const data = a.f32([0.1, 0.5, NaN, 1e30, -Infinity, 3]);
    const tenth = Math.fround(0.1); // 0.100000001490116...
    runCases(k, a, "f32", data, 6, [
      ["eq", 0.1, []],
      ["eq", tenth, [0]],
      ["ne", 0.1, [0, 1, 2, 3, 4, 5]],
      ["lt", 0.1, []],
      ["le", tenth, [0]],
      ["gt", 0.1, [0, 1, 3, 5]],
      ["gt", tenth, [1, 3, 5]],
      ["gt", 1e300, []],
      ["lt", 1e300, [0, 1, 3, 5]],
      ["lt", -1e300, []],
      ["between", 0.1, [0, 1, 5], 3],
      ["eq", null, [2, 4]],
      ["ne", 0.5, [0, 2, 3, 4, 5]],
      ["ge", null, [2, 4]],
    ]);
  });

  test("INT filters treat INT_MIN as NULL and compare fractions exactly", (k, a) => {
    const data = a.i32([5, INT_NULL, -3, 7, 5, 2147483647, -2147483647, 0]);
    runCases(k, a, "i32", data, 8, [
      ["eq", 5, [0, 4]],
      ["ne", 5, [1, 2, 3, 5, 6, 7]],
      ["lt", 5, [2, 6, 7]],
      ["le", 5, [0, 2, 4, 6, 7]],
      ["gt", 5, [3, 5]],
      ["ge", 5, [0, 3, 4, 5]],
      ["eq", null, [1]],
      ["eq", INT_NULL, [1]],
      ["ne", null, [0, 2, 3, 4, 5, 6, 7]],
      ["le", null, [1]],
      ["ge", null, [1]],
      ["lt", null, []],
      ["lt", 2.5, [2, 6, 7]],
      ["gt", 2.5, [0, 3, 4, 5]],
      ["le", -2.5, [2, 6]],
      ["eq", 2.5, []],
      ["ne", 2.5, [0, 1, 2, 3, 4, 5, 6, 7]],
      ["lt", -2147483647, []],
      ["le", -2147483647, [6]],
      ["gt", 2147483647, []],
      ["ge", 2147483647, [5]],
      ["lt", 1e12, [0, 2, 3, 4, 5, 6, 7]],
      ["gt", -1e12, [0, 2, 3, 4, 5, 6, 7]],
      ["lt", -1e12, []],
      ["eq", 1e12, []],
      ["between", -3, [0, 2, 4, 7], 5],
      ["between", -2.5, [0, 4, 7], 5.5],
      ["between", 5, [], -3],
      ["between", null, [], 5],
      ["lt", Infinity, []],
    ]);
  });

  test("LONG filters treat LONG_MIN as NULL", (k, a) => {
    const data = a.i64([10n, LONG_NULL, -5n, LONG_MAX, LONG_NULL + 1n, 10n]);
    runCases(k, a, "i64", data, 6, [
      ["eq", 10n, [0, 5]],
      ["ne", 10n, [1, 2, 3, 4]],
      ["lt", 10n, [2, 4]],
      ["le", 10n, [0, 2, 4, 5]],
      ["gt", 10n, [3]],
      ["ge", 10n, [0, 3, 5]],
      ["eq", null, [1]],
      ["eq", LONG_NULL, [1]],
      ["ne", null, [0, 2, 3, 4, 5]],
      ["lt", null, []],
      ["ge", null, [1]],
      ["lt", LONG_NULL + 1n, []],
      ["le", LONG_NULL + 1n, [4]],
      ["gt", LONG_MAX, []],
      ["ge", LONG_MAX, [3]],
      ["between", -5n, [0, 2, 5], 10n],
      ["between", 10n, [], -5n],
      ["between", -5n, [], null],
    ]);
  });

  test("SHORT and BYTE filters have no NULL", (k, a) => {
    runCases(k, a, "i16", a.i16([-32768, 0, 32767, 5, -1]), 5, [
      ["eq", null, []],
      ["ne", null, [0, 1, 2, 3, 4]],
      ["le", null, []],
      ["lt", null, []],
      ["eq", -32768, [0]],
      ["lt", 0, [0, 4]],
      ["ge", 0, [1, 2, 3]],
      ["lt", 100000, [0, 1, 2, 3, 4]],
      ["gt", 32767, []],
      ["ge", -40000, [0, 1, 2, 3, 4]],
      ["ne", 0.5, [0, 1, 2, 3, 4]],
    ]);
    runCases(k, a, "i8", a.i8([-128, 127, 0, -1, 3]), 5, [
      ["eq", -128, [0]],
      ["gt", 2.5, [1, 4]],
      ["between", -1, [2, 3, 4], 3],
      ["le", -129, []],
      ["ge", null, []],
      ["ne", 127, [0, 2, 3, 4]],
    ]);
  });

  test("a filter through a selection refines it, in place too", (k, a) => {
    const data = a.f64(Array.from({ length: 20 }, (_, i) => i));
    const sel = a.i32([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
    expectFilter(k, a, "f64", { data, rowCount: 20, sel, selCount: 10 }, ["gt", 10, [11, 13, 15, 17, 19]]);
    const unordered = a.i32([19, 2, 11]);
    expectFilter(k, a, "f64", { data, rowCount: 20, sel: unordered, selCount: 3 }, ["gt", 5, [19, 11]]);
    const n = k.filter("f64", { data, rowCount: 20, sel, selCount: 10, op: "lt", value: 12, out: sel });
    assert.deepEqual(a.rows(sel, n), [1, 3, 5, 7, 9, 11]);
    const longs = a.i64([1n, 2n, 3n, LONG_NULL]);
    const all = a.i32([0, 1, 2, 3]);
    const m = k.filter("i64", {
      data: longs,
      rowCount: 4,
      sel: all,
      selCount: 4,
      op: "ne",
      value: 2n,
      out: all,
    });
    assert.deepEqual(a.rows(all, m), [0, 2, 3]);
  });

  test("empty inputs select nothing and aggregate to NULL", (k, a) => {
    const data = a.f64([1]);
    const out = a.alloc(16);
    assert.equal(k.filter("f64", { data, rowCount: 0, op: "ne", value: 5, out }), 0);
    assert.equal(k.filter("f64", { data, rowCount: 1, sel: out, selCount: 0, op: "ne", value: 5, out }), 0);
    assert.deepEqual(k.stats("f64", { data, rowCount: 0 }), { count: 0, sum: 0, min: NaN, max: NaN });
    assert.deepEqual(k.stats("i32", { data, rowCount: 0 }), {
      count: 0,
      sum: 0n,
      min: LONG_NULL,
      max: LONG_NULL,
    });
    assert.deepEqual(k.stats("f64", { data, rowCount: 1, sel: out, selCount: 0 }).count, 0);
    assert.equal(k.filterKeySet({ data, rowCount: 0, set: a.u8([1]), setSize: 0 }), 0);
    assert.equal(k.lowerBound({ data, rowCount: 0, value: 1n }), 0);
  });

  test("filters and stats agree with a plain loop at every length and start offset", (k, a) => {
    const kinds: NumericKind[] = ["f64", "f32", "i64", "i32", "i16", "i8"];
    const lengths = [...Array.from({ length: 41 }, (_, i) => i), 63, 64, 65, 127, 1023, 1024, 1025, 2049];
    for (const kind of kinds) {
      for (const n of lengths) {
        for (const offset of n > 100 ? [0, 1] : [0, 1, 2, 3]) {
          for (const withNulls of [true, false]) boundaryCase(k, a, kind, n, offset, withNulls);
        }
      }
    }
  });

  test("symbol key filters match one key, NULL, or a set", (k, a) => {
    const keys = a.i32([0, 1, -1, 2, 1, 5, -1]);
    const column = { data: keys, rowCount: 7 };
    const out = a.alloc(7 * 4);
    const byKey = (op: "eq" | "ne", key: number) => a.rows(out, k.filterKey({ ...column, op, key, out }));
    assert.deepEqual(byKey("eq", 1), [1, 4]);
    assert.deepEqual(byKey("ne", 1), [0, 2, 3, 5, 6]);
    assert.deepEqual(byKey("eq", -1), [2, 6]);
    assert.deepEqual(byKey("ne", -1), [0, 1, 3, 4, 5]);
    assert.equal(k.filterKey({ ...column, op: "eq", key: 1 }), 2);
    const inSet = (bytes: number[]) =>
      a.rows(out, k.filterKeySet({ ...column, set: a.u8(bytes), setSize: 3, out }));
    assert.deepEqual(inSet([1, 0, 1, 0]), [0, 3]);
    assert.deepEqual(inSet([1, 0, 1, 1]), [0, 2, 3, 6]);
    assert.deepEqual(inSet([0, 0, 0, 0]), []);
    const sel = a.i32([6, 5, 4, 0]);
    const n = k.filterKeySet({ ...column, sel, selCount: 4, set: a.u8([1, 1, 0, 1]), setSize: 3, out: sel });
    assert.deepEqual(a.rows(sel, n), [6, 4, 0]);
    assert.equal(k.filterKeySet({ ...column, set: a.u8([0, 1, 1, 0]), setSize: 3 }), 3);
  });

  test("stats skip NULLs, wrap LONG sums and widen INT sums", (k, a) => {
    assert.deepEqual(k.stats("f64", { data: a.f64([1.5, NaN, -2, Infinity, 4]), rowCount: 5 }), {
      count: 3,
      sum: 3.5,
      min: -2,
      max: 4,
    });
    assert.deepEqual(k.stats("f64", { data: a.f64([NaN, -Infinity]), rowCount: 2 }), {
      count: 0,
      sum: 0,
      min: NaN,
      max: NaN,
    });
    assert.deepEqual(k.stats("f32", { data: a.f32([0.5, NaN, 1.25]), rowCount: 3 }), {
      count: 2,
      sum: 1.75,
      min: 0.5,
      max: 1.25,
    });
    assert.deepEqual(k.stats("i64", { data: a.i64([LONG_MAX, 1n, LONG_NULL]), rowCount: 3 }), {
      count: 2,
      sum: LONG_NULL,
      min: 1n,
      max: LONG_MAX,
    });
    assert.deepEqual(k.stats("i32", { data: a.i32([2147483647, 2147483647, INT_NULL, -5]), rowCount: 4 }), {
      count: 3,
      sum: 4294967289n,
      min: -5n,
      max: 2147483647n,
    });
    assert.deepEqual(k.stats("i16", { data: a.i16([32767, 32767, -32768]), rowCount: 3 }), {
      count: 3,
      sum: 32766n,
      min: -32768n,
      max: 32767n,
    });
    assert.deepEqual(k.stats("i8", { data: a.i8([-128, -128, 127]), rowCount: 3 }), {
      count: 3,
      sum: -129n,
      min: -128n,
      max: 127n,
    });
    const sel = a.i32([4, 0]);
    assert.deepEqual(k.stats("f64", { data: a.f64([1, 2, 3, 4, 5]), rowCount: 5, sel, selCount: 2 }), {
      count: 2,
      sum: 6,
      min: 1,
      max: 5,
    });
  });

  test("stats find the min and max beside a NULL at every position", (k, a) => {
    const n = 19; // two 8-row SIMD steps and a scalar tail
    for (const kind of ["f64", "f32", "i64", "i32"] as const) {
      for (let p = 0; p < n; p++) {
        for (let q = 0; q < n; q++) {
          if (p === q) continue;
          const values = Array.from({ length: n }, (_, i) => i === p ? -5 : i === q ? NaN : i + 1);
          const pmax = (p + 3) % n === q ? (p + 4) % n : (p + 3) % n;
          values[pmax] = 1000;
          const column = kind === "i64"
            ? a.i64(values.map((v) => (Number.isNaN(v) ? LONG_NULL : BigInt(v))))
            : kind === "i32"
            ? a.i32(values.map((v) => (Number.isNaN(v) ? INT_NULL : v)))
            : kind === "f64"
            ? a.f64(values)
            : a.f32(values);
          // deno-lint-ignore no-explicit-any
          const s = (k.stats as any)(kind, { data: column, rowCount: n });
          const expected = kind === "f64" || kind === "f32" ? [-5, 1000] : [-5n, 1000n];
          assert.deepEqual([s.min, s.max], expected, `${kind} min at ${p}, max at ${pmax}, NULL at ${q}`);
          assert.equal(s.count, n - 1);
        }
      }
    }
  });

  test("float stats move between clean and NULL-holding blocks", (k, a) => {
    const n = 5000;
    const layouts: Record<string, number[]> = {
      "clean": [],
      "NULL in the first block only": [5],
      "NULLs in blocks 0 and 2": [5, 2100, 2101],
      "infinities in blocks 1 and 3": [1100, 3100],
      "NULL in the scalar tail": [4999],
    };
    for (const kind of ["f64", "f32"] as const) {
      for (const [name, nullRows] of Object.entries(layouts)) {
        const values = Array.from(
          { length: n },
          (_, i) => (i % 97) - 40 + (i === 2500 ? -1000 : 0) + (i === 1500 ? 1000 : 0),
        );
        nullRows.forEach((
          row,
          j,
        ) => (values[row] = name.startsWith("infinities") ? (j % 2 ? -Infinity : Infinity) : NaN));
        const present = values.filter(Number.isFinite);
        const data = kind === "f64" ? a.f64(values) : a.f32(values);
        const expected = {
          count: present.length,
          sum: present.reduce((x, y) => x + y, 0),
          min: Math.min(...present),
          max: Math.max(...present),
        };
        assert.deepEqual(k.stats(kind, { data, rowCount: n }), expected, `${kind} ${name}`);
      }
    }
  });

  test("keyed aggregates fill one slot per key plus the NULL slot", (k, a) => {
    const keys = a.i32([0, 1, 0, -1, 2, 7, 1]); // key 7 is outside keyCount 3: NULL slot
    const base = { keys, rowCount: 7, keyCount: 3 };
    const counts = a.i64(new Array(4).fill(0n));
    k.keyedCount({ ...base, counts });
    assert.deepEqual(Array.from(a.mem.i64(counts, 4)), [2n, 2n, 1n, 2n]);
    k.keyedCount({ ...base, sel: a.i32([0, 2]), selCount: 2, counts });
    assert.deepEqual(Array.from(a.mem.i64(counts, 4)), [4n, 2n, 1n, 2n]);

    const doubles = a.f64([1, 2, NaN, 4, 5, 6, 3]);
    const nonNull = a.i64(new Array(4).fill(0n)), sums = a.f64(new Array(4).fill(0));
    k.keyedSum("f64", { ...base, data: doubles, counts: nonNull, sums });
    assert.deepEqual(Array.from(a.mem.i64(nonNull, 4)), [1n, 2n, 1n, 2n]);
    assert.deepEqual(Array.from(a.mem.f64(sums, 4)), [1, 5, 5, 10]);
    const mins = a.f64(new Array(4).fill(NaN)), maxs = a.f64(new Array(4).fill(NaN));
    k.keyedMin("f64", { ...base, data: doubles, out: mins });
    k.keyedMax("f64", { ...base, data: doubles, out: maxs });
    assert.deepEqual(Array.from(a.mem.f64(mins, 4)), [1, 2, 5, 4]);
    assert.deepEqual(Array.from(a.mem.f64(maxs, 4)), [1, 3, 5, 6]);

    const longs = a.i64([5n, LONG_NULL, -1n, 7n, 0n, 2n, 9n]);
    const lc = a.i64(new Array(4).fill(0n)), ls = a.i64(new Array(4).fill(0n));
    k.keyedSum("i64", { ...base, data: longs, counts: lc, sums: ls });
    assert.deepEqual(Array.from(a.mem.i64(lc, 4)), [2n, 1n, 1n, 2n]);
    assert.deepEqual(Array.from(a.mem.i64(ls, 4)), [4n, 9n, 0n, 9n]);
    const lmin = a.i64(new Array(4).fill(LONG_NULL)), lmax = a.i64(new Array(4).fill(LONG_NULL));
    k.keyedMin("i64", { ...base, data: longs, out: lmin });
    k.keyedMax("i64", { ...base, data: longs, out: lmax });
    assert.deepEqual(Array.from(a.mem.i64(lmin, 4)), [-1n, 9n, 0n, 2n]);
    assert.deepEqual(Array.from(a.mem.i64(lmax, 4)), [5n, 9n, 0n, 7n]);

    const ints = a.i32([5, INT_NULL, -1, 7, INT_NULL, 2, 9]);
    const imin = a.i32(new Array(4).fill(INT_NULL)), imax = a.i32(new Array(4).fill(INT_NULL));
    k.keyedMin("i32", { ...base, data: ints, out: imin });
    k.keyedMax("i32", { ...base, data: ints, out: imax });
    assert.deepEqual(Array.from(a.mem.i32(imin, 4)), [-1, 9, INT_NULL, 2]);
    assert.deepEqual(Array.from(a.mem.i32(imax, 4)), [5, 9, INT_NULL, 7]);
    const ic = a.i64(new Array(4).fill(0n)), is = a.i64(new Array(4).fill(0n));
    k.keyedSum("i32", { ...base, sel: a.i32([0, 1, 6]), selCount: 3, data: ints, counts: ic, sums: is });
    assert.deepEqual(Array.from(a.mem.i64(ic, 4)), [1n, 1n, 0n, 0n]);
    assert.deepEqual(Array.from(a.mem.i64(is, 4)), [5n, 9n, 0n, 0n]);

    const floats = a.f32([0.5, 1.5, -Infinity, 2, 3, NaN, 4]);
    const fmin = a.f32(new Array(4).fill(NaN)),
      fsum = a.f64(new Array(4).fill(0)),
      fc = a.i64(new Array(4).fill(0n));
    k.keyedMin("f32", { ...base, data: floats, out: fmin });
    k.keyedSum("f32", { ...base, data: floats, counts: fc, sums: fsum });
    assert.deepEqual(Array.from(a.mem.f32(fmin, 4)), [0.5, 1.5, 3, 2]);
    assert.deepEqual(Array.from(a.mem.f64(fsum, 4)), [0.5, 5.5, 3, 2]);

    const wrap = a.i64(new Array(2).fill(0n)), wc = a.i64(new Array(2).fill(0n));
    k.keyedSum("i64", {
      keys: a.i32([0, 0]),
      rowCount: 2,
      keyCount: 1,
      data: a.i64([LONG_MAX, 1n]),
      counts: wc,
      sums: wrap,
    });
    assert.deepEqual(Array.from(a.mem.i64(wrap, 2)), [LONG_NULL, 0n]);
  });

  test("keyed stats in one pass equal the separate keyed kernels", (k, a) => {
    const n = 2051;
    const keyCount = 5;
    const keyValues = Array.from({ length: n }, (_, i) => ((i * 7919) % 13) % 7 - 1); // -1..5, 5 out of range
    const keys = a.i32(keyValues);
    const sel = a.i32(Array.from({ length: 600 }, (_, i) => i * 3 + (i % 2)));
    const columns = {
      f64: a.f64(Array.from({ length: n }, (_, i) => (i % 11 === 0 ? NaN : ((i * 37) % 101) - 50.25))),
      f32: a.f32(Array.from({ length: n }, (_, i) => (i % 9 === 0 ? NaN : ((i * 13) % 17) / 4))),
      i64: a.i64(
        Array.from({ length: n }, (_, i) => (i % 10 === 0 ? LONG_NULL : BigInt((i * 31) % 97) - 40n)),
      ),
      i32: a.i32(Array.from({ length: n }, (_, i) => (i % 8 === 0 ? INT_NULL : ((i * 17) % 89) - 30))),
    } as const;
    for (const kind of ["f64", "f32", "i64", "i32"] as const) {
      for (const rows of [{ rowCount: n }, { rowCount: n, sel, selCount: 600 }]) {
        const slots = keyCount + 1;
        const width = kind === "f64" || kind === "i64" ? 8 : 4;
        const nul = (m: number) => {
          if (kind === "f64") return a.f64(new Array(m).fill(NaN));
          if (kind === "f32") return a.f32(new Array(m).fill(NaN));
          if (kind === "i64") return a.i64(new Array(m).fill(LONG_NULL));
          return a.i32(new Array(m).fill(INT_NULL));
        };
        const zeroSums = () => (kind === "f64" || kind === "f32"
          ? a.f64(new Array(slots).fill(0))
          : a.i64(new Array(slots).fill(0n)));
        const fused = {
          rows: a.i64(new Array(slots).fill(0n)),
          counts: a.i64(new Array(slots).fill(0n)),
          sums: zeroSums(),
          mins: nul(slots),
          maxs: nul(slots),
        };
        const args = { ...rows, keys, keyCount, data: columns[kind] };
        k.keyedStats(kind, { ...args, ...fused });
        const rowCounts = a.i64(new Array(slots).fill(0n)),
          counts = a.i64(new Array(slots).fill(0n)),
          sums = zeroSums();
        const mins = nul(slots), maxs = nul(slots);
        k.keyedCount({ ...args, counts: rowCounts });
        k.keyedSum(kind, { ...args, counts, sums });
        k.keyedMin(kind, { ...args, out: mins });
        k.keyedMax(kind, { ...args, out: maxs });
        const bytes = (p: number, w: number) =>
          Array.from(a.mem.u8(p, slots * w));
        const label = `${kind} ${rows.sel ? "selection" : "whole"}`;
        assert.deepEqual(bytes(fused.rows, 8), bytes(rowCounts, 8), `${label} rows`);
        assert.deepEqual(bytes(fused.counts, 8), bytes(counts, 8), `${label} counts`);
        assert.deepEqual(bytes(fused.sums, 8), bytes(sums, 8), `${label} sums`);
        assert.deepEqual(bytes(fused.mins, width), bytes(mins, width), `${label} mins`);
        assert.deepEqual(bytes(fused.maxs, width), bytes(maxs, width), `${label} maxs`);
      }
    }
  });

  test("segments reduce each bucket, empty and all-NULL ones to NULL", (k, a) => {
    const data = a.f64([1, NaN, 3, 4, NaN, NaN, 7, 8]);
    const out = {
      counts: a.alloc(32),
      sums: a.alloc(32),
      mins: a.alloc(32),
      maxs: a.alloc(32),
      firsts: a.alloc(32),
      lasts: a.alloc(32),
    };
    k.segments("f64", { data, rowCount: 8, from: 0, ends: a.i32([3, 3, 6, 10]), segCount: 4, ...out });
    const f = (p: number) => Array.from(a.mem.f64(p, 4));
    assert.deepEqual(Array.from(a.mem.i64(out.counts, 4)), [2n, 0n, 1n, 2n]);
    assert.deepEqual(f(out.sums), [4, 0, 4, 15]);
    assert.deepEqual(f(out.mins), [1, NaN, 4, 7]);
    assert.deepEqual(f(out.maxs), [3, NaN, 4, 8]);
    assert.deepEqual(f(out.firsts), [1, NaN, 4, 7]);
    assert.deepEqual(f(out.lasts), [3, NaN, NaN, 8]);

    k.segments("f64", { data, rowCount: 8, from: 1, ends: a.i32([3]), segCount: 1, ...out });
    assert.deepEqual([a.mem.i64(out.counts, 1)[0], f(out.sums)[0], f(out.firsts)[0], f(out.lasts)[0]], [
      1n,
      3,
      NaN,
      3,
    ]);

    const sel = a.i32([0, 2, 3, 6]);
    k.segments("f64", {
      data,
      rowCount: 8,
      sel,
      selCount: 4,
      from: 0,
      ends: a.i32([2, 4]),
      segCount: 2,
      ...out,
    });
    assert.deepEqual(Array.from(a.mem.i64(out.counts, 2)), [2n, 2n]);
    assert.deepEqual(f(out.sums).slice(0, 2), [4, 11]);
    assert.deepEqual(f(out.firsts).slice(0, 2), [1, 4]);
    assert.deepEqual(f(out.lasts).slice(0, 2), [3, 7]);

    const longs = a.i64([LONG_NULL, 2n, 3n, LONG_NULL]);
    const lout = {
      mins: a.i64([42n, 42n]),
      maxs: a.i64([42n, 42n]),
      firsts: a.i64([42n, 42n]),
      sums: a.i64([42n, 42n]),
    };
    k.segments("i64", { data: longs, rowCount: 4, from: 0, ends: a.i32([3, 4]), segCount: 2, ...lout });
    assert.deepEqual(Array.from(a.mem.i64(lout.mins, 2)), [2n, LONG_NULL]);
    assert.deepEqual(Array.from(a.mem.i64(lout.maxs, 2)), [3n, LONG_NULL]);
    assert.deepEqual(Array.from(a.mem.i64(lout.firsts, 2)), [LONG_NULL, LONG_NULL]);
    assert.deepEqual(Array.from(a.mem.i64(lout.sums, 2)), [5n, 0n]);

    const ints = a.i32([INT_NULL, 4, -2]);
    const iout = { mins: a.i32([42, 42]), lasts: a.i32([42, 42]), counts: a.i64([42n, 42n]) };
    k.segments("i32", { data: ints, rowCount: 3, from: 0, ends: a.i32([1, 3]), segCount: 2, ...iout });
    assert.deepEqual(Array.from(a.mem.i32(iout.mins, 2)), [INT_NULL, -2]);
    assert.deepEqual(Array.from(a.mem.i32(iout.lasts, 2)), [INT_NULL, -2]);
    assert.deepEqual(Array.from(a.mem.i64(iout.counts, 2)), [0n, 2n]);
  });

  test("binary searches find bounds within a row range", (k, a) => {
    const data = a.i64([1n, 3n, 3n, 3n, 5n, 7n]);
    const col = { data, rowCount: 6 };
    assert.equal(k.lowerBound({ ...col, value: 3n }), 1);
    assert.equal(k.upperBound({ ...col, value: 3n }), 4);
    assert.equal(k.lowerBound({ ...col, value: 0n }), 0);
    assert.equal(k.lowerBound({ ...col, value: 8n }), 6);
    assert.equal(k.upperBound({ ...col, value: 7n }), 6);
    assert.equal(k.lowerBound({ ...col, value: LONG_NULL }), 0);
    assert.equal(k.upperBound({ ...col, value: LONG_MAX }), 6);
    assert.equal(k.lowerBound({ ...col, from: 2, to: 4, value: 3n }), 2);
    assert.equal(k.lowerBound({ ...col, from: 0, to: 4, value: 5n }), 4);
    assert.equal(k.upperBound({ ...col, from: 3, to: 3, value: 0n }), 3);
    const out = a.alloc(5 * 4);
    k.lowerBounds({ ...col, values: a.i64([0n, 3n, 4n, 7n, 100n]), count: 5, out });
    assert.deepEqual(a.rows(out, 5), [0, 1, 4, 5, 6]);

    const evens = a.i64(Array.from({ length: 1000 }, (_, i) => BigInt(2 * i)));
    const probes = Array.from({ length: 55 }, (_, i) => i * 37);
    const many = a.alloc(probes.length * 4);
    k.lowerBounds({
      data: evens,
      rowCount: 1000,
      values: a.i64(probes.map(BigInt)),
      count: probes.length,
      out: many,
    });
    assert.deepEqual(a.rows(many, probes.length), probes.map((v) => Math.min(Math.ceil(v / 2), 1000)));
    for (const v of [-1, 0, 1, 998, 999, 1998, 1999, 5000]) {
      assert.equal(
        k.lowerBound({ data: evens, rowCount: 1000, value: BigInt(v) }),
        Math.min(Math.max(Math.ceil(v / 2), 0), 1000),
      );
      assert.equal(
        k.upperBound({ data: evens, rowCount: 1000, value: BigInt(v) }),
        Math.min(Math.max(Math.floor(v / 2) + 1, 0), 1000),
      );
    }
  });

  test("gather, reverse and sequence move rows of every width", (k, a) => {
    const widths: RowWidth[] = [1, 2, 4, 8, 16, 32];
    for (const width of widths) {
      const rows = 5;
      const data = a.alloc(rows * width);
      const bytes = a.mem.u8(data, rows * width);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + 3) & 255;
      const row = (r: number) => Array.from(bytes.subarray(r * width, (r + 1) * width));
      const out = a.alloc(rows * width);
      k.gather({ width, data, rowCount: rows, sel: a.i32([3, 0, 3, 1]), selCount: 4, out });
      assert.deepEqual(Array.from(a.mem.u8(out, 4 * width)), [3, 0, 3, 1].flatMap(row), `gather ${width}`);
      k.reverse({ width, data, rowCount: rows, out });
      assert.deepEqual(
        Array.from(a.mem.u8(out, rows * width)),
        [4, 3, 2, 1, 0].flatMap(row),
        `reverse ${width}`,
      );
    }
    const seq = a.alloc(11 * 4);
    k.sequence({ out: seq, first: 10, count: 9, step: -1 });
    assert.deepEqual(a.rows(seq, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
    k.sequence({ out: seq, first: 0, count: 11, step: 1 });
    assert.deepEqual(a.rows(seq, 11), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    k.sequence({ out: seq, first: 5, count: 0, step: 1 });
  });

  test("selUnion merges two ascending selections without repeats", (k, a) => {
    const union = (x: number[], y: number[]) => {
      const out = a.alloc(Math.max(1, x.length + y.length) * 4);
      const n = k.selUnion({
        a: a.i32(x.length ? x : [0]),
        aCount: x.length,
        b: a.i32(y.length ? y : [0]),
        bCount: y.length,
        out,
      });
      return a.rows(out, n);
    };
    assert.deepEqual(union([1, 3, 5, 9], [0, 3, 4, 9, 12]), [0, 1, 3, 4, 5, 9, 12]);
    assert.deepEqual(union([], [2, 7]), [2, 7]);
    assert.deepEqual(union([2, 7], []), [2, 7]);
    assert.deepEqual(union([], []), []);
    assert.deepEqual(union([0, 1, 2], [0, 1, 2]), [0, 1, 2]);
    const x = Array.from({ length: 300 }, (_, i) => i * 3),
      y = Array.from({ length: 200 }, (_, i) => i * 5 + 1);
    assert.deepEqual(union(x, y), [...new Set([...x, ...y])].sort((p, q) => p - q));
    const sel = a.i32([1, 2]);
    assert.throws(() => k.selUnion({ a: sel, aCount: 2, b: sel, bCount: 2, out: sel }), RangeError);
  });

  test("bad arguments throw before memory is touched", (k, a) => {
    const data = a.f64([1, 2, 3, 4]);
    const bad = (fn: () => unknown) => assert.throws(fn, RangeError);
    bad(() => k.filter("f64", { data, rowCount: -1, op: "eq", value: 1 }));
    bad(() => k.filter("f64", { data, rowCount: 1.5, op: "eq", value: 1 }));
    bad(() => k.filter("f64", { data: data + 4, rowCount: 2, op: "eq", value: 1 }));
    bad(() => k.filter("f64", { data: 16, rowCount: 2, op: "eq", value: 1 }));
    bad(() => k.filter("f64", { data, rowCount: 1e9, op: "eq", value: 1 }));
    bad(() => k.filter("f64", { data, rowCount: 4, selCount: 2, op: "eq", value: 1 }));
    bad(() => k.filter("f64", { data, rowCount: 4, sel: data, op: "eq", value: 1 }));
    bad(() => k.filter("f64", { data, rowCount: 4, op: "like" as CompareOp, value: 1 }));
    bad(() => k.filter("f64", { data, rowCount: 4, op: "eq", value: 1n as unknown as number }));
    bad(() => k.filter("i64", { data, rowCount: 4, op: "eq", value: 1 as unknown as bigint }));
    bad(() => k.filter("i64", { data, rowCount: 4, op: "eq", value: 2n ** 64n }));
    bad(() => k.filter("u64" as NumericKind as "f64", { data, rowCount: 4, op: "eq", value: 1 }));
    bad(() => k.filter("f64", { data, rowCount: 4, op: "eq", value: 1, out: data + 2 }));
    bad(() => k.stats("f64", { data, rowCount: -4 }));
    bad(() => k.keyedCount({ keys: data, rowCount: 4, keyCount: 3, counts: data + 4 }));
    bad(() =>
      k.keyedSum("i16" as MeasureKind, {
        keys: data,
        rowCount: 4,
        keyCount: 1,
        data,
        counts: data,
        sums: data,
      })
    );
    bad(() => k.segments("f64", { data, rowCount: 4, from: 5, ends: data, segCount: 1 }));
    bad(() => k.lowerBound({ data, rowCount: 4, from: 3, to: 2, value: 1n }));
    bad(() => k.lowerBound({ data, rowCount: 4, to: 5, value: 1n }));
    bad(() => k.gather({ width: 3 as RowWidth, data, rowCount: 4, sel: data, selCount: 1, out: data }));
    bad(() => k.gather({ width: 8, data, rowCount: 4, sel: a.i32([0]), selCount: 1, out: data + 8 }));
    bad(() => k.reverse({ width: 8, data, rowCount: 4, out: data + 16 }));
    bad(() => k.sequence({ out: data, first: 2147483647, count: 2, step: 1 }));
    bad(() => k.filterKey({ data, rowCount: 4, op: "eq", key: -2 }));
  });
}

/** Value of row i in the boundary columns: small integers, NULL every fifth row. */
function boundaryValue(kind: NumericKind, i: number, withNulls: boolean): number | bigint {
  const v = ((i * 7) % 11) - 3;
  const isNull = withNulls && i % 5 === 3;
  switch (kind) {
    case "f64":
    case "f32":
      return isNull ? (i % 2 ? NaN : Infinity) : v;
    case "i64":
      return isNull ? LONG_NULL : BigInt(v);
    case "i32":
      return isNull ? INT_NULL : v;
    default:
      return v;
  }
}

function boundaryCase(
  k: Kernels,
  a: Arena,
  kind: NumericKind,
  n: number,
  offset: number,
  withNulls: boolean,
) {
  const values = Array.from({ length: n }, (_, i) => boundaryValue(kind, i, withNulls));
  const data = store(a, kind, values, offset);
  const nullable = kind === "f64" || kind === "f32" || kind === "i64" || kind === "i32";
  const isNull = (i: number) => nullable && withNulls && i % 5 === 3;
  const num = (i: number) => Number(values[i]);
  const label = `${kind} n=${n} offset=${offset} nulls=${withNulls}`;
  const rows = (p: (i: number) => boolean) => values.map((_, i) => i).filter(p);
  const two = kind === "i64" ? 2n : 2;
  // deno-lint-ignore no-explicit-any
  const filter = k.filter.bind(k) as (kind: NumericKind, args: any) => number;
  const out = a.alloc(n * 4);
  let c = filter(kind, { data, rowCount: n, op: "gt", value: two, out });
  assert.deepEqual(a.rows(out, c), rows((i) => !isNull(i) && num(i) > 2), `${label} gt`);
  c = filter(kind, { data, rowCount: n, op: "ne", value: two, out });
  assert.deepEqual(a.rows(out, c), rows((i) => isNull(i) || num(i) !== 2), `${label} ne`);
  assert.equal(
    filter(kind, { data, rowCount: n, op: "eq", value: null }),
    rows(isNull).length,
    `${label} is null`,
  );

  const present = rows((i) => !isNull(i)).map(num);
  // deno-lint-ignore no-explicit-any
  const stats = (k.stats as any)(kind, { data, rowCount: n });
  assert.equal(stats.count, present.length, `${label} count`);
  const sum = present.reduce((s, x) => s + x, 0);
  const min = present.length ? Math.min(...present) : NaN;
  const max = present.length ? Math.max(...present) : NaN;
  if (kind === "f64" || kind === "f32") {
    assert.deepEqual([stats.sum, stats.min, stats.max], [sum, min, max], `${label} stats`);
  } else {
    const big = (x: number) => (Number.isNaN(x) ? LONG_NULL : BigInt(x));
    assert.deepEqual([stats.sum, stats.min, stats.max], [BigInt(sum), big(min), big(max)], `${label} stats`);
  }
}

/** Stores values of `kind` at a column starting `offset` rows into a fresh block. */
export function store(a: Arena, kind: NumericKind, values: (number | bigint)[], offset = 0): number {
  switch (kind) {
    case "f64":
      return a.f64(values as number[], offset);
    case "f32":
      return a.f32(values as number[], offset);
    case "i64":
      return a.i64(values as bigint[], offset);
    case "i32":
      return a.i32(values as number[], offset);
    case "i16":
      return a.i16(values as number[], offset);
    case "i8":
      return a.i8(values as number[], offset);
  }
}
