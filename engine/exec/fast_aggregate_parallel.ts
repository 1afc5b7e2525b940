/**
 * Plan-time choice of where a `wasm kernels` aggregate (fast_aggregate.ts) scans: on the worker
 * heaps or on this one. The pool splits the partitions the scan reads (worker_pool.ts
 * `kernelJobFits`: enough values, at least two workers' worth of partitions); the choice is made
 * when the statement is planned, like `markParallelHash`, and EXPLAIN prints it as `parallel N`.
 * The executor then asks the workers only for chosen nodes. A UNION ALL read branch by branch
 * (union_aggregate.ts) chooses per branch.
 */
import { forEachPlanNode, type PlanNode } from "../plan/plan_node.ts";
import type { Storage, TableSnapshot } from "../storage/api.ts";
import type { HeapScan } from "./fast_aggregate.ts";
import { fastShape, heapScanOf, type Shape, usesPartitionStats } from "./fast_aggregate.ts";
import { unionShapes } from "./union_aggregate.ts";
import { aggregateOp } from "./vector/physical.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;

/** The pool as this choice sees it (engine/parallel/worker_pool.ts). */
export interface KernelPool {
  readonly workers: number;
  kernelJobFits(job: HeapScan, snap: TableSnapshot): boolean;
}

/** Per chosen node: the workers, and which of its shapes (one, or a union's branches) go there. */
const chosen = new WeakMap<PlanNode, { workers: number; shapes: Set<number> }>();

/** Marks the `wasm kernels` aggregates of `plan` whose scans run on the workers. */
export function markParallelKernels(plan: PlanNode, pool: KernelPool | undefined, storage: Storage): void {
  if (!pool?.workers) return;
  const fits = (shape: Shape): boolean => {
    if (usesPartitionStats(shape)) return false;
    const snap = storage.table(shape.scan.table)?.snapshot();
    if (!snap) return false;
    try {
      return pool.kernelJobFits(heapScanOf(shape, snap), snap);
    } finally {
      snap.release();
    }
  };
  forEachPlanNode(plan, (n) => {
    if (n.kind === "aggregate" && aggregateOp(n) === "wasm") {
      const single = fastShape(n);
      const shapes = single ? [single] : unionShapes(n) ?? [];
      const picked = new Set(shapes.flatMap((s, i) => fits(s) ? [i] : []));
      if (picked.size) chosen.set(n, { workers: pool.workers, shapes: picked });
    }
  });
}

/** Workers the plan chose for this aggregate (0: its scans run on this heap). */
export function parallelKernelsOf(n: PlanNode): number {
  return chosen.get(n)?.workers ?? 0;
}

/** Whether the plan sends shape `index` of this aggregate (0, or a union branch) to the workers. */
export function kernelShapeOnWorkers(n: PlanNode, index: number): boolean {
  return chosen.get(n)?.shapes.has(index) ?? false;
}
