/** Projection: computes the output columns; plain column references pass vectors through. */
import { allocVectorData, type Batch, type Vector, writeValue } from "../base/values.ts";
import { type BoundExpr, walkBound } from "../plan/bound.ts";
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
  // Two or more columns drawing from the query's random source (rnd_*) are evaluated row by
  // row, left to right, as QuestDB does: column-at-a-time would hand each column a different
  // stretch of the sequence than QuestDB's seeds give it.
  const drawing = n.exprs.map(drawsRandom);
  const rowMajor = drawing.filter(Boolean).length > 1;
  // Expressions with a batch form run as one generated loop per batch (vector/batch_expr.ts).
  const batched = n.exprs.map((e, c) => (rowMajor && drawing[c] ? undefined : batchVector(e, ctx)));
  const evals = n.exprs.map((e, c) => (e.kind === "column" || batched[c] ? undefined : compileExpr(e, ctx)));
  let started = false;
  for await (const b of input) {
    checkCancelled(ctx);
    // Function init once the input has started (long_sequence's seed is set by then).
    if (!started) {
      started = true;
      for (const e of n.exprs) {
        walkBound(e, (x) => {
          if (x.kind === "call") x.binding.init?.(ctx.evalContext);
        });
      }
    }
    const columns: Vector[] = [];
    const drawn = rowMajor ? drawRowMajor(n, b, evals, drawing) : undefined;
    for (let c = 0; c < n.exprs.length; c++) {
      const e = n.exprs[c];
      if (drawn?.[c]) {
        columns.push(drawn[c]!);
        continue;
      }
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

/** Whether `e` calls a non-deterministic function (rnd_*, now()). */
function drawsRandom(e: BoundExpr): boolean {
  let found = false;
  walkBound(e, (x) => {
    if (x.kind === "call" && x.binding.deterministic === false) found = true;
  });
  return found;
}

/** The drawing columns of one batch, evaluated row by row and left to right within a row. */
function drawRowMajor(
  n: ProjectNode,
  b: Batch,
  evals: (ReturnType<typeof compileExpr> | undefined)[],
  drawing: boolean[],
): (Vector | undefined)[] {
  const out: (Vector | undefined)[] = n.exprs.map((_e, c) =>
    drawing[c] ? { type: n.columns[c].type, data: allocVectorData(n.columns[c].type, b.rowCount) } : undefined
  );
  for (let i = 0; i < b.rowCount; i++) {
    for (let c = 0; c < out.length; c++) {
      const v = out[c];
      if (v) writeValue(v.type, v.data, i, evals[c]!(b, i));
    }
  }
  return out;
}
