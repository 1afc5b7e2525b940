/**
 * Aggregate `FILTER (WHERE cond)` checks and the window form, with QuestDB's texts
 * (GroupByRewriteTest, docs query/sql/filter.md). QuestDB lowers FILTER to a CASE that nulls the
 * value arguments of non-matching rows, so it refuses what that cannot express: a condition
 * holding another FILTER or a window function, and value arguments of a type whose NULL is its
 * zero (BYTE, SHORT, CHAR, BOOLEAN). Grouped aggregates here skip the rows instead (same answer);
 * window aggregates take the CASE lowering itself (`lowerWindowFilter`).
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, typeName } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import { someExpr } from "../sql/expr_walk.ts";

/** Refuses FILTER inside a window's PARTITION BY or ORDER BY (#testFilterRejectedInWindowSpecification). */
export function checkWindowSpecFilter(spec: A.WindowSpec): void {
  for (const e of [...spec.partitionBy, ...spec.orderBy.map((o) => o.expr)]) {
    someExpr(e, (x) => {
      if (x.kind === "call" && x.filter) {
        throw new SqlError("FILTER is not supported in a window specification", x.pos);
      }
      return undefined;
    });
  }
}

/** Refuses a condition that holds a FILTER or a window function (at that call). */
export function checkFilterCondition(cond: A.Expr): void {
  let bad: { pos: number; message: string } | undefined;
  someExpr(cond, (x) => {
    if (x.kind !== "call" || bad) return undefined;
    if (x.filter) bad = { pos: x.pos, message: "FILTER is not allowed inside a FILTER condition" };
    else if (x.over) bad = { pos: x.pos, message: "window functions are not allowed in FILTER" };
    return bad ? true : undefined;
  });
  if (bad) throw new SqlError(bad.message, bad.pos);
}

const ZERO_NULL_TAGS = new Set(["BYTE", "SHORT", "CHAR", "BOOLEAN"]);

/**
 * Refuses a filtered aggregate whose value argument is BYTE, SHORT, CHAR or BOOLEAN, at that
 * argument (GroupByRewriteTest#testFilterRejectedForZeroNullArgumentTypes). The first argument
 * is a value; later ones are values unless constant (a percentile, a delimiter).
 */
export function checkFilterArgTypes(call: A.FunctionCall, types: ColumnType[]): void {
  if (!call.filter) return;
  types.forEach((t, i) => {
    if (i > 0 && call.args[i]?.kind === "literal") return;
    if (!ZERO_NULL_TAGS.has(t.tag)) return;
    throw new SqlError(
      `FILTER is not supported for a ${typeName(t)} argument, whose NULL is indistinguishable from its ` +
        `zero value; cast the argument, for example sum(x::int) FILTER (WHERE ...)`,
      call.args[i]?.pos ?? call.pos,
    );
  });
}

/**
 * A window aggregate with FILTER as QuestDB runs it: each value argument becomes
 * `CASE WHEN cond THEN arg END` (`count(*)` counts `CASE WHEN cond THEN 1 END`), so the frame
 * keeps every row and non-matching ones add nothing.
 */
export function lowerWindowFilter(call: A.FunctionCall): A.FunctionCall {
  const cond = call.filter;
  if (!cond) return call;
  checkFilterCondition(cond);
  const wrap = (arg: A.Expr): A.Expr => ({ kind: "case", pos: arg.pos, whens: [{ when: cond, then: arg }] });
  if (call.star) {
    const one: A.Expr = { kind: "literal", pos: call.pos, type: "int", value: 1, text: "1" };
    return { ...call, star: false, filter: undefined, args: [wrap(one)] };
  }
  const args = call.args.map((a, i) => (i === 0 || a.kind !== "literal" ? wrap(a) : a));
  return { ...call, filter: undefined, args };
}
