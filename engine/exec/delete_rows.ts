/**
 * DELETE FROM t [alias] [WHERE ...] (issue 10): picks the rows the predicate holds for and
 * hands them to storage, which rewrites the affected partitions in one atomic commit. The
 * designated-timestamp intervals of the WHERE clause prune partitions before any column is
 * read, so `WHERE ts IN '2024-01-02'` touches that day only. Without WHERE every row goes,
 * in one commit like any other DELETE (unlike TRUNCATE, symbol dictionaries are kept).
 */
import { SqlError } from "../base/errors.ts";
import type { Batch } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { type BindContext, bindExpr } from "../plan/bind_expr.ts";
import { intervalsFromWhere } from "../plan/intervals_from_where.ts";
import { Scope } from "../plan/scope.ts";
import type { RowDelete, Storage } from "../storage/api.ts";
import { compilePredicate } from "./compile_expr.ts";
import { requireTable } from "./ddl.ts";
import { type ExecContext, pace } from "./exec_context.ts";
import { readUsed } from "./dml_columns.ts";
import { uses } from "../plan/prune_columns.ts";

/** Rows tested between checks of the time slice. */
const PACE_ROWS_MASK = 0x3fff;
import { runPlan } from "./run_plan.ts";
import { prepareExprSubqueries } from "./subqueries.ts";

export async function deleteRows(
  s: A.DeleteStmt,
  storage: Storage,
  bind: (scope: Scope) => BindContext,
  ctx: ExecContext,
): Promise<number> {
  const t = requireTable(storage, s.table.name, s.table.pos);
  const cols = t.meta.columns;
  const qualifiers = s.alias ? [s.alias, t.meta.name] : [t.meta.name];
  const scope = new Scope(
    cols.map((c) => ({ name: c.name, type: c.type, qualifiers })),
    t.meta.timestampIndex,
  );
  const where = s.where ? bindExpr(s.where, { ...bind(scope), clause: "WHERE" }) : undefined;
  if (where && where.type.tag !== "BOOLEAN") throw new SqlError("boolean expression expected", s.where!.pos);
  // Subqueries run before the table's write lock is taken: they may read this very table.
  if (where) await prepareExprSubqueries([where], ctx, runPlan);
  const pred = where ? compilePredicate(where, ctx) : undefined;
  const intervals = where ? intervalsFromWhere(where, t.meta.timestampIndex).intervals : undefined;
  const used = uses([where], new Set());
  const types = cols.map((c) => c.type);
  return await t.deleteRows(async (snap) => {
    const deletes: RowDelete[] = [];
    for (let p = 0; p < snap.partitions.length; p++) {
      const info = snap.partitions[p];
      if (info.rowCount === 0) continue;
      if (intervals && !intervals.some((iv) => iv.hi >= info.minTs && iv.lo <= info.maxTs)) continue;
      if (!pred) {
        deletes.push({ partition: info.name, rows: allRows(info.rowCount) });
        continue;
      }
      const columns = await readUsed(snap, p, types, used, info.rowCount);
      const batch: Batch = { rowCount: info.rowCount, columns };
      // Reads from the cache resolve at once: turns inside the scan, as UPDATE's (issue #17).
      await pace(ctx);
      const rows: number[] = [];
      for (let i = 0; i < info.rowCount; i++) {
        if ((i & PACE_ROWS_MASK) === 0) await pace(ctx);
        if (pred(batch, i)) rows.push(i);
      }
      if (rows.length) deletes.push({ partition: info.name, rows: Int32Array.from(rows) });
    }
    return deletes;
  });
}

function allRows(n: number): Int32Array {
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return rows;
}
