/**
 * /exec rows assembled as bytes in WASM memory (server/http/json_rows.ts) equal the rows built
 * as text from the one-value cell text (`jsonCell`), for every cell layout: doubles with NULLs,
 * -0, subnormals (the kernel's stop and resume) and both notations, floats, ints and longs
 * (quoted as large numbers too), timestamps, symbols and strings whose text needs escaping or
 * is not ASCII; whole batches, slices, one row, first and later slices.
 */
import assert from "node:assert/strict";
import { type ColumnType, INT_NULL, LONG_NULL, readValue, T, type Vector } from "../../../engine/mod.ts";
import type { SymbolDict } from "../../../engine/base/values.ts";
import { jsonRowBytes } from "../../../server/http/json_rows.ts";
import { jsonCell } from "../../../server/http/value_text.ts";

let seed = 16;
const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const N = 5000;

function dict(values: string[]): SymbolDict {
  return {
    valueOf: (k) => values[k] ?? null,
    keyOf: (v) => values.indexOf(v) >= 0 ? values.indexOf(v) : undefined,
    size: values.length,
  };
}

function vectors(ascii: boolean): Vector[] {
  const special = [NaN, Infinity, -Infinity, -0, 0, 1e-5, 1e21, 5e-324, -2.5e-310, 1e7, 0.001];
  const doubles = Float64Array.from(
    { length: N },
    () => special[Math.floor(next() * 40)] ?? (next() - 0.5) * 10 ** (next() * 16 - 6),
  );
  const ints = Int32Array.from(
    { length: N },
    () => next() < 0.1 ? INT_NULL : Math.floor((next() - 0.5) * 2 ** 32),
  );
  const longs = BigInt64Array.from(
    { length: N },
    () =>
      next() < 0.1
        ? LONG_NULL
        : BigInt(Math.floor((next() - 0.5) * 2 ** 53)) * BigInt(1 + Math.floor(next() * 1000)),
  );
  let t = 1_700_000_000_000_000n;
  const times = BigInt64Array.from(
    { length: N },
    () => next() < 0.05 ? LONG_NULL : t += BigInt(Math.floor(next() * 4e9)),
  );
  const codes = Int32Array.from({ length: N }, () => Math.floor(next() * 6) - 1);
  const texts = ascii
    ? ["plain", 'say "hi"', "tab\there", "new\nline", "a/b", "back\\slash"]
    : ["plain", 'say "hi"', "ünïcödé", "€uro", "emoji 😀", "back\\slash"];
  return [
    { type: T.TIMESTAMP, data: times },
    { type: T.SYMBOL, data: codes, dict: dict(texts) },
    { type: T.DOUBLE, data: doubles },
    { type: T.FLOAT, data: Float32Array.from(doubles, (x) => x * 3) },
    { type: T.INT, data: ints },
    { type: T.LONG, data: longs },
    { type: T.DOUBLE, data: doubles.map((x) => x / 7) },
    { type: T.STRING, data: Array.from(codes, (k) => (k < 0 ? null : texts[(k + 1) % 6])) },
  ];
}

function textRows(vs: Vector[], lo: number, hi: number, first: boolean, quoteLargeNum: boolean): string {
  let s = "";
  for (let i = lo; i < hi; i++) {
    s += i === lo && first ? "[" : ",[";
    s += vs.map((v) => jsonCell(readValue(v, i), v.type, quoteLargeNum)).join(",") + "]";
  }
  return s;
}

Deno.test("JSON rows as bytes equal the rows as text, ASCII and not, every layout", () => {
  const decoder = new TextDecoder();
  for (const ascii of [true, false]) {
    const vs = vectors(ascii);
    const types: ColumnType[] = vs.map((v) => v.type);
    for (const quoteLargeNum of [false, true]) {
      for (const [lo, hi] of [[0, N], [17, 1234], [N - 1, N], [5, 5]]) {
        for (const first of [true, false]) {
          const bytes = jsonRowBytes(vs, types, lo, hi, first, { kind: "json", quoteLargeNum });
          assert.ok(bytes, "the WASM memory has room");
          assert.equal(
            decoder.decode(bytes),
            textRows(vs, lo, hi, first, quoteLargeNum),
            `ascii=${ascii} quote=${quoteLargeNum} [${lo}, ${hi}) first=${first}`,
          );
        }
      }
    }
    // Columns one at a time: a lone DOUBLE column and a lone text column.
    for (const c of [2, 7]) {
      const bytes = jsonRowBytes([vs[c]], [types[c]], 0, N, true, { kind: "json", quoteLargeNum: false });
      assert.equal(decoder.decode(bytes), textRows([vs[c]], 0, N, true, false), `column ${c}`);
    }
  }
});
