/** Binding of a JOIN's ON clause, shared by the hash/nested-loop joins and the time-series joins. */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { type ColumnType, sameType } from "../base/types.ts";
import { bindExpr } from "./bind_expr.ts";
import type { BoundExpr } from "./bound.ts";
import type { PlanContext } from "./plan_context.ts";
import { bindContext } from "./plan_select.ts";
import type { Scope } from "./scope.ts";

/**
 * Binds a JOIN's ON clause. QuestDB reports an equality of two columns whose types cannot be
 * compared as 'join column type mismatch' at the column of the joined (right) side, whichever
 * side of `=` it stands (IPv4Test#testFullJoinIPv4Fails `b.ip2 = a.count`,
 * StaticJoinErrorTest#testJoinKeyTypeMismatch `t.price = p.sym`), not as a missing `=` operator.
 */
export function bindJoinOn(
  on: A.Expr,
  scope: Scope,
  pc: PlanContext,
  leftWidth: number,
  zeroPos?: ReadonlySet<A.Expr>,
): BoundExpr {
  let bound: BoundExpr;
  try {
    bound = bindExpr(on, { ...bindContext(scope, pc, "JOIN"), zeroPos });
  } catch (e) {
    if (!(e instanceof SqlError)) throw e;
    for (const c of astConjuncts(on)) {
      if (c.kind !== "binary" || c.op !== "=" || c.left.kind !== "column" || c.right.kind !== "column") {
        continue;
      }
      try {
        bindExpr(c, bindContext(scope, pc, "JOIN"));
      } catch (inner) {
        if (inner instanceof SqlError && inner.position === c.pos) {
          const l = scope.find(c.left.name, c.left.qualifier, c.left.pos);
          const rightSide = l !== undefined && l < leftWidth ? c.right : c.left;
          throw new SqlError("join column type mismatch", rightSide.pos);
        }
      }
    }
    throw e;
  }
  // ON is a condition: `ON a.v - b.v` fails at its operator, before the WHERE is bound
  // (BindTimePredicateErrorTest#testTypeMismatchOrder).
  if (bound.type.tag !== "BOOLEAN" && bound.type.tag !== "NULL") {
    throw new SqlError("boolean expression expected", zeroPos?.has(on) ? 0 : on.pos);
  }
  return bound;
}

/**
 * QuestDB's join-key type rule (JoinBinder.isJoinKeyTypeCompatible, SqlCodeGenerator
 * processJoinContext): the two columns of a key have the same type, or are both of the
 * SYMBOL/STRING/VARCHAR family, or are both timestamps. Anything else (INT against LONG, DATE
 * against TIMESTAMP, GEOHASH of other precision) is 'join column type mismatch' at the column of
 * the joined (right) side (IPv4Test#testFullJoinIPv4Fails; JoinTest#testTypeMismatch: `ON (c)` of a
 * LONG and an INT, at the name).
 */
export function joinKeyTypesCompatible(a: ColumnType, b: ColumnType): boolean {
  if (sameType(a, b) || a.tag === "NULL" || b.tag === "NULL") return true;
  const text = (t: ColumnType) => t.tag === "SYMBOL" || t.tag === "STRING" || t.tag === "VARCHAR";
  const ts = (t: ColumnType) => t.tag === "TIMESTAMP" || t.tag === "TIMESTAMP_NS";
  return (text(a) && text(b)) || (ts(a) && ts(b));
}

/**
 * Refuses the keys of a join whose types QuestDB cannot key on: each `left.col = right.col` conjunct
 * of ON (plain columns, one of each side) and each `ON (col)` name.
 */
export function checkJoinKeyTypes(
  j: A.Join,
  scope: Scope,
  leftWidth: number,
  using?: [number, number][],
): void {
  const mismatch = (l: number, r: number) =>
    !joinKeyTypesCompatible(scope.columns[l].type, scope.columns[r].type);
  if (using) {
    using.forEach(([l, r], k) => {
      if (mismatch(l, r)) throw new SqlError("join column type mismatch", j.using?.[k]?.pos ?? j.pos);
    });
    return;
  }
  if (!j.on) return;
  for (const c of astConjuncts(j.on)) {
    if (c.kind !== "binary" || c.op !== "=" || c.left.kind !== "column" || c.right.kind !== "column") {
      continue;
    }
    const a = scope.find(c.left.name, c.left.qualifier, c.left.pos);
    const b = scope.find(c.right.name, c.right.qualifier, c.right.pos);
    if (a === undefined || b === undefined) continue;
    if (a < leftWidth && b >= leftWidth && mismatch(a, b)) {
      throw new SqlError("join column type mismatch", c.right.pos);
    }
    if (b < leftWidth && a >= leftWidth && mismatch(b, a)) {
      throw new SqlError("join column type mismatch", c.left.pos);
    }
  }
}

/** The conjuncts of an AND chain, in text order. */
export function astConjuncts(e: A.Expr): A.Expr[] {
  return e.kind === "binary" && e.op === "and" ? [...astConjuncts(e.left), ...astConjuncts(e.right)] : [e];
}
