/** DISTINCT: first occurrence of each row wins (NULLs equal each other). */
import type { Batch } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { valueKey } from "../plan/bound.ts";
import { gather } from "./batch_util.ts";
import {
  charge,
  checkCancelled,
  type ExecContext,
  pace,
  PACE_MASK,
  paceDue,
  rowBytes,
} from "./exec_context.ts";
import { readValue } from "../base/values.ts";

type DistinctNode = Extract<PlanNode, { kind: "distinct" }>;

export function rowKey(b: Batch, i: number): unknown {
  if (b.columns.length === 1) return valueKey(readValue(b.columns[0], i));
  let k = "";
  for (const c of b.columns) k += String(valueKey(readValue(c, i))) + "\u0001";
  return k;
}

export async function* runDistinct(
  _n: DistinctNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const seen = new Set<unknown>();
  for await (const b of input) {
    checkCancelled(ctx);
    const sel: number[] = [];
    for (let i = 0; i < b.rowCount; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      const k = rowKey(b, i);
      if (!seen.has(k)) {
        seen.add(k);
        sel.push(i);
      }
    }
    // Each new row's key stays in `seen` until the end: the set is what DISTINCT holds.
    charge(ctx, rowBytes(sel.length, b.columns.length));
    if (sel.length) yield gather(b, sel);
  }
}
