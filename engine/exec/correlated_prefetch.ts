/**
 * Runs the correlated subqueries of a filter or projection for each batch before the node
 * evaluates it (see correlated.ts): one run per distinct combination of outer values over
 * the whole statement, the values handed to the run as `ctx.outerValues`.
 */
import { SqlError } from "../base/errors.ts";
import type { Batch, Value } from "../base/values.ts";
import { readValue } from "../base/values.ts";
import { walkBound } from "../plan/bound.ts";
import { normKey } from "../plan/bind_expr.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { compileExpr } from "./compile_expr.ts";
import { type CorrelatedExpr, type CorrelatedResult, outerKey, resultCache } from "./correlated.ts";
import { charge, type ExecContext, rowBytes } from "./exec_context.ts";
import { decorrelate, type Decorrelated } from "./decorrelate.ts";
import { nodeExprs, prepareSubqueries } from "./subqueries.ts";

type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;

/** The correlated subqueries among a node's own expressions. */
export function correlatedOf(n: PlanNode): CorrelatedExpr[] {
  const found: CorrelatedExpr[] = [];
  for (const e of nodeExprs(n)) {
    walkBound(e, (x) => {
      if ((x.kind === "subquery" || x.kind === "inSubquery" || x.kind === "exists") && x.outer) found.push(x);
    });
  }
  return found;
}

/** `input` unchanged, each batch held back until the subqueries have run for its rows. */
export async function* prefetchCorrelated(
  subs: CorrelatedExpr[],
  input: AsyncGenerator<Batch>,
  ctx: ExecContext,
  run: Runner,
): AsyncGenerator<Batch> {
  const compiled = subs.map((s) => ({
    s,
    args: s.outer!.map((o) => compileExpr(o, ctx)),
    cache: resultCache(ctx, s.plan),
    flat: decorrelate(s),
  }));
  for await (const b of input) {
    for (const { s, args, cache, flat } of compiled) {
      if (flat && b.rowCount > 0 && !cache.has(BUILT)) await runDecorrelated(s, flat, cache, ctx, run);
      for (let i = 0; i < b.rowCount; i++) {
        const values = args.map((a) => a(b, i));
        const key = outerKey(values);
        if (cache.has(key)) continue;
        // Decorrelated: every key with rows is known, the others get the empty result.
        cache.set(
          key,
          flat ? await emptyResult(s, flat, cache, ctx, run) : await runOnce(s, values, ctx, run),
        );
      }
    }
    yield b;
  }
}

/** Cache keys that cannot collide with `outerKey` (which ends every part with \u0001). */
const BUILT = "built";
const EMPTY = "empty";

/** Runs the decorrelated plan once and caches the result of every key that has rows. */
async function runDecorrelated(
  s: CorrelatedExpr,
  flat: Decorrelated,
  cache: Map<string, unknown>,
  ctx: ExecContext,
  run: Runner,
) {
  cache.set(BUILT, true);
  await prepareSubqueries(flat.plan, ctx, run);
  const n = flat.keyCount;
  const counts = new Map<string, number>();
  for await (const b of run(flat.plan, ctx)) {
    charge(ctx, rowBytes(b.rowCount, n + 1));
    for (let i = 0; i < b.rowCount; i++) {
      // NULL = NULL holds in this dialect (spec/sql.md §4), so NULL keys hash and match too.
      const keyValues: Value[] = [];
      for (let k = 0; k < n; k++) keyValues.push(readValue(b.columns[k], i));
      const key = outerKey(keyValues);
      if (s.kind === "exists") cache.set(key, { kind: "exists", any: true });
      else if (s.kind === "inSubquery") {
        let r = cache.get(key) as { kind: "set"; keys: Set<unknown> } | undefined;
        if (!r) cache.set(key, r = { kind: "set", keys: new Set() });
        const v = readValue(b.columns[n], i);
        if (v !== null) r.keys.add(normKey(v));
      } else {
        const seen = (counts.get(key) ?? 0) + 1;
        counts.set(key, seen);
        if (seen === 1) cache.set(key, { kind: "scalar", value: readValue(b.columns[n], i) });
        else {cache.set(key, {
            kind: "error",
            error: new SqlError(MORE_THAN_ONE_ROW, s.kind === "subquery" ? s.pos : -1),
          });}
      }
    }
  }
}

/** The result for outer values no inner row matches. */
async function emptyResult(
  s: CorrelatedExpr,
  flat: Decorrelated,
  cache: Map<string, unknown>,
  ctx: ExecContext,
  run: Runner,
) {
  if (s.kind === "exists") return { kind: "exists", any: false };
  if (s.kind === "inSubquery") return { kind: "set", keys: new Set() };
  if (!flat.emptyPlan) return { kind: "scalar", value: null };
  // An aggregate over no rows (count() is 0, max() NULL), computed once.
  if (!cache.has(EMPTY)) cache.set(EMPTY, await runOnce({ ...s, plan: flat.emptyPlan }, [], ctx, run));
  return cache.get(EMPTY);
}

async function runOnce(
  s: CorrelatedExpr,
  outerValues: Value[],
  ctx: ExecContext,
  run: Runner,
): Promise<CorrelatedResult> {
  const inner: ExecContext = { ...ctx, outerValues };
  try {
    // The subquery's own uncorrelated subqueries: computed on the first run, shared after.
    await prepareSubqueries(s.plan, inner, run);
    if (s.kind === "exists") {
      for await (const b of run(s.plan, inner)) if (b.rowCount > 0) return { kind: "exists", any: true };
      return { kind: "exists", any: false };
    }
    if (s.kind === "inSubquery") {
      const keys = new Set<unknown>();
      for await (const b of run(s.plan, inner)) {
        for (let i = 0; i < b.rowCount; i++) {
          const v = readValue(b.columns[0], i);
          if (v !== null) keys.add(normKey(v));
        }
      }
      return { kind: "set", keys };
    }
    let value: Value = null;
    let seen = 0;
    for await (const b of run(s.plan, inner)) {
      if (b.rowCount > 0 && seen === 0) value = readValue(b.columns[0], 0);
      seen += b.rowCount;
      if (seen > 1) return { kind: "error", error: new SqlError(MORE_THAN_ONE_ROW, s.pos) };
    }
    return { kind: "scalar", value };
  } catch (err) {
    // Limits and cancellation end the statement at once; query errors wait for their row.
    if (!(err instanceof SqlError) || err.kind !== "semantic") throw err;
    return { kind: "error", error: err };
  }
}

export const MORE_THAN_ONE_ROW = "more than one row returned by a subquery used as an expression";
