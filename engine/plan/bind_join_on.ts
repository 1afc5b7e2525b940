/** Binding of a JOIN's ON clause, shared by the hash/nested-loop joins and the time-series joins. */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
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
export function bindJoinOn(on: A.Expr, scope: Scope, pc: PlanContext, leftWidth: number): BoundExpr {
  try {
    return bindExpr(on, bindContext(scope, pc, "JOIN"));
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
}

/** The conjuncts of an AND chain, in text order. */
export function astConjuncts(e: A.Expr): A.Expr[] {
  return e.kind === "binary" && e.op === "and" ? [...astConjuncts(e.left), ...astConjuncts(e.right)] : [e];
}
