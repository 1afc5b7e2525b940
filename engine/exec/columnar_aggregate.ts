/**
 * Ungrouped count/sum/avg/min/max over any input, column at a time: each argument becomes a
 * Float64Array per batch (vector_expr.ts) and is reduced in a tight loop, instead of a
 * closure call and an argument array per row and aggregate. Serves aggregates over derived
 * inputs the table-scan fast paths cannot see: SAMPLE BY results, ASOF JOIN output,
 * subqueries. Results equal the accumulators' (same order of additions, same NULL rules).
 */
import type { Batch, Value } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { checkCancelled, type ExecContext } from "./exec_context.ts";
import { compileVectorExpr, type VectorEval } from "./vector_expr.ts";

type AggregateNode = Extract<PlanNode, { kind: "aggregate" }>;
type Fn = "count*" | "count" | "sum" | "avg" | "min" | "max";

interface Plan {
  fn: Fn;
  arg?: VectorEval;
}

/** The per-aggregate plans, or undefined when some aggregate is outside this path. */
export function columnarPlan(n: AggregateNode): Plan[] | undefined {
  if (n.keys.length !== 0 || n.aggs.length === 0) return undefined;
  const plans: Plan[] = [];
  for (const a of n.aggs) {
    if (a.filter || (a.binding as { distinct?: boolean }).distinct) return undefined;
    if (a.name === "count" && a.args.length === 0) {
      plans.push({ fn: "count*" });
      continue;
    }
    if (a.args.length !== 1 || !["count", "sum", "avg", "min", "max"].includes(a.name)) return undefined;
    // sum/min/max keep their argument's type: only DOUBLE arguments reduce to DOUBLE here.
    if (a.name !== "count" && a.name !== "avg" && a.args[0].type.tag !== "DOUBLE") return undefined;
    const arg = compileVectorExpr(a.args[0]);
    if (!arg) return undefined;
    plans.push({ fn: a.name as Fn, arg });
  }
  return plans;
}

export async function runColumnarAggregate(
  plans: Plan[],
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): Promise<Value[]> {
  const counts = new Float64Array(plans.length);
  const sums = new Float64Array(plans.length);
  const best = new Float64Array(plans.length).fill(NaN);
  for await (const b of input) {
    checkCancelled(ctx);
    for (let a = 0; a < plans.length; a++) {
      const p = plans[a];
      if (p.fn === "count*") {
        counts[a] += b.rowCount;
        continue;
      }
      const v = p.arg!(b);
      const n = b.rowCount;
      let c = 0, s = sums[a], m = best[a];
      switch (p.fn) {
        case "count":
          for (let i = 0; i < n; i++) if (v[i] === v[i]) c++;
          break;
        case "sum":
        case "avg":
          for (let i = 0; i < n; i++) {
            const x = v[i];
            if (x === x) {
              s += x;
              c++;
            }
          }
          break;
        case "min":
          for (let i = 0; i < n; i++) {
            const x = v[i];
            if (x === x && !(x >= m)) m = x;
          }
          break;
        case "max":
          for (let i = 0; i < n; i++) {
            const x = v[i];
            if (x === x && !(x <= m)) m = x;
          }
          break;
      }
      counts[a] += c;
      sums[a] = s;
      best[a] = m;
    }
  }
  return plans.map((p, a) => {
    switch (p.fn) {
      case "count*":
      case "count":
        return BigInt(counts[a]);
      case "sum":
        return counts[a] === 0 || !Number.isFinite(sums[a]) ? null : sums[a];
      case "avg": {
        const v = sums[a] / counts[a];
        return counts[a] === 0 || !Number.isFinite(v) ? null : v;
      }
      default:
        return Number.isNaN(best[a]) ? null : best[a];
    }
  });
}
