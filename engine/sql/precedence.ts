/**
 * Operator binding strengths of spec/sql.md §1.4, shared by the parser (to build trees) and
 * the printer (to put back only the parentheses the tree needs). Larger binds tighter.
 */
import type { BinaryOp, Expr } from "./ast.ts";

/** Binding strength per level of the precedence table. */
export const PREC = {
  or: 10,
  and: 20,
  not: 30,
  /** IS [NOT] NULL sits between NOT and comparison, as in PostgreSQL. */
  is: 35,
  equality: 40,
  relational: 50,
  in: 60,
  bitOr: 70,
  xor: 80,
  bitAnd: 90,
  concat: 100,
  shift: 110,
  additive: 120,
  multiplicative: 130,
  unary: 140,
  postfix: 150,
  /** Literals, names, calls and anything written with its own brackets. */
  primary: 1000,
} as const;

/** Binding strength of each binary operator. */
export const BINARY_PREC: Record<BinaryOp, number> = {
  or: PREC.or,
  and: PREC.and,
  "=": PREC.equality,
  "!=": PREC.equality,
  "<>": PREC.equality,
  "~": PREC.equality,
  "!~": PREC.equality,
  "<": PREC.relational,
  "<=": PREC.relational,
  ">": PREC.relational,
  ">=": PREC.relational,
  within: PREC.in,
  "|": PREC.bitOr,
  "^": PREC.xor,
  "&": PREC.bitAnd,
  "||": PREC.concat,
  "<<": PREC.shift,
  ">>": PREC.shift,
  "<<=": PREC.shift,
  ">>=": PREC.shift,
  "+": PREC.additive,
  "-": PREC.additive,
  "*": PREC.multiplicative,
  "/": PREC.multiplicative,
  "%": PREC.multiplicative,
};

/** How tightly an expression holds together when it appears as an operand. */
export function exprPrec(e: Expr): number {
  switch (e.kind) {
    case "binary":
      return BINARY_PREC[e.op];
    case "unary":
      return e.op === "not" ? PREC.not : PREC.unary;
    case "in":
    case "between":
      return PREC.in;
    case "like":
      return PREC.equality;
    case "isNull":
      return PREC.is;
    case "cast":
      return e.syntax === "colon" ? PREC.postfix : PREC.primary;
    case "index":
      return PREC.postfix;
    default:
      return PREC.primary;
  }
}
