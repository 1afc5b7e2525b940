/**
 * The column-at-a-time cell text of /exec and /exp (server/http/column_text.ts) equals the
 * one-value text (`jsonCell`, `csvCell`) for every row of random vectors of each specialized
 * layout: doubles with NaN, infinities and -0, floats, ints and longs with their NULLs, DATE /
 * TIMESTAMP / TIMESTAMP_NS (with runs of equal values), symbols whose text needs quoting or escaping (and NULL keys), and a
 * type that takes the generic path; for sub-ranges of the vector too.
 */
import assert from "node:assert/strict";
import { INT_NULL, LONG_NULL, readValue, T, type Vector } from "../../../engine/mod.ts";
import type { SymbolDict } from "../../../engine/base/values.ts";
import { type CellFormat, columnCells } from "../../../server/http/column_text.ts";
import { csvCell, jsonCell } from "../../../server/http/value_text.ts";

let seed = 7;
const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const N = 3000;

function dict(values: string[]): SymbolDict {
  return {
    valueOf: (k) => values[k] ?? null,
    keyOf: (v) => values.indexOf(v) >= 0 ? values.indexOf(v) : undefined,
    size: values.length,
  };
}

function vectors(): Vector[] {
  const doubles = Float64Array.from(
    { length: N },
    () =>
      [NaN, Infinity, -Infinity, -0, 0, 1e-5, 1e21][Math.floor(next() * 20)] ??
        (next() - 0.5) * 10 ** (next() * 12 - 4),
  );
  const floats = Float32Array.from({ length: N }, () => next() < 0.1 ? NaN : (next() - 0.5) * 1000);
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
  let t = 1_700_000_000_000_000n, prev = t;
  // Runs of equal values (a SAMPLE BY bucket's keys; NULL runs too): the text is reused.
  const times = BigInt64Array.from({ length: N }, () => {
    if (next() < 0.4) return prev;
    t += BigInt(Math.floor(next() * 4e9));
    return prev = next() < 0.05 ? LONG_NULL : next() < 0.05 ? -t : t;
  });
  const codes = Int32Array.from({ length: N }, () => Math.floor(next() * 6) - 1);
  const texts = ["plain", 'say "hi"', "tab\there", "new\nline", "ünïcödé", "back\\slash"];
  return [
    { type: T.DOUBLE, data: doubles },
    { type: T.FLOAT, data: floats },
    { type: T.INT, data: ints },
    { type: T.LONG, data: longs },
    { type: T.TIMESTAMP, data: times },
    { type: T.DATE, data: times.map((x) => x === LONG_NULL ? x : x / 1000n) },
    { type: T.TIMESTAMP_NS, data: times.map((x) => x === LONG_NULL ? x : x * 1000n) },
    { type: T.SYMBOL, data: codes, dict: dict(texts) },
    { type: T.STRING, data: Array.from(codes, (k) => (k < 0 ? null : texts[k])) },
  ];
}

Deno.test("column cells equal the one-value JSON and CSV text for every layout", () => {
  const formats: CellFormat[] = [{ kind: "json", quoteLargeNum: false }, {
    kind: "json",
    quoteLargeNum: true,
  }, {
    kind: "csv",
  }];
  for (const v of vectors()) {
    for (const f of formats) {
      for (const [from, to] of [[0, N], [17, 1234], [N - 1, N], [5, 5]]) {
        const out: string[] = [];
        columnCells(v, v.type, from, to, f, out);
        assert.equal(out.length, to - from);
        for (let i = from; i < to; i++) {
          const x = readValue(v, i);
          const want = f.kind === "json" ? jsonCell(x, v.type, f.quoteLargeNum) : csvCell(x, v.type);
          assert.equal(out[i - from], want, `${v.type.tag} ${f.kind} row ${i}`);
        }
      }
    }
  }
});
