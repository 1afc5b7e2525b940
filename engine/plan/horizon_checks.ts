/**
 * The rules QuestDB's HORIZON JOIN puts on the query around it (HorizonJoinTest, docs
 * query/sql/horizon-join.md "Current limitations" and "GROUP BY rules"), checked before the join
 * is planned as a repeated ASOF join (plan_horizon.ts):
 *
 * - no other join kind at the same level: `horizon join cannot be combined with other joins`,
 *   at the first join whose kind differs from the first join's;
 * - the right side is a table (`HORIZON JOIN slave table must support time frame cursors`, at
 *   HORIZON);
 * - WHERE reads only the left table: `HORIZON JOIN WHERE clause can only reference master table
 *   columns`, at the first other column;
 * - an explicit GROUP BY lists as many keys as the SELECT has non-aggregate columns, each one a
 *   non-aggregate SELECT column (by alias, by 1-based position, or named in one).
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { someExpr } from "../sql/expr_walk.ts";
import { exprKey } from "../sql/printer.ts";
import type { Scope } from "./scope.ts";
import { astConjuncts } from "./bind_join_on.ts";

/** The FROM clause's joins: horizon ones alone, and each over a table. */
export function checkHorizonJoins(from: A.FromClause): void {
  const joins = from.joins;
  if (!joins.some((j) => j.horizon)) return;
  const horizon = joins[0].horizon !== undefined;
  const other = joins.find((j) => (j.horizon !== undefined) !== horizon);
  if (other) throw new SqlError("horizon join cannot be combined with other joins", other.pos);
  for (const j of joins) {
    if (j.source.kind !== "table") {
      throw new SqlError("HORIZON JOIN slave table must support time frame cursors", j.pos);
    }
  }
}

/**
 * WHERE of a horizon join: every column is one of the first `masterWidth` columns of `scope`.
 * QuestDB reports the AND-ed condition that reads another column, at its operator.
 */
export function checkHorizonWhere(where: A.Expr, scope: Scope, masterWidth: number): void {
  for (const c of astConjuncts(where)) {
    const foreign = someExpr(c, (x) => {
      if (x.kind === "subquery" || x.kind === "exists") return false;
      if (x.kind !== "column") return undefined;
      const i = scope.find(x.name, x.qualifier, x.pos);
      return i !== undefined && i >= masterWidth ? true : false;
    });
    if (foreign) {
      throw new SqlError("HORIZON JOIN WHERE clause can only reference master table columns", c.pos);
    }
  }
}

/** An explicit GROUP BY of a horizon join query against its select items (`aggregate` per item). */
export function checkHorizonGroupBy(
  groupBy: A.Expr[],
  items: { expr: A.Expr; alias?: string }[],
  isAggregate: (e: A.Expr) => boolean,
  scope: Scope,
): void {
  if (groupBy.length === 0) return;
  const plain = items.filter((i) => !isAggregate(i.expr));
  if (groupBy.length !== plain.length) {
    throw new SqlError(
      `HORIZON JOIN GROUP BY column count (${groupBy.length}) must match non-aggregate SELECT column count (${plain.length})`,
      groupBy[0].pos,
    );
  }
  const columnsOf = (e: A.Expr): number[] => {
    const out: number[] = [];
    someExpr(e, (x) => {
      if (x.kind !== "column") return undefined;
      const i = scope.find(x.name, x.qualifier, x.pos);
      if (i !== undefined) out.push(i);
      return false;
    });
    return out;
  };
  const plainColumns = new Set(plain.flatMap((i) => columnsOf(i.expr)));
  const plainKeys = new Set(plain.map((i) => exprKey(i.expr)));
  for (const g of groupBy) {
    if (g.kind === "literal" && g.type === "int") {
      const k = g.value as number;
      if (k >= 1 && k <= items.length && isAggregate(items[k - 1].expr)) {
        throw new SqlError(`HORIZON JOIN GROUP BY cannot reference aggregate column at position ${k}`, g.pos);
      }
      continue;
    }
    if (g.kind === "column" && g.qualifier === undefined) {
      const n = g.name.toLowerCase();
      if (plain.some((i) => i.alias?.toLowerCase() === n)) continue;
    }
    if (plainKeys.has(exprKey(g))) continue;
    const used = columnsOf(g);
    if (g.kind === "column" && used.length === 1 && plainColumns.has(used[0])) continue;
    throw new SqlError("HORIZON JOIN GROUP BY column must match a non-aggregate SELECT column", g.pos);
  }
}
