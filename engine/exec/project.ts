/** Projection: computes the output columns; plain column references pass vectors through. */
import { allocVectorData, type Batch, type Vector, writeValue } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { compileExpr } from "./compile_expr.ts";
import { checkCancelled, type ExecContext } from "./exec_context.ts";

type ProjectNode = Extract<PlanNode, { kind: "project" }>;

export async function* runProject(
  n: ProjectNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const evals = n.exprs.map((e) => (e.kind === "column" ? undefined : compileExpr(e, ctx)));
  for await (const b of input) {
    checkCancelled(ctx);
    const columns: Vector[] = n.exprs.map((e, c) => {
      if (e.kind === "column") {
        const v = b.columns[e.index];
        // A reference whose type the planner changed (never happens today) would need a cast.
        return v;
      }
      const f = evals[c]!;
      const t = n.columns[c].type;
      const data = allocVectorData(t, b.rowCount);
      for (let i = 0; i < b.rowCount; i++) writeValue(t, data, i, f(b, i));
      return { type: t, data };
    });
    yield { rowCount: b.rowCount, columns };
  }
}
