/**
 * Set-up shared by the top-N tests that compare with a full sort: the reference answer, a
 * seeded generator of row values, and an engine (main heap or workers) whose top-N morsels
 * are small.
 */
import type { Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { topNTuning } from "../../../engine/exec/vector/top_n_parallel.ts";
import { rows } from "../_result_rows.ts";
import { withTempEngine } from "../_temp_engine.ts";

/** The rows of `sql` on the row-at-a-time reference (a full stable sort for a top-N). */
export async function reference(engine: Engine, sql: string): Promise<unknown[][]> {
  setReferenceExecution(true);
  try {
    return await rows(engine, sql);
  } finally {
    setReferenceExecution(false);
  }
}

/** A seeded linear congruential generator of numbers in [0, 1): the same rows every run. */
export function seededRandom(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** The timestamp of row `rowIndex`: a minute apart from 2024-01-01, so a day holds 1,440 rows. */
export function minuteTs(rowIndex: number): string {
  return new Date(Date.UTC(2024, 0, 1) + rowIndex * 60_000).toISOString();
}

export interface TopNEngineOptions {
  /** The temp root's name prefix. */
  prefix: string;
  /** 0: the main heap; otherwise that many workers. */
  workers: number;
  /** Rows a top-N morsel on the workers. */
  morselRows: number;
}

/** Runs `fn` on a fresh engine with small top-N morsels; restores them and removes the root. */
export async function withTopNEngine(
  options: TopNEngineOptions,
  fn: (engine: Engine) => Promise<void>,
): Promise<void> {
  const morselRows = topNTuning.morselRows;
  topNTuning.morselRows = options.morselRows;
  try {
    await withTempEngine({
      prefix: options.prefix,
      cacheBytes: 32 * 1024 * 1024,
      parallelWorkers: options.workers,
      parallelValuesMin: 1,
    }, fn);
  } finally {
    topNTuning.morselRows = morselRows;
  }
}
