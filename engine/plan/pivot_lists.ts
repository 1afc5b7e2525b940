/**
 * PIVOT's `FOR col IN (SELECT ...)` runs before planning, as QuestDB runs it at compile time:
 * the output columns are named after its values. `resolvePivotLists` finds every such list in
 * a statement, runs its query with the CTEs visible where it is written, and replaces it by a
 * constant list, so that the planner (plan_pivot.ts) only meets constants.
 */
import { SqlError } from "../base/errors.ts";
import type { ColumnType } from "../base/types.ts";
import { type Batch, readValue, type Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import type { PivotFor, PivotValue } from "../sql/ast_pivot.ts";
import { queryToText } from "../sql/print_query.ts";
import type { PlanNode } from "./plan_node.ts";

/** Plans a list's query (with the statement's permission checks) and runs a plan. */
export interface ListRunner {
  plan(q: A.Query): PlanNode;
  run(plan: PlanNode): AsyncIterable<Batch>;
}

/** Whether the statement holds a PIVOT IN (SELECT ...) still to run. */
export function hasPivotLists(stmt: A.Statement): boolean {
  let found = false;
  walk(stmt, [], (f) => {
    if (f.query) found = true;
  });
  return found;
}

export async function resolvePivotLists(stmt: A.Statement, run: ListRunner): Promise<void> {
  const pending: { f: PivotFor; ctes: A.Cte[] }[] = [];
  walk(stmt, [], (f, ctes) => {
    if (f.query) pending.push({ f, ctes });
  });
  // In visit order, innermost first: a list's own query may pivot over another list.
  for (const { f, ctes } of pending) {
    const q = f.query!;
    const { values, type } = await firstColumn(run, { ...q, with: [...ctes, ...q.with] });
    if (values.length === 0) {
      throw new SqlError(`query returned no results [query=${queryToText(q)}]`, q.pos);
    }
    const seen = new Set<string>();
    const list: PivotValue[] = [];
    for (const v of values) {
      const lit = literalOf(v, type, q.pos);
      const key = `${lit.type}:${lit.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      list.push({ expr: lit });
    }
    f.values = list;
    delete f.query;
  }
}

async function firstColumn(runner: ListRunner, q: A.Query): Promise<{ values: Value[]; type: ColumnType }> {
  const plan = runner.plan(q);
  if (plan.columns.length !== 1) {
    throw new SqlError("PIVOT IN subquery must return exactly one column", q.pos);
  }
  const values: Value[] = [];
  for await (const b of runner.run(plan)) {
    for (let i = 0; i < b.rowCount; i++) values.push(readValue(b.columns[0], i));
  }
  return { values, type: plan.columns[0].type };
}

function literalOf(v: Value, type: ColumnType, pos: number): A.Literal {
  if (v === null || v === undefined) return { kind: "literal", pos, type: "null", value: null, text: "NULL" };
  if (typeof v === "boolean") return { kind: "literal", pos, type: "boolean", value: v, text: String(v) };
  if (typeof v === "bigint") return { kind: "literal", pos, type: "long", value: v, text: String(v) };
  if (typeof v === "number") {
    const integral = type.tag === "INT" || type.tag === "SHORT" || type.tag === "BYTE";
    return { kind: "literal", pos, type: integral ? "int" : "double", value: v, text: String(v) };
  }
  return { kind: "literal", pos, type: "string", value: String(v), text: String(v) };
}

/**
 * Visits every PIVOT FOR list of the tree with the CTEs visible at it. The walk is generic
 * over the AST's objects so that it reaches pivots in any clause; CTE lists are collected as
 * queries are entered (a CTE sees the ones before it, as planQuery resolves them).
 */
function walk(node: unknown, ctes: A.Cte[], visit: (f: PivotFor, ctes: A.Cte[]) => void): void {
  if (Array.isArray(node)) {
    for (const x of node) walk(x, ctes, visit);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const o = node as Record<string, unknown>;
  if (o.kind === "query" && Array.isArray(o.with) && o.with.length) {
    const q = o as unknown as A.Query;
    let visible = ctes;
    for (const c of q.with) {
      walk(c.query, visible, visit);
      visible = [...visible, c];
    }
    for (const [k, v] of Object.entries(o)) if (k !== "with") walk(v, visible, visit);
    return;
  }
  if (o.kind === "subquerySource" && o.pivot) {
    for (const f of (o.pivot as { fors: PivotFor[] }).fors) {
      if (f.query) walk(f.query, ctes, visit);
      visit(f, ctes);
    }
    for (const [k, v] of Object.entries(o)) if (k !== "pivot") walk(v, ctes, visit);
    return;
  }
  for (const v of Object.values(o)) walk(v, ctes, visit);
}
