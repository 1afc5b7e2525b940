/** LZ4_RAW pages (engine/parquet/lz4_block.ts): round trip, and the format's end-of-block rules. */
import assert from "node:assert/strict";
import * as lz4 from "lz4js";
import { lz4CompressBlock, lz4DecompressBlock } from "../../engine/parquet/lz4_block.ts";

/** Walks the sequences of a block; returns where the last match starts in the output. */
function lastMatchStart(block: Uint8Array): number {
  let ip = 0;
  let out = 0;
  let last = -1;
  while (ip < block.length) {
    const token = block[ip++];
    let lit = token >> 4;
    if (lit === 15) { for (let b = 255; b === 255; lit += b) b = block[ip++]; }
    ip += lit;
    out += lit;
    if (ip >= block.length) break;
    ip += 2;
    let m = token & 15;
    if (m === 15) { for (let b = 255; b === 255; m += b) b = block[ip++]; }
    last = out;
    out += m + 4;
  }
  return last;
}

Deno.test("lz4 blocks round-trip and keep the last match 12 bytes from the end", () => {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (const n of [0, 1, 5, 12, 13, 20, 100, 1000, 70000, 300000]) {
    for (const kind of ["zero", "random", "mixed"]) {
      const src = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const r = (rnd() * 256) | 0;
        src[i] = kind === "zero" ? 0 : kind === "random" ? r : i % 300 < 150 ? i % 7 : r;
      }
      const block = lz4CompressBlock(src);
      const back = new Uint8Array(n);
      assert.equal(lz4.decompressBlock(block, back, 0, block.length, 0), n, `${kind} ${n}`);
      assert.deepEqual(back, src, `${kind} ${n}`);
      const last = lastMatchStart(block);
      if (last >= 0) assert.ok(last <= n - 12, `${kind} ${n}: last match at ${last}`);
      if (kind === "zero" && n > 1000) assert.ok(block.length < n / 50, "zeros compress");
    }
  }
});

Deno.test("LZ4 block decompression: our blocks and lz4js's decode to the input; malformed blocks throw", () => {
  const ts = new BigInt64Array(50_000).map((_, i) => 1_704_067_200_000_000n + BigInt(i) * 100_000n);
  const random = crypto.getRandomValues(new Uint8Array(40_000));
  const runs = new Uint8Array(70_000).map((_, i) => (i >> 9) % 3); // long matches, overlapping and not
  for (const input of [new Uint8Array(ts.buffer), random, runs, new Uint8Array(0), new Uint8Array([7])]) {
    assert.deepEqual(lz4DecompressBlock(lz4CompressBlock(input), input.length), input);
    const other = new Uint8Array(lz4.compressBound(input.length));
    const size = lz4.compressBlock(input, other, 0, input.length, new Uint32Array(1 << 16));
    if (size > 0) assert.deepEqual(lz4DecompressBlock(other.subarray(0, size), input.length), input);
  }
  const block = lz4CompressBlock(new Uint8Array(ts.buffer));
  assert.throws(() => lz4DecompressBlock(block, ts.byteLength - 1), /lz4/);
  assert.throws(() => lz4DecompressBlock(block, ts.byteLength + 1), /lz4/);
  assert.throws(() => lz4DecompressBlock(new Uint8Array([0x0f, 0x05, 0x00]), 100), /offset out of range/);
});

Deno.test("LZ4 block decompression: 4-byte copies of short literals and overlapping matches end exactly", () => {
  // Periods 1..9 make matches whose offset is below, at and above the 4-byte copy width; the
  // random bytes between them make short literal runs; lengths around 20 put them at the end.
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (const period of [1, 2, 3, 4, 5, 7, 8, 9]) {
    for (const n of [13, 17, 18, 19, 20, 21, 24, 33, 100, 5000]) {
      const src = new Uint8Array(n);
      for (let i = 0; i < n; i++) src[i] = (i / 23 | 0) % 3 === 2 ? (rnd() * 256) | 0 : (i % period) * 17;
      assert.deepEqual(lz4DecompressBlock(lz4CompressBlock(src), n), src, `period ${period}, ${n} bytes`);
      const other = new Uint8Array(lz4.compressBound(n));
      const size = lz4.compressBlock(src, other, 0, n, new Uint32Array(1 << 16));
      if (size > 0) {
        assert.deepEqual(lz4DecompressBlock(other.subarray(0, size), n), src, `lz4js ${period} ${n}`);
      }
    }
  }
});
