/** Shared helpers of the parallel tests: result rows, comparison, engines on one root. */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";
export { explain, rows } from "../_result_rows.ts";

export const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Rows equal; doubles within 1e-12 relative, since the workers add their partitions' partial
 * sums in another order than one heap does. Counts, minimums, maximums and integer sums are
 * exact.
 */
export function assertSame(a: unknown[][], b: unknown[][], what: string): void {
  assert.equal(a.length, b.length, `${what}: row count`);
  for (let r = 0; r < a.length; r++) {
    assert.equal(a[r].length, b[r].length, `${what}: row ${r} width`);
    for (let c = 0; c < a[r].length; c++) {
      const x = a[r][c], y = b[r][c];
      if (typeof x === "number" && typeof y === "number" && !Object.is(x, y)) {
        assert.ok(
          Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(x), Math.abs(y)),
          `${what}: row ${r} col ${c}: ${x} vs ${y}`,
        );
      } else assert.deepEqual(x, y, `${what}: row ${r} col ${c}`);
    }
  }
}

/** An engine on `root` whose worker pool takes every scan of at least one row. */
export function parallelEngine(root: string, workers = 2): Promise<Engine> {
  return Engine.open({ root, cacheBytes: CACHE_BYTES, parallelWorkers: workers, parallelValuesMin: 1 });
}

/** An engine on `root` that runs everything on the main heap. */
export function singleEngine(root: string): Promise<Engine> {
  return Engine.open({ root, cacheBytes: CACHE_BYTES, parallelWorkers: 0 });
}

export async function run(engine: Engine, sql: string): Promise<void> {
  await engine.execute(sql, adminSession());
}

/**
 * The rows of `sql` on `engine`, asserting how many parallel jobs it sent to the workers
 * (`jobs` undefined: not checked).
 */
export async function rowsWithJobs(
  engine: Engine,
  sql: string,
  jobs: number | undefined,
): Promise<unknown[][]> {
  const before = engine.parallel.jobs;
  const got = await rows(engine, sql);
  if (jobs !== undefined) assert.equal(engine.parallel.jobs, before + jobs, `${sql}: ran on the workers`);
  return got;
}
