/**
 * Correlated subqueries (issue 10): while a subquery is planned, names it cannot resolve in
 * its own FROM are looked up in the enclosing query's scope (then that query's enclosing
 * scope, and so on). Each such reference becomes an outer slot: the subquery node records the
 * enclosing-row expression for the slot, and inside the subquery the reference reads as a
 * constant of that run (`param` with `outer`), so the subquery plans and runs like any query.
 */
import type { BoundExpr } from "./bound.ts";
import type { Scope } from "./scope.ts";

export interface OuterRefs {
  /** The enclosing query's scope. */
  scope: Scope;
  /** Per slot: the expression, over the enclosing row, whose value fills it. */
  refs: BoundExpr[];
  /** De-duplication keys of `refs`. */
  keys: string[];
  /** The scope around the enclosing query, when it is itself a correlated subquery. */
  parent?: OuterRefs;
}

/**
 * Resolves a name against the enclosing scopes: a slot reference valid inside the subquery
 * whose outer scope is `o`, or undefined when no enclosing scope has the column.
 */
export function resolveOuter(
  o: OuterRefs,
  name: string,
  qualifier: string | undefined,
  pos: number,
): BoundExpr | undefined {
  const i = o.scope.find(name, qualifier, pos);
  let expr: BoundExpr | undefined;
  if (i !== undefined) expr = { kind: "column", type: o.scope.columns[i].type, index: i };
  // Further out: the enclosing query itself reads the value through one of its own slots.
  else if (o.parent) expr = resolveOuter(o.parent, name, qualifier, pos);
  if (!expr) return undefined;
  const key = expr.kind === "column" ? `c${expr.index}` : `p${(expr as { outer?: number }).outer}`;
  let slot = o.keys.indexOf(key);
  if (slot < 0) {
    slot = o.refs.push(expr) - 1;
    o.keys.push(key);
  }
  return { kind: "param", type: expr.type, index: 0, pos, outer: slot };
}
