/** ALTER TABLE ... DROP PARTITION WHERE: partitions all of whose rows satisfy the predicate (§5.3). */
import { SqlError } from "../base/errors.ts";
import type { Batch } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { type BindContext, bindExpr } from "../plan/bind_expr.ts";
import { Scope } from "../plan/scope.ts";
import type { Table } from "../storage/api.ts";
import { compilePredicate } from "./compile_expr.ts";
import type { ExecContext } from "./exec_context.ts";

export async function dropPartitionsWhere(
  t: Table,
  where: A.Expr,
  bind: (s: Scope) => BindContext,
  ctx: ExecContext,
): Promise<string[]> {
  const cols = t.meta.columns;
  const scope = new Scope(
    cols.map((c) => ({ name: c.name, type: c.type, qualifiers: [t.meta.name] })),
    t.meta.timestampIndex,
  );
  const e = bindExpr(where, bind(scope));
  if (e.type.tag !== "BOOLEAN") throw new SqlError("boolean expression expected", where.pos);
  const pred = compilePredicate(e, ctx);
  const snap = t.snapshot();
  const names: string[] = [];
  try {
    for (let p = 0; p < snap.partitions.length; p++) {
      const info = snap.partitions[p];
      const columns = await Promise.all(cols.map((_, c) => snap.read(p, c, 0, info.rowCount)));
      const b: Batch = { rowCount: info.rowCount, columns };
      let all = true;
      for (let i = 0; i < info.rowCount && all; i++) all = pred(b, i);
      if (all) names.push(info.name);
    }
  } finally {
    snap.release();
  }
  return names;
}
