/**
 * Plans one SELECT block (spec/sql.md §7): source, WHERE (with timestamp intervals pushed
 * into the scan), implicit or explicit GROUP BY, projection, DISTINCT, ORDER BY, LIMIT.
 */
import { SqlError } from "../base/errors.ts";
import { isTimestamp, T, typeName } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import { exprKey } from "../sql/printer.ts";
import { mapChildExprs, someExpr } from "../sql/expr_walk.ts";
import { lookupAggregate } from "../functions/registry.ts";
import type { BoundArg } from "../functions/registry_types.ts";
import { argPosition, atCall, checkAggregateArgs } from "./aggregate_args.ts";
import { checkTwapArgs } from "./twap_checks.ts";
import { SCALAR_OVERLOADED_AGGREGATES } from "../functions/aggregate_array_elem.ts";
import { checkFilterArgTypes, checkFilterCondition } from "./aggregate_filter.ts";
import {
  type AggregateBinder,
  type BindContext,
  bindExpr,
  castTo,
  inferParam,
  isAggregateCall,
} from "./bind_expr.ts";
import { type BoundExpr, isConst } from "./bound.ts";
import { checkDuplicateAliases, NameAllocator, takeItemName } from "./column_names.ts";
import { intervalsFromWhere } from "./intervals_from_where.ts";
import { pushedColumnConjuncts } from "./pushed_column_conjuncts.ts";
import { pushIntoJoin } from "./join_pushdown.ts";
import { pushKeyFiltersIntoFill } from "./fill_key_pushdown.ts";
import type { PlanContext } from "./plan_context.ts";
import { planFrom } from "./plan_from.ts";
import { rewriteWindowJoins } from "./window_join.ts";
import { planGroupingSets } from "./grouping_sets.ts";
import { commaJoinsAsEquiJoins } from "./comma_joins.ts";
import { selectListSetFunctions } from "./plan_select_srf.ts";
import { type AggregateCall, type LimitSpec, type OutputColumn, type PlanNode, shape } from "./plan_node.ts";
import { planQuery } from "./plan_query.ts";
import { orderByTimestamp } from "./order_by_timestamp.ts";
import { planHaving } from "./plan_having.ts";
import { needsGroupedWindows, planGroupedWindows } from "./plan_window_grouped.ts";
import { needsNestedWindows, planNestedWindows } from "./plan_nested_windows.ts";
import type { OuterRefs } from "./outer_refs.ts";
import { planDistinctOn } from "./plan_distinct_on.ts";
import { groupByKeyAsts, implicitKeyAsts } from "./group_by_keys.ts";
import { checkHorizonGroupBy, checkHorizonWhere } from "./horizon_checks.ts";
import { checkLimitSigns } from "../exec/limit.ts";
import { planSubsample } from "./plan_subsample.ts";
import { Scope } from "./scope.ts";

export function bindContext(scope: Scope, pc: PlanContext, clause?: string): BindContext {
  return {
    scope,
    evalContext: pc.evalContext,
    planSubquery: (q) => planQuery(q, { ...pc, depth: pc.depth + 1, outer: undefined }),
    planCorrelated: (q) => {
      const outer: OuterRefs = { scope, refs: [], keys: [], parent: pc.outer };
      return { plan: planQuery(q, { ...pc, depth: pc.depth + 1, outer }), outer: outer.refs };
    },
    outer: pc.outer,
    clause,
    paramTypes: pc.paramTypes,
    inferParams: pc.inferParams,
  };
}

/** True when an aggregate call appears in `e` outside subqueries and window calls. */
export function containsAggregate(e: A.Expr): boolean {
  return someExpr(
    e,
    (x) => (x.kind !== "call" ? undefined : x.over ? false : isAggregateCall(x) ? true : undefined),
  );
}

/**
 * Whether a select item makes its query a grouping one: an aggregate, or a call by the name of
 * one in another overload. QuestDB classifies by name, so `array_elem_sum(a, b)` (element-wise
 * over two arrays, no aggregate) still groups, as an implicit key (ArrayElementTest
 * #testScalarOverloadsBecomeImplicitKeysOnlyOutsideAggregates: one row per distinct result).
 */
export function groupsSelect(e: A.Expr): boolean {
  return containsAggregate(e) || someExpr(e, (x) => {
    if (x.kind !== "call") return undefined;
    if (x.over) return false;
    return SCALAR_OVERLOADED_AGGREGATES.has(x.name.toLowerCase()) ? true : undefined;
  });
}

interface Item {
  ast: A.SelectItem;
  name: string;
}

/**
 * The column QuestDB names when a grouped select item uses a column that is no key: it checks
 * both operands of a node before it descends into either, the right one first, then the left
 * subtree, then the right (SqlBinder.collectAggregateChildSubstitutions; NoOpGroupByTest
 * #testNoopGroupByJoinBadArithmetic: `x.ref - y.ref` over keys x.id and y.ref - x.ref fails at
 * y.ref). Undefined when the item holds a node of another shape: the binding error stands.
 */
function ungroupedColumn(
  e: A.Expr,
  isKey: (e: A.Expr) => boolean,
  exists: (c: A.ColumnRef) => boolean,
): A.ColumnRef | undefined {
  let unknown = false;
  // true: substituted (a key, an aggregate, a column not of this input); false: look inside.
  const check = (n: A.Expr): boolean | A.ColumnRef => {
    if (isKey(n) || (n.kind === "call" && !n.over && isAggregateCall(n))) return true;
    if (n.kind === "column") return exists(n) ? n : true;
    return false;
  };
  const operands = (n: A.Expr): A.Expr[] => {
    if (n.kind === "binary") return [n.left, n.right];
    if (n.kind === "unary") return [n.operand];
    if (n.kind === "call" && !n.over && n.args.length <= 2) return n.args;
    if (n.kind !== "literal" && n.kind !== "param") unknown = true;
    return [];
  };
  const descend = (n: A.Expr): A.ColumnRef | undefined => {
    const ops = operands(n);
    const lhs = ops.length === 2 ? ops[0] : undefined;
    const rhs = ops.length === 2 ? ops[1] : ops[0];
    const r = rhs === undefined ? true : check(rhs);
    if (typeof r === "object") return r;
    if (lhs !== undefined) {
      const l = check(lhs);
      if (typeof l === "object") return l;
      if (!l) {
        const found = descend(lhs);
        if (found || unknown) return found;
      }
    }
    return r ? undefined : descend(rhs!);
  };
  const top = check(e);
  const found = typeof top === "object" ? top : top ? undefined : descend(e);
  return unknown ? undefined : found;
}

/**
 * In a grouping query (GROUP BY, SAMPLE BY or aggregates) ORDER BY may name a source column
 * that the select list projects under an alias: `SELECT timestamp AS Time, avg(v) ... SAMPLE BY
 * 1s ORDER BY timestamp DESC` orders by `Time`, as in QuestDB (CompiledFilterTest
 * #testFilteringOnSingleQuote). Only a bare name that no output column carries and exactly one
 * aliased item selects is rewritten; ungrouped queries order by source columns directly.
 */
function orderByAliasedKeys(core: A.SelectCore, orderBy: A.OrderItem[]): A.OrderItem[] {
  const items = core.items;
  if (!items || !orderBy.some((o) => o.expr.kind === "column")) return orderBy;
  if (core.groupBy === undefined && !core.sampleBy && !items.some((i) => groupsSelect(i.expr))) {
    return orderBy;
  }
  const outName = (i: A.SelectItem) => i.alias ?? (i.expr.kind === "column" ? i.expr.name : undefined);
  return orderBy.map((o) => {
    const e = o.expr;
    if (e.kind !== "column" || items.some((i) => outName(i) !== undefined && sameName(outName(i)!, e.name))) {
      return o;
    }
    const picks = items.filter((i) =>
      i.alias !== undefined && i.expr.kind === "column" && sameName(i.expr.name, e.name) &&
      (e.qualifier === undefined || sameName(i.expr.qualifier ?? e.qualifier, e.qualifier))
    );
    if (picks.length !== 1) return o;
    return { ...o, expr: { ...e, name: picks[0].alias!, qualifier: undefined } };
  });
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Expands `*` and `t.*` and names every item. */
function expandItems(core: A.SelectCore, scope: Scope, pc: PlanContext): Item[] {
  const names = new NameAllocator(pc.legacyNames);
  const out: Item[] = [];
  const starItems = (qualifier?: string, pos = 0) => {
    let any = false;
    scope.columns.forEach((c) => {
      if (qualifier && !c.qualifiers.some((q) => q.toLowerCase() === qualifier.toLowerCase())) return;
      any = true;
      const ref: A.ColumnRef = { kind: "column", pos, name: c.name, qualifier: c.qualifiers[0] };
      // `(SELECT ...) JOIN t ON (k)`: the subquery's columns have no qualifier, so a name both
      // sides hold is taken by position (QuestDB expands `*` per source).
      if (ref.qualifier === undefined && scope.columns.some((o) => o !== c && sameName(o.name, c.name))) {
        ref.index = scope.columns.indexOf(c);
      }
      out.push({ ast: { expr: ref }, name: names.take(c.name, true) });
    });
    if (qualifier && !any) throw new SqlError(`Invalid table name or alias: ${qualifier}`, pos);
  };
  if (!core.items) {
    starItems();
    return out;
  }
  // Explicit aliases are taken first and generated names avoid them, as QuestDB's SqlParser names
  // the unaliased columns after the whole list is read (SqlParserTest#testDottedConstAlias3:
  // `SELECT '.f.e.j.hve', 2.2 column1` names the first `column2`); a `*` keeps the list's order.
  // An explicit alias given twice is refused at the second (#testSelectDuplicateAlias).
  const aliased = new Map<A.SelectItem, string>();
  const explicit = new Set<string>();
  const hasStar = core.items.some((i) => i.expr.kind === "star");
  checkDuplicateAliases(core.items);
  for (const item of core.items) {
    if (item.alias === undefined || item.expr.kind === "star") continue;
    const key = item.alias.toLowerCase();
    explicit.add(key);
    if (!hasStar) aliased.set(item, takeItemName(item, pc.legacyNames, names));
  }
  for (const item of core.items) {
    if (item.expr.kind === "star") starItems(item.expr.qualifier, item.expr.pos);
    else if (!repeatsDistinctColumn(core, item)) {
      const name = aliased.get(item) ?? takeItemName(item, pc.legacyNames, names);
      out.push({ ast: bareCount(item, scope) ?? item, name });
    }
  }
  return out;
}

/**
 * A bare `count` that names no column is count() (AggregateTest#testHourFilteredUnion:
 * `select hour(ts), count from ...`), as in QuestDB.
 */
export function bareCount(item: A.SelectItem, scope: Scope): A.SelectItem | undefined {
  const e = item.expr;
  if (e.kind !== "column" || e.qualifier !== undefined || e.name.toLowerCase() !== "count") return undefined;
  try {
    if (scope.find(e.name, undefined, e.pos) !== undefined) return undefined;
  } catch {
    return undefined;
  }
  return {
    ...item,
    expr: { kind: "call", pos: e.pos, name: "count", args: [], distinct: false, star: false },
  };
}

/**
 * SELECT DISTINCT lists a column named again without an alias once, as QuestDB's distinct
 * rewrite skips a column it already projects (`SELECT * FROM (SELECT DISTINCT event, event
 * FROM x)` is one column: DistinctTest#testDuplicateColumnInWhereClauseSubQuery); aliased
 * repeats (`event e1, event e2`) stay two columns, and plain SELECT keeps both.
 */
function repeatsDistinctColumn(core: A.SelectCore, item: A.SelectItem): boolean {
  const e = item.expr;
  if (!core.distinct || core.distinctOn || item.alias !== undefined || e.kind !== "column") return false;
  const same = (o: A.SelectItem) =>
    o.alias === undefined && o.expr.kind === "column" && sameName(o.expr.name, e.name) &&
    (o.expr.qualifier ?? "").toLowerCase() === (e.qualifier ?? "").toLowerCase();
  return core.items!.slice(0, core.items!.indexOf(item)).some(same);
}

export function planSelect(
  core: A.SelectCore,
  orderBy: A.OrderItem[],
  limit: A.Limit | undefined,
  pc: PlanContext,
): PlanNode {
  if (core.subsample) return planSubsample(core, orderBy, limit, pc);
  if (core.groupingSets) return planGroupingSets(core, orderBy, limit, pc);
  core = pushKeyFiltersIntoFill(
    selectListSetFunctions(commaJoinsAsEquiJoins(rewriteWindowJoins(core, pc))),
    pc,
  );
  orderBy = orderByAliasedKeys(core, orderBy);
  if (needsNestedWindows(core, orderBy)) return planNestedWindows(core, orderBy, limit, pc);
  if (needsGroupedWindows(core)) return planGroupedWindows(core, orderBy, limit, pc);
  if (core.having) return planHaving(core, orderBy, limit, pc);
  const planned = planFrom(core.from, pc);
  let { node, scope } = planned;
  const horizon = core.from?.joins.some((j) => j.horizon) ?? false;
  if (core.where) {
    if (horizon) checkHorizonWhere(core.where, scope, planned.firstWidth ?? scope.columns.length);
    const key = core.latestOn?.partitionBy.length === 1 ? core.latestOn.partitionBy[0] : undefined;
    const latestKey = key?.kind === "column" && core.from?.first.kind === "table"
      ? key.name.toLowerCase()
      : undefined;
    const zeroPos = pushedColumnConjuncts(core.where, { from: core.from, ctes: pc.ctes });
    const pred = bindExpr(core.where, { ...bindContext(scope, pc, "WHERE"), latestKey, zeroPos });
    if (pred.type.tag !== "BOOLEAN" && !(isConst(pred) && pred.value === null)) {
      throw new SqlError("boolean expression expected", zeroPos.has(core.where) ? 0 : core.where.pos);
    }
    node = applyWhere(node, pred);
  }
  if (core.latestOn || core.sampleBy) {
    const ext = timeSeriesPlanner;
    if (!ext) {
      throw new SqlError(
        "SAMPLE BY and LATEST ON are not supported yet",
        (core.latestOn ?? core.sampleBy)!.pos,
      );
    }
    const r = ext(core, node, scope, pc);
    if (r.done) {
      return finishQuery(
        r.node,
        r.scope ?? outputScope(r.node),
        orderBy,
        limit,
        pc,
        core.distinct,
        undefined,
        core.distinctOn,
      );
    }
    node = r.node;
    scope = r.scope ?? scope;
  }
  const items = expandItems(core, scope, pc);
  if (horizon && core.groupBy) {
    checkHorizonGroupBy(core.groupBy, items.map((i) => i.ast), containsAggregate, scope);
  }
  const aggregated = core.groupBy !== undefined || items.some((i) => groupsSelect(i.ast.expr));
  const windowed = !aggregated && windowPlanner
    ? windowPlanner(core, items.map((i) => i.ast.expr), node, scope, pc)
    : undefined;
  if (windowed) {
    node = windowed.node;
    scope = windowed.scope;
    items.forEach((it, k) => (it.ast = { ...it.ast, expr: windowed.exprs[k] }));
  }
  if (aggregated) {
    const grouped = planAggregation(core, items, node, scope, pc, orderBy);
    // Hidden ORDER BY aggregates read the grouped rows; nothing else of them is nameable.
    const source = {
      input: grouped.input,
      scope: new Scope([]),
      exprs: grouped.exprs,
      prebound: grouped.prebound,
    };
    const out = outputScope(grouped.node);
    return finishQuery(
      grouped.node,
      out,
      orderBy,
      limit,
      pc,
      core.distinct,
      core.distinctOn ? undefined : source,
      core.distinctOn,
    );
  }
  const projected = planProjection(items, node, scope, pc);
  return finishQuery(
    projected.node,
    outputScope(projected.node),
    orderBy,
    limit,
    pc,
    core.distinct,
    { input: projected.input, scope, exprs: projected.exprs },
    core.distinctOn,
  );
}

/** Hook for SAMPLE BY / LATEST ON planning (time-series issue). */
export type TimeSeriesPlanner = (
  core: A.SelectCore,
  node: PlanNode,
  scope: Scope,
  pc: PlanContext,
) => { node: PlanNode; scope?: Scope; done: boolean };
let timeSeriesPlanner: TimeSeriesPlanner | undefined;
export function setTimeSeriesPlanner(p: TimeSeriesPlanner): void {
  timeSeriesPlanner = p;
}

/** Hook for window functions in select items (spec/sql.md §12): rewrites them into columns of a window node. */
export type WindowPlanner = (
  core: A.SelectCore,
  exprs: A.Expr[],
  node: PlanNode,
  scope: Scope,
  pc: PlanContext,
) => { node: PlanNode; scope: Scope; exprs: A.Expr[] } | undefined;
let windowPlanner: WindowPlanner | undefined;
export function setWindowPlanner(p: WindowPlanner): void {
  windowPlanner = p;
}

export function applyWhere(node: PlanNode, pred: BoundExpr): PlanNode {
  if (isConst(pred) && pred.value === true) return node;
  if (node.kind === "scan" && node.timestampIndex >= 0) {
    const { intervals, rest } = intervalsFromWhere(pred, node.timestampIndex);
    const scan = intervals
      ? { ...node, intervals: node.intervals ? intersectAll(node.intervals, intervals) : intervals }
      : node;
    return rest
      ? { ...shape(scan.columns, scan.timestampIndex), kind: "filter", input: scan, predicate: rest }
      : scan;
  }
  if (node.kind === "join") {
    const pushed = pushIntoJoin(node, pred, applyWhere);
    if (!pushed.rest) return pushed.node;
    node = pushed.node;
    pred = pushed.rest;
  }
  return { ...shape(node.columns, node.timestampIndex), kind: "filter", input: node, predicate: pred };
}

function intersectAll(a: import("../base/values.ts").Interval[], b: import("../base/values.ts").Interval[]) {
  return intervalsFromWhere({
    kind: "inIntervals",
    type: T.BOOLEAN,
    arg: { kind: "column", type: T.TIMESTAMP, index: 0 },
    intervals: a,
    not: false,
  }, 0).intervals!
    .flatMap((x) => b.map((y) => ({ lo: x.lo > y.lo ? x.lo : y.lo, hi: x.hi < y.hi ? x.hi : y.hi }))).filter((
      i,
    ) => i.lo <= i.hi);
}

export function outputScope(node: PlanNode): Scope {
  return new Scope(
    node.columns.map((c) => ({ name: c.name, type: c.type, qualifiers: [] })),
    node.timestampIndex,
  );
}

function planProjection(items: Item[], input: PlanNode, scope: Scope, pc: PlanContext) {
  const exprs: BoundExpr[] = [];
  const columns: OutputColumn[] = [];
  // A later item may use an earlier item's alias (§7.3) when the name is not a column.
  const aliases = new Map<string, A.Expr>();
  const ctx = bindContext(scope, pc);
  for (const item of items) {
    const ast = aliases.size ? substituteAliases(item.ast.expr, aliases, scope) : item.ast.expr;
    const e = bindExpr(ast, ctx);
    exprs.push(e);
    columns.push(
      e.type.tag === "NULL"
        ? { name: item.name, type: T.STRING, untypedNull: true }
        : { name: item.name, type: e.type },
    );
    // The substituted expression, so that an alias of an alias resolves too
    // (`array_cum_sum(v) cum, insertion_point(cum, 30.0) lvl, asks[1, lvl] price`, docs guides/order-book.md).
    if (item.ast.alias) aliases.set(item.ast.alias.toLowerCase(), ast);
  }
  let tsIndex = exprs.findIndex((e) =>
    e.kind === "column" && e.index === scope.timestampIndex && scope.timestampIndex >= 0
  );
  if (tsIndex < 0) tsIndex = exprs.findIndex((e) => isShiftedTimestamp(e, scope.timestampIndex));
  const node: PlanNode = { ...shape(columns, tsIndex), kind: "project", input, exprs };
  return { node, input, exprs };
}

/**
 * `dateadd('unit', constant, ts)` of the designated timestamp keeps the rows' order, so QuestDB
 * keeps it designated under its alias: a subquery shifting the time axis can be the side of
 * an ASOF join (AsOfJoinTest#testAsOfJoinNoKeyWithTopDownFilteredDateaddTimestampProjection).
 */
function isShiftedTimestamp(e: BoundExpr, timestampIndex: number): boolean {
  if (timestampIndex < 0 || e.kind !== "call" || e.name.toLowerCase() !== "dateadd" || e.args.length !== 3) {
    return false;
  }
  const [unit, amount, ts] = e.args;
  return unit.kind === "const" && amount.kind === "const" && amount.value !== null &&
    ts.kind === "column" && ts.index === timestampIndex && e.type.tag === ts.type.tag;
}

/** Replaces unqualified references to earlier select aliases by the aliased expressions. */
export function substituteAliases(e: A.Expr, aliases: Map<string, A.Expr>, scope: Scope): A.Expr {
  const sub = (x: A.Expr) => substituteAliases(x, aliases, scope);
  switch (e.kind) {
    case "column": {
      if (e.qualifier || scope.find(e.name, undefined, e.pos) !== undefined) return e;
      return aliases.get(e.name.toLowerCase()) ?? e;
    }
    case "binary":
      return { ...e, left: sub(e.left), right: sub(e.right) };
    case "unary":
      return { ...e, operand: sub(e.operand) };
    case "call":
      return { ...e, args: e.args.map(sub) };
    case "cast":
      return { ...e, expr: sub(e.expr) };
    case "case":
      return {
        ...e,
        operand: e.operand && sub(e.operand),
        whens: e.whens.map((w) => ({ when: sub(w.when), then: sub(w.then) })),
        else: e.else && sub(e.else),
      };
    case "in":
      return { ...e, expr: sub(e.expr), list: Array.isArray(e.list) ? e.list.map(sub) : e.list };
    case "between":
      return { ...e, expr: sub(e.expr), lo: sub(e.lo), hi: sub(e.hi) };
    case "like":
      return { ...e, expr: sub(e.expr), pattern: sub(e.pattern), escape: e.escape && sub(e.escape) };
    case "isNull":
      return { ...e, expr: sub(e.expr) };
    // `select array[1.0, 2.0] arr, arr[1]`: an alias subscripted or inside an array literal.
    case "index":
    case "array":
      return mapChildExprs(e, sub);
    default:
      return e;
  }
}

/** `orderBy`: its aggregate expressions are bound here too, so they are computed though not selected. */
function planAggregation(
  core: A.SelectCore,
  items: Item[],
  input: PlanNode,
  scope: Scope,
  pc: PlanContext,
  orderBy: A.OrderItem[] = [],
) {
  const inputCtx = bindContext(scope, pc);
  // Keys: explicit GROUP BY (aliases and 1-based positions allowed), else the non-aggregate items.
  const keyAsts: A.Expr[] = core.groupBy
    ? groupByKeyAsts(core.groupBy, items, scope)
    : implicitKeyAsts(items.map((i) => i.ast.expr), scope);
  let keys = keyAsts.map((k) => bindExpr(k, inputCtx));
  let keyTexts = keyAsts.map((k) => exprKey(k));
  // A call that groups by its name only (`array_elem_sum(a, b)`) is a key QuestDB infers; an
  // explicit GROUP BY must list it (ArrayElementTest#testGroupingAndOrderDiagnosticsAndCompilerRecovery).
  if (core.groupBy) {
    for (const i of items) {
      const e = i.ast.expr;
      if (!containsAggregate(e) && groupsSelect(e) && !keyTexts.includes(exprKey(e))) {
        throw new SqlError("not enough columns in group by", core.pos);
      }
    }
  }
  if (!core.groupBy && keys.some(isConst)) {
    // A constant item is no grouping key: `SELECT 'a', min(x) FROM t` aggregates the whole
    // input, one row even when it is empty (SqlCodeGeneratorTest#testGroupByConstantMatchingColumnName).
    // A constant call by an aggregate's name stays one: no row over empty input (ArrayElementTest
    // #testConstantScalarKeysKeepEmptyInputSemantics: `array_elem_sum(ARRAY[1.0], ARRAY[2.0])`).
    const dropped = keys.map((k, i) => isConst(k) && !groupsSelect(keyAsts[i]));
    keyTexts = keyTexts.filter((_, i) => !dropped[i]);
    keys = keys.filter((_, i) => !dropped[i]);
  }
  const aggs: AggregateCall[] = [];
  const aggTexts: string[] = [];
  const keyRef = (i: number): BoundExpr => ({ kind: "column", type: keys[i].type, index: i });
  const binder: AggregateBinder = {
    matchKey(e) {
      const t = exprKey(e);
      const i = keyTexts.indexOf(t);
      if (i >= 0) return keyRef(i);
      if (e.kind === "column") {
        // `sym` and `t.sym` name the same key.
        const idx = scope.find(e.name, e.qualifier, e.pos);
        const k = keys.findIndex((x) => x.kind === "column" && x.index === idx);
        if (idx !== undefined && k >= 0) return keyRef(k);
      }
      return undefined;
    },
    bindAggregate(call) {
      const text = exprKey(call);
      const known = aggTexts.indexOf(text);
      if (known >= 0) {
        return { kind: "column", type: aggs[known].binding.returns, index: keys.length + known };
      }
      const fn = lookupAggregate(call.name.toLowerCase())!;
      checkAggregateArgs(call, fn);
      const args = call.args.map((a) => bindExpr(a, inputCtx));
      checkTwapArgs(call, { args, scope, input });
      const bound: BoundArg[] = args.map((a, i) => ({
        type: a.type,
        constant: isConst(a),
        value: isConst(a) ? a.value : undefined,
        pos: argPosition(call, i),
      }));
      const bound1 = fn.bind(bound, { distinct: call.distinct, star: call.star });
      if (typeof bound1 === "string") throw new SqlError(bound1, call.pos);
      const binding = atCall(bound1, call.pos);
      const finalArgs = binding.argTypes
        ? args.map((a, i) => castTo(a, binding.argTypes![i] ?? a.type, call.pos))
        : args;
      checkFilterArgTypes(call, args.map((a) => a.type));
      if (call.filter) checkFilterCondition(call.filter);
      const filter = call.filter ? bindExpr(call.filter, bindContext(scope, pc, "FILTER")) : undefined;
      aggs.push({ name: call.name.toLowerCase(), binding, args: finalArgs, filter, pos: call.pos });
      aggTexts.push(text);
      return { kind: "column", type: binding.returns, index: keys.length + aggs.length - 1 };
    },
  };
  // The grouped rows expose only keys and aggregates; anything else is an error. Column keys
  // keep their names so that correlated subqueries in the select list can refer to them.
  const groupedScope = new Scope(keys.map((k, i) => {
    const c = k.kind === "column" ? scope.columns[k.index] : undefined;
    return { name: c ? c.name : `\u0000k${i}`, type: k.type, qualifiers: c ? c.qualifiers : [] };
  }));
  groupedScope.qualifiersOf = scope;
  const postCtx: BindContext = { ...bindContext(groupedScope, pc), aggregates: binder, shadows: scope };
  const exprs = items.map((i) => {
    try {
      return bindExpr(i.ast.expr, postCtx);
    } catch (err) {
      if (err instanceof SqlError && err.message.startsWith("Invalid column") && scope.namesColumnOf(err)) {
        const named = ungroupedColumn(i.ast.expr, (x) => binder.matchKey(x) !== undefined, (c) => {
          try {
            return scope.find(c.name, c.qualifier, c.pos) !== undefined;
          } catch {
            return true;
          }
        });
        const pos = named?.pos ?? err.position;
        throw new SqlError(`column must appear in GROUP BY clause or aggregate function`, pos);
      }
      throw err;
    }
  });
  // ORDER BY count(a) with count(a) not selected: bound over the grouped rows (planOrderBy).
  // So is an expression over keys that are not selected as such (`SELECT key + 1 ... GROUP BY
  // key ORDER BY key + 3`, GroupByTest#testGroupByColumnIdx7); its binding error is kept for
  // when the output cannot bind it either (an alias of the select list binds only there).
  const prebound = new Map<A.Expr, BoundExpr | SqlError>();
  for (const o of orderBy) {
    const ctx = { ...postCtx, clause: "ORDER BY" };
    if (containsAggregate(o.expr)) prebound.set(o.expr, bindExpr(o.expr, ctx));
    else if (o.expr.kind !== "literal") {
      try {
        prebound.set(o.expr, bindExpr(o.expr, ctx));
      } catch (err) {
        if (!(err instanceof SqlError) || err.message.startsWith("Invalid column")) continue;
        prebound.set(o.expr, err);
      }
    }
  }
  const aggColumns: OutputColumn[] = [
    ...keys.map((k, i) => ({ name: `\u0000k${i}`, type: k.type })),
    ...aggs.map((a, i) => ({ name: `\u0000a${i}`, type: a.binding.returns })),
  ];
  const aggNode: PlanNode = { ...shape(aggColumns), kind: "aggregate", input, keys, aggs };
  const columns = items.map((it, i) => ({
    name: it.name,
    type: exprs[i].type.tag === "NULL" ? T.STRING : exprs[i].type,
  }));
  return {
    node: { ...shape(columns), kind: "project", input: aggNode, exprs } as PlanNode,
    input: aggNode,
    exprs,
    prebound,
  };
}

/**
 * What ORDER BY may read besides the output: the projection's input (`scope`, `exprs` the
 * projection over it), and ORDER BY expressions already bound over it (aggregates).
 */
export interface OrderSource {
  input: PlanNode;
  scope: Scope;
  exprs: BoundExpr[];
  /** An error: what binding over the grouped rows reported, thrown if the output fails too. */
  prebound?: Map<A.Expr, BoundExpr | SqlError>;
}

/** DISTINCT, ORDER BY and LIMIT over a projected select. */
export function finishQuery(
  node: PlanNode,
  scope: Scope,
  orderBy: A.OrderItem[],
  limit: A.Limit | undefined,
  pc: PlanContext,
  distinct: boolean,
  source?: OrderSource,
  distinctOn?: A.Expr[],
): PlanNode {
  if (distinctOn) return planDistinctOn(node, scope, distinctOn, orderBy, limit, pc, source);
  if (distinct) node = { ...shape(node.columns, -1), kind: "distinct", input: node };
  if (orderBy.length) node = planOrderBy(node, scope, orderBy, pc, source);
  if (limit) {
    node = {
      ...shape(node.columns, node.timestampIndex),
      kind: "limit",
      input: node,
      limit: bindLimit(limit, pc),
    };
  }
  return node;
}

function planOrderBy(
  node: PlanNode,
  scope: Scope,
  orderBy: A.OrderItem[],
  pc: PlanContext,
  source?: OrderSource,
): PlanNode {
  const width = node.columns.length;
  const extra: BoundExpr[] = [];
  const keys = orderBy.map((o) => {
    const e = o.expr;
    if (e.kind === "literal" && e.type === "int") {
      const k = (e.value as number) - 1;
      if (k >= 0 && k < width) return { index: k, desc: o.desc };
      // Out of range, a position still names a column called so (`SELECT 1 AS "5" ... ORDER BY 5`,
      // QuestDB's OrderByExpressionTest#testOrderByNumericColumnThatDoesExist).
      const named = node.columns.findIndex((c) => c.name === String(e.value));
      if (named >= 0) return { index: named, desc: o.desc };
      throw new SqlError(`order column position is out of range [max=${width}]`, e.pos);
    }
    if (e.kind === "column") {
      const i = scope.find(e.name, e.qualifier, e.pos) ??
        (e.qualifier ? scope.find(e.name, undefined, e.pos) : undefined);
      if (i !== undefined && (!e.qualifier || readsSourceColumn(node, i, e, source))) {
        return { index: i, desc: o.desc };
      }
    }
    try {
      // In a correlated subquery a name its own FROM has (`ORDER BY ts` with `ts::varchar`
      // selected) is that column, bound on the source below, never the enclosing row's.
      const ctx = { ...bindContext(scope, pc, "ORDER BY"), shadows: source?.scope };
      const bound = bindExpr(e, ctx);
      if (bound.kind === "column") return { index: bound.index, desc: o.desc };
      extra.push(bound);
      return { index: width + extra.length - 1, desc: o.desc, onOutput: true };
    } catch (err) {
      if (source && node.kind === "distinct" && node.input.kind === "project") {
        // After DISTINCT only selected values order: `ORDER BY tab.created` with `tab.created AS
        // ref0` selected sorts by ref0 (GroupByTest#testSelectDistinctOnAliasedColumnWithOrderBy).
        let pre = source.prebound?.get(e);
        try {
          pre ??= bindExpr(e, bindContext(source.scope, pc, "ORDER BY"));
        } catch {
          throw err;
        }
        const at = pre instanceof SqlError ? -1 : selectedAs(node.input.exprs, pre);
        if (at < 0) throw err;
        return { index: at, desc: o.desc };
      }
      if (!source || node.kind !== "project") throw err;
      const pre = source.prebound?.get(e);
      if (pre instanceof SqlError) throw pre;
      const bound = pre ?? bindExpr(e, bindContext(source.scope, pc, "ORDER BY"));
      extra.push({ ...bound, kind: bound.kind } as BoundExpr);
      return { index: width + extra.length - 1, desc: o.desc, onInput: true };
    }
  });
  // Arrays, BINARY and INTERVAL do not order (QuestDB's ArrayTest#testOrderByArrayColFailsGracefully,
  // SqlCodeGeneratorTest#testOrderByUnsupportedType, OrderByExpressionTest#testOrderByIntervalFails).
  keys.forEach((k, i) => {
    const t = k.index < width ? node.columns[k.index].type : extra[k.index - width].type;
    if (t.tag === "ARRAY" || t.tag === "BINARY" || t.tag === "INTERVAL") {
      throw new SqlError(`${typeName(t)} is not a supported type in ORDER BY clause`, orderBy[i].expr.pos);
    }
  });
  // Ascending by a timestamp column makes it the result's designated timestamp, as in QuestDB
  // (asof-join.md: `ORDER BY ingestion_time ASC` in a subquery sets the timestamp it joins on).
  const first = keys[0];
  const tsIndex = first && !first.desc && first.index < width && isTimestamp(node.columns[first.index].type)
    ? first.index
    : -1;
  if (extra.length === 0) {
    const presorted = orderByTimestamp(node, keys);
    if (presorted) return presorted;
    return { ...shape(node.columns, tsIndex), kind: "sort", input: node, keys };
  }
  // Hidden sort columns: computed next to the output, dropped after sorting.
  const onInput = keys.some((k) => (k as { onInput?: boolean }).onInput);
  let widened: PlanNode;
  if (onInput && node.kind === "project") {
    // Keys bound on the source go into the projection itself. Keys bound on the output
    // (`ORDER BY i % 3, f` with `i` selected and `f` not) read output indexes, which mean
    // other columns of the source: they are computed in a second projection over the first.
    const onSource = new Set(keys.filter((k) => "onInput" in k).map((k) => k.index - width));
    const fromSource = extra.filter((_, i) => onSource.has(i));
    const hidden = (xs: BoundExpr[]) => xs.map((x, i) => ({ name: `\u0000o${i}`, type: x.type }));
    widened = {
      ...shape([...node.columns, ...hidden(fromSource)], node.timestampIndex),
      kind: "project",
      input: node.input,
      exprs: [...node.exprs, ...fromSource],
    };
    if (fromSource.length < extra.length) {
      let next = 0;
      const exprs: BoundExpr[] = [
        ...node.columns.map((c, i) => ({ kind: "column", type: c.type, index: i }) as BoundExpr),
        ...extra.map((x, i) =>
          onSource.has(i) ? ({ kind: "column", type: x.type, index: width + next++ }) as BoundExpr : x
        ),
      ];
      widened = {
        ...shape([...node.columns, ...hidden(extra)], node.timestampIndex),
        kind: "project",
        input: widened,
        exprs,
      };
    }
  } else {
    const exprs: BoundExpr[] = [
      ...node.columns.map((c, i) => ({ kind: "column", type: c.type, index: i }) as BoundExpr),
      ...extra,
    ];
    widened = {
      ...shape(
        [...node.columns, ...extra.map((x, i) => ({ name: `\u0000o${i}`, type: x.type }))],
        node.timestampIndex,
      ),
      kind: "project",
      input: node,
      exprs,
    };
  }
  if (onInput && source && source.scope.timestampIndex >= 0) {
    // A hidden key that is the source's designated timestamp keeps its meaning for the shortcut.
    const ts = extra.findIndex((e) => e.kind === "column" && e.index === source.scope.timestampIndex);
    if (ts >= 0) widened = { ...widened, timestampIndex: width + ts };
  }
  const back = node.columns.map((c, i) => ({ kind: "column", type: c.type, index: i }) as BoundExpr);
  const presorted = orderByTimestamp(widened, keys);
  const sorted: PlanNode = presorted ??
    { ...shape(widened.columns, tsIndex), kind: "sort", input: widened, keys };
  return {
    ...shape(node.columns, presorted && !keys[0].desc ? node.timestampIndex : tsIndex),
    kind: "project",
    input: sorted,
    exprs: back,
  };
}

/**
 * Whether output column `i` is the source column `name` itself, so that `ORDER BY t.name` may
 * read it. An alias over something else (`sum(b) b`, `x + 1 x`) is not: the qualified name
 * means the source's column (SqlParserTest#testFailureOrderByGroupByColPrefixed:
 * `SELECT a, sum(b) b FROM tab ORDER BY tab.b` is `Invalid column: tab.b`).
 */
/** The index of the selected expression that is `e`, or -1. */
function selectedAs(exprs: BoundExpr[], e: BoundExpr): number {
  const key = (x: BoundExpr) => {
    try {
      return JSON.stringify(
        x,
        (k, v) => (k === "binding" || k === "pos" ? undefined : typeof v === "bigint" ? `${v}n` : v),
      );
    } catch {
      return undefined;
    }
  };
  const want = key(e);
  return want === undefined ? -1 : exprs.findIndex((x) => key(x) === want);
}

function readsSourceColumn(
  node: PlanNode,
  i: number,
  ref: Extract<A.Expr, { kind: "column" }>,
  source?: OrderSource,
): boolean {
  if (!source || node.kind !== "project") return true;
  const x = node.exprs[i];
  if (x.kind !== "column") return false;
  // `ORDER BY t2.ts` with `t1.ts` selected: the output column of that name is not the one the
  // qualifier names (OrderByWithFilterTest#testOrderByNonPrefixedColumnNotOnSelectList4).
  let named: number | undefined;
  try {
    named = source.scope.find(ref.name, ref.qualifier, ref.pos);
  } catch {
    named = undefined;
  }
  if (named !== undefined) return x.index === named;
  return node.input.columns[x.index]?.name.toLowerCase() === ref.name.toLowerCase();
}

const LIMIT_TYPES = new Set(["BYTE", "SHORT", "INT", "LONG"]);

function bindLimit(limit: A.Limit, pc: PlanContext): LimitSpec {
  const one = (e: A.Expr | undefined) => {
    if (!e) return null;
    const ctx = bindContext(new Scope([]), pc, "LIMIT");
    const b = inferParam(bindExpr(e, ctx), T.LONG, ctx);
    // QuestDB takes integer expressions only: `LIMIT 5 + 0.3` is 'invalid type: DOUBLE' at the
    // expression's top node, `LIMIT 5,'ab'` 'invalid type: STRING' at the literal.
    if (!LIMIT_TYPES.has(b.type.tag)) {
      throw new SqlError(`invalid type: ${b.type.tag === "NULL" ? "NULL" : typeName(b.type)}`, e.pos);
    }
    if (b.kind !== "const" && b.kind !== "param") throw new SqlError("LIMIT expects a constant", e.pos);
    return b;
  };
  const spec: LimitSpec = {
    lo: one(limit.lo),
    hi: one(limit.hi),
    comma: limit.comma,
    offset: one(limit.offset),
    loPos: limit.lo?.pos,
  };
  checkLimitSigns(spec);
  return spec;
}
