/**
 * Designated-timestamp intervals from bind variables. The planner never sees parameter values
 * (a prepared statement's plan is kept and reused, engine/prepared.ts), so `ts > $1` stays in
 * the filter above the scan. When an execution starts, its values are known: this rewrite
 * turns each `ts <op> X` conjunct of a filter directly over a table scan, X reading only bind
 * variables (with constants, casts and deterministic functions), into the scan's intervals and drops it from the
 * filter, so the scan prunes partitions and binary-searches row ranges as it does for
 * literals. The cached plan is untouched: the nodes on the path to a changed scan are copied.
 *
 * A conjunct becomes an interval only when the interval selects exactly the rows the
 * comparison accepts: the value is converted with the comparison's own rules
 * (functions/compare_domain.ts: text parsed as a point in time, DATE scaled, numbers as raw
 * ticks, a TIMESTAMP column against TIMESTAMP_NS scaled). A NULL, unparseable text or any
 * other value is left to the filter, which answers as it always did.
 *
 * Without values (EXPLAIN of a statement with placeholders), the scan is only labelled with
 * the conjuncts its intervals will come from (`intervals: [ts >= $1, ts < $2]`).
 */
import type { ColumnType } from "../base/types.ts";
import type { Batch, Interval, Value } from "../base/values.ts";
import { planComparison } from "../functions/compare_domain.ts";
import type { BoundExpr } from "../plan/bound.ts";
import { andAll, conjuncts, intersect } from "../plan/intervals_from_where.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { compileExpr } from "./compile_expr.ts";
import type { ExecContext } from "./exec_context.ts";

type Op = "=" | "<" | "<=" | ">" | ">=";
type ScanNode = Extract<PlanNode, { kind: "scan" }>;
type FilterNode = Extract<PlanNode, { kind: "filter" }>;

/** The operator with its operands swapped (`$1 < ts` is `ts > $1`). */
const FLIP: Record<Op, Op> = { "=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<=" };

const MIN = -(2n ** 63n) + 1n;
const MAX = 2n ** 63n - 1n;
const VALUE_TYPES = new Set([
  "TIMESTAMP",
  "TIMESTAMP_NS",
  "DATE",
  "STRING",
  "VARCHAR",
  "LONG",
  "INT",
  "SHORT",
  "BYTE",
  "DOUBLE",
  "FLOAT",
]);
const NO_ROWS: Batch = { rowCount: 0, columns: [] };

/** Plans (and subtrees) with nothing to bind, or already bound for their execution. */
const settled = new WeakSet<PlanNode>();

/** `ts <op> X` with X reading bind variables only. */
interface ParamBound {
  op: Op;
  value: BoundExpr;
}

/**
 * The plan with the parameter conjuncts over designated timestamps turned into scan
 * intervals for `ctx.params`; `plan` itself when there are none. With a value missing (not
 * bound yet), the scans are labelled for EXPLAIN instead.
 */
export function bindParamIntervals(plan: PlanNode, ctx: ExecContext): PlanNode {
  return settled.has(plan) ? plan : rewrite(plan, ctx);
}

function rewrite(n: PlanNode, ctx: ExecContext): PlanNode {
  if (settled.has(n)) return n;
  if (n.kind === "filter" && n.input.kind === "scan") return bindFilter(n, n.input, ctx);
  // Children: the same fields explain.ts walks.
  const node = n as PlanNode & { input?: PlanNode; left?: PlanNode; right?: PlanNode };
  let changed: Partial<Record<"input" | "left" | "right", PlanNode>> | undefined;
  for (const field of ["input", "left", "right"] as const) {
    const child = node[field];
    if (!child || typeof child !== "object" || !("kind" in child)) continue;
    const bound = rewrite(child, ctx);
    if (bound !== child) (changed ??= {})[field] = bound;
  }
  if (!changed) {
    // Settled for good only when every child is (a filter left alone for a NULL value is not).
    if (["input", "left", "right"].every((f) => !node[f as "input"] || settled.has(node[f as "input"]!))) {
      settled.add(n);
    }
    return n;
  }
  const copy = { ...n, ...changed } as PlanNode;
  settled.add(copy);
  return copy;
}

function bindFilter(f: FilterNode, scan: ScanNode, ctx: ExecContext): PlanNode {
  const tsIndex = scan.timestampIndex;
  // Intervals apply to the table's designated timestamp: the scan must output that column.
  const designated = ctx.storage.table(scan.table)?.meta.timestampIndex;
  if (tsIndex < 0 || designated === undefined || scan.columnIndexes[tsIndex] !== designated) {
    settled.add(f);
    return f;
  }
  const tsType = scan.columns[tsIndex].type;
  const parts = conjuncts(f.predicate);
  const found = parts.map((c) => paramBoundOf(c, tsIndex));
  if (!found.some((b) => b)) {
    settled.add(f);
    return f;
  }
  const missing = found.some((b) => b && !valuesBound(b.value, ctx));
  if (missing) {
    // EXPLAIN before Bind: show where the intervals will come from.
    const name = scan.columns[tsIndex].name;
    const labels = found.flatMap((b) => b ? [`${name} ${b.op} ${exprText(b.value)}`] : []);
    const labelled: FilterNode = { ...f, input: { ...scan, paramIntervals: labels } };
    settled.add(labelled);
    return labelled;
  }
  let intervals = scan.intervals;
  const rest: BoundExpr[] = [];
  parts.forEach((c, i) => {
    const b = found[i];
    const iv = b ? boundInterval(b, tsType, ctx) : undefined;
    if (iv) intervals = intervals ? intersect(intervals, iv) : iv;
    else rest.push(c);
  });
  if (rest.length === parts.length) return f;
  const bound: ScanNode = { ...scan, intervals };
  settled.add(bound);
  const predicate = andAll(rest);
  if (!predicate) return bound;
  const copy: FilterNode = { ...f, input: bound, predicate };
  settled.add(copy);
  return copy;
}

/** `ts <op> X` (either side) with X of bind variables, constants, casts and deterministic calls. */
export function paramBoundOf(e: BoundExpr, tsIndex: number): ParamBound | undefined {
  if (e.kind !== "call" || e.args.length !== 2 || !(e.name in FLIP)) return undefined;
  const op = e.name as Op;
  const [a, b] = e.args;
  if (isColumn(a, tsIndex) && readsParamsOnly(b)) return { op, value: b };
  if (isColumn(b, tsIndex) && readsParamsOnly(a)) return { op: FLIP[op], value: a };
  return undefined;
}

function isColumn(e: BoundExpr, index: number): boolean {
  return e.kind === "column" && e.index === index;
}

/** True for a tree of bind variables (at least one), constants, casts and deterministic calls. */
function readsParamsOnly(e: BoundExpr): boolean {
  let params = 0;
  const ok = (x: BoundExpr): boolean => {
    if (x.kind === "param") {
      params++;
      return x.outer === undefined;
    }
    if (x.kind === "const") return true;
    if (x.kind === "cast") return ok(x.arg);
    // A function giving the same value for the same arguments (`now() - $1::interval`,
    // dateadd('h', -1, $1)) is worth the same once per execution as once per row.
    if (x.kind === "call") return x.binding.deterministic !== false && x.args.every(ok);
    return false;
  };
  return ok(e) && params > 0;
}

function valuesBound(e: BoundExpr, ctx: ExecContext): boolean {
  if (e.kind === "param") return ctx.params[e.index - 1] !== undefined;
  if (e.kind === "cast") return valuesBound(e.arg, ctx);
  if (e.kind === "call") return e.args.every((a) => valuesBound(a, ctx));
  return true;
}

function exprText(e: BoundExpr): string {
  if (e.kind === "param") return `$${e.index}`;
  if (e.kind === "cast") return `${exprText(e.arg)}::${e.type.tag.toLowerCase()}`;
  if (e.kind === "const") return typeof e.value === "string" ? `'${e.value}'` : String(e.value);
  if (e.kind === "call") {
    return /^\W+$/.test(e.name) && e.args.length === 2
      ? `${exprText(e.args[0])} ${e.name} ${exprText(e.args[1])}`
      : `${e.name}(${e.args.map(exprText).join(", ")})`;
  }
  return "?";
}

/**
 * The designated-timestamp interval(s) exactly matching `ts <op> value` for this execution's
 * value, or undefined when the filter must decide (NULL, unparseable text, anything else).
 */
function boundInterval(b: ParamBound, tsType: ColumnType, ctx: ExecContext): Interval[] | undefined {
  let v: Value;
  try {
    v = compileExpr(b.value, ctx)(NO_ROWS, 0);
  } catch {
    return undefined; // the filter raises the error as it always did
  }
  if (v === null || v === undefined) return undefined;
  try {
    return comparisonInterval(b.op, tsType, b.value.type, v);
  } catch {
    return undefined;
  }
}

/** `ts <op> v` as intervals of ts ticks, converted as the comparison converts its operands. */
export function comparisonInterval(
  op: Op,
  tsType: ColumnType,
  vType: ColumnType,
  v: Value,
): Interval[] | undefined {
  // Only the types whose comparison with a timestamp compare_domain.ts plans (not DECIMAL's).
  if (!VALUE_TYPES.has(vType.tag)) return undefined;
  const plan = planComparison(op, [
    { type: tsType, constant: false, pos: 0 },
    { type: vType, constant: true, value: v, pos: 0 },
  ]);
  if (typeof plan === "string") return undefined;
  // The column side is at most scaled (a TIMESTAMP met by TIMESTAMP_NS): ts * k <op> y.
  const k = plan.left(1n);
  if (typeof k !== "bigint" || k < 1n || plan.left(-3n) !== -3n * k) return undefined;
  const y = plan.right(v);
  let lo: bigint, hi: bigint; // y rounded down and up to a whole tick of the domain
  if (typeof y === "bigint") lo = hi = y;
  else if (typeof y === "number" && Number.isFinite(y)) {
    lo = BigInt(Math.floor(y));
    hi = BigInt(Math.ceil(y));
  } else return undefined;
  switch (op) {
    case "=":
      return lo !== hi || lo % k !== 0n ? [] : range(lo / k, lo / k);
    case ">": // ts*k > y  <=>  ts > floor(y/k)
      return range(floorDiv(lo, k) + 1n, MAX);
    case ">=":
      return range(ceilDiv(hi, k), MAX);
    case "<":
      return range(MIN, ceilDiv(hi, k) - 1n);
    case "<=":
      return range(MIN, floorDiv(lo, k));
  }
}

function range(lo: bigint, hi: bigint): Interval[] {
  if (lo < MIN) lo = MIN;
  if (hi > MAX) hi = MAX;
  return lo <= hi ? [{ lo, hi }] : [];
}

function floorDiv(a: bigint, k: bigint): bigint {
  const q = a / k;
  return a % k !== 0n && a < 0n ? q - 1n : q;
}

function ceilDiv(a: bigint, k: bigint): bigint {
  const q = a / k;
  return a % k !== 0n && a > 0n ? q + 1n : q;
}
