/**
 * INSERT ... RETURNING (issue 10): the expressions are bound against the target table's
 * columns (`*` and `t.*` expand to all of them) before anything is written, so a bad
 * RETURNING list fails the statement without inserting; after the commit they are evaluated
 * over the rows as stored (converted to the column types, omitted columns NULL).
 */
import { SqlError } from "../base/errors.ts";
import type { ColumnType } from "../base/types.ts";
import { allocVectorData, type Batch, type Value, type VectorData, writeValue } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import type { BindContext } from "../plan/bind_expr.ts";
import { bindExpr } from "../plan/bind_expr.ts";
import type { BoundExpr } from "../plan/bound.ts";
import { NameAllocator, takeItemName } from "../plan/column_names.ts";
import { Scope } from "../plan/scope.ts";
import type { RowsToWrite, Table } from "../storage/api.ts";
import { compileExpr } from "./compile_expr.ts";
import type { ExecContext } from "./exec_context.ts";
import { runPlan } from "./run_plan.ts";
import { prepareExprSubqueries } from "./subqueries.ts";

export interface Returning {
  columns: { name: string; type: ColumnType }[];
  exprs: BoundExpr[];
}

/** Binds a RETURNING list against table `t` (aliased as the table name). */
export function bindReturning(
  t: Table,
  items: A.SelectItem[],
  bind: (scope: Scope) => BindContext,
  legacyNames: boolean,
): Returning {
  const cols = t.meta.columns;
  const scope = new Scope(
    cols.map((c) => ({ name: c.name, type: c.type, qualifiers: [t.meta.name] })),
    t.meta.timestampIndex,
  );
  const names = new NameAllocator(legacyNames);
  const out: Returning = { columns: [], exprs: [] };
  for (const item of items) {
    if (item.expr.kind === "star") {
      const q = item.expr.qualifier;
      if (q && q.toLowerCase() !== t.meta.name.toLowerCase()) {
        throw new SqlError(`Invalid table name or alias: ${q}`, item.expr.pos);
      }
      cols.forEach((c, i) => {
        out.columns.push({ name: names.take(c.name, true), type: c.type });
        out.exprs.push({ kind: "column", type: c.type, index: i } as BoundExpr);
      });
      continue;
    }
    const e = bindExpr(item.expr, { ...bind(scope), clause: "RETURNING" });
    out.columns.push({ name: takeItemName(item, legacyNames, names), type: e.type });
    out.exprs.push(e);
  }
  return out;
}

/** Evaluates the RETURNING list over written rows (one entry per table column, as for append). */
export async function returningRows(
  t: Table,
  r: Returning,
  written: { rows: RowsToWrite; skipped: Uint8Array }[],
  ctx: ExecContext,
): Promise<Value[][]> {
  await prepareExprSubqueries(r.exprs, ctx, runPlan);
  const evals = r.exprs.map((e) => compileExpr(e, ctx));
  const rows: Value[][] = [];
  for (const { rows: w, skipped } of written) {
    const batch: Batch = {
      rowCount: w.rowCount,
      columns: t.meta.columns.map((c, i) => ({
        type: c.type,
        data: w.columns[i] ?? nullData(c.type, w.rowCount),
      })),
    };
    // Rows ON CONFLICT DO NOTHING dropped were not inserted, so they are not returned.
    for (let i = 0; i < w.rowCount; i++) if (!skipped[i]) rows.push(evals.map((f) => f(batch, i)));
  }
  return rows;
}

/** A column the INSERT did not name: NULL (false / 0 for BOOLEAN, BYTE, SHORT: spec/sql.md §6.1). */
function nullData(type: ColumnType, n: number): VectorData {
  if (type.tag === "SYMBOL") return new Array<Value>(n).fill(null);
  const data = allocVectorData(type, n);
  for (let i = 0; i < n; i++) writeValue(type, data, i, null);
  return data;
}
