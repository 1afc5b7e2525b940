/**
 * Column data on its way to or from files, in file form: fixed-width bytes or var-size
 * records. Appends, merges, updates and conversions all move rows as chunks, so row
 * reordering is a byte gather with no per-type code.
 */
import { type ColumnType, fixedSize, isVarSize } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { decodeWide, fixedVectorData, vectorClassOf } from "./fixed_codec.ts";
import { gatherVar, sliceVar, type VarColumn, varValueAt } from "./var_column.ts";
import type { SymbolDict } from "../base/values.ts";
import { readValue } from "../base/values.ts";

export type ColumnChunk =
  | { readonly kind: "fixed"; readonly bytes: Uint8Array }
  | { readonly kind: "var"; readonly col: VarColumn };

/** Bytes whose offset suits `size`-byte words (a copy only when the input is misaligned). */
function aligned(bytes: Uint8Array, word: number): Uint8Array {
  return bytes.byteOffset % word === 0 ? bytes : bytes.slice();
}

function wordView(
  bytes: Uint8Array,
  size: number,
): { words: Uint8Array | Uint16Array | Uint32Array; per: number } {
  if (size % 4 === 0) {
    const b = aligned(bytes, 4);
    return { words: new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2), per: size >> 2 };
  }
  if (size === 2) {
    const b = aligned(bytes, 2);
    return { words: new Uint16Array(b.buffer, b.byteOffset, b.byteLength >> 1), per: 1 };
  }
  return { words: bytes, per: 1 };
}

/**
 * Rows picked from two fixed-width byte arrays of `size`-byte values: `order[k] >= 0` takes
 * row `order[k]` of `a`, a negative entry row `~order[k]` of `b`.
 */
export function gatherFixed(
  a: Uint8Array,
  b: Uint8Array | null,
  size: number,
  order: Int32Array,
): Uint8Array {
  const out = new Uint8Array(order.length * size);
  const { words: wa, per } = wordView(a, size);
  const wb = b ? wordView(b, size).words : wa;
  const { words: wo } = wordView(out, size);
  if (per === 1) {
    for (let k = 0; k < order.length; k++) {
      const r = order[k];
      wo[k] = r >= 0 ? wa[r] : wb[~r];
    }
    return out;
  }
  if (per === 2) {
    // 8-byte values (LONG, DOUBLE, TIMESTAMP): two words without the inner loop.
    for (let k = 0; k < order.length; k++) {
      const r = order[k];
      const src = r >= 0 ? wa : wb;
      const base = (r >= 0 ? r : ~r) * 2;
      wo[2 * k] = src[base];
      wo[2 * k + 1] = src[base + 1];
    }
    return out;
  }
  for (let k = 0; k < order.length; k++) {
    const r = order[k];
    const src = r >= 0 ? wa : wb;
    const base = (r >= 0 ? r : ~r) * per;
    for (let w = 0; w < per; w++) wo[k * per + w] = src[base + w];
  }
  return out;
}

/** Rows picked from two chunks of one column (see `gatherFixed` for `order`). */
export function gatherChunk(
  t: ColumnType,
  a: ColumnChunk,
  b: ColumnChunk | null,
  order: Int32Array,
): ColumnChunk {
  if (a.kind === "var") {
    return { kind: "var", col: gatherVar(a.col, b ? (b as { col: VarColumn }).col : null, order) };
  }
  const bb = b ? (b as { bytes: Uint8Array }).bytes : null;
  return { kind: "fixed", bytes: gatherFixed(a.bytes, bb, fixedSize(t), order) };
}

/** Rows [from, to) of a chunk, sharing its memory where possible. */
export function sliceChunk(t: ColumnType, c: ColumnChunk, from: number, to: number): ColumnChunk {
  if (c.kind === "var") return { kind: "var", col: sliceVar(c.col, from, to) };
  const size = fixedSize(t);
  return { kind: "fixed", bytes: c.bytes.subarray(from * size, to * size) };
}

/** Row `row` of a chunk in scalar form (SYMBOL through `dict`). */
export function chunkValue(t: ColumnType, c: ColumnChunk, row: number, dict?: SymbolDict): Value {
  if (c.kind === "var") return varValueAt(t, c.col, row);
  if (!vectorClassOf(t)) {
    return decodeWide(
      t,
      new DataView(c.bytes.buffer, c.bytes.byteOffset, c.bytes.byteLength),
      row * fixedSize(t),
    );
  }
  const bytes = aligned(c.bytes, 8);
  return readValue({ type: t, data: fixedVectorData(t, bytes, row, row + 1), dict }, 0);
}

/** windows-1252 as WHATWG defines it maps every byte to its own code point: an injective byte-to-string map. */
const KEY_DECODER = new TextDecoder("windows-1252");

/**
 * The identity of row `row` for DEDUP UPSERT KEYS comparison: equal strings for equal values,
 * NULLs equal to each other (spec/sql.md §6.1). FLOAT and DOUBLE NULLs (NaN, ±Inf) all map to
 * one string; everything else compares its stored bytes.
 */
export function rowKeyPart(t: ColumnType, c: ColumnChunk, row: number): string {
  if (c.kind === "var" || isVarSize(t)) {
    const col = (c as { col: VarColumn }).col;
    return KEY_DECODER.decode(col.data.subarray(col.offsets[row], col.offsets[row + 1]));
  }
  const size = fixedSize(t);
  if (t.tag === "FLOAT" || t.tag === "DOUBLE") {
    const v = chunkValue(t, c, row);
    return v === null ? "null" : String(v);
  }
  return KEY_DECODER.decode(c.bytes.subarray(row * size, row * size + size));
}
