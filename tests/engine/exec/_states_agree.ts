/**
 * Set-up shared by the differential tests of the hash aggregation's typed-array states: an
 * engine on the main heap, and the check that a list of aggregates runs on those states (no
 * row accumulators in EXPLAIN) and answers as the row-at-a-time reference.
 */
import assert from "node:assert/strict";
import type { Engine } from "../../../engine/mod.ts";
import { bothWays, resultKey } from "../_result_rows.ts";
import { withTempEngine } from "../_temp_engine.ts";

/** Runs `fn` on a fresh engine without workers; closes it and removes its root. */
export function withMainHeapEngine(prefix: string, fn: (engine: Engine) => Promise<void>): Promise<void> {
  return withTempEngine({ prefix, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 }, fn);
}

export interface StatesAgreeOptions {
  /** The table, with at least the columns k (a key) and i (an INT, never negative). */
  table: string;
  aggs: string[];
  /** GROUP BY lists, each run keyed; then unkeyed, and both over an empty selection (i < 0). */
  keys: string[];
}

/**
 * `aggs` over `table` keyed each way, unkeyed, and over an empty selection: on typed-array
 * states (no row accumulators in EXPLAIN) and equal to the row path, rows compared in any order.
 */
export async function statesAgree(engine: Engine, options: StatesAgreeOptions): Promise<void> {
  const { table } = options;
  const list = options.aggs.join(", ");
  const queries = [
    ...options.keys.map((key) => `SELECT ${key}, ${list} FROM ${table} GROUP BY ${key}`),
    `SELECT ${list} FROM ${table}`,
    `SELECT k, ${list} FROM ${table} WHERE i < 0 GROUP BY k`,
    `SELECT ${list} FROM ${table} WHERE i < 0`,
  ];
  for (const sql of queries) {
    const { got, want, plan } = await bothWays(engine, sql);
    assert.match(plan, /vectorized hash/, sql);
    assert.doesNotMatch(plan, /row accumulators/, sql);
    const sort = (rs: unknown[][]) => rs.map((r) => r.map(resultKey).join("|")).sort();
    assert.deepEqual(sort(got), sort(want), sql);
    if (!sql.includes("i < 0 GROUP")) assert.ok(got.length > 0, sql);
  }
}
