/**
 * PIVOT's `FOR col IN (SELECT ...)` runs before planning, as QuestDB runs it at compile time:
 * the output columns are named after its values. `resolvePivotLists` finds every such list in
 * a statement, runs its query with the CTEs visible where it is written, and replaces it by a
 * constant list, so that the planner (plan_pivot.ts) only meets constants.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, typeName } from "../base/types.ts";
import { type Batch, readValue, type Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import type { PivotClause, PivotFor, PivotValue } from "../sql/ast_pivot.ts";
import { formatValue } from "../functions/format_value.ts";
import type { PlanNode } from "./plan_node.ts";
import { PIVOT_MAX_PRODUCED_COLUMNS } from "./plan_pivot.ts";

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
  const pending: { f: PivotFor; ctes: A.Cte[]; clause: PivotClause }[] = [];
  walk(stmt, [], (f, ctes, clause) => {
    if (f.query) pending.push({ f, ctes, clause });
  });
  // In visit order, innermost first: a list's own query may pivot over another list.
  for (const { f, ctes, clause } of pending) {
    const q = f.query!;
    const plan = run.plan({ ...q, with: [...ctes, ...q.with] });
    if (plan.columns.length !== 1) {
      throw new SqlError(
        `PIVOT IN subquery must return exactly one column, got ${plan.columns.length}`,
        q.pos,
      );
    }
    const type = plan.columns[0].type;
    if (!LISTABLE.has(type.tag)) {
      throw new SqlError(`unsupported PIVOT FOR column type: ${typeName(type)}`, q.pos);
    }
    // Columns the other FOR lists and the aggregates multiply each value into.
    let combinations = clause.aggregates.length;
    for (const g of clause.fors) if (g !== f && g.values) combinations *= g.values.length;
    const seen = new Set<string>();
    const list: PivotValue[] = [];
    for await (const b of run.run(plan)) {
      for (let i = 0; i < b.rowCount; i++) {
        const value = pivotValueOf(readValue(b.columns[0], i), type, q.pos);
        if (seen.has(value.key)) continue;
        seen.add(value.key);
        list.push({ expr: value.expr, alias: value.name });
        if (combinations * list.length > PIVOT_MAX_PRODUCED_COLUMNS) {
          throw new SqlError(
            `PIVOT produces too many columns: ${
              combinations * list.length
            }, limit is ${PIVOT_MAX_PRODUCED_COLUMNS}`,
            q.pos,
          );
        }
      }
    }
    if (list.length === 0) throw new SqlError("PIVOT IN subquery returned empty result set", q.pos);
    f.values = list;
    delete f.query;
  }
}

/** The types a PIVOT IN subquery may list (QuestDB's SqlOptimiser prints these; others are refused). */
const LISTABLE = new Set(
  "STRING SYMBOL VARCHAR CHAR BOOLEAN BYTE SHORT INT LONG FLOAT DOUBLE DATE TIMESTAMP TIMESTAMP_NS GEOHASH LONG128 UUID IPV4 DECIMAL NULL"
    .split(" "),
);

/** Types whose printed value QuestDB quotes into a text constant (compared as the column parses it). */
const QUOTED = new Set(
  "STRING SYMBOL VARCHAR CHAR DATE TIMESTAMP TIMESTAMP_NS IPV4 UUID".split(" "),
);

/**
 * One listed value as QuestDB's pivot makes it: the value printed as text (a DATE or TIMESTAMP in
 * ISO form, NULL as `NULL`), the constant compared with the FOR column, the key values are
 * de-duplicated by, and the column name: the text, in double quotes when it holds a dot (its
 * createExprColumnAlias protects such names: `"1.5"`, `"2024-01-01T00:00:00.000Z"`).
 */
function pivotValueOf(
  v: Value,
  type: ColumnType,
  pos: number,
): { expr: A.Literal; key: string; name: string } {
  const text = v === null || v === undefined ? null : formatValue(v, type);
  if (text === null) {
    return {
      expr: { kind: "literal", pos, type: "null", value: null, text: "NULL" },
      key: "NULL",
      name: "NULL",
    };
  }
  const name = text.includes(".") ? `"${text}"` : text;
  if (QUOTED.has(type.tag)) {
    const quoted = `'${text.replaceAll("'", "''")}'`;
    const kind = type.tag === "CHAR" ? "char" : "string";
    return { expr: { kind: "literal", pos, type: kind, value: text, text: quoted }, key: quoted, name };
  }
  if (typeof v === "boolean") {
    return { expr: { kind: "literal", pos, type: "boolean", value: v, text }, key: text, name };
  }
  if (typeof v === "bigint") {
    return { expr: { kind: "literal", pos, type: "long", value: v, text }, key: text, name };
  }
  const integral = type.tag === "INT" || type.tag === "SHORT" || type.tag === "BYTE";
  const n = Number(v);
  return {
    expr: { kind: "literal", pos, type: integral ? "int" : "double", value: n, text },
    key: text,
    name,
  };
}

/**
 * Visits every PIVOT FOR list of the tree with the CTEs visible at it. The walk is generic
 * over the AST's objects so that it reaches pivots in any clause; CTE lists are collected as
 * queries are entered (a CTE sees the ones before it, as planQuery resolves them).
 */
function walk(
  node: unknown,
  ctes: A.Cte[],
  visit: (f: PivotFor, ctes: A.Cte[], clause: PivotClause) => void,
): void {
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
    const clause = o.pivot as PivotClause;
    for (const f of clause.fors) {
      if (f.query) walk(f.query, ctes, visit);
      visit(f, ctes, clause);
    }
    for (const [k, v] of Object.entries(o)) if (k !== "pivot") walk(v, ctes, visit);
    return;
  }
  for (const v of Object.values(o)) walk(v, ctes, visit);
}
