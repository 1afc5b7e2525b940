/**
 * Runs a LATERAL JOIN (plan_lateral.ts): the right plan once per distinct combination of the
 * left row's outer values, handed to that run as `ctx.outerValues` (as correlated subqueries
 * are, correlated.ts), its rows kept for later left rows with the same values. Output keeps
 * left order and, per left row, the right rows in their order; LEFT keeps a left row without
 * right rows once, its right columns NULL (or the plan's `unmatched` values: 0 for counts).
 */
import type { Batch, Value } from "../base/values.ts";
import { nullValueOf } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { batchToRows, RowBuffer, rowOf, rowsToBatch } from "./batch_util.ts";
import { compileExpr, compilePredicate } from "./compile_expr.ts";
import { outerKey } from "./correlated.ts";
import { charge, checkCancelled, type ExecContext, pace, rowBytes } from "./exec_context.ts";
import { registerOperator } from "./run_plan.ts";
import { prepareSubqueries } from "./subqueries.ts";

type LateralNode = Extract<PlanNode, { kind: "lateral" }>;
type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;

export async function* runLateral(n: LateralNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  // Shared by every run of the right side: correlated subqueries inside it cache here.
  ctx.correlated ??= new Map();
  const args = n.outer.map((o) => compileExpr(o, ctx));
  const cond = n.condition ? compilePredicate(n.condition, ctx) : undefined;
  const types = n.columns.map((c) => c.type);
  const rightNulls = n.unmatched ?? n.right.columns.map((c) => nullValueOf(c.type));
  const results = new Map<string, Value[][]>();
  const out = new RowBuffer(types);
  for await (const b of run(n.left, ctx)) {
    for (let i = 0; i < b.rowCount; i++) {
      const values = args.map((a) => a(b, i));
      const key = outerKey(values);
      let rows = results.get(key);
      if (!rows) results.set(key, rows = await runRight(n, values, ctx, run));
      const lrow = rowOf(b, i);
      let pairs = rows.map((r) => [...lrow, ...r]);
      if (cond && pairs.length > 0) {
        const pb = rowsToBatch(types, pairs);
        pairs = pairs.filter((_, k) => cond(pb, k));
      }
      if (pairs.length === 0 && n.type === "left") pairs = [[...lrow, ...rightNulls]];
      for (const p of pairs) {
        out.push(p);
        if (out.full) yield out.take();
      }
      await pace(ctx);
    }
  }
  if (out.rows.length > 0) yield out.take();
}

async function runRight(
  n: LateralNode,
  outerValues: Value[],
  ctx: ExecContext,
  run: Runner,
): Promise<Value[][]> {
  checkCancelled(ctx);
  const inner: ExecContext = { ...ctx, outerValues };
  // Its uncorrelated subqueries: computed on the first run, shared after (ctx.subqueries).
  await prepareSubqueries(n.right, inner, run);
  const rows: Value[][] = [];
  for await (const b of run(n.right, inner)) {
    charge(ctx, rowBytes(b.rowCount, n.right.columns.length));
    for (const r of batchToRows(b)) rows.push(r);
  }
  return rows;
}

registerOperator("lateral", (n, ctx, run) => runLateral(n as LateralNode, ctx, run));
