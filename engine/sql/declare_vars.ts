/**
 * `DECLARE @v := expr [, @w := expr] statement` (spec/sql.md §19): QuestDB resolves variables
 * at parse time, so the statement that runs is the body with every `@v` replaced by its
 * expression. A variable's expression may use the variables declared before it, not itself
 * (DeclareTest#testDeclareSelfReference); declaring a name again replaces it. A subquery, CTE
 * body or `CREATE TABLE AS (...)` may open with its own DECLARE, whose variables shadow the outer
 * ones inside it (`substituteNested`). Texts are QuestDB's.
 */
import { SqlError } from "../base/errors.ts";
import type { DeclareStmt, Expr, Query, Statement } from "./ast.ts";
import { canonicalTypeName } from "./parse_type.ts";

type Vars = DeclareStmt["vars"];

export function substituteDeclared(d: DeclareStmt): Statement {
  return substitute(d.statement, valuesOf(d.vars, false), false) as Statement;
}

/**
 * A query opening with its own DECLARE: its variables go in now; references to names it does
 * not declare stay for an enclosing DECLARE (or fail as undeclared at the top).
 */
export function substituteNested(vars: Vars, query: Query): Query {
  return substitute(query, valuesOf(vars, true), true) as Query;
}

function valuesOf(vars: Vars, partial: boolean): Map<string, Expr> {
  const values = new Map<string, Expr>();
  for (const v of vars) {
    const key = v.name.toLowerCase();
    const self = new Map(values);
    self.set(key, SELF);
    values.set(key, substitute(v.value, self, partial) as Expr);
  }
  return values;
}

/** Marks the variable being defined: a reference to it is a self reference. */
const SELF: Expr = { kind: "literal", pos: -1, type: "null", value: null, text: "" };

function lookup(values: Map<string, Expr>, name: string, pos: number, partial: boolean): Expr | undefined {
  const value = values.get(name.toLowerCase());
  if (value === SELF) throw new SqlError(`variable cannot reference itself \`${name}\``, pos);
  if (!value && !partial) throw new SqlError(`tried to use undeclared variable \`${name}\``, pos);
  return value;
}

/**
 * A copy of `node` with each variable reference replaced. The AST is plain data (objects,
 * arrays, scalars), so one walk reaches every clause, subquery and CTE.
 */
function substitute(node: unknown, values: Map<string, Expr>, partial: boolean): unknown {
  if (Array.isArray(node)) return node.map((x) => substitute(x, values, partial));
  if (node === null || typeof node !== "object") return node;
  const o = node as Record<string, unknown>;
  if (o.kind === "subquerySource" && typeof o.variable === "string") {
    const value = lookup(values, o.variable, o.pos as number, partial);
    if (!value) return node;
    const { variable: _, ...rest } = o;
    // `FROM @t` where @t names a table (DeclareTest#testDeclareSelectTableNameInFrom).
    if (value.kind === "column" && !value.qualifier && !rest.pivot && !rest.unpivot) {
      const table: Record<string, unknown> = { kind: "table", pos: o.pos, name: value.name };
      if (rest.alias !== undefined) table.alias = rest.alias;
      return table;
    }
    if (value.kind !== "subquery") {
      throw new SqlError(`variable is not a query [name=${o.variable}]`, o.pos as number);
    }
    return {
      ...(substitute(rest, values, partial) as Record<string, unknown>),
      query: structuredClone(value.query),
    };
  }
  if (o.kind === "column" && o.variable === true) {
    const value = lookup(values, String(o.name), o.pos as number, partial);
    return value ? structuredClone(value) : node;
  }
  // `x :: @t` / `CAST(x AS @t)`: the variable names a type (DeclareTest#testDeclareCastTargetVariable).
  if (o.kind === undefined && typeof o.variable === "string" && typeof o.text === "string") {
    const value = lookup(values, o.variable, o.pos as number, partial);
    if (!value) return node;
    if (value.kind !== "column" || value.qualifier) {
      throw new SqlError("type definition is expected", o.pos as number);
    }
    return { pos: o.pos, name: canonicalTypeName(value.name), text: value.name };
  }
  // Sets, maps and typed arrays are values (bound constants), never variable references.
  if (Object.getPrototypeOf(o) !== Object.prototype) return node;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) out[k] = substitute(o[k], values, partial);
  return out;
}
