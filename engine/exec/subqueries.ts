/** Runs the uncorrelated subqueries of a plan once, before the plan itself runs. */
import { SqlError } from "../base/errors.ts";
import type { Value } from "../base/values.ts";
import { readValue } from "../base/values.ts";
import { type BoundExpr, walkBound } from "../plan/bound.ts";
import { normKey } from "../plan/bind_expr.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { charge, type ExecContext, rowBytes } from "./exec_context.ts";

type Runner = (node: PlanNode, ctx: ExecContext) => AsyncGenerator<import("../base/values.ts").Batch>;

/** Every bound expression held by a node (not its inputs). */
export function nodeExprs(n: PlanNode): BoundExpr[] {
  switch (n.kind) {
    case "filter":
      return [n.predicate];
    case "project":
      return n.exprs;
    case "aggregate":
      return [...n.keys, ...n.aggs.flatMap((a) => (a.filter ? [...a.args, a.filter] : a.args))];
    case "values":
      return n.rows.flat();
    case "join":
      return n.condition ? [n.condition] : [];
    case "lateral":
      return n.condition ? [...n.outer, n.condition] : n.outer;
    case "setFunction":
      return n.calls.flatMap((c) => c.args);
    case "longSequence":
      return n.seed ? [n.count, ...n.seed] : [n.count];
    case "limit":
      return [n.limit.lo, n.limit.hi, n.limit.offset].filter((x): x is BoundExpr => x !== null);
    case "window":
      return n.windows.flatMap((w) => [...w.args, ...w.partitionBy, ...w.orderBy.map((o) => o.expr)]);
    case "sampleBy":
      return [...n.spec.keys, ...n.spec.aggs.flatMap((a) => a.args)];
    default:
      return [];
  }
}

export function nodeInputs(n: PlanNode): PlanNode[] {
  switch (n.kind) {
    case "setop":
    case "join":
    case "asof":
    case "lateral":
      return [n.left, n.right];
    case "filter":
    case "project":
    case "aggregate":
    case "sort":
    case "limit":
    case "distinct":
    case "latestBy":
    case "window":
    case "sampleBy":
      return [n.input];
    default:
      return [];
  }
}

export async function prepareSubqueries(root: PlanNode, ctx: ExecContext, run: Runner): Promise<void> {
  const exprs: BoundExpr[] = [];
  const visit = (n: PlanNode) => {
    exprs.push(...nodeExprs(n));
    nodeInputs(n).forEach(visit);
  };
  visit(root);
  await prepareExprSubqueries(exprs, ctx, run);
}

/** Runs the subqueries inside loose expressions (UPDATE's SET and WHERE have no plan node). */
export async function prepareExprSubqueries(
  exprs: BoundExpr[],
  ctx: ExecContext,
  run: Runner,
): Promise<void> {
  const pending: { kind: string; plan: PlanNode; pos: number }[] = [];
  for (const e of exprs) {
    walkBound(e, (x) => {
      // Correlated ones run per outer row (correlated_prefetch.ts).
      if ((x.kind === "subquery" || x.kind === "inSubquery" || x.kind === "exists") && x.outer) return;
      if (x.kind === "subquery") {
        pending.push({ kind: "scalar", plan: x.plan, pos: x.pos });
      } else if (x.kind === "inSubquery") pending.push({ kind: "in", plan: x.plan, pos: -1 });
      else if (x.kind === "exists") pending.push({ kind: "exists", plan: x.plan, pos: -1 });
    });
  }
  for (const p of pending) {
    if (ctx.subqueries.has(p.plan)) continue;
    await prepareSubqueries(p.plan, ctx, run);
    if (p.kind === "scalar") {
      let value: Value = null;
      let seen = 0;
      for await (const b of run(p.plan, ctx)) {
        if (b.rowCount > 0 && seen === 0) value = readValue(b.columns[0], 0);
        seen += b.rowCount;
      }
      if (seen > 1) {
        throw new SqlError("more than one row returned by a subquery used as an expression", p.pos);
      }
      ctx.subqueries.set(p.plan, value);
    } else if (p.kind === "in") {
      const set = new Set<unknown>();
      for await (const b of run(p.plan, ctx)) {
        const before = set.size;
        for (let i = 0; i < b.rowCount; i++) {
          // A NULL row is kept as the key null: a text value's IN matches it
          // (InSymbolCursorFunctionFactory adds null to its set); other types skip it.
          const v = readValue(b.columns[0], i);
          set.add(v === null ? null : normKey(v));
        }
        // The IN list's distinct values are held for the whole statement.
        charge(ctx, rowBytes(set.size - before, 1));
      }
      ctx.subqueries.set(p.plan, set);
    } else {
      let any = false;
      for await (const b of run(p.plan, ctx)) {
        if (b.rowCount > 0) {
          any = true;
          break;
        }
      }
      ctx.subqueries.set(p.plan, any);
    }
  }
}
