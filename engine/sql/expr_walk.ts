/** Walking AST expressions without descending into subqueries. */
import type { Expr } from "./ast.ts";

/** The direct sub-expressions of `e` (not those inside subqueries or window specs). */
export function childExprs(e: Expr): Expr[] {
  switch (e.kind) {
    case "call":
      return e.args;
    case "binary":
      return e.list ? [e.left, ...e.list] : [e.left, e.right];
    case "unary":
      return [e.operand];
    case "cast":
      return [e.expr];
    case "case":
      return [
        ...(e.operand ? [e.operand] : []),
        ...e.whens.flatMap((w) => [w.when, w.then]),
        ...(e.else ? [e.else] : []),
      ];
    case "in":
      return Array.isArray(e.list) ? [e.expr, ...e.list] : [e.expr];
    case "between":
      return [e.expr, e.lo, e.hi];
    case "like":
      return e.escape ? [e.expr, e.pattern, e.escape] : [e.expr, e.pattern];
    case "isNull":
      return [e.expr];
    case "array":
      return e.elements;
    case "index":
      return [e.expr, ...e.indexes, ...(e.ranges ?? []).flatMap((r) => (r?.hi ? [r.hi] : []))];
    default:
      return [];
  }
}

/**
 * True when `test` holds for `e` or a sub-expression. `test` answers true or false to decide
 * for a node without looking inside it, or undefined to look at its children.
 */
export function someExpr(e: Expr, test: (x: Expr) => boolean | undefined): boolean {
  const r = test(e);
  if (r !== undefined) return r;
  return childExprs(e).some((c) => someExpr(c, test));
}

/** `e` with each direct sub-expression replaced by `f` of it (subqueries and window specs left alone). */
export function mapChildExprs(e: Expr, f: (x: Expr) => Expr): Expr {
  switch (e.kind) {
    case "binary":
      return { ...e, left: f(e.left), right: f(e.right), list: e.list?.map(f) };
    case "unary":
      return { ...e, operand: f(e.operand) };
    case "call":
      return { ...e, args: e.args.map(f) };
    case "cast":
      return { ...e, expr: f(e.expr) };
    case "case":
      return {
        ...e,
        operand: e.operand && f(e.operand),
        whens: e.whens.map((w) => ({ when: f(w.when), then: f(w.then) })),
        else: e.else && f(e.else),
      };
    case "in":
      return { ...e, expr: f(e.expr), list: Array.isArray(e.list) ? e.list.map(f) : e.list };
    case "between":
      return { ...e, expr: f(e.expr), lo: f(e.lo), hi: f(e.hi) };
    case "like":
      return { ...e, expr: f(e.expr), pattern: f(e.pattern), escape: e.escape && f(e.escape) };
    case "isNull":
      return { ...e, expr: f(e.expr) };
    case "array":
      return { ...e, elements: e.elements.map(f) };
    case "index":
      return {
        ...e,
        expr: f(e.expr),
        indexes: e.indexes.map(f),
        ...(e.ranges ? { ranges: e.ranges.map((r) => (r?.hi ? { ...r, hi: f(r.hi) } : r)) } : {}),
      };
    default:
      return e;
  }
}
