/**
 * The result-text kernels of /exec JSON: `formatF64` (Ryu's shortest digits in Java's
 * Double.toString layout) against formatDouble, the text the server printed cell by cell before,
 * on every family of doubles where shortest-digit algorithms go wrong (powers of two, values
 * just inside and outside Java's plain range, integers past 2^53, the extremes, ties), on random
 * bit patterns, and with a subnormal stop and resume; `formatI64` against String(bigint), quoted
 * and not; `jsonRows` (cell text interleaved, DOUBLE and LONG values written in place, the stop at
 * a subnormal) against its TypeScript twin and the expected text.
 */
import assert from "node:assert/strict";
import {
  FORMAT_F64_BYTES,
  FORMAT_I64_BYTES,
  JSON_CELLS,
  JSON_COLUMN_WORDS,
  kernels,
} from "../../engine-wasm/mod.ts";
import { referenceKernels } from "../../engine-wasm/reference.ts";
import { formatDouble } from "../../engine/functions/double_format.ts";
import { Random, testMemory, withArena } from "./_helpers.ts";

testMemory();
const wasm = kernels();
const ref = referenceKernels();
const decoder = new TextDecoder();

/** The cells of `xs` through a kernels' `formatF64`, stops written with formatDouble. */
function cells(k: typeof wasm, xs: number[]): { cells: string[]; stops: number[] } {
  return withArena((arena) => {
    const n = xs.length;
    const data = arena.f64(xs), out = arena.alloc(n * FORMAT_F64_BYTES), ends = arena.alloc(n * 4);
    const stops: number[] = [];
    let from = 0, pos = 0;
    for (;;) {
      const stop = k.formatF64({ data, count: n, from, pos, out, ends });
      if (stop >= n) break;
      stops.push(stop);
      pos = stop === 0 ? 0 : arena.mem.i32(ends, n)[stop - 1];
      const text = formatDouble(xs[stop]);
      arena.mem.u8(out + pos, text.length).set(new TextEncoder().encode(text));
      arena.mem.i32(ends, n)[stop] = pos += text.length;
      from = stop + 1;
    }
    const e = arena.mem.i32(ends, n), u8 = arena.mem.u8(out, n * FORMAT_F64_BYTES);
    return { cells: xs.map((_, i) => decoder.decode(u8.subarray(i === 0 ? 0 : e[i - 1], e[i]))), stops };
  });
}

const expected = (x: number) => (Number.isFinite(x) ? formatDouble(x) : "null");

function check(xs: number[], label: string): void {
  const w = cells(wasm, xs), r = cells(ref, xs);
  for (let i = 0; i < xs.length; i++) {
    assert.equal(w.cells[i], expected(xs[i]), `${label}: wasm text of ${xs[i]} (row ${i})`);
    assert.equal(r.cells[i], expected(xs[i]), `${label}: reference text of ${xs[i]}`);
  }
  assert.deepEqual(w.stops, r.stops, `${label}: the rows both stop at`);
}

Deno.test("formatF64: special values, Java's plain range edges and known hard cases", () => {
  const xs = [
    0,
    -0,
    NaN,
    Infinity,
    -Infinity,
    1,
    -1,
    0.1,
    0.2,
    0.3,
    1 / 3,
    2 / 3,
    100,
    1e7,
    9999999,
    9999999.999999998,
    1e7 - 1e-9,
    1e-3,
    0.001,
    0.000999,
    0.0009999999999999998,
    1e-4,
    1.0e-3 + 1e-18,
    123456.789,
    1e21,
    1e22,
    1e23,
    2 ** 52,
    2 ** 53,
    2 ** 53 + 2,
    2 ** 63,
    2 ** 64,
    2 ** 1023,
    2 ** -1022,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    5e-324,
    1e-320,
    4.9e-324,
    2.225073858507201e-308,
    9007199254740993,
    5.0e-1,
    0.5,
    1.5,
    2.5,
    1e15,
    1e16,
    1e17,
    123456789012345680000,
    1.2345678901234567e-300,
    9.999999999999999e22,
    3.0e-3,
    7.0e6,
    6.999999999999999e6,
    4.35,
    0.07,
    299792458,
    6.02214076e23,
    1.602176634e-19,
    45.5,
    12345678.9,
    0.30000000000000004,
    1.1,
    2.675,
    1e-7,
    123e-20,
  ];
  check([...xs, ...xs.map((x) => -x)], "special");
  // Every power of two (the lopsided rounding interval) and of ten, and their neighbours.
  const pow: number[] = [];
  for (let e = -1074; e <= 1023; e++) pow.push(2 ** e);
  for (let e = -323; e <= 308; e++) {
    const x = Number(`1e${e}`);
    pow.push(x, nextUp(x), nextDown(x));
  }
  check(pow, "powers");
});

Deno.test("formatF64: random bit patterns, random decimals and integers equal formatDouble", () => {
  const rng = new Random(1616);
  const u32 = () => Math.floor(rng.next() * 2 ** 32);
  const f64 = new Float64Array(1), bits = new Uint32Array(f64.buffer);
  for (let round = 0; round < 8; round++) {
    const xs: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      switch (i % 4) {
        case 0:
          bits[0] = u32();
          bits[1] = u32();
          xs.push(f64[0]);
          break;
        case 1:
          xs.push((rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 40 - 15));
          break;
        case 2:
          xs.push(Math.round(rng.next() * 1e7) / 10 ** Math.floor(rng.next() * 8));
          break;
        default:
          xs.push(Math.floor(rng.next() * 2 ** 53) * 2 ** Math.floor(rng.next() * 120 - 60));
      }
    }
    check(xs, `random ${round}`);
  }
});

Deno.test("formatF64: stops at each subnormal and resumes; an empty call writes nothing", () => {
  const xs = [1.5, 5e-324, 2, -1e-310, -0, 2.2250738585072014e-308, 4e-320];
  const w = cells(wasm, xs);
  assert.deepEqual(w.stops, [1, 3, 6]);
  assert.deepEqual(w.cells, xs.map(expected));
  assert.deepEqual(cells(wasm, []).cells, []);
});

Deno.test("formatI64: every digit count, both signs, the extremes and NULL, quoted or not", () => {
  const rng = new Random(64);
  const values: bigint[] = [
    0n,
    1n,
    -1n,
    2n ** 63n - 1n,
    -(2n ** 63n) + 1n,
    -(2n ** 63n),
    10n ** 18n,
    10n ** 17n - 1n,
  ];
  for (let d = 1; d <= 19; d++) {
    for (let k = 0; k < 20; k++) {
      const digits = Array.from(
        { length: d },
        (_, i) => String(i === 0 ? 1 + Math.floor(rng.next() * 9) : Math.floor(rng.next() * 10)),
      ).join("");
      const v = BigInt(digits);
      if (v < 2n ** 63n) values.push(v, -v);
    }
  }
  for (const quote of [false, true]) {
    const texts = [wasm, ref].map((k) =>
      withArena((arena) => {
        const n = values.length;
        const data = arena.i64(values), out = arena.alloc(n * FORMAT_I64_BYTES), ends = arena.alloc(n * 4);
        k.formatI64({ data, count: n, quote, out, ends });
        const e = arena.mem.i32(ends, n), u8 = arena.mem.u8(out, n * FORMAT_I64_BYTES);
        return values.map((_, i) => decoder.decode(u8.subarray(i === 0 ? 0 : e[i - 1], e[i])));
      })
    );
    const want = values.map((v) => v === -(2n ** 63n) ? "null" : quote ? `"${v}"` : String(v));
    assert.deepEqual(texts[0], want, `wasm quote=${quote}`);
    assert.deepEqual(texts[1], want, `reference quote=${quote}`);
  }
});

Deno.test("jsonRows: cells of several columns interleave into rows, with and without the first comma", () => {
  const rng = new Random(77);
  for (const [rows, ncols] of [[0, 1], [1, 1], [3, 2], [50, 5], [257, 9]]) {
    for (const first of [true, false]) {
      const texts = Array.from(
        { length: ncols },
        () =>
          Array.from({ length: rows }, () => "x".repeat(Math.floor(rng.next() * 30)) + String(rng.next())),
      );
      const outs = [wasm, ref].map((k) =>
        withArena((arena) => {
          const cols = arena.alloc(ncols * JSON_COLUMN_WORDS * 4);
          let total = 0;
          texts.forEach((col, c) => {
            const all = col.join("");
            const base = arena.alloc(all.length), ends = arena.alloc(rows * 4);
            arena.mem.u8(base, all.length).set(new TextEncoder().encode(all));
            let at = 0;
            col.forEach((t, j) => arena.mem.i32(ends, rows)[j] = at += t.length);
            arena.mem.i32(cols, ncols * JSON_COLUMN_WORDS).set(
              [JSON_CELLS.text, base, ends],
              JSON_COLUMN_WORDS * c,
            );
            total += all.length;
          });
          const out = arena.alloc(total + rows * (ncols + 2));
          const len = k.jsonRows({ cols, colCount: ncols, rows, first, out });
          return decoder.decode(arena.mem.u8(out, len));
        })
      );
      const want = texts[0].map((_, j) => "[" + texts.map((col) => col[j]).join(",") + "]").join(",");
      assert.equal(outs[0], (first || rows === 0 ? "" : ",") + want, `wasm rows=${rows} cols=${ncols}`);
      assert.equal(outs[1], outs[0], `reference rows=${rows} cols=${ncols}`);
    }
  }
});

Deno.test("jsonRows: DOUBLE and LONG values written into their rows as formatF64 / formatI64 write them", () => {
  const rng = new Random(99);
  const f64 = new Float64Array(1), bits = new Uint32Array(f64.buffer);
  const double = (): number => {
    const r = rng.next();
    if (r < 0.05) {
      return [NaN, Infinity, -Infinity, 0, -0, 1e7, 1e-3, 9999999.999999998][Math.floor(rng.next() * 8)];
    }
    if (r < 0.5) return (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 30 - 12);
    do {
      bits[0] = Math.floor(rng.next() * 2 ** 32);
      bits[1] = Math.floor(rng.next() * 2 ** 32);
    } while ((bits[1] & 0x7ff00000) === 0); // no subnormals here
    return f64[0];
  };
  const long = (): bigint =>
    rng.next() < 0.1
      ? -(2n ** 63n)
      : BigInt.asIntN(64, BigInt(Math.floor(rng.next() * 2 ** 53)) << BigInt(Math.floor(rng.next() * 12)));
  const rows = 3000;
  const d1 = Array.from({ length: rows }, double), d2 = Array.from({ length: rows }, double);
  const l1 = Array.from({ length: rows }, long);
  const hosts = Array.from({ length: rows }, (_, j) => `"host_${j % 7}"`);
  const want = (quote: boolean) =>
    d1.map((_, j) =>
      "[" + [
        expected(d1[j]),
        hosts[j],
        l1[j] === -(2n ** 63n) ? "null" : quote ? `"${l1[j]}"` : String(l1[j]),
        expected(d2[j]),
      ].join(",") + "]"
    ).join(",");
  /** The rows through `k`; `subnormalAt` puts 5e-324 in the second DOUBLE column there. */
  const run = (k: typeof wasm, quote: boolean, subnormalAt = -1) =>
    withArena((arena) => {
      const cols = arena.alloc(4 * JSON_COLUMN_WORDS * 4);
      const all = hosts.join(""), base = arena.alloc(all.length), ends = arena.alloc(rows * 4);
      arena.mem.u8(base, all.length).set(new TextEncoder().encode(all));
      let at = 0;
      hosts.forEach((t, j) => arena.mem.i32(ends, rows)[j] = at += t.length);
      const second = d2.slice();
      if (subnormalAt >= 0) second[subnormalAt] = 5e-324;
      const longs = arena.alloc(rows * 8);
      arena.mem.i64(longs, rows).set(l1);
      arena.mem.i32(cols, 4 * JSON_COLUMN_WORDS).set([
        ...[JSON_CELLS.f64, arena.f64(d1), 0],
        ...[JSON_CELLS.text, base, ends],
        ...[quote ? JSON_CELLS.i64Quoted : JSON_CELLS.i64, longs, 0],
        ...[JSON_CELLS.f64, arena.f64(second), 0],
      ]);
      const out = arena.alloc(all.length + rows * (2 * FORMAT_F64_BYTES + FORMAT_I64_BYTES + 6));
      const len = k.jsonRows({ cols, colCount: 4, rows, first: true, out });
      return len < 0 ? len : decoder.decode(arena.mem.u8(out, len));
    });
  for (const quote of [false, true]) {
    assert.equal(run(wasm, quote), want(quote), `wasm quote=${quote}`);
    assert.equal(run(ref, quote), want(quote), `reference quote=${quote}`);
  }
  // A subnormal stops the kernel at its row.
  for (const at of [0, 1234, rows - 1]) {
    assert.equal(run(wasm, false, at), -1 - at, `wasm subnormal at ${at}`);
    assert.equal(run(ref, false, at), -1 - at, `reference subnormal at ${at}`);
  }
});

function nextUp(x: number): number {
  const f = new Float64Array([x]), b = new BigInt64Array(f.buffer);
  b[0] += x >= 0 ? 1n : -1n;
  return f[0];
}

function nextDown(x: number): number {
  const f = new Float64Array([x]), b = new BigInt64Array(f.buffer);
  b[0] += x > 0 ? -1n : 1n;
  return f[0];
}
