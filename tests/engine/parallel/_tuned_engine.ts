/**
 * Set-up shared by the radix and group-estimate tests: a 2-worker engine on a fresh root whose
 * morsels are small and whose two workers already run many-group shapes as hash partitions,
 * and the check of the query memory limit error those shapes hit.
 */
import assert from "node:assert/strict";
import { type Engine, SqlError } from "../../../engine/mod.ts";
import { groupEstimate } from "../../../engine/exec/vector/group_estimate.ts";
import { partitionTuning } from "../../../engine/exec/vector/hash_parallel.ts";
import { hashTuning } from "../../../engine/parallel/worker_pool.ts";
import { withTempEngine } from "../_temp_engine.ts";
import { CACHE_BYTES } from "./_parallel_util.ts";

export interface TunedEngineOptions {
  /** The temp root's name prefix. */
  prefix: string;
  /** Rows a hash morsel (the workers' limit of groups a morsel follows from it). */
  morselRows: number;
  /** Fills the fresh engine before `fn` runs. */
  setUp: (engine: Engine) => Promise<void>;
  /** query.memory.limit; the default when undefined. */
  queryMemoryBytes?: number;
}

/**
 * Runs `fn` on a 2-worker engine that takes every scan of a row, with `morselRows`-row morsels
 * and hash partitions from two workers on (by default only from four); restores the tunings
 * (and any groupEstimate.share `fn` changed) and removes the root afterwards.
 */
export async function withTunedEngine(
  options: TunedEngineOptions,
  fn: (engine: Engine) => Promise<void>,
): Promise<void> {
  const morselRows = hashTuning.morselRows, workersMin = partitionTuning.workersMin;
  const share = groupEstimate.share;
  hashTuning.morselRows = options.morselRows;
  partitionTuning.workersMin = 2;
  try {
    await withTempEngine({
      prefix: options.prefix,
      cacheBytes: CACHE_BYTES,
      parallelWorkers: 2,
      parallelValuesMin: 1,
      queryMemoryBytes: options.queryMemoryBytes,
    }, async (engine) => {
      await options.setUp(engine);
      await fn(engine);
    });
  } finally {
    hashTuning.morselRows = morselRows;
    partitionTuning.workersMin = workersMin;
    groupEstimate.share = share;
  }
}

/** Asserts that `query` fails with the query memory limit error naming `limitBytes`. */
export async function assertMemoryLimitError(query: Promise<unknown>, limitBytes: number): Promise<void> {
  await assert.rejects(query, (e: unknown) => {
    assert.ok(e instanceof SqlError, `not a SqlError: ${e}`);
    assert.equal(e.kind, "limit", e.message);
    assert.match(
      e.message,
      new RegExp(`query memory limit exceeded.*\\[query.memory.limit=${limitBytes}\\]`),
    );
    return true;
  });
}
