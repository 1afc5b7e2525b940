/**
 * @module
 * Parallel execution over worker heaps (ARCHITECTURE.md "several heaps"): a pool of Deno
 * Workers, each with its own WASM memory and column cache over the same data root, running
 * partition scans of a snapshot the main thread took and returning partial aggregates that the
 * main thread merges. Today: the table-scan aggregates of exec/fast_aggregate.ts.
 *
 * Entry point: `WorkerPool` (the engine makes one, hands it to executions as
 * `ExecContext.parallel` and closes it with itself). Imports `engine/exec` (the heap-local
 * scan and its partial states), `engine/storage` and `engine-wasm`; nothing imports it but
 * `engine/engine.ts`.
 */
export { PARALLEL_VALUES_MIN_DEFAULT, PARALLEL_WORKERS_DEFAULT, WorkerPool } from "./worker_pool.ts";
export type { WorkerPoolOptions } from "./worker_pool.ts";
