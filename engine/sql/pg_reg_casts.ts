/**
 * PostgreSQL's `::regnamespace` (Superset's and DBeaver's `c.relnamespace = 'public'::regnamespace`,
 * `n.oid::regnamespace::text`). The engine has no reg* types: a schema name cast to one is the
 * schema's oid (`to_regnamespace`, from pg_namespace), an oid cast to one is the schema's name
 * (`regnamespaceout`), which is how each is used in catalog queries.
 */
import type { Expr } from "./ast.ts";

/** The call `x::regnamespace` stands for, or undefined when `typeText` is another type. */
export function regnamespaceCast(x: Expr, typeText: string, pos: number): Expr | undefined {
  if (typeText.toLowerCase() !== "regnamespace") return undefined;
  const name = x.kind === "literal" && (x.type === "string" || x.type === "char")
    ? "to_regnamespace"
    : "regnamespaceout";
  return { kind: "call", pos, name, args: [x], distinct: false, star: false };
}
