/**
 * PostgreSQL's row values in comparisons: `(a, b) = (c, d)` is `a = c AND b = d`, and `<>` its
 * negation. DataGrip's column introspection joins pg_attrdef `on (C.attrelid, C.attnum) =
 * (D.adrelid, D.adnum)`. A parenthesised list parses as a call of `row` (PostgreSQL's own
 * `ROW(a, b)` spelling), which only these comparisons take apart; anywhere else it is an
 * unknown function.
 */
import type { Expr } from "./ast.ts";

/** The call a parenthesised expression list stands for. */
export function rowValue(args: Expr[], pos: number): Expr {
  return { kind: "call", pos, name: "row", args, distinct: false, star: false };
}

function rowItems(e: Expr): Expr[] | undefined {
  return e.kind === "call" && e.name.toLowerCase() === "row" && !e.over ? e.args : undefined;
}

/** `row = row` / `row <> row` element-wise; undefined when either side is no row value. */
export function rowComparison(op: string, left: Expr, right: Expr, pos: number): Expr | undefined {
  const l = rowItems(left), r = rowItems(right);
  if (!l || !r || !["=", "<>", "!="].includes(op)) return undefined;
  if (l.length !== r.length || l.length === 0) {
    // Left to the binder as a call of `row`, which fails with a clear error at `pos`.
    return undefined;
  }
  const equal = l.map((x, i): Expr => ({ kind: "binary", pos, op: "=", left: x, right: r[i] }))
    .reduce((a, b): Expr => ({ kind: "binary", pos, op: "and", left: a, right: b }));
  return op === "=" ? equal : { kind: "unary", pos, op: "not", operand: equal };
}
