/**
 * `DECLARE @v := expr [, @w := expr] statement` (spec/sql.md §19): QuestDB resolves variables
 * at parse time, so the statement that runs is the body with every `@v` replaced by its
 * expression. A variable's expression may use the variables declared before it.
 */
import { SqlError } from "../base/errors.ts";
import type { DeclareStmt, Expr, Statement } from "./ast.ts";

export function substituteDeclared(d: DeclareStmt): Statement {
  const values = new Map<string, Expr>();
  for (const v of d.vars) {
    const key = v.name.toLowerCase();
    if (values.has(key)) throw new SqlError(`variable is already declared [name=${v.name}]`, v.pos);
    values.set(key, substitute(v.value, values) as Expr);
  }
  return substitute(d.statement, values) as Statement;
}

/**
 * A copy of `node` with each variable reference replaced. The AST is plain data (objects,
 * arrays, scalars), so one walk reaches every clause, subquery and CTE.
 */
function substitute(node: unknown, values: Map<string, Expr>): unknown {
  if (Array.isArray(node)) return node.map((x) => substitute(x, values));
  if (node === null || typeof node !== "object") return node;
  const o = node as Record<string, unknown>;
  if (o.kind === "subquerySource" && typeof o.variable === "string") {
    const value = values.get(o.variable.toLowerCase());
    if (!value) throw new SqlError(`variable is not declared [name=${o.variable}]`, o.pos as number);
    if (value.kind !== "subquery") {
      throw new SqlError(`variable is not a query [name=${o.variable}]`, o.pos as number);
    }
    const { variable: _, ...rest } = o;
    return { ...(substitute(rest, values) as Record<string, unknown>), query: structuredClone(value.query) };
  }
  if (o.kind === "column" && o.variable === true) {
    const value = values.get(String(o.name).toLowerCase());
    if (!value) throw new SqlError(`variable is not declared [name=${o.name}]`, o.pos as number);
    return structuredClone(value);
  }
  // Sets, maps and typed arrays are values (bound constants), never variable references.
  if (Object.getPrototypeOf(o) !== Object.prototype) return node;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) out[k] = substitute(o[k], values);
  return out;
}
