/**
 * The DOUBLE arithmetic kernel (`binop`) and the top-N threshold test (`topNCandidates`) of
 * issue #16: the WebAssembly module against its TypeScript twin and against the plain
 * definitions, on columns with NaN and ±Infinity (DOUBLE NULLs), whole and through
 * selections, at lengths around the SIMD steps.
 */
import assert from "node:assert/strict";
import { type BinopArgs, kernels } from "../../engine-wasm/mod.ts";
import { referenceKernels } from "../../engine-wasm/reference.ts";
import { Random, testMemory, withArena } from "./_helpers.ts";

testMemory();
const wasm = kernels();
const ref = referenceKernels();
const LENGTHS = [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 100, 1025];

function column(rng: Random, n: number): number[] {
  return Array.from({ length: n }, () => {
    const u = rng.next();
    if (u < 0.05) return NaN;
    if (u < 0.07) return Infinity;
    if (u < 0.09) return -Infinity;
    if (u < 0.1) return 1e308;
    return Math.round((rng.next() - 0.5) * 2000) / 8;
  });
}

const apply = (
  op: BinopArgs["op"],
  x: number,
  y: number,
) => (op === "+" ? x + y : op === "-" ? x - y : x * y);
const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

Deno.test("binop: columns and constants, whole and selected, equal the IEEE result row by row", () => {
  const rng = new Random(16);
  for (const n of LENGTHS) {
    for (const op of ["+", "-", "*"] as const) {
      for (const consts of [0, 1, 2]) {
        withArena((arena) => {
          const av = column(rng, n), bv = column(rng, n);
          const k = consts === 0 ? 0 : [2.5, NaN, -Infinity][Math.floor(rng.next() * 3)];
          const a = consts === 1 ? { value: k } : { data: arena.f64(av) };
          const b = consts === 2 ? { value: k } : { data: arena.f64(bv) };
          const sel = Array.from({ length: n }, (_, i) => i).filter(() => rng.next() < 0.5);
          const selPtr = arena.alloc(Math.max(sel.length, 1) * 4);
          arena.mem.i32(selPtr, sel.length).set(sel);
          for (const rows of [{ rowCount: n }, { rowCount: n, sel: selPtr, selCount: sel.length }]) {
            const visits = rows.sel === undefined ? n : sel.length;
            const outW = arena.alloc(Math.max(visits, 1) * 8), outR = arena.alloc(Math.max(visits, 1) * 8);
            wasm.binop({ ...rows, op, a, b, out: outW });
            ref.binop({ ...rows, op, a, b, out: outR });
            const w = arena.mem.f64(outW, visits), r = arena.mem.f64(outR, visits);
            const kk = Number.isFinite(k) ? k : NaN;
            for (let j = 0; j < visits; j++) {
              const row = rows.sel === undefined ? j : sel[j];
              const want = apply(op, consts === 1 ? kk : av[row], consts === 2 ? kk : bv[row]);
              assert.ok(
                same(w[j], want),
                `wasm ${op} n=${n} consts=${consts} row ${row}: ${w[j]} vs ${want}`,
              );
              assert.ok(same(r[j], want), `ref ${op} n=${n} consts=${consts} row ${row}: ${r[j]} vs ${want}`);
              // A NULL operand (NaN, an infinity) never gives a finite result.
              const x = consts === 1 ? kk : av[row], y = consts === 2 ? kk : bv[row];
              if (!Number.isFinite(x) || !Number.isFinite(y)) assert.ok(!Number.isFinite(w[j]));
            }
          }
        });
      }
    }
  }
});

Deno.test("binop: refuses an unknown operator and an output overlapping a column", () => {
  withArena((arena) => {
    const a = arena.f64([1, 2, 3]);
    const out = arena.alloc(24);
    assert.throws(
      () => wasm.binop({ rowCount: 3, op: "/" as "+", a: { data: a }, b: { value: 1 }, out }),
      RangeError,
    );
    assert.throws(
      () => wasm.binop({ rowCount: 3, op: "+", a: { data: a }, b: { value: 1 }, out: a }),
      RangeError,
    );
  });
});

Deno.test("topNCandidates: rows ranked past the threshold, NULLs ranked +Infinity, both directions", () => {
  const rng = new Random(61);
  for (const n of LENGTHS) {
    withArena((arena) => {
      const values = column(rng, n);
      const data = arena.f64(values);
      const out = arena.alloc(Math.max(n, 1) * 4);
      const finite = values.filter(Number.isFinite);
      const thresholds = [-Infinity, Infinity, 0, finite[0] ?? 1, finite[finite.length >> 1] ?? 2];
      for (const threshold of thresholds) {
        for (const desc of [true, false]) {
          const want = values.flatMap((x, i) => {
            const r = Number.isFinite(x) ? x : Infinity;
            return (desc ? r >= threshold : r <= threshold) ? [i] : [];
          });
          for (const k of [wasm, ref]) {
            const c = k.topNCandidates({ data, rowCount: n, threshold, desc, out });
            assert.deepEqual(Array.from(arena.mem.i32(out, c)), want, `n=${n} t=${threshold} desc=${desc}`);
          }
        }
      }
    });
  }
});

Deno.test("binop i64: wrapping arithmetic, NULL (LONG_MIN) in gives NULL, whole and selected", () => {
  const rng = new Random(64);
  const NUL = -(2n ** 63n);
  const long = () => {
    const u = rng.next();
    if (u < 0.1) return NUL;
    if (u < 0.15) return 2n ** 62n + BigInt(Math.floor(rng.next() * 1000)); // overflows when doubled
    return BigInt(Math.floor((rng.next() - 0.5) * 1e6));
  };
  for (const n of LENGTHS) {
    for (const op of ["+", "-", "*"] as const) {
      for (const consts of [0, 1, 2]) {
        withArena((arena) => {
          const av = Array.from({ length: n }, long), bv = Array.from({ length: n }, long);
          const k = [2n, NUL, -7n][Math.floor(rng.next() * 3)];
          const col = (values: bigint[]) => {
            const p = arena.alloc(Math.max(n, 2) * 8);
            arena.mem.i64(p, n).set(values);
            return p;
          };
          const a = consts === 1 ? { value: k } : { data: col(av) };
          const b = consts === 2 ? { value: k } : { data: col(bv) };
          const sel = Array.from({ length: n }, (_, i) => i).filter(() => rng.next() < 0.5);
          const selPtr = arena.alloc(Math.max(sel.length, 1) * 4);
          arena.mem.i32(selPtr, sel.length).set(sel);
          for (const rows of [{ rowCount: n }, { rowCount: n, sel: selPtr, selCount: sel.length }]) {
            const visits = rows.sel === undefined ? n : sel.length;
            const outW = arena.alloc(Math.max(visits, 2) * 8), outR = arena.alloc(Math.max(visits, 2) * 8);
            wasm.binop({ ...rows, kind: "i64", op, a, b, out: outW });
            ref.binop({ ...rows, kind: "i64", op, a, b, out: outR });
            const w = arena.mem.i64(outW, visits), r = arena.mem.i64(outR, visits);
            for (let j = 0; j < visits; j++) {
              const row = rows.sel === undefined ? j : sel[j];
              const x = consts === 1 ? k : av[row], y = consts === 2 ? k : bv[row];
              const want = x === NUL || y === NUL
                ? NUL
                : BigInt.asIntN(64, op === "+" ? x + y : op === "-" ? x - y : x * y);
              assert.equal(w[j], want, `wasm ${op} n=${n} consts=${consts} row ${row}`);
              assert.equal(r[j], want, `ref ${op} n=${n} consts=${consts} row ${row}`);
            }
          }
        });
      }
    }
  }
});
