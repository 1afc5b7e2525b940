/**
 * LIMIT in every form of spec/sql.md §7.8. Forms that count from the end buffer the input;
 * `LIMIT n` and `LIMIT a, b` stream and stop reading once the upper bound is reached.
 */
import { SqlError } from "../base/errors.ts";
import type { Batch, Value } from "../base/values.ts";
import type { LimitSpec, PlanNode } from "../plan/plan_node.ts";
import { sliceBatch } from "./batch_util.ts";
import { compileExpr } from "./compile_expr.ts";
import type { ExecContext } from "./exec_context.ts";

type LimitNode = Extract<PlanNode, { kind: "limit" }>;

/** Rows to keep, relative to the start (`from`) and either to the start or the end (`to`). */
export type Window =
  | { kind: "all" }
  | { kind: "head"; skip: number; stop: number }
  | { kind: "tail"; last: number; dropLast: number }
  | { kind: "middle"; skip: number; dropLast: number };

function num(v: Value, pos: number): number | null {
  if (v === null) return null;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number") return Math.trunc(v);
  throw new SqlError("LIMIT expects a number", pos);
}

/** Resolves the bounds to a window (exported for tests). */
export function limitWindow(
  lo: number | null | undefined,
  hi: number | null | undefined,
  comma: boolean,
  offset?: number | null,
): Window {
  if (offset !== undefined && offset !== null) {
    const n = lo ?? null;
    return {
      kind: "head",
      skip: Math.max(0, offset),
      stop: n === null ? Infinity : Math.max(0, offset) + Math.max(0, n),
    };
  }
  if (!comma || hi === undefined || lo === undefined || hi === 0) {
    const n = comma && lo === undefined ? hi : lo;
    if (n === null || n === undefined) return { kind: "all" };
    return n >= 0 ? { kind: "head", skip: 0, stop: n } : { kind: "tail", last: -n, dropLast: 0 };
  }
  if (hi === null) return { kind: "head", skip: 0, stop: 0 };
  const a = lo ?? 0;
  const b = hi;
  if (a >= 0 && b >= 0) return { kind: "head", skip: Math.min(a, b), stop: Math.max(a, b) };
  if (a < 0 && b < 0) {
    const m = Math.max(-a, -b), n = Math.min(-a, -b);
    return { kind: "tail", last: m, dropLast: n };
  }
  if (a >= 0) return { kind: "middle", skip: a, dropLast: -b };
  return { kind: "tail", last: -a, dropLast: Math.max(0, -a - b) };
}

/**
 * QuestDB refuses `LIMIT <negative>, <positive>` (a range from the end to the start) at the
 * lower bound; checked at plan time for constants and again at run time for bind variables.
 */
export function checkLimitSigns(spec: LimitSpec, lo?: number | null, hi?: number | null): void {
  if (!spec.comma || spec.offset !== null) return;
  const v = (e: LimitSpec["lo"]) =>
    e?.kind === "const" && (typeof e.value === "number" || typeof e.value === "bigint")
      ? Number(e.value)
      : null;
  const a = lo === undefined ? v(spec.lo) : lo;
  const b = hi === undefined ? v(spec.hi) : hi;
  if (a !== null && b !== null && a < 0 && b > 0) {
    throw new SqlError("LIMIT <negative>, <positive> is not allowed", spec.loPos ?? 0);
  }
}

export function evalLimit(spec: LimitSpec, ctx: ExecContext): Window {
  const ev = (
    e: LimitSpec["lo"],
  ) => (e === null ? undefined : num(compileExpr(e, ctx)({ rowCount: 0, columns: [] }, 0), -1));
  const lo = ev(spec.lo), hi = ev(spec.hi);
  checkLimitSigns(spec, lo ?? null, hi ?? null);
  return limitWindow(lo, hi, spec.comma, spec.offset === null ? undefined : ev(spec.offset));
}

/** QuestDB's default `cairo.sql.max.negative.limit`: rows a filtered scan buffers for `LIMIT -n`. */
const MAX_NEGATIVE_LIMIT = 10_000;

/** A filter straight over a table scan (pure projections above it allowed): QuestDB's async filter. */
function isFilteredScan(node: PlanNode): boolean {
  let at = node;
  while (at.kind === "project") at = at.input;
  return at.kind === "filter" && at.input.kind === "scan";
}

/**
 * `LIMIT -n` alone over a filtered table scan: QuestDB's filter keeps the last n matching rows in a
 * buffer of at most `cairo.sql.max.negative.limit` rows and refuses a larger n at the bound
 * (LimitTest#testInvalidNegativeLimit); other inputs count from the end without that buffer.
 */
function checkNegativeLimitBuffer(n: LimitNode, w: Window): void {
  const spec = n.limit;
  if (spec.comma || spec.offset !== null || w.kind !== "tail" || w.last <= MAX_NEGATIVE_LIMIT) return;
  if (!isFilteredScan(n.input)) return;
  throw new SqlError(
    `absolute LIMIT value is too large, maximum allowed value: ${MAX_NEGATIVE_LIMIT}`,
    spec.loPos ?? 0,
  );
}

export async function* runLimit(
  n: LimitNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const w = evalLimit(n.limit, ctx);
  checkNegativeLimitBuffer(n, w);
  if (w.kind === "all") {
    yield* input;
    return;
  }
  if (w.kind === "head") {
    if (w.stop <= w.skip) return;
    let at = 0;
    for await (const b of input) {
      const from = Math.max(w.skip - at, 0);
      const to = Math.min(b.rowCount, w.stop - at);
      if (to > from) yield sliceBatch(b, from, to);
      at += b.rowCount;
      if (at >= w.stop) return;
    }
    return;
  }
  const batches: Batch[] = [];
  let total = 0;
  for await (const b of input) {
    batches.push(b);
    total += b.rowCount;
  }
  const from = w.kind === "tail" ? Math.max(0, total - w.last) : w.skip;
  const to = total - w.dropLast;
  let at = 0;
  for (const b of batches) {
    const s = Math.max(from - at, 0);
    const e = Math.min(b.rowCount, to - at);
    if (e > s) yield sliceBatch(b, s, e);
    at += b.rowCount;
  }
}
