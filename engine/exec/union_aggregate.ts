/**
 * GROUP BY over UNION ALL of table scans on the WASM kernels (issue #16): count/sum/avg/min/max
 * decompose over the branches of a UNION ALL, so each branch runs as its own fast_aggregate.ts
 * shape (a scan, optionally filtered, under projections of plain columns; keyed by one SYMBOL
 * column or unkeyed) with its table's dense symbol keys, on the worker heaps when they take it,
 * and the branches' partial states merge by key value: the tables' dictionaries differ, so a
 * slot of each branch maps to its symbol's text (NULL keys to NULL). Before, the union appended
 * the branches' rows into the vectorized hash aggregate.
 *
 * Chosen at plan time (vector/physical.ts `aggregateOp` is `wasm`; EXPLAIN adds `union
 * branches N` and prints the union as `per branch`). Every branch must fit the fast shape with
 * its columns of the union's own types (a widened column, such as INT beside LONG, stays on the
 * hash aggregate); count(DISTINCT) is per dictionary and stays there too.
 */
import type { Batch, Value } from "../base/values.ts";
import type { BoundExpr } from "../plan/bound.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { rowsToBatch } from "./batch_util.ts";
import { type ExecContext, snapshotOf } from "./exec_context.ts";
import {
  type Acc,
  fastShape,
  finish,
  heapScanOf,
  mergeGroup,
  newAcc,
  type Shape,
  shapePartials,
} from "./fast_aggregate.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;

/** Most branches one union aggregate reads (deeper unions stay on the hash aggregate). */
const BRANCHES_MAX = 64;

/** The fast shape of each branch of a GROUP BY over UNION ALL, or undefined. */
export function unionShapes(n: AggregateNode): Shape[] | undefined {
  if (n.input.kind !== "setop") return undefined;
  const branches = unionBranches(n.input);
  if (!branches || branches.length < 2) return undefined;
  const shapes: Shape[] = [];
  for (const b of branches) {
    const resolved = baseOf(b);
    if (!resolved) return undefined;
    const { base, map } = resolved;
    // A column of the branch's base of the union's own type (a key: or its symbol as text).
    const column = (e: BoundExpr, key: boolean): BoundExpr | undefined => {
      if (e.kind !== "column") return undefined;
      const { index, text } = map[e.index];
      const type = base.columns[index].type;
      const fits = text ? key && type.tag === "SYMBOL" : type.tag === e.type.tag;
      return fits ? { kind: "column", type, index } : undefined;
    };
    const keys = n.keys.map((k) => column(k, true));
    if (keys.some((k) => !k)) return undefined;
    const aggs = [];
    for (const a of n.aggs) {
      // A FILTER's columns are the union's: not remapped to the branch, so not taken.
      if (a.filter) return undefined;
      const args = a.args.map((x) => column(x, false));
      if (args.some((x) => !x)) return undefined;
      aggs.push({ ...a, args: args as BoundExpr[] });
    }
    const shape = fastShape({ ...n, input: base, keys: keys as BoundExpr[], aggs });
    if (!shape || shape.aggs.some((a) => a.fn === "countDistinct")) return undefined;
    shapes.push(shape);
  }
  return shapes;
}

/** The inputs of a tree of UNION ALL nodes, left to right; undefined past BRANCHES_MAX. */
function unionBranches(n: PlanNode): PlanNode[] | undefined {
  if (n.kind !== "setop" || n.op !== "union" || !n.all) return [n];
  const left = unionBranches(n.left), right = unionBranches(n.right);
  if (!left || !right || left.length + right.length > BRANCHES_MAX) return undefined;
  return [...left, ...right];
}

/**
 * A branch down through projections of plain columns to a scan or a filtered scan, with the
 * base's column of each of the branch's output columns. `text`: the planner's cast of a SYMBOL
 * column to STRING or VARCHAR (a set operation over two tables' symbols is typed as text), read
 * as the symbol itself: its texts are the same values.
 */
function baseOf(n: PlanNode): { base: PlanNode; map: { index: number; text: boolean }[] } | undefined {
  let map = n.columns.map((_, i) => ({ index: i, text: false }));
  while (n.kind === "project") {
    const exprs = n.exprs;
    const next: { index: number; text: boolean }[] = [];
    for (const m of map) {
      const e = exprs[m.index];
      if (e.kind === "column") next.push({ index: e.index, text: m.text });
      else if (
        e.kind === "cast" && !m.text && (e.type.tag === "STRING" || e.type.tag === "VARCHAR") &&
        e.arg.kind === "column" && e.arg.type.tag === "SYMBOL"
      ) next.push({ index: e.arg.index, text: true });
      else return undefined;
    }
    map = next;
    n = n.input;
  }
  const scan = n.kind === "filter" ? n.input : n;
  return scan.kind === "scan" ? { base: n, map } : undefined;
}

/**
 * Runs each branch's shape and merges the partial states by key value; undefined when a
 * branch's columns do not fit in WASM memory (the caller then runs the hash aggregate).
 */
export async function tryUnionAggregate(
  n: AggregateNode,
  ctx: ExecContext,
  onWorkers: (branch: number) => boolean,
): Promise<Batch | undefined> {
  const shapes = unionShapes(n);
  if (!shapes) return undefined;
  const keyed = n.keys.length > 0;
  const groups = new Map<Value, { accs: Acc[]; rows: number }>();
  if (!keyed) groups.set(null, { accs: shapes[0].aggs.map(newAcc), rows: 0 });
  // Branches run at once: a small one on this heap while the workers scan a large one.
  const runs = await Promise.all(shapes.map(async (shape, i) => {
    const snap = snapshotOf(ctx, shape.scan.table);
    const job = heapScanOf(shape, snap);
    return { shape, snap, job, partials: await shapePartials(shape, job, snap, ctx, onWorkers(i)) };
  }));
  for (const { shape, snap, job, partials } of runs) {
    if (!partials) return undefined;
    const dict = keyed ? snap.symbols(shape.scan.columnIndexes[shape.key!]) : undefined;
    const keyCount = partials.groups.length - 1;
    for (let slot = 0; slot < partials.groups.length; slot++) {
      const rows = partials.rowsPerGroup[slot];
      if (keyed && rows === 0) continue;
      const key = dict && slot < keyCount ? dict.valueOf(slot) : null;
      let group = groups.get(key);
      if (!group) groups.set(key, group = { accs: shape.aggs.map(newAcc), rows: 0 });
      group.rows += rows;
      mergeGroup(job, group.accs, partials.groups[slot]);
    }
  }
  const aggs = shapes[0].aggs;
  const out: Value[][] = [];
  for (const [key, g] of groups) {
    const values = aggs.map((a, i) => finish(a, g.accs[i], g.rows));
    out.push(keyed ? [key, ...values] : values);
  }
  return rowsToBatch(n.columns.map((c) => c.type), out);
}
