/**
 * Plans window functions in select items (spec/sql.md §12): every `f(...) OVER (...)` is
 * bound over the rows after WHERE, computed by one `window` node that appends a column per
 * call, and replaced in the item by a reference to that column; the ordinary projection
 * then runs on top (so `price - avg(price) OVER w` works).
 */
import {
  checkFilterArgTypes,
  checkFilterCondition,
  checkWindowSpecFilter,
  lowerWindowFilter,
} from "./aggregate_filter.ts";
import { checkFilterRefused } from "./aggregate_args.ts";
import { SqlError } from "../base/errors.ts";
import { type ColumnType, isNumeric, isTimestamp, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { mapChildExprs, someExpr } from "../sql/expr_walk.ts";
import { WHOLE_PARTITION_WINDOW_FUNCTIONS, windowPercentile } from "../functions/aggregate_quantile.ts";
import { lookupAggregate } from "../functions/registry.ts";
import { type BindContext, bindExpr, castTo, constant } from "./bind_expr.ts";
import { type BoundExpr, isConst } from "./bound.ts";
import type { PlanContext } from "./plan_context.ts";
import { type PlanNode, shape, type WindowCall } from "./plan_node.ts";
import { bindContext, substituteAliases } from "./plan_select.ts";
import { Scope } from "./scope.ts";
import { reversed } from "./order_by_timestamp.ts";
import { checkLagLeadArgs } from "./window_lag_lead.ts";
import { EMA_UNITS } from "../exec/window_ema.ts";
import { gapThreshold } from "../exec/window_bucket_select.ts";
import { noMatch } from "../functions/_util.ts";

const RANK_LIKE = new Set(["row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile"]);
const VALUE_FNS = new Set(["lag", "lead", "first_value", "last_value", "nth_value"]);
const UNIT_MICROS: Record<string, bigint> = {
  microsecond: 1n,
  millisecond: 1000n,
  second: 1_000_000n,
  minute: 60_000_000n,
  hour: 3_600_000_000n,
  day: 86_400_000_000n,
  week: 604_800_000_000n,
};

/** Rewrites window calls out of `exprs`; undefined when there are none. */
export function planWindows(
  core: A.SelectCore,
  exprs: A.Expr[],
  input: PlanNode,
  scope: Scope,
  pc: PlanContext,
  depth = 0,
): { node: PlanNode; scope: Scope; exprs: A.Expr[] } | undefined {
  const calls: WindowCall[] = [];
  // A window call whose arguments hold window calls (`sum(row_number() OVER ()) OVER ()`, as
  // QuestDB's WindowFunctionTest runs) waits for a later level: this level computes the inner
  // ones, and the next window node above it reads their columns.
  let nested = false;
  const prefix = depth === 0 ? "\u0000w" : `\u0000w${depth}_`;
  const aliases = selectAliases(core);
  const rewrite = (e: A.Expr): A.Expr => {
    if (e.kind === "call" && e.over) {
      if (e.args.some(containsWindow)) {
        nested = true;
        return mapChildExprs(e, rewrite);
      }
      const call = aliases.size ? windowAliasesSubstituted(e, aliases, scope) : e;
      const newestFirst = (index: number) => readsTimestampNewestFirst(input, index, pc);
      calls.push(bindWindowCall(call, core, { scope, backward: scansBackward(input, pc), newestFirst }, pc));
      return { kind: "column", pos: e.pos, name: `${prefix}${calls.length - 1}` };
    }
    return mapChildExprs(e, rewrite);
  };
  const out = exprs.map(rewrite);
  if (calls.length === 0) return undefined;
  const extra = calls.map((c, i) => ({ name: `${prefix}${i}`, type: c.type }));
  const node: PlanNode = {
    ...shape([...input.columns, ...extra], input.timestampIndex),
    kind: "window",
    input,
    windows: calls,
  };
  const windowScope = new Scope(
    [...scope.columns, ...extra.map((c) => ({ name: c.name, type: c.type, qualifiers: [] }))],
    scope.timestampIndex,
  );
  if (nested) {
    const next = planWindows(core, out, node, windowScope, pc, depth + 1);
    if (next) return next;
  }
  return { node, scope: windowScope, exprs: out };
}

function containsWindow(e: A.Expr): boolean {
  return someExpr(e, (x) => (x.kind === "call" && x.over !== undefined ? true : undefined));
}

/** Resolves `OVER w` / `OVER (w ORDER BY ...)` against the WINDOW clause. */
function resolveSpec(spec: A.WindowSpec, core: A.SelectCore, visible = core.windows.length): A.WindowSpec {
  if (!spec.baseName) return spec;
  // A WINDOW definition sees only the definitions before it: a forward or circular reference
  // fails at the base name (WindowFunctionTest#testWindowInheritanceForwardReferenceError).
  const at = core.windows.findIndex((w) => w.name.toLowerCase() === spec.baseName!.toLowerCase());
  if (at < 0 || at >= visible) {
    throw new SqlError(`window '${spec.baseName}' is not defined`, spec.baseNamePos ?? spec.pos);
  }
  const named = core.windows[at];
  const base = resolveSpec(named.spec, core, at);
  if (spec.partitionBy.length > 0 && base.partitionBy.length > 0) {
    throw new SqlError("cannot override PARTITION BY clause of window", spec.pos);
  }
  return {
    pos: spec.pos,
    partitionBy: spec.partitionBy.length ? spec.partitionBy : base.partitionBy,
    orderBy: spec.orderBy.length ? spec.orderBy : base.orderBy,
    frame: spec.frame ?? base.frame,
  };
}

function frameOffset(b: A.FrameBound, unit: "rows" | "range", pc: PlanContext): number | bigint | undefined {
  if (!b.offset) return undefined;
  const v = bindExpr(b.offset, bindContext(new Scope([]), pc, "window frame"));
  if (!isConst(v) || v.value === null) throw new SqlError("frame offset must be a constant", b.offset.pos);
  let n: bigint;
  if (typeof v.value === "bigint") n = v.value;
  else if (typeof v.value === "number" && Number.isInteger(v.value)) n = BigInt(v.value);
  else if (typeof v.value === "string" && /^\d+$/.test(v.value.trim())) n = BigInt(v.value.trim());
  else throw new SqlError("frame offset must be a non-negative integer", b.offset.pos);
  if (n < 0n) throw new SqlError("frame offset must be non-negative", b.offset.pos);
  if (unit === "rows") return Number(n);
  return b.timeUnit ? n * (UNIT_MICROS[b.timeUnit] ?? 1n) : n;
}

/** Time units QuestDB narrows to an INT before it scales them to the timestamp's ticks. */
const INT_NARROWED_UNITS = new Set(["minute", "hour", "day", "week"]);

/**
 * A RANGE width in a time unit must fit the designated timestamp's ticks (a LONG), and for the
 * units QuestDB narrows to INT first, an INT: otherwise 'RANGE frame start|end is out of range
 * for the designated timestamp [width=N unit, max=M unit]' at the offset
 * (WindowRangeFrameOverflowTest).
 */
function checkRangeWidth(b: A.FrameBound, n: bigint, nanos: boolean, which: "start" | "end"): void {
  const unit = b.timeUnit!;
  const perUnit = (UNIT_MICROS[unit] ?? 1n) * (nanos ? 1000n : 1n);
  let max = 9223372036854775807n / perUnit;
  if (INT_NARROWED_UNITS.has(unit) && max > 2147483647n) max = 2147483647n;
  if (n > max) {
    throw new SqlError(
      `RANGE frame ${which} is out of range for the designated timestamp [width=${n} ${unit}, max=${max} ${unit}]`,
      b.offset!.pos,
    );
  }
}

function resultType(
  name: string,
  args: BoundExpr[],
  call: A.FunctionCall,
  aggregate: ColumnType | undefined,
): ColumnType {
  if (name === "row_number" || name === "rank" || name === "dense_rank" || name === "ntile") return T.LONG;
  if (name === "percent_rank" || name === "cume_dist") return T.DOUBLE;
  if (VALUE_FNS.has(name)) {
    if (args.length === 0) throw new SqlError(`${name} expects an argument`, call.pos);
    return args[0].type.tag === "NULL" ? T.DOUBLE : args[0].type;
  }
  if (name === "sum" || name === "avg") {
    // Over DECIMAL the result is the aggregate's own DECIMAL, exact (QuestDB's
    // WindowDecimalFunctionTest: sum/avg of a DECIMAL(2,1) print as 0.2, 0.6).
    if (args.length === 1 && args[0].type.tag === "DECIMAL" && aggregate) return aggregate;
    // avg(d, scale) rescales as the aggregate does: DECIMAL(p - s + scale, scale)
    // (WindowDecimalFunctionTest#testAvgRescaleAllSubTypes...).
    if (name === "avg" && args.length === 2 && args[0].type.tag === "DECIMAL" && aggregate) return aggregate;
    if (args.length !== 1 || !(isNumeric(args[0].type) || args[0].type.tag === "NULL")) {
      throw new SqlError(`${name}() over a window expects a numeric argument`, call.pos);
    }
    return T.DOUBLE;
  }
  if (!aggregate) throw new SqlError(`unknown window function: ${call.name}`, call.pos);
  return aggregate;
}

/**
 * A frame starts at UNBOUNDED PRECEDING, n PRECEDING or CURRENT ROW (QuestDB 9 lets only the
 * end follow the current row); the error points at the FOLLOWING keyword as QuestDB's does.
 */
function checkFrameBounds(frame: A.WindowFrame): void {
  const { start } = frame;
  if (start.kind === "following" || start.kind === "unboundedFollowing") {
    throw new SqlError(
      "frame start supports UNBOUNDED PRECEDING, _number_ PRECEDING and CURRENT ROW only",
      start.pos ?? frame.pos,
    );
  }
}

/**
 * The select list's aliases of items without window calls: a window call may name them
 * (QuestDB's WindowFunctionTest#testNestedWindowFunctionWithColumnAliasReference:
 * `SELECT x AS x0, sum(sum(x0) OVER ()) OVER () FROM x`).
 */
function selectAliases(core: A.SelectCore): Map<string, A.Expr> {
  const out = new Map<string, A.Expr>();
  for (const i of core.items ?? []) {
    if (i.alias && i.expr.kind !== "star" && !containsWindow(i.expr)) out.set(i.alias.toLowerCase(), i.expr);
  }
  return out;
}

/** `call` with select aliases that name no input column replaced in its arguments and OVER. */
function windowAliasesSubstituted(
  call: A.FunctionCall,
  aliases: Map<string, A.Expr>,
  scope: Scope,
): A.FunctionCall {
  const sub = (e: A.Expr) => substituteAliases(e, aliases, scope);
  const over = call.over!;
  return {
    ...call,
    args: call.args.map(sub),
    over: {
      ...over,
      partitionBy: over.partitionBy.map(sub),
      orderBy: over.orderBy.map((o) => ({ ...o, expr: sub(o.expr) })),
    },
  };
}

/**
 * Whether `input` is a chain over a scan of a table by its own designated timestamp, which can
 * read newest first; a `timestamp(ts)` clause over a table without one cannot.
 */
function scansBackward(input: PlanNode, pc: PlanContext): boolean {
  if (!reversed(input)) return false;
  // The designated timestamp must be the table's own all the way down: a `(tab) timestamp(col)`
  // clause declares another column, which QuestDB orders ascending only (WindowFunctionTest
  // #testFrameFunctionOverRangeIsOnlySupportedOverDesignatedTimestamp: `order by otherTs desc
  // range ...` from `tab timestamp(otherTs)` fails).
  let n = input;
  while (n.kind === "filter" || n.kind === "project") {
    const ts = n.kind === "project" ? n.exprs[n.timestampIndex] : undefined;
    if (n.kind === "project" && !(ts?.kind === "column" && ts.index === n.input.timestampIndex)) return false;
    if (n.kind === "filter" && n.timestampIndex !== n.input.timestampIndex) return false;
    n = n.input;
  }
  if (n.kind !== "scan") return false;
  const meta = pc.catalog.table(n.table)?.meta;
  return meta !== undefined && meta.timestampIndex >= 0 &&
    n.columnIndexes[n.timestampIndex] === meta.timestampIndex;
}

/**
 * Whether column `index` of `input` is a table's designated timestamp read newest first: a
 * chain of projections and filters over a backward scan, as `(SELECT * FROM t ORDER BY ts DESC)`
 * plans. Such an input is ordered by that column descending though it has no designated
 * timestamp of its own.
 */
function readsTimestampNewestFirst(input: PlanNode, index: number, pc: PlanContext): boolean {
  let n = input;
  let i = index;
  while (n.kind === "filter" || n.kind === "project") {
    if (n.kind === "project") {
      const e = n.exprs[i];
      if (e?.kind !== "column") return false;
      i = e.index;
    }
    n = n.input;
  }
  if (n.kind !== "scan" || !n.reverse) return false;
  const meta = pc.catalog.table(n.table)?.meta;
  return meta !== undefined && meta.timestampIndex >= 0 && n.columnIndexes[i] === meta.timestampIndex;
}

/**
 * `backward`: the input is a table scan that can read newest first, which QuestDB needs for an
 * offset RANGE frame ordered by the designated timestamp DESC; `newestFirst` tells whether a
 * column already comes newest first (a subquery ordered by the timestamp DESC).
 */
function bindWindowCall(
  call: A.FunctionCall,
  core: A.SelectCore,
  input: { scope: Scope; backward: boolean; newestFirst: (index: number) => boolean },
  pc: PlanContext,
): WindowCall {
  const scope = input.scope;
  const name = call.name.toLowerCase();
  const ctx = bindContext(scope, pc, "window function");
  const spec = resolveSpec(call.over!, core);
  checkWindowSpecFilter(spec);
  if (call.filter) {
    // FILTER goes with aggregates only (docs query/sql/filter.md: not row_number, lag, ...);
    // a window aggregate takes it as QuestDB lowers it, a CASE around the value arguments.
    if (RANK_LIKE.has(name) || VALUE_FNS.has(name)) {
      throw new SqlError("FILTER is supported only for aggregate functions", call.pos);
    }
    checkFilterRefused(call);
    checkFilterCondition(call.filter);
    checkFilterArgTypes(call, call.args.map((a) => bindExpr(a, ctx).type));
    call = lowerWindowFilter(call);
  }
  // QuestDB has no DISTINCT window functions (count(DISTINCT x) OVER () answered 3 for two
  // distinct values here before); refuse it rather than answer without the DISTINCT.
  if (call.distinct) throw new SqlError("DISTINCT is not supported in window functions", call.pos);
  // Only the value functions take IGNORE / RESPECT NULLS (QuestDB's supportNullsDesc(),
  // PercentRankFunctionTest#testPercentRankIgnoreNullsNotSupported).
  if (call.nulls && !VALUE_FNS.has(name) && name !== "sdt") {
    throw new SqlError(
      "RESPECT/IGNORE NULLS is not supported for current window function",
      call.nullsPos ?? call.pos,
    );
  }
  // The ranking functions take no argument (SqlParserTest#testTooManyArgumentsInWindowFunction).
  if (RANK_LIKE.has(name) && name !== "ntile" && call.args.length > 0) {
    throw new SqlError(`too many arguments for '${name}' [found=${call.args.length},expected=0]`, call.pos);
  }
  if (name === "percent_rank" && !isDefaultFrame(spec.frame)) {
    throw new SqlError("percent_rank() does not support framing; remove ROWS/RANGE clause", call.pos);
  }
  let args = call.args.map((a) => bindExpr(a, ctx));
  // avg(value, kind, param [, volume]): the EMA / VWEMA, computed as `ema` (window_ema.ts).
  const ema = name === "avg" && args.length >= 3;
  if (ema) args = emaArgs(call, args, spec);
  // minmax / m4 / lttb(ts, value, target): which rows a downsampling keeps.
  const bucketSelect = name === "minmax" || name === "m4" || name === "lttb" || name === "uniform" ||
    name === "cadence" || name === "sdt";
  if (name === "lttb") checkLttbArgs(call, args, spec);
  else if (name === "sdt") checkSdtArgs(call, args, spec);
  else if (name === "uniform" || name === "cadence") checkPositionalArgs(call, args, spec);
  else if (bucketSelect) checkMinMaxArgs(call, args, spec);
  let aggregate: ColumnType | undefined;
  if (!ema && !bucketSelect && !RANK_LIKE.has(name) && !VALUE_FNS.has(name)) {
    const fn = windowPercentile(name) ?? lookupAggregate(name);
    if (!fn) throw new SqlError(`unknown window function: ${call.name}`, call.pos);
    const bound = args.map((a) => ({
      type: a.type,
      constant: isConst(a),
      value: isConst(a) ? a.value : undefined,
      pos: call.pos,
    }));
    const binding = fn.bind(bound, { distinct: call.distinct, star: call.star });
    if (typeof binding === "string") throw new SqlError(binding, call.pos);
    if (binding.argTypes) args = args.map((a, i) => castTo(a, binding.argTypes![i] ?? a.type, call.pos));
    aggregate = binding.returns;
  }
  const type = ema ? T.DOUBLE : bucketSelect ? T.BOOLEAN : resultType(name, args, call, aggregate);
  if (name === "lag" || name === "lead") checkLagLeadArgs(call, args, type);
  if ((name === "lag" || name === "lead") && args.length > 2) {
    args[2] = castTo(args[2], type, call.args[2].pos);
  }
  if (name === "ntile" && (args.length !== 1 || !isConst(args[0]) || !(Number(args[0].value) > 0))) {
    throw new SqlError("ntile() expects a positive constant", call.pos);
  }
  const frameAst = spec.frame;
  const hasOrder = spec.orderBy.length > 0;
  if (WHOLE_PARTITION_WINDOW_FUNCTIONS.has(name) && (hasOrder || frameAst)) {
    // QuestDB computes these over the whole partition only.
    throw new SqlError(`${name} window function only supports whole partition frames`, call.pos);
  }
  if (frameAst) checkFrameBounds(frameAst);
  if (frameAst && !RANK_LIKE.has(name)) checkExclusion(frameAst);
  const unit = frameAst?.unit === "range" ? "range" : "rows";
  // QuestDB has no GROUPS frames and says so at the function (WindowFunctionTest
  // #testFrameFunctionsDontSupportGroupFrames).
  if (frameAst?.unit === "groups") {
    throw new SqlError("function not implemented for given window parameters", call.pos);
  }
  if (
    frameAst && unit === "range" && (frameAst.start.offset || frameAst.end.offset) &&
    spec.orderBy.length !== 1
  ) {
    throw new SqlError("RANGE with an offset needs exactly one ORDER BY expression", frameAst.pos);
  }
  const orderBy = spec.orderBy.map((o) => {
    // QuestDB orders a window by columns only: it looks any other expression up as a column and
    // names its root token (CountAggregateTest#testAggregateOutsideAggregateContext:
    // `OVER (ORDER BY count() + 1)` fails 'Invalid column: +' at the operator;
    // BindTimeProjectionErrorTest#testWindowOrdersByColumnsOnly: `abs(v)` is 'Invalid column: abs',
    // `v::string` 'Invalid column: cast', `1` 'Invalid column: 1').
    if (o.expr.kind !== "column") {
      throw unresolvedItemColumn(core, ctx) ??
        new SqlError(`Invalid column: ${rootToken(o.expr)}`, o.expr.pos);
    }
    return { expr: bindExpr(o.expr, ctx), desc: o.desc };
  });
  if (
    frameAst && unit === "range" && (frameAst.start.offset || frameAst.end.offset) && orderBy.length === 1
  ) {
    // QuestDB computes offset RANGE frames over the designated timestamp only, descending only
    // over a table it can scan backwards, not over a subquery's `timestamp(ts)` clause
    // (WindowFunctionTest#testAverageOverRangeIsOnlySupportedOverDesignatedTimestamp and
    // #testAggregateFunctionsOverRangeFrameDescending... `order by ts desc range between 0 preceding`).
    const o = orderBy[0];
    // A subquery ordered by the designated timestamp DESC counts too (SqlOptimiserTest
    // #testWindowRangeFrameDependOnSubqueryOrderBy: `... from (select * from t order by ts desc)`).
    const onTimestamp = o.expr.kind === "column" &&
      ((o.expr.index === scope.timestampIndex && (!o.desc || input.backward)) ||
        (o.desc && input.newestFirst(o.expr.index)));
    if (!onTimestamp) {
      throw new SqlError(
        "RANGE is supported only for queries ordered by designated timestamp",
        spec.orderBy[0].expr.pos,
      );
    }
  }
  // A time unit counts in the designated timestamp's ticks: nanoseconds for TIMESTAMP_NS.
  const nanos = orderBy.length === 1 && orderBy[0].expr.type.tag === "TIMESTAMP_NS";
  const ticks = (b: A.FrameBound, which: "start" | "end") => {
    const o = frameOffset(b, unit, pc);
    if (!b.timeUnit || typeof o !== "bigint") return o;
    checkRangeWidth(b, o / (UNIT_MICROS[b.timeUnit] ?? 1n), nanos, which);
    return nanos ? o * 1000n : o;
  };
  const start = frameAst
    ? { kind: frameAst.start.kind, offset: ticks(frameAst.start, "start") }
    : { kind: "unboundedPreceding" };
  let end = frameAst
    ? { kind: frameAst.end.kind, offset: ticks(frameAst.end, "end") }
    : { kind: hasOrder ? "currentRow" : "unboundedFollowing" };
  let excludeCurrent = frameAst?.exclude === "currentRow";
  // QuestDB implements EXCLUDE CURRENT ROW by moving a CURRENT ROW end back one unit of the
  // frame: one row for ROWS, one tick of the designated timestamp for RANGE, which leaves out
  // the rows tied with the current one too (WindowExcludeCurrentRowTest).
  const onDesignated = orderBy.length === 1 && orderBy[0].expr.kind === "column" &&
    orderBy[0].expr.index === scope.timestampIndex && !orderBy[0].desc;
  if (excludeCurrent && end.kind === "currentRow" && (unit === "rows" || onDesignated)) {
    end = { kind: "preceding", offset: unit === "rows" ? 1 : 1n };
    excludeCurrent = false;
  }
  // QuestDB serves first_value IGNORE NULLS without PARTITION BY over UNBOUNDED PRECEDING ..
  // CURRENT ROW (ROWS or RANGE, the default frame with ORDER BY too) with its whole-result-set
  // function: every row reads the first non-null value of the whole result set, also the rows
  // ordered before it (WindowFunctionTest#testFrameFunctionsOverRowsFrame, ORDER BY i, j).
  if (
    name === "first_value" && call.nulls === "ignore" && spec.partitionBy.length === 0 &&
    start.kind === "unboundedPreceding" && end.kind === "currentRow" && !excludeCurrent
  ) {
    end = { kind: "unboundedFollowing" };
  }
  if (ema) {
    const k = (args[1] as { value: Value }).value as string;
    if (k in EMA_UNITS && (orderBy.length === 0 || !isTimestamp(orderBy[0].expr.type))) {
      throw new SqlError("time-weighted average needs ORDER BY a timestamp", call.pos);
    }
  }
  return {
    name: ema ? "ema" : name,
    args,
    partitionBy: spec.partitionBy.map((p) => bindExpr(p, { ...ctx, clause: "PARTITION BY" })),
    orderBy,
    frame: { unit, start, end, excludeCurrent },
    ignoreNulls: call.nulls === "ignore",
    type,
    pos: call.pos,
    argPos: call.args[0]?.pos,
  };
}

/**
 * `avg(value, kind, param [, volume]) OVER (...)`: the exponential moving average and its
 * volume-weighted form (window-functions/reference.md). `kind` is 'alpha' (0 < α ≤ 1),
 * 'period' (N > 0, α = 2 / (N + 1)) or a time unit (τ = param units, α = 1 − exp(−Δt / τ)
 * between consecutive rows of the ORDER BY timestamp). Returns the arguments as the `ema` call
 * takes them: value, kind (lower case, a time unit singular), param as a DOUBLE constant,
 * volume. The checks and their texts are QuestDB's (EmaWindowFunctionTest,
 * VwemaWindowFunctionTest): the window needs an ORDER BY and takes no frame clause.
 */
function emaArgs(call: A.FunctionCall, args: BoundExpr[], spec: A.WindowSpec): BoundExpr[] {
  if (args.length > 4) throw new SqlError("avg() over a window takes at most 4 arguments", call.pos);
  const [value, kind, param, volume] = args;
  const numeric = (e: BoundExpr) => isNumeric(e.type) || e.type.tag === "NULL";
  if (!numeric(value)) throw new SqlError("avg() over a window expects a numeric argument", call.args[0].pos);
  if (volume && !numeric(volume)) throw new SqlError("volume must be numeric", call.args[3].pos);
  checkOrderedWindow("avg", spec, call.pos);
  if (!isConst(kind)) throw new SqlError("kind parameter must be a constant", call.args[1].pos);
  if (kind.value === null) throw new SqlError("kind parameter cannot be null", call.args[1].pos);
  const k = emaKind(String(kind.value));
  if (k === undefined) {
    throw new SqlError(
      "invalid kind parameter: expected 'alpha', 'period', or a time unit (second, minute, hour, day, week)",
      call.args[1].pos,
    );
  }
  if (!isConst(param)) throw new SqlError("parameter value must be a constant", call.args[2].pos);
  const p = param.value === null ? NaN : Number(param.value);
  if (!Number.isFinite(p) || !(p > 0)) {
    throw new SqlError("parameter value must be a positive number", call.args[2].pos);
  }
  if (k === "alpha" && p > 1) {
    throw new SqlError("alpha must be between 0 (exclusive) and 1 (inclusive)", call.args[2].pos);
  }
  // QuestDB takes τ as the parameter cast to a whole number of units.
  if (k in EMA_UNITS && Math.trunc(p) < 1) {
    throw new SqlError(
      "time constant must be at least 1 unit in native timestamp precision",
      call.args[1].pos,
    );
  }
  const out: BoundExpr[] = [value, constant(T.STRING, k), constant(T.DOUBLE, p)];
  return volume ? [...out, volume] : out;
}

/**
 * The exclusion modes QuestDB's window functions take (WindowFunctionTest
 * #testFrameFunctionRejectsExclusionModesOtherThanDefault,
 * #testFrameFunctionOverRowsRejectsCurrentRowFrameExcludingCurrentRow): EXCLUDE CURRENT ROW moves
 * a CURRENT ROW end one row (tick) back, so a frame starting at the current row is left empty.
 */
function checkExclusion(f: A.WindowFrame): void {
  const pos = f.excludePos ?? f.pos;
  if (f.exclude === "group" || f.exclude === "ties") {
    throw new SqlError("only EXCLUDE NO OTHERS and EXCLUDE CURRENT ROW exclusion modes are supported", pos);
  }
  if (f.exclude !== "currentRow") return;
  if (f.end.kind === "unboundedFollowing") {
    throw new SqlError("EXCLUDE CURRENT ROW not supported with UNBOUNDED FOLLOWING frame boundary", pos);
  }
  const startsAtCurrent = f.start.kind === "currentRow" ||
    (f.start.kind === "preceding" && f.start.offset?.kind === "literal" &&
      Number(f.start.offset.value) === 0);
  if (f.end.kind === "currentRow" && startsAtCurrent) {
    throw new SqlError("end of window is higher than start of window due to exclusion mode", pos);
  }
}

/**
 * `minmax | m4(ts, value, target) OVER (ORDER BY ...)`: the arguments QuestDB's downsampling
 * window functions take (MinMaxWindowFunctionTest, M4WindowFunctionTest): a numeric value (CHAR
 * is named, other types do not match), a constant target of at least 2, an ORDER BY, no frame.
 */
function checkMinMaxArgs(call: A.FunctionCall, args: BoundExpr[], spec: A.WindowSpec): void {
  const name = call.name.toLowerCase();
  if (args.length !== 3) throw new SqlError(`${name}() expects (timestamp, value, target)`, call.pos);
  const v = args[1].type.tag;
  if (v === "CHAR") throw new SqlError("numeric column expected, got: CHAR", call.args[1].pos);
  const numeric = v === "DOUBLE" || v === "FLOAT" || v === "INT" || v === "LONG" || v === "SHORT" ||
    v === "BYTE" || v === "NULL";
  if (!numeric || !isTimestamp(args[0].type)) throw new SqlError("argument type mismatch", call.args[2].pos);
  const target = args[2];
  if (!isConst(target)) throw new SqlError("target must be a constant", call.args[2].pos);
  if (target.value === null || !(Number(target.value) >= 2)) {
    throw new SqlError("target points must be at least 2", call.args[2].pos);
  }
  checkOrderedWindow(name, spec, call.pos, { ascending: true });
}

/**
 * `lttb(ts, value, target [, gap])`, QuestDB's LttbFunctionFactory (LttbWindowFunctionTest): two
 * signatures, so a value of a type that does not convert to DOUBLE fails overload resolution at
 * the call; then ORDER BY (ascending), no frame, no PARTITION BY, a numeric value (CHAR converts
 * but is named), a constant target of at least 2 and a gap threshold string ('1h').
 */
function checkLttbArgs(call: A.FunctionCall, args: BoundExpr[], spec: A.WindowSpec): void {
  const tag = (i: number) => args[i].type.tag;
  const converts = (t: string) =>
    t === "DOUBLE" || t === "FLOAT" || t === "INT" || t === "LONG" || t === "SHORT" || t === "BYTE" ||
    t === "CHAR" || t === "NULL";
  const gapOk = args.length === 3 ||
    (args.length === 4 && isConst(args[3]) &&
      (tag(3) === "STRING" || tag(3) === "VARCHAR" || tag(3) === "NULL"));
  if (
    (args.length !== 3 && args.length !== 4) || !isTimestamp(args[0].type) || !converts(tag(1)) || !gapOk ||
    !(isNumeric(args[2].type) || tag(2) === "NULL")
  ) {
    throw new SqlError(
      noMatch("lttb", args.map((a) => ({ type: a.type, constant: false, pos: call.pos }))),
      call.pos,
    );
  }
  checkOrderedWindow("lttb", spec, call.pos, { ascending: true, unpartitioned: true });
  if (tag(1) === "CHAR" || tag(1) === "NULL") {
    throw new SqlError(`numeric column expected, got: ${tag(1)}`, call.args[1].pos);
  }
  checkTarget(args[2], call.args[2].pos);
  if (args.length === 4) {
    const gap = (args[3] as { value: Value }).value;
    if (gap === null) {
      throw new SqlError("gap threshold must be a string constant such as '1h'", call.args[3].pos);
    }
    gapThreshold(String(gap), call.args[3].pos, tag(0) === "TIMESTAMP_NS");
  }
}

/**
 * `uniform(target)` and `cadence(stride [, seed])` OVER (ORDER BY ...), QuestDB's
 * UniformFunctionFactory and CadenceFunctionFactory (UniformWindowFunctionTest,
 * CadenceWindowFunctionTest): rows picked by position; an ORDER BY, no frame, no PARTITION BY.
 */
function checkPositionalArgs(call: A.FunctionCall, args: BoundExpr[], spec: A.WindowSpec): void {
  const name = call.name.toLowerCase();
  const integral = (t: ColumnType) =>
    t.tag === "INT" || t.tag === "LONG" || t.tag === "SHORT" || t.tag === "BYTE" || t.tag === "NULL";
  const arity = name === "cadence" ? args.length === 1 || args.length === 2 : args.length === 1;
  // CadenceFunctionFactory names a stride or seed of another type (SubsampleTest#testCadenceSeedFloat).
  if (arity && name === "cadence" && isNumeric(args[0].type) && !integral(args[0].type)) {
    throw new SqlError("integer expected for stride", call.args[0].pos);
  }
  if (arity && name === "cadence" && args.length === 2 && !integral(args[1].type)) {
    throw new SqlError("integer or NULL expected for seed", call.args[1].pos);
  }
  if (!arity || !args.every((a) => integral(a.type))) {
    throw new SqlError(
      noMatch(name, args.map((a) => ({ type: a.type, constant: false, pos: call.pos }))),
      call.pos,
    );
  }
  checkOrderedWindow(name, spec, call.pos, { ascending: name === "uniform", unpartitioned: true });
  if (name === "uniform") return checkTarget(args[0], call.args[0].pos);
  const stride = args[0];
  if (!isConst(stride)) throw new SqlError("stride must be a constant or bind variable", call.args[0].pos);
  if (stride.value === null || !(Number(stride.value) >= 1)) {
    throw new SqlError("stride must be a positive constant", call.args[0].pos);
  }
  if (args.length === 2 && !isConst(args[1])) {
    throw new SqlError("seed must be a constant, bind variable, or NULL", call.args[1].pos);
  }
}

/**
 * `sdt(ts, value, compdev) [IGNORE NULLS] OVER ([PARTITION BY ...] ORDER BY ...)`, QuestDB's
 * SdtFunctionFactory (SdtWindowFunctionTest): an ORDER BY, no frame, a constant compression
 * deviation that is finite and not negative.
 */
function checkSdtArgs(call: A.FunctionCall, args: BoundExpr[], spec: A.WindowSpec): void {
  const numeric = (t: ColumnType) => isNumeric(t) || t.tag === "NULL";
  if (args.length !== 3 || !isTimestamp(args[0].type) || !numeric(args[1].type) || !numeric(args[2].type)) {
    throw new SqlError(
      noMatch("sdt", args.map((a) => ({ type: a.type, constant: false, pos: call.pos }))),
      call.pos,
    );
  }
  // The compdev slot takes constants only: FunctionParser names the argument it refuses.
  if (!isConst(args[2])) {
    throw new SqlError(`expected: DOUBLE constant, actual: ${args[2].type.tag}`, call.args[2].pos);
  }
  checkOrderedWindow("sdt", spec, call.pos, { ascending: true });
  const compdev = args[2].value === null ? NaN : Number(args[2].value);
  if (!(compdev >= 0) || !Number.isFinite(compdev)) {
    throw new SqlError("compdev must be a non-negative finite constant", call.args[2].pos);
  }
}

/**
 * The window the EMA and the downsampling functions take, checked in QuestDB's order: an ORDER BY
 * (ascending when `ascending`), the default frame, and no PARTITION BY when `unpartitioned`.
 */
function checkOrderedWindow(
  name: string,
  spec: A.WindowSpec,
  pos: number,
  o: { ascending?: boolean; unpartitioned?: boolean } = {},
): void {
  if (spec.orderBy.length === 0) throw new SqlError(`${name}() requires ORDER BY`, pos);
  if (o.ascending && spec.orderBy[0].desc) throw new SqlError(`${name}() requires ascending ORDER BY`, pos);
  if (!isDefaultFrame(spec.frame)) {
    throw new SqlError(`${name}() does not support framing; remove ROWS/RANGE clause`, pos);
  }
  if (o.unpartitioned && spec.partitionBy.length > 0) {
    throw new SqlError(`${name}() does not support PARTITION BY`, pos);
  }
}

/**
 * A downsampling target point count, QuestDB's BucketSelectWindowFunction
 * .coerceAndValidateConstantTarget: a constant, set, from 2 to the INT maximum.
 */
function checkTarget(target: BoundExpr, pos: number): void {
  if (!isConst(target)) throw new SqlError("target must be a constant or bind variable", pos);
  if (target.value === null) throw new SqlError("target point count must be set", pos);
  const n = Number(target.value);
  if (!(n >= 2)) throw new SqlError("target points must be at least 2", pos);
  if (n > 2147483647) throw new SqlError("target points exceeds maximum of 2147483647", pos);
}

/**
 * QuestDB's WindowContext.isDefaultFrame: no frame clause, or RANGE from UNBOUNDED PRECEDING to
 * CURRENT ROW or UNBOUNDED FOLLOWING without exclusion. The functions that take no frame refuse
 * any other (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW too).
 */
function isDefaultFrame(f: A.WindowFrame | undefined): boolean {
  return !f || (f.unit === "range" && f.start.kind === "unboundedPreceding" &&
    (f.end.kind === "currentRow" || f.end.kind === "unboundedFollowing") &&
    (!f.exclude || f.exclude === "noOthers"));
}

/** The smoothing kind a spelling names ('alpha', 'period' or a unit of EMA_UNITS), any case. */
function emaKind(text: string): string | undefined {
  const k = text.toLowerCase();
  if (k === "alpha" || k === "period" || k in EMA_UNITS) return k;
  const singular = k.endsWith("s") ? k.slice(0, -1) : k;
  return singular in EMA_UNITS ? singular : undefined;
}

/**
 * The first select-list column that does not resolve: QuestDB resolves the columns of every select
 * item before it checks a window's ORDER BY (BindTimeProjectionErrorTest: `row_number() OVER
 * (ORDER BY abs(v)), nocol` fails 'Invalid column: nocol' at nocol, not at abs).
 */
function unresolvedItemColumn(core: A.SelectCore, ctx: BindContext): SqlError | undefined {
  let found: SqlError | undefined;
  for (const item of core.items ?? []) {
    someExpr(item.expr, (x) => {
      if (x.kind !== "column") return undefined;
      try {
        bindExpr(x, ctx);
      } catch (e) {
        if (e instanceof SqlError && e.message.startsWith("Invalid column")) found = e;
      }
      return found !== undefined;
    });
    if (found) return found;
  }
  return undefined;
}

/** The token QuestDB's AST keeps at the root of `e`: a call's name or an operator. */
function rootToken(e: A.Expr): string {
  if (e.kind === "call") return e.name;
  if (e.kind === "binary" || e.kind === "unary") return e.op;
  if (e.kind === "cast") return "cast";
  if (e.kind === "literal") return e.type === "string" ? `'${e.value}'` : String(e.value);
  return "";
}
