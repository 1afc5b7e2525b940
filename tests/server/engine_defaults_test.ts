/**
 * The server's configuration defaults for the engine's performance settings equal the
 * engine's own defaults, which the in-process benchmark (bench/run.ts) gets by leaving them
 * out: otherwise "in process" and "over HTTP" figures measure different engines (issue #16).
 * Also checks the bench's per-process CPU reading, which that diagnosis relied on.
 */
import assert from "node:assert/strict";
import { Config, DEFAULTS } from "../../server/config.ts";
import { CACHE_BYTES_DEFAULT } from "../../engine/storage/mod.ts";
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
