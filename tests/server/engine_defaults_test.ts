/**
 * The server's configuration defaults for the engine's performance settings equal the
 * engine's own defaults, which the in-process benchmark (bench/run.ts) gets by leaving them
 * out: otherwise "in process" and "over HTTP" figures measure different engines (issue #16).
 * Also checks the bench's per-process CPU reading, which that diagnosis relied on.
 */
import assert from "node:assert/strict";
import { Config, DEFAULTS } from "../../server/config.ts";
import { CACHE_BYTES_DEFAULT } from "../../engine/storage/mod.ts";
import {
  CACHE_BYTES_FALLBACK,
  CACHE_BYTES_MIN,
  cacheBytesFor,
  machineMemoryBytes,
} from "../../engine/storage/cache_default.ts";
import { MEMORY_BYTES_MAX, SCRATCH_RESERVE_BYTES } from "../../engine-wasm/mod.ts";
import { PARALLEL_WORKERS_DEFAULT } from "../../engine/parallel/mod.ts";
import { STATEMENT_ROWS_MIN_DEFAULT } from "../../engine/parallel/statement_offload.ts";
import { processCpuMs } from "../../bench/process_cpu.ts";

Deno.test("server defaults: cache budget, worker heaps and statement offload equal the engine's", () => {
  const config = new Config({}, {});
  assert.equal(config.int("cairo.column.cache.bytes", -1), CACHE_BYTES_DEFAULT);
  assert.equal(config.int("cairo.sql.parallel.workers", -1), PARALLEL_WORKERS_DEFAULT);
  assert.equal(config.int("cairo.sql.parallel.statement.rows.min", -1), STATEMENT_ROWS_MIN_DEFAULT);
  assert.equal(DEFAULTS["cairo.column.cache.bytes"], String(CACHE_BYTES_DEFAULT));
});

Deno.test("cache budget default: a quarter of the machine's memory within the worker heaps; config wins", () => {
  const GiB = 1024 ** 3;
  // This machine's default is the rule applied to its memory (run with -A: memory is readable).
  const memory = machineMemoryBytes();
  assert.ok(memory !== undefined && memory > 0, "machine memory unreadable under -A");
  assert.equal(CACHE_BYTES_DEFAULT, cacheBytesFor(memory));
  assert.ok(CACHE_BYTES_DEFAULT <= memory / 4);
  // The rule: 24 GiB -> 6 GiB (3 GiB per worker heap); small machines keep 512 MiB; large
  // ones stop at what two worker heaps address; unknown memory keeps the old 1.5 GiB.
  assert.equal(cacheBytesFor(24 * GiB), 6 * GiB);
  assert.equal(cacheBytesFor(1 * GiB), CACHE_BYTES_MIN);
  assert.equal(cacheBytesFor(256 * GiB), 2 * (MEMORY_BYTES_MAX - SCRATCH_RESERVE_BYTES));
  assert.equal(cacheBytesFor(undefined), CACHE_BYTES_FALLBACK);
  assert.equal(CACHE_BYTES_FALLBACK, 1.5 * GiB);
  // An explicit value wins over the default, from server.conf or the environment.
  assert.equal(
    new Config({ "cairo.column.cache.bytes": "1000000" }, {}).int("cairo.column.cache.bytes", -1),
    1000000,
  );
  assert.equal(
    new Config({}, { QDB_CAIRO_COLUMN_CACHE_BYTES: "2000000" }).int("cairo.column.cache.bytes", -1),
    2000000,
  );
});

Deno.test("bench processCpuMs: this process's CPU grows while it computes", async () => {
  if (Deno.build.os !== "linux") {
    console.log("skipped: /proc/<pid>/stat is Linux only");
    return;
  }
  const before = await processCpuMs("self");
  assert.ok(before !== undefined && before >= 0, `CPU before: ${before}`);
  // Busy until the reading has grown by 50 ms (5 ticks): on a shared machine that takes longer
  // than 50 ms of wall time, so the loop has a generous deadline instead of a fixed length.
  const deadline = performance.now() + 20_000;
  let after = before, x = 0;
  while (after - before < 50 && performance.now() < deadline) {
    for (let i = 0; i < 1e6; i++) x += Math.sqrt(i + x);
    after = (await processCpuMs("self")) ?? NaN;
  }
  assert.ok(x > 0);
  assert.ok(after - before >= 50, `CPU ${before} -> ${after}`);
  assert.equal(await processCpuMs(2 ** 30), undefined);
});
