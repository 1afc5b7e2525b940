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

export interface ExecContext {
  storage: Storage;
  evalContext: EvalContext;
  params: Value[];
  /** Scalar subquery value, or the set of keys for IN (SELECT ...), per subquery plan. */
  subqueries: Map<PlanNode, Value | Set<unknown> | boolean>;
  signal?: AbortSignal;
  /** Snapshots opened by this execution, released when it ends. */
  snapshots: TableSnapshot[];
  /** Names of the engine's meta tables (tables(), ...) provided by the engine. */
  meta: MetaSource;
}

/** What table functions like tables() and table_columns() read; implemented by the engine. */
export interface MetaSource {
  rowsOf(name: string, args: Value[]): Value[][];
}

export function checkCancelled(ctx: ExecContext): void {
  if (ctx.signal?.aborted) throw new SqlError("cancelled by user", -1, "cancelled");
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
