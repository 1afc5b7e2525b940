/**
 * UNION, EXCEPT, INTERSECT and their ALL forms (spec/sql.md §7.10). Both inputs arrive with
 * the same column types (the planner casts them to the common types).
 */
import type { Batch } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { gather } from "./batch_util.ts";
import { rowKey } from "./distinct.ts";
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

export async function* runSetOp(
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
