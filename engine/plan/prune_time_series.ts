/**
 * Column pruning (see `prune_columns.ts`) for the time-series nodes: SAMPLE BY, LATEST ON,
 * ASOF/LT/SPLICE joins and windows ask their inputs only for the columns they read, so a
 * SAMPLE BY over a wide table scans the timestamp and the aggregated columns alone.
 */
import { type BoundExpr, walkBound } from "./bound.ts";
import type { PlanNode, WindowCall } from "./plan_node.ts";
import { remap } from "./prune_columns.ts";

type Pruned = { node: PlanNode; map: number[] };
type Prune = (n: PlanNode, needed: Set<number>) => Pruned;

function uses(exprs: (BoundExpr | undefined)[], into: Set<number>): Set<number> {
  for (const e of exprs) if (e) walkBound(e, (x) => x.kind === "column" && into.add(x.index));
  return into;
}

const identity = (n: PlanNode): Pruned => ({ node: n, map: n.columns.map((_, i) => i) });

function windowExprs(w: WindowCall): BoundExpr[] {
  return [...w.args, ...w.partitionBy, ...w.orderBy.map((o) => o.expr)];
}

export function pruneTimeSeries(n: PlanNode, needed: Set<number>, prune: Prune): Pruned {
  switch (n.kind) {
    case "sampleBy": {
      const s = n.spec;
      const want = uses([...s.keys, ...s.aggs.flatMap((a) => [...a.args, a.filter])], new Set([s.tsIndex]));
      const inner = prune(n.input, want);
      const spec = {
        ...s,
        tsIndex: inner.map[s.tsIndex],
        keys: s.keys.map((k) => remap(k, inner.map)),
        aggs: s.aggs.map((a) => ({
          ...a,
          args: a.args.map((x) => remap(x, inner.map)),
          filter: a.filter && remap(a.filter, inner.map),
        })),
      };
      return identity({ ...n, input: inner.node, spec });
    }
    case "latestBy": {
      const want = uses([...n.keys, n.post], new Set(n.tsIndex >= 0 ? [...needed, n.tsIndex] : needed));
      const inner = prune(n.input, want);
      const node: PlanNode = {
        ...n,
        input: inner.node,
        columns: inner.node.columns,
        timestampIndex: n.timestampIndex >= 0 ? inner.map[n.timestampIndex] : -1,
        tsIndex: n.tsIndex >= 0 ? inner.map[n.tsIndex] : -1,
        keys: n.keys.map((k) => remap(k, inner.map)),
        post: n.post && remap(n.post, inner.map),
      };
      const read = new Set([...uses([n.post], new Set(needed))].map((i) => inner.map[i]));
      const unused = inner.node.columns.map((_, j) => j).filter((j) => !read.has(j));
      if (unused.length > 0) node.unused = unused;
      else delete node.unused;
      return { node, map: inner.map };
    }
    case "asof": {
      const width = n.left.columns.length;
      const left = prune(n.left, new Set([...[...needed].filter((i) => i < width), ...n.leftKeys, n.leftTs]));
      const right = prune(
        n.right,
        new Set([...[...needed].filter((i) => i >= width).map((i) => i - width), ...n.rightKeys, n.rightTs]),
      );
      const lw = left.node.columns.length;
      const map = [...left.map, ...right.map.map((i) => (i < 0 ? -1 : i + lw))];
      const node: PlanNode = {
        ...n,
        left: left.node,
        right: right.node,
        columns: [...left.node.columns, ...right.node.columns],
        timestampIndex: n.timestampIndex >= 0 ? map[n.timestampIndex] : -1,
        leftKeys: n.leftKeys.map((k) => left.map[k]),
        rightKeys: n.rightKeys.map((k) => right.map[k]),
        leftTs: left.map[n.leftTs],
        rightTs: right.map[n.rightTs],
      };
      const rightRead = new Set([...needed].filter((i) => i >= width).map((i) => right.map[i - width]));
      const unused = right.node.columns.map((_, j) => j).filter((j) => !rightRead.has(j));
      if (unused.length > 0) node.rightUnused = unused;
      else delete node.rightUnused;
      return { node, map };
    }
    case "window": {
      const width = n.input.columns.length;
      const want = uses(n.windows.flatMap(windowExprs), new Set([...needed].filter((i) => i < width)));
      const inner = prune(n.input, want);
      const iw = inner.node.columns.length;
      const windows = n.windows.map((w) => ({
        ...w,
        args: w.args.map((x) => remap(x, inner.map)),
        partitionBy: w.partitionBy.map((x) => remap(x, inner.map)),
        orderBy: w.orderBy.map((o) => ({ ...o, expr: remap(o.expr, inner.map) })),
      }));
      const map = [...inner.map, ...n.windows.map((_, k) => iw + k)];
      const node: PlanNode = {
        ...n,
        input: inner.node,
        windows,
        columns: [...inner.node.columns, ...n.columns.slice(width)],
        timestampIndex: n.timestampIndex >= 0 ? map[n.timestampIndex] : -1,
      };
      return { node, map };
    }
    default:
      return identity(n);
  }
}
