/**
 * Plans `JOIN LATERAL (query)` (spec/sql.md §11.6): the query is planned with the sources to
 * its left as its enclosing scope, so their columns become outer slots (outer_refs.ts) exactly
 * as in a correlated subquery; the "lateral" node runs it once per distinct combination of
 * those values (exec/lateral.ts). INNER and CROSS follow QuestDB's rewrite into a grouped
 * join: an ungrouped aggregate over correlated rows yields no row when there are none.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import { nullValueOf, type Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { bindExpr } from "./bind_expr.ts";
import { type BoundExpr, walkBound } from "./bound.ts";
import { andAll } from "./intervals_from_where.ts";
import type { OuterRefs } from "./outer_refs.ts";
import type { PlanContext } from "./plan_context.ts";
import { type Planned, planSource } from "./plan_from.ts";
import { type PlanNode, shape } from "./plan_node.ts";
import { bindContext } from "./plan_select.ts";
import { remap } from "./prune_columns.ts";
import { Scope } from "./scope.ts";

export function planLateral(j: A.Join, left: Planned, pc: PlanContext): Planned {
  const outer: OuterRefs = { scope: left.scope, refs: [], keys: [], parent: pc.outer };
  const right = planSource(j.source, { ...pc, outer });
  rejectOuterAggregates(right.node, j.source.pos);
  const type = j.kind === "left" ? "left" : j.kind === "cross" ? "cross" : "inner";
  const scope = Scope.concat(left.scope, right.scope, left.scope.timestampIndex);
  if (j.kind === "cross" && (j.on || j.using)) {
    throw new SqlError("Cross joins cannot have join clauses", (j.on ?? j.using![0]).pos);
  }
  let condition: BoundExpr | undefined;
  if (j.using) condition = usingCondition(j.using, left, right, pc);
  else if (j.on) {
    condition = bindExpr(j.on, bindContext(scope, pc, "JOIN"));
    if (condition.type.tag !== "BOOLEAN") throw new SqlError("boolean expression expected", j.on.pos);
  }
  const node: PlanNode = {
    ...shape([...left.node.columns, ...right.node.columns], left.node.timestampIndex),
    kind: "lateral",
    type,
    left: left.node,
    right: type === "left" ? right.node : groupedAggregates(right.node),
    outer: outer.refs,
    condition,
    unmatched: type === "left" ? unmatchedRow(right.node) : undefined,
  };
  return { node, scope: new Scope(scope.columns, node.timestampIndex) };
}

/**
 * LEFT: the right columns of a left row the subquery gives no rows for. NULL, except that a
 * count is 0 as over no rows, also under GROUP BY keys (QuestDB decorrelates LATERAL into a
 * grouped LEFT JOIN and coalesces its counts: LateralJoinTest#testLeftLateralCountMixedPrefixColumns,
 * `SELECT symbol, count() c ... ` gives NULL and 0).
 */
function unmatchedRow(right: PlanNode): Value[] {
  return right.columns.map((c, i) => (isCountColumn(right, i) ? 0n : nullValueOf(c.type)));
}

/** Is output column `i` of `n` a count aggregate, followed through projections of it? */
function isCountColumn(n: PlanNode, i: number): boolean {
  switch (n.kind) {
    case "project": {
      const e = n.exprs[i];
      return e.kind === "column" && isCountColumn(n.input, e.index);
    }
    case "filter":
    case "sort":
    case "limit":
      return isCountColumn(n.input, i);
    case "aggregate": {
      const agg = n.aggs[i - n.keys.length];
      return agg !== undefined && COUNTS.has(agg.name) && n.columns[i].type.tag === "LONG";
    }
    default:
      return false;
  }
}

const COUNTS = new Set(["count", "count_distinct"]);

/** `ON (a, b)`: equality of the same-named columns of both sides. */
function usingCondition(using: A.Join["using"] & object, left: Planned, right: Planned, pc: PlanContext) {
  const width = left.node.columns.length;
  const parts = using.map((u) => {
    const l = left.scope.resolveUsing(u.name, left.firstWidth ?? width, u.pos);
    const r = right.scope.resolve(u.name, undefined, u.pos);
    // Bound over a two-column scope so `=` gets the binder's coercions, then moved into place.
    const pair = new Scope([
      { name: "l", type: left.scope.columns[l].type, qualifiers: [] },
      { name: "r", type: right.scope.columns[r].type, qualifiers: [] },
    ]);
    const eq: A.Expr = {
      kind: "binary",
      pos: u.pos,
      op: "=",
      left: { kind: "column", pos: u.pos, name: "l" },
      right: { kind: "column", pos: u.pos, name: "r" },
    };
    return remap(bindExpr(eq, bindContext(pair, pc, "JOIN")), [l, width + r]);
  });
  return andAll(parts);
}

/**
 * `LATERAL (SELECT max(o.x) FROM t)`: an aggregate of outer values alone belongs to the outer
 * query, which cannot aggregate inside its own FROM (as in PostgreSQL).
 */
function rejectOuterAggregates(n: PlanNode, pos: number): void {
  const aggs = n.kind === "aggregate" ? n.aggs : n.kind === "sampleBy" ? n.spec.aggs : [];
  for (const a of aggs) {
    if (a.args.length > 0 && a.args.some(readsOuter) && !a.args.some(readsColumns)) {
      throw new SqlError(
        `aggregate function ${a.name}() over outer columns only is not allowed in a LATERAL subquery`,
        pos,
      );
    }
  }
  for (const input of inputsOf(n)) rejectOuterAggregates(input, pos);
}

function inputsOf(n: PlanNode): PlanNode[] {
  if ("input" in n) return [n.input];
  if ("left" in n) return [n.left, n.right];
  return [];
}

/**
 * INNER/CROSS: each ungrouped aggregate over correlated rows is grouped by a constant, so that
 * no correlated rows give no row (QuestDB drops the outer row) instead of one row of empty
 * aggregates. Followed through the nodes that pass rows on; a projection drops the key again.
 */
function groupedAggregates(n: PlanNode): PlanNode {
  switch (n.kind) {
    case "project":
    case "filter":
    case "sort":
    case "limit":
    case "distinct":
      return { ...n, input: groupedAggregates(n.input) } as PlanNode;
    case "setop":
      return { ...n, left: groupedAggregates(n.left), right: groupedAggregates(n.right) };
    case "aggregate": {
      if (n.keys.length > 0 || !readsOuter(n.input)) return n;
      const key: BoundExpr = { kind: "const", type: T.BOOLEAN, value: true };
      const grouped: PlanNode = {
        ...n,
        ...shape([{ name: "\u0000lateral", type: T.BOOLEAN }, ...n.columns]),
        keys: [key],
      };
      return {
        ...shape(n.columns, n.timestampIndex),
        kind: "project",
        input: grouped,
        exprs: n.columns.map((c, i) => ({ kind: "column", type: c.type, index: i + 1 })),
      };
    }
    default:
      return n;
  }
}

function readsColumns(e: BoundExpr): boolean {
  let found = false;
  walkBound(e, (x) => {
    if (x.kind === "column") found = true;
  });
  return found;
}

/** Any outer slot reference in a plan or expression, found by walking the plain objects. */
function readsOuter(n: unknown): boolean {
  if (typeof n !== "object" || n === null || n instanceof Set || ArrayBuffer.isView(n)) return false;
  const o = n as { kind?: unknown; outer?: unknown };
  if (o.kind === "param" && o.outer !== undefined) return true;
  return Object.values(o).some(readsOuter);
}
