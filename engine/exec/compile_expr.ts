/**
 * Turns a bound expression into a closure evaluating it for one row of a batch. Closures are
 * built per execution (they capture subquery results and parameters) and are monomorphic per
 * node, which V8 runs well; hot filters and aggregates take the WASM kernels instead.
 */
import { SqlError } from "../base/errors.ts";
import { isStringLike } from "../base/types.ts";
import type { Batch, Value } from "../base/values.ts";
import { readValue } from "../base/values.ts";
import { castValue } from "../functions/cast.ts";
import { type BoundExpr, valueKey } from "../plan/bound.ts";
import { normKey } from "../plan/bind_expr.ts";
import { checkCancelled, type ExecContext } from "./exec_context.ts";
import { correlatedEvaluator, outerValue } from "./correlated.ts";

export type Evaluator = (b: Batch, row: number) => Value;

/**
 * Rows evaluated between two deadline checks. Operators check between batches, but a batch holds
 * up to 65,536 rows and a row may call costly functions (a regex over a long value), so a
 * statement past its timeout stops within a few hundred rows instead of at the end of the batch;
 * one clock read per 256 rows is lost in the cost of the closures.
 */
const DEADLINE_CHECK_ROWS = 256;

/**
 * Compiles `e`; with a statement deadline, the evaluator checks it every DEADLINE_CHECK_ROWS
 * calls (cancellation cannot arrive while a batch runs synchronously, so the clock is what can
 * change).
 */
export function compileExpr(e: BoundExpr, ctx: ExecContext): Evaluator {
  const f = compileNode(e, ctx);
  if (!ctx.deadline || e.kind === "const" || e.kind === "column" || e.kind === "param") return f;
  let left = DEADLINE_CHECK_ROWS;
  return (b, i) => {
    if (--left === 0) {
      left = DEADLINE_CHECK_ROWS;
      checkCancelled(ctx);
    }
    return f(b, i);
  };
}

function compileNode(e: BoundExpr, ctx: ExecContext): Evaluator {
  switch (e.kind) {
    case "const": {
      const v = e.value;
      return () => v;
    }
    case "column": {
      const index = e.index;
      return (b, i) => readValue(b.columns[index], i);
    }
    case "param": {
      if (e.outer !== undefined) return outerValue(e.outer, ctx);
      const v = ctx.params[e.index - 1];
      if (v === undefined) throw new SqlError(`no value for bind variable $${e.index}`, e.pos);
      return () => v;
    }
    case "call": {
      const fn = e.binding.eval;
      const ec = ctx.evalContext;
      const args = e.args.map((a) => compileNode(a, ctx));
      if (args.length === 1) {
        const [a] = args;
        return (b, i) => fn([a(b, i)], ec);
      }
      if (args.length === 2) {
        const [a, c] = args;
        return (b, i) => fn([a(b, i), c(b, i)], ec);
      }
      return (b, i) => fn(args.map((a) => a(b, i)), ec);
    }
    case "cast": {
      const arg = compileNode(e.arg, ctx);
      const from = e.from, to = e.type, options = { constant: false, pos: e.pos, implicit: e.implicit };
      return (b, i) => castValue(arg(b, i), from, to, options);
    }
    case "case": {
      const whens = e.whens.map((w) => ({ cond: compileNode(w.cond, ctx), then: compileNode(w.then, ctx) }));
      const otherwise = compileNode(e.otherwise, ctx);
      return (b, i) => {
        for (const w of whens) if (w.cond(b, i) === true) return w.then(b, i);
        return otherwise(b, i);
      };
    }
    case "and": {
      const args = e.args.map((a) => compileNode(a, ctx));
      return (b, i) => {
        for (const a of args) if (a(b, i) !== true) return false;
        return true;
      };
    }
    case "or": {
      const args = e.args.map((a) => compileNode(a, ctx));
      return (b, i) => {
        for (const a of args) if (a(b, i) === true) return true;
        return false;
      };
    }
    case "not": {
      const a = compileNode(e.arg, ctx);
      return (b, i) => a(b, i) !== true;
    }
    case "isNull": {
      const a = compileNode(e.arg, ctx);
      const not = e.not;
      return (b, i) => (a(b, i) === null) !== not;
    }
    case "inSet": {
      const a = compileNode(e.arg, ctx);
      const { keys, hasNull, not } = e;
      return (b, i) => {
        const v = a(b, i);
        return (v === null ? hasNull : keys.has(normKey(v))) !== not;
      };
    }
    case "inIntervals": {
      const a = compileNode(e.arg, ctx);
      const { intervals, not } = e;
      return (b, i) => {
        const v = a(b, i) as bigint | null;
        if (v === null) return not;
        let lo = 0, hi = intervals.length - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          const iv = intervals[mid];
          if (v < iv.lo) hi = mid - 1;
          else if (v > iv.hi) lo = mid + 1;
          else return !not;
        }
        return not;
      };
    }
    case "subquery": {
      if (e.outer) return correlatedEvaluator(e, ctx, compileExpr);
      const v = ctx.subqueries.get(e.plan) as Value;
      return () => v ?? null;
    }
    case "inSubquery": {
      if (e.outer) return correlatedEvaluator(e, ctx, compileExpr);
      const a = compileNode(e.arg, ctx);
      const set = ctx.subqueries.get(e.plan) as Set<unknown>;
      const not = e.not;
      // A bare NULL is in a set holding NULL too (InSymbolCursorFunctionFactoryTest#testNullInNullCursorInSelect).
      const hasNull = set.has(null) && (isStringLike(e.arg.type) || e.arg.type.tag === "NULL");
      return (b, i) => {
        const v = a(b, i);
        return (v === null ? hasNull : set.has(normKey(v))) !== not;
      };
    }
    case "exists": {
      if (e.outer) return correlatedEvaluator(e, ctx, compileExpr);
      const v = ctx.subqueries.get(e.plan) as boolean;
      return () => v;
    }
  }
}

/** Compiles a predicate: true only for `true` (BOOLEAN has no NULL, §4). */
export function compilePredicate(e: BoundExpr, ctx: ExecContext): (b: Batch, row: number) => boolean {
  const f = compileExpr(e, ctx);
  return (b, i) => f(b, i) === true;
}

export { valueKey };
