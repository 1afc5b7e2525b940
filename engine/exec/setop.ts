/**
 * UNION, EXCEPT, INTERSECT and their ALL forms (spec/sql.md §7.10). Both inputs arrive with
 * the same column types (the planner casts them to the common types).
 */
import type { Batch } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { gather } from "./batch_util.ts";
import { rowKey } from "./distinct.ts";
import { columnFamily } from "./key_words.ts";
import { runIdSetOp } from "./vector/setop_ids.ts";
import { referenceExecution } from "./vector/physical.ts";
import { parallelOf } from "./vector/hash_parallel.ts";
import { runParallelSetOp } from "./vector/setop_parallel.ts";
import {
  charge,
  checkCancelled,
  type ExecContext,
  pace,
  PACE_MASK,
  paceDue,
  rowBytes,
} from "./exec_context.ts";

type SetOpNode = Extract<PlanNode, { kind: "setop" }>;

/**
 * The operator that runs `n` (EXPLAIN prints it): UNION ALL appends; the others map whole
 * batches to dense row ids (vector/setop_ids.ts) when every column has a word encoding
 * (key_words.ts), else compare rows by key.
 */
export function setOpOp(n: SetOpNode): "append" | "vectorized hash" | "row at a time" {
  if (n.op === "union" && n.all) return "append";
  if (referenceExecution()) return "row at a time";
  return n.left.columns.every((c) => columnFamily(c.type.tag)) ? "vectorized hash" : "row at a time";
}

export function runSetOp(
  n: SetOpNode,
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  if (parallelOf(n)) return runChosenParallel(n, left, right, ctx);
  return setOpOp(n) === "vectorized hash"
    ? runIdSetOp(n, left, right, ctx)
    : runRowSetOp(n, left, right, ctx);
}

/**
 * Chosen for this plan (EXPLAIN shows it): hash partitions on the worker heaps, merged here
 * (vector/setop_parallel.ts); this heap's hash sets when the pool declines.
 */
async function* runChosenParallel(
  n: SetOpNode,
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const merged = await runParallelSetOp(n, ctx);
  if (merged) yield* merged;
  else yield* runIdSetOp(n, left, right, ctx);
}

/** The reference: rows compared by their scalar keys (rowKey). */
async function* runRowSetOp(
  n: SetOpNode,
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  if (n.op === "union") {
    const seen = new Set<unknown>();
    for (const side of [left, right]) {
      for await (const b of side) {
        checkCancelled(ctx);
        if (n.all) {
          yield b;
          continue;
        }
        const sel: number[] = [];
        for (let i = 0; i < b.rowCount; i++) {
          if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
          const k = rowKey(b, i);
          if (!seen.has(k)) {
            seen.add(k);
            sel.push(i);
          }
        }
        // Every distinct row's key is held in `seen` until the end (UNION ALL holds nothing).
        charge(ctx, rowBytes(sel.length, b.columns.length));
        if (sel.length) yield gather(b, sel);
      }
    }
    return;
  }
  const rightKeys = new Set<unknown>();
  for await (const b of right) {
    checkCancelled(ctx);
    const before = rightKeys.size;
    for (let i = 0; i < b.rowCount; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      rightKeys.add(rowKey(b, i));
    }
    // EXCEPT / INTERSECT hold the right side's distinct rows as keys while the left streams.
    charge(ctx, rowBytes(rightKeys.size - before, b.columns.length));
  }
  const emitted = new Set<unknown>();
  const keepIfInRight = n.op === "intersect";
  for await (const b of left) {
    checkCancelled(ctx);
    const sel: number[] = [];
    for (let i = 0; i < b.rowCount; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      const k = rowKey(b, i);
      if (rightKeys.has(k) !== keepIfInRight) continue;
      if (!n.all) {
        if (emitted.has(k)) continue;
        emitted.add(k);
      }
      sel.push(i);
    }
    if (!n.all) charge(ctx, rowBytes(sel.length, b.columns.length));
    if (sel.length) yield gather(b, sel);
  }
}
