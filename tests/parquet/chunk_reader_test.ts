/**
 * Chunk reads of a local Parquet partition file (engine/storage/parquet_chunk_reader.ts): the
 * bytes asked for, in any order through the one handle, also into recycled buffers; a file
 * shorter than asked, or missing, is an io error, not a hang.
 */
import assert from "node:assert/strict";
import { LocalChunkReader, recycleChunk } from "../../engine/storage/parquet_chunk_reader.ts";

Deno.test("local chunk reader: ranges in any order, recycled buffers, short and missing files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "qdb_chunk_reader_" });
  try {
    const path = `${dir}/data.parquet`;
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 31) & 255);
    await Deno.writeFile(path, bytes);
    const reader = new LocalChunkReader(path);
    const ranges: [number, number][] = [[200_000, 300_000], [0, 10], [10, 30_000], [5, 150_000], [
      299_999,
      300_000,
    ]];
    // Issued together: they run one after another on the handle, each at its own offset (a
    // read right after the previous one skips the seek).
    const got = await Promise.all(ranges.map(([s, e]) => reader.read(s, e)));
    for (let i = 0; i < ranges.length; i++) {
      assert.deepEqual(got[i], bytes.subarray(...ranges[i]), `range ${ranges[i]}`);
      recycleChunk(got[i]);
    }
    // Recycled buffers hold old bytes: a read overwrites exactly its range.
    assert.deepEqual(await reader.read(7, 70_007), bytes.subarray(7, 70_007));
    await assert.rejects(reader.read(299_000, 300_001), /shorter than committed/);
    assert.deepEqual(await reader.read(1, 3), bytes.subarray(1, 3), "usable after a failed read");
    // Straight into a caller's buffer, also right after the previous read.
    const target = new Uint8Array(1000).fill(9);
    await reader.readInto(3, 1003, target);
    assert.deepEqual(target, bytes.subarray(3, 1003));
    await assert.rejects(reader.readInto(0, 10, new Uint8Array(5)), /target size/);
    await reader.close();
    const missing = new LocalChunkReader(`${dir}/nope.parquet`);
    await assert.rejects(missing.read(0, 4), /could not open parquet partition file .*nope\.parquet/);
    await missing.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
