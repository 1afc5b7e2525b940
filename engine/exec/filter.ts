/** Filter: keeps the rows for which the predicate is true, as a gathered batch. */
import type { Batch } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { gather } from "./batch_util.ts";
import { compilePredicate } from "./compile_expr.ts";
import { checkCancelled, type ExecContext } from "./exec_context.ts";

type FilterNode = Extract<PlanNode, { kind: "filter" }>;

export async function* runFilter(n: FilterNode, input: AsyncIterable<Batch>, ctx: ExecContext): AsyncGenerator<Batch> {
  const pred = compilePredicate(n.predicate, ctx);
  for await (const b of input) {
    checkCancelled(ctx);
    const sel = new Int32Array(b.rowCount);
    let count = 0;
    for (let i = 0; i < b.rowCount; i++) if (pred(b, i)) sel[count++] = i;
    if (count === b.rowCount) yield b;
    else if (count > 0) yield gather(b, sel, count);
  }
}
