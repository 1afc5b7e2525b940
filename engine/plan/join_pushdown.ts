/**
 * WHERE conjuncts moved below a join (spec/sql.md §7: WHERE applies to the joined rows; a
 * conjunct over one side's columns only filters that side's rows the same way before the
 * join). A conjunct over the left input's columns goes into the left input of an INNER, CROSS
 * or LEFT join, one over the right input's into the right input of an INNER, CROSS or RIGHT
 * join: there it becomes a scan's timestamp intervals or a filter the kernels run, and the join
 * builds and probes only the rows that can match. Before, `trades t JOIN quotes q ON t.symbol
 * = q.symbol WHERE t.ts IN '2024-01-02T00' AND q.ts IN '2024-01-02T00'` joined 10M x 1M rows
 * on symbol and ran out of time. Conjuncts with subqueries or non-deterministic calls, and
 * constants, stay above the join.
 */
import { type BoundExpr, walkBound } from "./bound.ts";
import type { PlanNode } from "./plan_node.ts";
import { remap } from "./prune_columns.ts";
import { andAll, conjuncts } from "./intervals_from_where.ts";

type JoinNode = Extract<PlanNode, { kind: "join" }>;

/** The input columns `e` reads, or undefined when it must stay where it is. */
function columnsOf(e: BoundExpr): Set<number> | undefined {
  const cols = new Set<number>();
  let movable = true;
  walkBound(e, (x) => {
    if (x.kind === "column") cols.add(x.index);
    else if (x.kind === "subquery" || x.kind === "exists" || x.kind === "inSubquery") movable = false;
    else if (x.kind === "call" && x.binding.deterministic === false) movable = false;
  });
  return movable ? cols : undefined;
}

/**
 * `join` with the conjuncts of `pred` that only one side reads applied to that side by
 * `applyWhere`, and what remains of `pred` for above the join (undefined: nothing).
 */
export function pushIntoJoin(
  join: JoinNode,
  pred: BoundExpr,
  applyWhere: (node: PlanNode, pred: BoundExpr) => PlanNode,
): { node: PlanNode; rest?: BoundExpr } {
  const width = join.left.columns.length;
  const toLeft = join.type === "inner" || join.type === "cross" || join.type === "left";
  const toRight = join.type === "inner" || join.type === "cross" || join.type === "right";
  const left: BoundExpr[] = [], right: BoundExpr[] = [], rest: BoundExpr[] = [];
  for (const c of conjuncts(pred)) {
    const cols = columnsOf(c);
    if (!cols || cols.size === 0) rest.push(c);
    else if (toLeft && [...cols].every((i) => i < width)) left.push(c);
    else if (toRight && [...cols].every((i) => i >= width)) right.push(c);
    else rest.push(c);
  }
  if (left.length === 0 && right.length === 0) return { node: join, rest: pred };
  const shift = join.columns.map((_, i) => i - width);
  const l = andAll(left), r = andAll(right);
  const node: JoinNode = {
    ...join,
    left: l ? applyWhere(join.left, l) : join.left,
    right: r ? applyWhere(join.right, remap(r, shift)) : join.right,
  };
  return { node, rest: andAll(rest) };
}
