/** Projection: computes the output columns; plain column references pass vectors through. */
import { allocVectorData, type Batch, type Vector, writeValue } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { compileExpr } from "./compile_expr.ts";
import { checkCancelled, type ExecContext, pace, PACE_ROWS, paceDue } from "./exec_context.ts";
import { batchVector } from "./vector/batch_eval.ts";

type ProjectNode = Extract<PlanNode, { kind: "project" }>;

export async function* runProject(
  n: ProjectNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  // Expressions with a batch form run as one generated loop per batch (vector/batch_expr.ts).
  const batched = n.exprs.map((e) => batchVector(e, ctx));
  const evals = n.exprs.map((e, c) => (e.kind === "column" || batched[c] ? undefined : compileExpr(e, ctx)));
  for await (const b of input) {
    checkCancelled(ctx);
    const columns: Vector[] = [];
    for (let c = 0; c < n.exprs.length; c++) {
      const e = n.exprs[c];
      if (e.kind === "column") {
        // A reference whose type the planner changed (never happens today) would need a cast.
        columns.push(b.columns[e.index]);
        continue;
      }
      const t = n.columns[c].type;
      const batch = batched[c];
      if (batch && e.type.tag === t.tag) {
        columns.push(batch(b));
        continue;
      }
      const f = evals[c] ?? (evals[c] = compileExpr(e, ctx));
      const data = allocVectorData(t, b.rowCount);
      // A costly expression (a regex per row) must not hold the event loop for a whole batch.
      for (let from = 0; from < b.rowCount; from += PACE_ROWS) {
        if (from > 0 && paceDue(ctx)) await pace(ctx);
        const to = Math.min(b.rowCount, from + PACE_ROWS);
        for (let i = from; i < to; i++) writeValue(t, data, i, f(b, i));
      }
      columns.push({ type: t, data });
    }
    yield { rowCount: b.rowCount, columns };
  }
}
