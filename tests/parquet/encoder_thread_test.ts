/**
 * The Parquet encoder thread (engine/parquet/encoder_thread.ts, issue #17) writes exactly the
 * bytes ParquetResultWriter writes in place: a small result encoded in place, a large one on
 * a worker (the batches held before it started included), with text, symbols, NULLs and a
 * LIMIT-like row range; a worker's error reaches the caller.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, PARQUET_EXPORT_DEFAULTS, type ParquetWriteOptions } from "../../engine/mod.ts";
import {
  concat,
  encoderSlotStats,
  encoderTuning,
  encoderWorkersRunning,
  ParquetEncoderThread,
} from "../../engine/parquet/encoder_thread.ts";
import { ParquetResultWriter } from "../../engine/parquet/writer.ts";

const QUERY = (n: number) =>
  `select x, x * 0.5 d, case when x % 5 = 0 then null else cast(x as string) end s, ` +
  `rnd_symbol('a', 'b', null) sym, cast(x as timestamp) ts, x % 3 = 0 b from long_sequence(${n})`;

/** Both encodings of the query's rows [skip, stop): in place and through the thread. */
async function encodeBoth(n: number, options: ParquetWriteOptions, skip = 0, stop = Infinity) {
  const root = await Deno.makeTempDir({ prefix: "qdb_pq_thread_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024, parallelWorkers: 0 });
  try {
    const o = await engine.execute(QUERY(n), adminSession());
    assert.equal(o.kind, "rows");
    if (o.kind !== "rows") throw new Error("no rows");
    const direct = new ParquetResultWriter(o.columns, o.timestampIndex, options);
    const thread = new ParquetEncoderThread(o.columns, o.timestampIndex, options);
    const want: Uint8Array[] = [], got: Uint8Array[] = [];
    let row = 0;
    for await (const b of o.batches) {
      const from = Math.max(0, Math.min(b.rowCount, skip - row));
      const to = Math.max(from, Math.min(b.rowCount, stop - row));
      row += b.rowCount;
      want.push(direct.add(b, from, to));
      thread.add(b, from, to);
      // The thread copies the batch: the caller may reuse its arrays at once.
      for (const { data: d } of b.columns) {
        if (ArrayBuffer.isView(d)) new Uint8Array(d.buffer, d.byteOffset, d.byteLength).fill(0);
      }
    }
    want.push(direct.finish());
    thread.finish();
    for (;;) {
      const r = await thread.next();
      got.push(r.bytes);
      if (r.last) break;
    }
    return { want: concat(want), got: concat(got), onWorker: thread.onWorker };
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("encoder thread: a small result is encoded in place, byte for byte", async () => {
  const r = await encodeBoth(500, PARQUET_EXPORT_DEFAULTS);
  assert.equal(r.onWorker, false);
  assert.ok(r.got.length > 100);
  assert.deepEqual(r.got, r.want);
});

Deno.test("encoder thread: a large result is encoded on a worker, byte for byte", async () => {
  const saved = encoderTuning.inPlaceCells;
  encoderTuning.inPlaceCells = 20_000; // a few held batches first, then the worker
  try {
    const options = { ...PARQUET_EXPORT_DEFAULTS, rowGroupSize: 7_000, codec: "ZSTD" as const };
    const r = await encodeBoth(60_000, options);
    assert.equal(r.onWorker, true);
    assert.deepEqual(r.got, r.want);
    const limited = await encodeBoth(60_000, options, 1_000, 50_001);
    assert.equal(limited.onWorker, true);
    assert.deepEqual(limited.got, limited.want);
  } finally {
    encoderTuning.inPlaceCells = saved;
  }
});

Deno.test("encoder thread: the worker's error reaches the caller", async () => {
  const saved = encoderTuning.inPlaceCells;
  encoderTuning.inPlaceCells = 0;
  try {
    const col = { name: "x", type: { tag: "LONG" } } as never;
    const thread = new ParquetEncoderThread([col], -1, PARQUET_EXPORT_DEFAULTS);
    // A batch whose column is not the schema's: the worker's writer throws.
    thread.add({ rowCount: 1, columns: [{ type: { tag: "LONG" }, data: ["not a long"] } as never] }, 0, 1);
    thread.finish();
    await assert.rejects(async () => {
      for (;;) if ((await thread.next()).last) break;
    });
    assert.equal(thread.onWorker, true);
  } finally {
    encoderTuning.inPlaceCells = saved;
  }
});

Deno.test("encoder thread: exports past the worker cap wait for a worker, byte for byte", async () => {
  const saved = { ...encoderTuning };
  encoderTuning.inPlaceCells = 20_000;
  encoderTuning.workersMax = 1;
  let most = 0;
  const waited = encoderSlotStats.waited;
  const sampler = setInterval(() => most = Math.max(most, encoderWorkersRunning()), 1);
  try {
    const options = { ...PARQUET_EXPORT_DEFAULTS, rowGroupSize: 7_000 };
    const runs = await Promise.all([encodeBoth(60_000, options), encodeBoth(60_000, options, 5, 40_000)]);
    for (const r of runs) {
      assert.equal(r.onWorker, true);
      assert.deepEqual(r.got, r.want);
    }
    assert.equal(most, 1, "one encoder worker at a time");
    assert.equal(encoderSlotStats.waited, waited + 1, "the second export waited for the first");
    assert.equal(encoderWorkersRunning(), 0, "every slot released");
  } finally {
    clearInterval(sampler);
    Object.assign(encoderTuning, saved);
  }
});
