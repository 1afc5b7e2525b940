/**
 * Hash aggregation (GROUP BY and implicit grouping): groups in first-appearance order
 * (spec/sql.md §7.3 recommendation). Without keys it always yields exactly one row (§4.6).
 */
import type { Batch, Value } from "../base/values.ts";
import type { Accumulator } from "../functions/registry_types.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { valueKey } from "../plan/bound.ts";
import { rowsToBatches } from "./batch_util.ts";
import { compileExpr, compilePredicate } from "./compile_expr.ts";
import { charge, checkCancelled, type ExecContext, rowBytes } from "./exec_context.ts";
import { columnarPlan, runColumnarAggregate } from "./columnar_aggregate.ts";
import { tryFastAggregate } from "./fast_aggregate.ts";
import { kernelShapeOnWorkers } from "./fast_aggregate_parallel.ts";
import { tryUnionAggregate } from "./union_aggregate.ts";
import { runHashAggregate } from "./vector/hash_aggregate.ts";
import { parallelOf, runParallelHash } from "./vector/hash_parallel.ts";
import { aggregateOp } from "./vector/physical.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;

interface Group {
  keys: Value[];
  accs: Accumulator[];
}

export async function* runAggregate(
  n: AggregateNode,
  input: () => AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  // The operator is the plan's choice (vector/physical.ts), the one EXPLAIN prints.
  switch (aggregateOp(n)) {
    case "wasm": {
      // Which of its scans run on the workers is the plan's choice too (fast_aggregate_parallel.ts).
      const onWorkers = (shape: number) => kernelShapeOnWorkers(n, shape);
      const fast = n.input.kind === "setop"
        ? await tryUnionAggregate(n, ctx, onWorkers)
        : await tryFastAggregate(n, ctx, onWorkers(0));
      if (fast) {
        if (fast.rowCount > 0 || n.keys.length === 0) yield fast;
        return;
      }
      // The kernels' columns did not fit in WASM memory: same shape, batch at a time.
      yield* runHashAggregate(n, input(), ctx);
      return;
    }
    case "columnar": {
      // Chosen for this plan (EXPLAIN shows it): morsels on the worker heaps, merged here.
      const merged = parallelOf(n) ? await runParallelHash(n, ctx) : undefined;
      if (merged) {
        yield* merged;
        return;
      }
      yield* rowsToBatches(n.columns.map((c) => c.type), [
        await runColumnarAggregate(columnarPlan(n)!, input(), ctx),
      ]);
      return;
    }
    case "hash": {
      // Chosen for this plan (EXPLAIN shows it): morsels on the worker heaps, merged here.
      const merged = parallelOf(n) ? await runParallelHash(n, ctx) : undefined;
      if (merged) {
        yield* merged;
        return;
      }
      yield* runHashAggregate(n, input(), ctx);
      return;
    }
    case "rows":
      yield* runGenericAggregate(n, input(), ctx);
  }
}

/** The row-at-a-time aggregate: the reference the vectorized operators are tested against. */
async function* runGenericAggregate(
  n: AggregateNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const keyEvals = n.keys.map((k) => compileExpr(k, ctx));
  const argEvals = n.aggs.map((a) => a.args.map((x) => compileExpr(x, ctx)));
  const filters = n.aggs.map((a) => (a.filter ? compilePredicate(a.filter, ctx) : undefined));
  const groups = new Map<unknown, Group>();
  const newGroup = (keys: Value[]): Group => ({ keys, accs: n.aggs.map((a) => a.binding.create()) });
  const single = keyEvals.length === 0 ? newGroup([]) : undefined;
  // A group: its map entry, key values and one accumulator object per aggregate.
  const groupBytes = rowBytes(1, keyEvals.length) + 96 * n.aggs.length;
  for await (const b of input) {
    checkCancelled(ctx);
    for (let i = 0; i < b.rowCount; i++) {
      let g = single;
      if (!g) {
        const keys = keyEvals.map((k) => k(b, i));
        const hk = keys.length === 1
          ? valueKey(keys[0])
          : keys.map((k) => String(valueKey(k))).join("\u0001");
        g = groups.get(hk);
        if (!g) {
          g = newGroup(keys);
          groups.set(hk, g);
          charge(ctx, groupBytes);
        }
      }
      for (let a = 0; a < argEvals.length; a++) {
        const f = filters[a];
        if (f && !f(b, i)) continue;
        const ev = argEvals[a];
        g.accs[a].add(ev.length === 0 ? [] : ev.map((x) => x(b, i)));
      }
    }
  }
  const types = n.columns.map((c) => c.type);
  const all = single ? [single] : [...groups.values()];
  const rows = all.map((g) => [...g.keys, ...g.accs.map((a) => a.result())]);
  yield* rowsToBatches(types, rows);
}
