/**
 * Per-execution state of a statement: the evaluation context handed to functions, bind
 * variable values, results of uncorrelated subqueries (computed once before the main
 * pipeline runs), the storage being read, and cancellation.
 */
import { SqlError } from "../base/errors.ts";
import type { Value } from "../base/values.ts";
import type { EvalContext } from "../functions/registry_types.ts";
import type { Storage, TableSnapshot } from "../storage/api.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import type { ParallelHeaps } from "./fast_aggregate.ts";
import { takeTurn, turnDue } from "./event_loop_turn.ts";

export interface ExecContext {
  storage: Storage;
  evalContext: EvalContext;
  params: Value[];
  /** Scalar subquery value, or the set of keys for IN (SELECT ...), per subquery plan. */
  subqueries: Map<PlanNode, Value | Set<unknown> | boolean>;
  /** Results of correlated subqueries, per plan, by the outer values they ran with. */
  correlated?: Map<PlanNode, Map<string, unknown>>;
  /** Inside a correlated subquery's run: the enclosing row's values of its outer slots. */
  outerValues?: Value[];
  signal?: AbortSignal;
  /** The statement's memory budget (EngineOptions.queryMemoryBytes), charged by `charge`. */
  memory?: { limit: number; used: number };
  /** performance.now() after which the statement is aborted (Session.timeoutMs). */
  deadline?: { at: number; timeoutMs: number };
  /** Snapshots opened by this execution, released when it ends. */
  snapshots: TableSnapshot[];
  /** Worker heaps that run partition scans in parallel (engine/parallel), when enabled. */
  parallel?: ParallelHeaps;
  /** Names of the engine's meta tables (tables(), ...) provided by the engine. */
  meta: MetaSource;
  /** When the pipeline last gave the event loop a turn (performance.now() ms). */
  lastYieldMs?: number;
}

/**
 * Row loops that evaluate expressions (filter, project) check pace every this many rows: a
 * batch holds up to 65,536 rows, and with a costly expression per row (a regex over long
 * values) a whole batch held the event loop for seconds. pace() itself returns at once unless
 * the time slice is used up.
 */
export const PACE_ROWS = 256;

/**
 * `(i & PACE_MASK) === PACE_MASK` picks every PACE_ROWS-th iteration of a long loop in an
 * operator (building a hash index, gathering rows, a window partition, a sort merge), where it
 * checks `paceDue(ctx)` and awaits `pace(ctx)` when due: those loops ran whole partitions or
 * inputs of a million rows without a turn, holding every other client for seconds and letting
 * a timeout or cancel fire only at their end (issue #24).
 */
export const PACE_MASK = PACE_ROWS - 1;

export { statementsRunning } from "./statements_running.ts";

/**
 * Called by sources between batches: checks cancellation and, every few milliseconds, lets
 * the event loop run (a macrotask turn, not a microtask), so that other requests, health
 * checks, client disconnects and cancel requests are served while a long query runs
 * (ARCHITECTURE.md "Deno runs JavaScript on one event loop").
 */
export async function pace(ctx: ExecContext): Promise<void> {
  if (!paceDue(ctx)) return;
  await takeTurn();
  ctx.lastYieldMs = performance.now();
  checkCancelled(ctx);
}

/**
 * Checks cancellation and the deadline, and answers whether the time slice is used up, so that
 * a row loop awaits pace() only then: an await per chunk of rows cost a trivial filter a
 * quarter of its time.
 */
export function paceDue(ctx: ExecContext): boolean {
  checkCancelled(ctx);
  const now = performance.now();
  ctx.lastYieldMs ??= now;
  return turnDue(ctx.lastYieldMs, now);
}

/** What table functions like tables() and table_columns() read; implemented by the engine. */
export interface MetaSource {
  rowsOf(name: string, args: Value[]): Value[][] | Promise<Value[][]>;
}

export function checkCancelled(ctx: ExecContext): void {
  if (ctx.signal?.aborted) throw new SqlError("cancelled by user", -1, "cancelled");
  const d = ctx.deadline;
  if (d && performance.now() > d.at) {
    throw new SqlError(`timeout, query aborted [timeout=${d.timeoutMs}ms]`, -1, "limit");
  }
}

/**
 * Estimated JavaScript heap of `rows` materialised rows of `columns` values: a row array
 * header plus a slot and a boxed value per cell. Deliberately generous, so the budget trips
 * before V8's own heap limit takes the process down.
 */
export function rowBytes(rows: number, columns: number): number {
  return rows * (48 + columns * 24);
}

/** Charges bytes held by an operator to the statement's budget; fails the statement beyond it. */
export function charge(ctx: ExecContext, bytes: number): void {
  const m = ctx.memory;
  if (!m) return;
  m.used += bytes;
  if (m.used > m.limit) {
    throw new SqlError(
      `query memory limit exceeded: the statement needs more than ${m.limit} bytes for sorting, grouping or joining [query.memory.limit=${m.limit}]`,
      -1,
      "limit",
    );
  }
}

export function snapshotOf(ctx: ExecContext, table: string): TableSnapshot {
  const t = ctx.storage.table(table);
  if (!t) throw new SqlError(`table does not exist [table=${table}]`, -1);
  const s = t.snapshot();
  ctx.snapshots.push(s);
  return s;
}

export function releaseAll(ctx: ExecContext): void {
  for (const s of ctx.snapshots.splice(0)) s.release();
}
