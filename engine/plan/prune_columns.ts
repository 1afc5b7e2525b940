/**
 * Rewrite: narrows every node to the columns its parent uses, so a scan reads only the
 * column files a query needs (`SELECT avg(price) FROM trades` reads `price` alone).
 * Returns the new node and, per old output column, its new index (-1 when dropped).
 */
import { type BoundExpr, walkBound } from "./bound.ts";
import type { PlanNode } from "./plan_node.ts";
import { pruneTimeSeries } from "./prune_time_series.ts";
import { parquetScanOf, pruneParquet, pushParquetFilter } from "./parquet_pushdown.ts";

type Pruned = { node: PlanNode; map: number[] };

export function remap(e: BoundExpr, map: number[]): BoundExpr {
  switch (e.kind) {
    case "column":
      return { ...e, index: map[e.index] };
    case "call":
      return { ...e, args: e.args.map((a) => remap(a, map)) };
    case "and":
    case "or":
      return { ...e, args: e.args.map((a) => remap(a, map)) };
    case "cast":
    case "not":
    case "isNull":
    case "inSet":
    case "inIntervals":
      return { ...e, arg: remap(e.arg, map) } as BoundExpr;
    case "inSubquery":
      return { ...e, arg: remap(e.arg, map), outer: e.outer?.map((o) => remap(o, map)) };
    case "subquery":
    case "exists":
      // A correlated subquery's outer values are read from this row too.
      return e.outer ? { ...e, outer: e.outer.map((o) => remap(o, map)) } : e;
    case "case":
      return {
        ...e,
        whens: e.whens.map((w) => ({ cond: remap(w.cond, map), then: remap(w.then, map) })),
        otherwise: remap(e.otherwise, map),
      };
    default:
      return e;
  }
}

/** Adds to `into` the input columns `exprs` read (correlated subqueries' outer values included). */
export function uses(exprs: (BoundExpr | undefined)[], into: Set<number>): Set<number> {
  for (const e of exprs) {
    if (e) walkBound(e, (x) => x.kind === "column" && into.add(x.index));
  }
  return into;
}

const all = (n: PlanNode) => new Set(n.columns.map((_, i) => i));
const identity = (n: PlanNode): Pruned => ({ node: n, map: n.columns.map((_, i) => i) });

/**
 * Pruned plans by the plan they came from (and themselves): a statement prunes its plan for
 * the read check and again to run it, and a prepared query's kept plan (engine/prepared.ts)
 * is pruned at each execution; plan nodes are not changed once built.
 */
const pruned = new WeakMap<PlanNode, PlanNode>();

export function pruneColumns(root: PlanNode): PlanNode {
  const known = pruned.get(root);
  if (known) return known;
  const node = prune(root, all(root)).node;
  pruned.set(root, node);
  pruned.set(node, node);
  return node;
}

function prune(n: PlanNode, needed: Set<number>): Pruned {
  switch (n.kind) {
    case "scan": {
      const keep = n.columns.map((_, i) => i).filter((i) => needed.has(i));
      const map = n.columns.map((_, i) => keep.indexOf(i));
      return {
        node: {
          ...n,
          columns: keep.map((i) => n.columns[i]),
          columnIndexes: keep.map((i) => n.columnIndexes[i]),
          timestampIndex: n.timestampIndex >= 0 ? map[n.timestampIndex] : -1,
        },
        map,
      };
    }
    case "filter": {
      const inner = prune(n.input, uses([n.predicate], new Set(needed)));
      const predicate = remap(n.predicate, inner.map);
      const node: PlanNode = {
        ...n,
        input: pushParquetFilter(inner.node, predicate),
        columns: inner.node.columns,
        timestampIndex: inner.node.timestampIndex,
        predicate,
      };
      // What the parent reads of the kept columns; the rest only the predicate needs.
      const read = new Set([...needed].map((i) => inner.map[i]).filter((j) => j !== undefined && j >= 0));
      const unread = inner.node.columns.map((_, j) => j).filter((j) => !read.has(j));
      if (unread.length > 0) node.unread = unread;
      else delete node.unread;
      return { node, map: inner.map };
    }
    case "project": {
      const keep = n.exprs.map((_, i) => i).filter((i) => needed.has(i));
      const inner = prune(n.input, uses(keep.map((i) => n.exprs[i]), new Set()));
      const map = n.exprs.map((_, i) => keep.indexOf(i));
      const node: PlanNode = {
        ...n,
        input: inner.node,
        exprs: keep.map((i) => remap(n.exprs[i], inner.map)),
        columns: keep.map((i) => n.columns[i]),
        timestampIndex: n.timestampIndex >= 0 ? map[n.timestampIndex] : -1,
      };
      return { node, map };
    }
    case "aggregate": {
      const inner = prune(
        n.input,
        uses([...n.keys, ...n.aggs.flatMap((a) => [...a.args, a.filter])], new Set()),
      );
      const node: PlanNode = {
        ...n,
        input: inner.node,
        keys: n.keys.map((k) => remap(k, inner.map)),
        aggs: n.aggs.map((a) => ({
          ...a,
          args: a.args.map((x) => remap(x, inner.map)),
          filter: a.filter && remap(a.filter, inner.map),
        })),
      };
      return identity(node);
    }
    case "sort": {
      const want = new Set(needed);
      for (const k of n.keys) want.add(k.index);
      const inner = prune(n.input, want);
      const node: PlanNode = {
        ...n,
        input: inner.node,
        columns: inner.node.columns,
        // The sort's own designation, not its input's: ORDER BY a non-timestamp column (or the
        // timestamp descending) drops the designated timestamp (QuestDB's generateOrderBy).
        timestampIndex: n.timestampIndex >= 0 ? inner.map[n.timestampIndex] : -1,
        keys: n.keys.map((k) => ({ ...k, index: inner.map[k.index] })),
      };
      return { node, map: inner.map };
    }
    case "limit": {
      const inner = prune(n.input, needed);
      return {
        node: {
          ...n,
          input: inner.node,
          columns: inner.node.columns,
          timestampIndex: inner.node.timestampIndex,
        },
        map: inner.map,
      };
    }
    case "distinct": {
      const inner = prune(n.input, all(n.input));
      return identity({ ...n, input: inner.node });
    }
    case "setop":
      return identity({
        ...n,
        left: prune(n.left, all(n.left)).node,
        right: prune(n.right, all(n.right)).node,
      });
    case "join": {
      const width = n.left.columns.length;
      const want = uses([n.condition], new Set(needed));
      for (const [l, r] of n.equi) want.add(l).add(r);
      const left = prune(n.left, new Set([...want].filter((i) => i < width)));
      const rightNeeded = new Set([...want].filter((i) => i >= width).map((i) => i - width));
      const right = prune(n.right, rightNeeded);
      const lw = left.node.columns.length;
      const map = [...left.map, ...right.map.map((i) => (i < 0 ? -1 : i + lw))];
      const node: PlanNode = {
        ...n,
        left: left.node,
        right: right.node,
        columns: [...left.node.columns, ...right.node.columns],
        timestampIndex: n.timestampIndex >= 0 ? map[n.timestampIndex] : -1,
        equi: n.equi.map(([l, r]) => [map[l], map[r]] as [number, number]),
        condition: n.condition && remap(n.condition, map),
      };
      return { node, map };
    }
    case "lateral": {
      // The left side also feeds the right side's outer slots; the right side keeps its columns.
      const width = n.left.columns.length;
      const want = uses([...n.outer, n.condition], new Set(needed));
      const left = prune(n.left, new Set([...want].filter((i) => i < width)));
      const right = prune(n.right, all(n.right));
      const lw = left.node.columns.length;
      const map = [...left.map, ...right.map.map((i) => (i < 0 ? -1 : i + lw))];
      const node: PlanNode = {
        ...n,
        left: left.node,
        right: right.node,
        columns: [...left.node.columns, ...right.node.columns],
        timestampIndex: n.timestampIndex >= 0 ? map[n.timestampIndex] : -1,
        outer: n.outer.map((o) => remap(o, left.map)),
        condition: n.condition && remap(n.condition, map),
      };
      return { node, map };
    }
    case "sampleBy":
    case "latestBy":
    case "asof":
    case "window":
      return pruneTimeSeries(n, needed, prune);
    case "generator":
      return parquetScanOf(n) ? pruneParquet(n, needed) : identity(n);
    default:
      // Leaves keep their columns.
      return identity(n);
  }
}
