/**
 * ALTER TABLE ... DROP PARTITION WHERE: the partitions whose timestamp (the start of the
 * partition's range) satisfies the predicate, as QuestDB evaluates it: the predicate sees the
 * designated timestamp column only (QuestDB AlterTableDropPartitionTest
 * #testDropPartitionWhereTimestampEquals: `timestamp = '2020-01-01'` drops the YEAR partition 2020;
 * #testDropPartitionInvalidTimestampColumn: any other column is "Invalid column").
 */
import { SqlError } from "../base/errors.ts";
import type { Batch } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { type BindContext, bindExpr } from "../plan/bind_expr.ts";
import { Scope } from "../plan/scope.ts";
import type { Table } from "../storage/api.ts";
import { compilePredicate } from "./compile_expr.ts";
import type { ExecContext } from "./exec_context.ts";

export function dropPartitionsWhere(
  t: Table,
  where: A.Expr,
  bind: (s: Scope) => BindContext,
  ctx: ExecContext,
): Promise<string[]> {
  const tsCol = t.meta.columns[t.meta.timestampIndex];
  const scope = new Scope([{ name: tsCol.name, type: tsCol.type, qualifiers: [t.meta.name] }], 0);
  const e = bindExpr(where, bind(scope));
  if (e.type.tag !== "BOOLEAN") throw new SqlError("boolean expression expected", where.pos);
  const pred = compilePredicate(e, ctx);
  const snap = t.snapshot();
  const names: string[] = [];
  try {
    for (const info of snap.partitions) {
      const b: Batch = { rowCount: 1, columns: [{ type: tsCol.type, data: BigInt64Array.of(info.lo) }] };
      if (pred(b, 0)) names.push(info.name);
    }
  } finally {
    snap.release();
  }
  return Promise.resolve(names);
}
