/**
 * Row gathers of file-form chunks (engine/storage/column_chunk.ts gatherChunk, var_column.ts
 * gatherVar and varColumnFromFile): every picked row, from either source, comes out with its
 * exact bytes, for fixed widths of 1 to 16 bytes and var records short (copied byte by byte)
 * and long (copied with set()), NULL records and misaligned inputs.
 */
import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { gatherChunk } from "../../../engine/storage/column_chunk.ts";
import {
  encodeOffsets,
  encodeVar,
  varColumnFromFile,
  varValueAt,
} from "../../../engine/storage/var_column.ts";

function rnd(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

Deno.test("gatherChunk picks fixed-width rows of every size from two sources", () => {
  const r = rnd(3);
  for (const [type, size] of [[T.BYTE, 1], [T.SHORT, 2], [T.INT, 4], [T.LONG, 8], [T.UUID, 16]] as const) {
    const a = new Uint8Array(1 + 300 * size).map(() => Math.floor(r() * 256)).subarray(1); // misaligned
    const b = new Uint8Array(200 * size).map(() => Math.floor(r() * 256));
    const order = Int32Array.from(
      { length: 500 },
      () => r() < 0.6 ? Math.floor(r() * 300) : ~Math.floor(r() * 200),
    );
    const out = gatherChunk(type, { kind: "fixed", bytes: a }, { kind: "fixed", bytes: b }, order);
    assert.equal(out.kind, "fixed");
    const bytes = (out as { bytes: Uint8Array }).bytes;
    order.forEach((o, k) => {
      const src = o >= 0 ? a : b, row = o >= 0 ? o : ~o;
      assert.deepEqual(bytes.subarray(k * size, (k + 1) * size), src.subarray(row * size, (row + 1) * size));
    });
  }
});

Deno.test("gatherChunk picks var records short, long and NULL from two sources", () => {
  const r = rnd(5);
  const values = (n: number) =>
    Array.from({ length: n }, () => {
      const p = r();
      return p < 0.1
        ? null
        : "é".repeat(Math.floor(r() * 3)) + "x".repeat(Math.floor(p * (p < 0.8 ? 40 : 300)));
    });
  const va = values(300), vb = values(200);
  const a = encodeVar(T.VARCHAR, va, va.length), b = encodeVar(T.VARCHAR, vb, vb.length);
  const order = Int32Array.from(
    { length: 600 },
    () => r() < 0.5 ? Math.floor(r() * 300) : ~Math.floor(r() * 200),
  );
  const out = gatherChunk(T.VARCHAR, { kind: "var", col: a }, { kind: "var", col: b }, order);
  const col = (out as { col: typeof a }).col;
  order.forEach((o, k) => assert.equal(varValueAt(T.VARCHAR, col, k), o >= 0 ? va[o] : vb[~o], `row ${k}`));
  // The same records read back from file form: offsets as int64 entries plus a column top.
  const file = varColumnFromFile(
    3,
    encodeOffsets(col.offsets, 0, col.offsets.length, 1000),
    col.data,
  );
  for (let k = 0; k < 3; k++) assert.equal(varValueAt(T.VARCHAR, file, k), null);
  order.forEach((o, k) => assert.equal(varValueAt(T.VARCHAR, file, k + 3), o >= 0 ? va[o] : vb[~o]));
});
