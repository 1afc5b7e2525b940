/**
 * UNION, EXCEPT, INTERSECT and their ALL forms (spec/sql.md §7.10). Both inputs arrive with
 * the same column types (the planner casts them to the common types).
 */
import type { Batch } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { gather } from "./batch_util.ts";
import { rowKey } from "./distinct.ts";
import { checkCancelled, type ExecContext, pace, PACE_MASK, paceDue } from "./exec_context.ts";

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
        if (sel.length) yield gather(b, sel);
      }
    }
    return;
  }
  const rightKeys = new Set<unknown>();
  for await (const b of right) {
    checkCancelled(ctx);
    for (let i = 0; i < b.rowCount; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      rightKeys.add(rowKey(b, i));
    }
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
    if (sel.length) yield gather(b, sel);
  }
}
