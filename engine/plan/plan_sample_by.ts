/**
 * Plans SAMPLE BY (spec/sql.md §10): the designated timestamp becomes the bucket column, the
 * other non-aggregate items are keys, aggregates are bound over the input, and the select
 * items are projected over [bucket, keys..., aggregates...]. Bucketing and FILL run in
 * `engine/exec/sample_by.ts`.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, isTimestamp, sameType, T, typeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { someExpr } from "../sql/expr_walk.ts";
import { withHiddenTimestamp } from "./plan_asof.ts";
import { exprKey } from "../sql/printer.ts";
import { lookupAggregate } from "../functions/registry.ts";
import type { BoundArg } from "../functions/registry_types.ts";
import { argPosition, atCall, checkAggregateArgs } from "./aggregate_args.ts";
import { checkTwapArgs } from "./twap_checks.ts";
import { checkFilterArgTypes, checkFilterCondition } from "./aggregate_filter.ts";
import { localToUtcTicks, parseOffsetSeconds, resolveTimeZone } from "../functions/timezone.ts";
import { parseTimestamp } from "../functions/timestamp_parse.ts";
import {
  type AggregateBinder,
  type BindContext,
  bindExpr,
  callByName,
  castTo,
  constant,
  isAggregateCall,
} from "./bind_expr.ts";
import { type BoundExpr, isConst } from "./bound.ts";
import { checkDuplicateAliases, NameAllocator, takeItemName } from "./column_names.ts";
import type { PlanContext } from "./plan_context.ts";
import type { AggregateCall, FillSpec, OutputColumn, PlanNode, SampleBySpec } from "./plan_node.ts";
import { shape, timestampLostByLatest } from "./plan_node.ts";
import { bareCount, bindContext, containsAggregate, groupsSelect } from "./plan_select.ts";
import { Scope } from "./scope.ts";
import { checkIndexedFirstLast } from "./sample_by_first_last.ts";

export function planSampleBy(core: A.SelectCore, input: PlanNode, scope: Scope, pc: PlanContext): PlanNode {
  const sb = core.sampleBy!;
  if (core.groupBy) {
    throw new SqlError(
      "SELECT query must not contain both GROUP BY and SAMPLE BY",
      core.groupBy[0]?.pos ?? sb.pos,
    );
  }
  // A bare `count` naming no column is count() here too (SampleByConfigTest: `SELECT ts, count
  // from sensors SAMPLE BY 1d`).
  if (core.items?.some((it) => it.expr.kind === "column")) {
    core = { ...core, items: core.items.map((it) => bareCount(it, scope) ?? it) };
  }
  // QuestDB's order and texts (SampleByTest#testValidationAndRemainingShapesRecover): FROM/TO
  // needs a declared timestamp (a subquery's own does not count without TIMESTAMP(col)), then
  // no `*`, then an aggregate in the select list (both at the stride), then the timestamp.
  if ((sb.from || sb.to) && (scope.timestampIndex < 0 || undeclaredSubquery(core))) {
    throw new SqlError("Sample by requires a designated TIMESTAMP", sb.stridePos);
  }
  // A query without a select list (`(t1 sample by 1m)`) has no aggregate: QuestDB's text, at the
  // stride (SqlParserTest#testSampleBySansSelect, #testSampleByIncorrectPlacement).
  if (!core.items) {
    throw new SqlError("at least one aggregation function must be present in 'select' clause", sb.stridePos);
  }
  const star = core.items.find((it) => it.expr.kind === "star");
  if (star) throw new SqlError("wildcard column select is not allowed in sample-by queries", star.expr.pos);
  if (!core.items.some((it) => groupsSelect(it.expr))) {
    throw new SqlError("at least one aggregation function must be present in 'select' clause", sb.stridePos);
  }
  if (scope.timestampIndex < 0) {
    // A subquery that leaves out its timestamp still samples by it (SampleByPlanningTest
    // #testBaseWithoutProjectedTimestampSamplesByItsSourceTimestamp), carried as a hidden column.
    const hidden = withHiddenTimestamp(input);
    // A LATEST ON subquery emitting its keys in order has a timestamp column but no designated
    // one: QuestDB's code generator reports it at that query (LatestByPlanningTest
    // #testDerivedLatestTimestampDesignationIsObservedByParents).
    const lost = hidden === input ? timestampLostByLatest(input) : undefined;
    if (lost !== undefined) throw new SqlError("TIMESTAMP column is required but not provided", lost);
    if (hidden === input) {
      // QuestDB's optimiser reports it at the query (its model position), joins in their own
      // words (SqlParserTest#testSampleByUndefinedTimestamp, ...WithJoin).
      const joined = (core.from?.joins.length ?? 0) > 0;
      throw new SqlError(
        joined
          ? "TIMESTAMP column is required but not provided"
          : "base query does not provide designated TIMESTAMP column",
        core.pos,
      );
    }
    input = hidden;
    const type = hidden.columns[hidden.timestampIndex].type;
    scope = new Scope([...scope.columns, { name: "\u0000ts", type, qualifiers: [] }], hidden.timestampIndex);
  }
  const tsIndex = scope.timestampIndex;
  checkDuplicateAliases(core.items);
  const names = new NameAllocator(pc.legacyNames);
  const items = core.items.map((it) => ({ ast: it, name: takeItemName(it, pc.legacyNames, names) }));
  const inputCtx = bindContext(scope, pc);
  const isTs = (e: A.Expr) => e.kind === "column" && scope.find(e.name, e.qualifier, e.pos) === tsIndex;
  // An expression of the timestamp alone (`dateadd('m', 5, ts)`, `hour(ts)`) is computed over the
  // bucket, not grouped on (QuestDB SampleByPlanningTest#testKeysAliasesAndTimestampComputationsUseBuckets).
  const overBucket = (e: A.Expr) => {
    let ts = false, other = false;
    someExpr(e, (x) => {
      if (x.kind === "column") {
        if (isTs(x)) ts = true;
        else other = true;
        return false;
      }
      if (x.kind === "subquery" || x.kind === "exists" || (x.kind === "call" && x.over)) other = true;
      return undefined;
    });
    return ts && !other;
  };
  // An expression of the timestamp and other plain columns (`ts1 - ts2`) is computed over the
  // bucket too: its other columns become keys of their own, hidden unless selected
  // (QuestDB SampleByTest#testSampleByRewriteTimestampExpression).
  const overBucketWithColumns = (e: A.Expr) => {
    let ts = false, other = false;
    const columns: A.Expr[] = [];
    someExpr(e, (x) => {
      if (x.kind === "column") {
        if (isTs(x)) ts = true;
        else columns.push(x);
        return false;
      }
      if (x.kind === "subquery" || x.kind === "exists" || (x.kind === "call" && x.over)) other = true;
      return undefined;
    });
    return ts && !other && columns.length > 0 ? columns : undefined;
  };
  const candidates = items.map((i) => i.ast.expr).filter((e) =>
    !containsAggregate(e) && !isTs(e) && !overBucket(e)
  );
  const keyAsts = candidates.filter((e) => !overBucketWithColumns(e));
  const addHiddenKey = (c: A.Expr) => {
    if (!keyAsts.some((k) => exprKey(k) === exprKey(c))) keyAsts.push(c);
  };
  for (const e of candidates) (overBucketWithColumns(e) ?? []).forEach(addHiddenKey);
  // Likewise a plain column beside an aggregate (`datediff('h', ts2, ts) / count()`) is a key
  // (SampleByTest#testSampleByRewriteTimestampMixedWithAggregates: keys [ts, ts2]).
  for (const { ast } of items) {
    if (!containsAggregate(ast.expr)) continue;
    someExpr(ast.expr, (x) => {
      if (x.kind === "call" && (x.over || isAggregateCall(x))) return false;
      if (x.kind === "subquery" || x.kind === "exists") return false;
      if (x.kind !== "column") return undefined;
      if (!isTs(x) && !x.variable) addHiddenKey(x);
      return false;
    });
  }
  const keys = keyAsts.map((k) => bindExpr(k, inputCtx));
  const keyTexts = keyAsts.map((k) => exprKey(k));
  const aggs: AggregateCall[] = [];
  const aggTexts: string[] = [];
  const aggPositions: number[] = [];
  const aggItems: boolean[] = [];
  const binder: AggregateBinder = {
    matchKey(e) {
      if (isTs(e)) return { kind: "column", type: scope.columns[tsIndex].type, index: 0 };
      const i = keyTexts.indexOf(exprKey(e));
      if (i >= 0) return { kind: "column", type: keys[i].type, index: 1 + i };
      if (e.kind === "column") {
        const idx = scope.find(e.name, e.qualifier, e.pos);
        const k = keys.findIndex((x) => x.kind === "column" && x.index === idx);
        if (idx !== undefined && k >= 0) return { kind: "column", type: keys[k].type, index: 1 + k };
      }
      return undefined;
    },
    bindAggregate(call) {
      const text = exprKey(call);
      // A select item that is an aggregate already selected is a column of its own, with its own
      // FILL value (SampleByFillTest#testFillPrevCrossColumnStringSource: `first(s) s1, first(s) tag`).
      const item = items.some((i) => i.ast.expr === call);
      const known = aggTexts.findIndex((t, i) => t === text && !(item && aggItems[i]));
      if (known >= 0) {
        return { kind: "column", type: aggs[known].binding.returns, index: 1 + keys.length + known };
      }
      const fn = lookupAggregate(call.name.toLowerCase())!;
      checkAggregateArgs(call, fn);
      const args = call.args.map((a) => {
        if (containsWindow(a)) {
          throw new SqlError("window function cannot be an aggregate argument", call.pos);
        }
        return bindExpr(a, inputCtx);
      });
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
      aggItems.push(item);
      aggPositions.push(call.pos);
      return { kind: "column", type: binding.returns, index: 1 + keys.length + aggs.length - 1 };
    },
  };
  const postScope = new Scope([]);
  postScope.qualifiersOf = scope;
  const postCtx: BindContext = { ...bindContext(postScope, pc), aggregates: binder };
  const exprs = items.map((i) => {
    try {
      return bindExpr(i.ast.expr, postCtx);
    } catch (err) {
      if (err instanceof SqlError && err.message.startsWith("Invalid column") && scope.namesColumnOf(err)) {
        throw new SqlError("column must appear in GROUP BY clause or aggregate function", err.position);
      }
      throw err;
    }
  });
  // Output names of the items that are a bare aggregate or key, for FILL(PREV(alias)); keys
  // are negative: -1 - key index.
  const aggOfName = new Map<string, number>();
  exprs.forEach((e, k) => {
    // The designated timestamp: no PREV source (FillTest#testInvalidFillDiagnosticsAndCompilerRecovery).
    if (e.kind === "column" && e.index === 0) aggOfName.set(items[k].name.toLowerCase(), NaN);
    else if (e.kind === "column" && e.index > keys.length) {
      aggOfName.set(items[k].name.toLowerCase(), e.index - 1 - keys.length);
    } else if (e.kind === "column" && e.index >= 1 && !aggOfName.has(items[k].name.toLowerCase())) {
      aggOfName.set(items[k].name.toLowerCase(), -e.index);
    }
  });
  checkLinearFill(sb.fill, aggs, aggPositions);
  checkIndexedFirstLast(core, pc);
  const spec = sampleSpec(sb, tsIndex, keys, aggs, pc, aggOfName);
  if (scope.columns[tsIndex].type.tag === "TIMESTAMP_NS") spec.nanos = true;
  const sampleColumns: OutputColumn[] = [
    { name: "\u0000ts", type: scope.columns[tsIndex].type },
    ...keys.map((k, i) => ({ name: `\u0000k${i}`, type: k.type })),
    ...aggs.map((a, i) => ({ name: `\u0000a${i}`, type: a.binding.returns })),
  ];
  const labelShift = offsetOnlyInLabels(spec) ? spec.offsetMicros * (spec.nanos ? 1000n : 1n) : 0n;
  if (labelShift !== 0n) spec.offsetMicros = 0n;
  const sampled: PlanNode = { ...shape(sampleColumns, 0), kind: "sampleBy", input, spec };
  const columns = items.map((it, i) => ({
    name: it.name,
    type: exprs[i].type.tag === "NULL" ? T.STRING : exprs[i].type,
  }));
  const tsOut = exprs.findIndex((e) => e.kind === "column" && e.index === 0);
  const source = labelShift === 0n ? sampled : shiftLabels(sampled, labelShift, pc);
  return { ...shape(columns, tsOut), kind: "project", input: source, exprs };
}

/**
 * With TIME ZONE and WITH OFFSET but no FILL and no FROM/TO, QuestDB buckets on the zone's grid
 * without the offset and adds the offset to each bucket's timestamp only (its
 * timestamp_floor_utc rewrite). SampleByTest#testSampleByAlignToCalendarDSTGapNoBackwardJumpsWithFilter:
 * SAMPLE BY 29m ... TIME ZONE 'Europe/Berlin' WITH OFFSET '00:15' stamps the rows 00:59Z to
 * 01:27Z with 01:14Z; #testIndexSampleByAlignToCalendarWithTimezoneLondon365DaysWithOffset: a
 * 1d bucket is local midnight plus 00:51. With FILL the offset moves the buckets themselves
 * (SampleByFillTest#testFillWithOffsetAndTimezoneAcrossDstSpringForward).
 */
function offsetOnlyInLabels(spec: SampleBySpec): boolean {
  if (!spec.timeZone || spec.offsetMicros === 0n || spec.fill.length > 0) return false;
  if (spec.from !== undefined || spec.to !== undefined) return false;
  const rules = resolveTimeZone(spec.timeZone);
  return rules !== undefined && rules.fixedOffsetSeconds !== 0;
}

/** The sampled rows with `shift` added to the bucket timestamp (column 0). */
function shiftLabels(sampled: PlanNode, shift: bigint, pc: PlanContext): PlanNode {
  const ctx = bindContext(new Scope([]), pc);
  const exprs: BoundExpr[] = sampled.columns.map((c, i) => ({ kind: "column", type: c.type, index: i }));
  exprs[0] = castTo(callByName("+", [exprs[0], constant(T.LONG, shift)], 0, ctx), exprs[0].type, 0);
  return { ...shape(sampled.columns, 0), kind: "project", input: sampled, exprs };
}

/** True when `e` holds a window function call (outside subqueries). */
export function containsWindow(e: A.Expr): boolean {
  return someExpr(e, (x) => (x.kind === "call" && x.over !== undefined ? true : undefined));
}

function constantOf(e: A.Expr, pc: PlanContext, what: string): Value {
  const b = bindExpr(e, bindContext(new Scope([]), pc, what));
  if (!isConst(b)) throw new SqlError(`constant expected in ${what}`, e.pos);
  return b.value;
}

/**
 * True when a keyed query may take `e` as a FROM/TO bound: a literal as written (a negative number
 * or a cast of a literal included). QuestDB fills keyed FROM/TO ranges only for such constants;
 * function calls (dateadd, now()), arithmetic and bind variables take its older path, which refuses
 * keys (sample-by.md "Keyed FROM-TO requires FROM/TO to be constants"; SampleByTest#testKeyedFromTo
 * with now(), SqlCodeGeneratorTest's keyed `from dateadd('h', 0, ...)`).
 */
function isKeyedBound(e: A.Expr): boolean {
  if (e.kind === "literal") return true;
  if (e.kind === "unary" && (e.op === "-" || e.op === "+")) return e.operand.kind === "literal";
  return e.kind === "cast" && e.expr.kind === "literal";
}

function timestampConstant(e: A.Expr, pc: PlanContext): bigint | undefined {
  const v = constantOf(e, pc, "SAMPLE BY FROM/TO");
  if (v === null) return undefined;
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return BigInt(Math.trunc(v));
  if (typeof v === "string") {
    const t = parseTimestamp(v, "us");
    if (t === undefined) throw new SqlError(`Invalid date [str=${v}]`, e.pos);
    return t;
  }
  throw new SqlError("timestamp expected", e.pos);
}

/**
 * With ALIGN TO CALENDAR TIME ZONE and a sub-day stride, TO is a local time: the range ends at its
 * UTC instant, as FROM starts at its own (sample_by_buckets.ts). QuestDB's SampleByFillTest
 * #testFillSubDayTimezoneFromDense: TO '2024-06-01T03:00' in Europe/London ends before 02:00Z.
 * QuestDB converts TO only for sub-day units (its rewriteSampleBy's isSubDay guard): a day or
 * longer stride ends at TO as UTC (SampleByFillNullValueTest#testFillNullFixedOffsetDayStrideEmptyBaseFrom:
 * 1d FROM '2024-01-01' TO '2024-01-04' in '+02:00' keeps the bucket starting 2024-01-03T22:00Z).
 */
function localBoundToUtc(
  t: bigint | undefined,
  timeZone: string | undefined,
  unit: string,
): bigint | undefined {
  if (!"hmsTUn".includes(unit)) return t;
  const rules = t !== undefined && timeZone ? resolveTimeZone(timeZone) : undefined;
  return rules && rules.fixedOffsetSeconds !== 0 ? localToUtcTicks(rules, t!, "us") : t;
}

function sampleSpec(
  sb: A.SampleBy,
  tsIndex: number,
  keys: BoundExpr[],
  aggs: AggregateCall[],
  pc: PlanContext,
  aggOfName: Map<string, number>,
): SampleBySpec {
  let timeZone: string | undefined;
  let offsetMicros = 0n;
  if (sb.align.kind === "calendar") {
    if (sb.align.timeZone) {
      const tz = constantOf(sb.align.timeZone, pc, "TIME ZONE");
      if (tz !== null) {
        if (typeof tz !== "string" || !resolveTimeZone(tz)) {
          throw new SqlError(`invalid timezone: ${tz}`, sb.align.timeZone.pos);
        }
        timeZone = tz;
      }
    }
    if (sb.align.offset) {
      const off = constantOf(sb.align.offset, pc, "WITH OFFSET");
      const text = typeof off === "string" ? off.trim() : "";
      const secs = parseOffsetSeconds(/^[+-]/.test(text) ? text : "+" + text);
      if (secs === undefined) throw new SqlError(`invalid offset: ${off}`, sb.align.offset.pos);
      offsetMicros = BigInt(secs) * 1_000_000n;
    }
  }
  if (keys.length > 0 && [sb.from, sb.to].some((e) => e && !isKeyedBound(e))) {
    throw new SqlError("FROM-TO intervals are not supported for keyed SAMPLE BY queries", 0);
  }
  const from = sb.from ? timestampConstant(sb.from, pc) : undefined;
  // FILL(LINEAR) anchors its buckets at FROM and ignores WITH OFFSET there
  // (SampleByTest#testSampleByFromToFillLinearWithOffset).
  if (from !== undefined && sb.fill.some((f) => f.kind === "linear")) offsetMicros = 0n;
  const to = localBoundToUtc(sb.to ? timestampConstant(sb.to, pc) : undefined, timeZone, sb.unit);
  if (sb.align.kind === "firstObservation" && (sb.from || sb.to)) {
    throw new SqlError(
      "FROM-TO intervals are not supported with ALIGN TO FIRST OBSERVATION",
      (sb.from ?? sb.to)!.pos,
    );
  }
  return {
    tsIndex,
    stride: sb.stride,
    unit: sb.unit,
    keys,
    aggs,
    fill: fillSpecs(sb.fill, { aggs, keys }, pc, aggOfName),
    prevStartsAtZero: keys.length === 0 && sb.from !== undefined && !isKeyedBound(sb.from),
    alignFirstObservation: sb.align.kind === "firstObservation",
    timeZone,
    offsetMicros,
    from,
    to,
  };
}

/**
 * FILL(PREV(k)) naming a key column: the filled row carries its own key value (QuestDB
 * SampleByFillTest#testFillPrevOfIntKeyColumn); not for SYMBOL keys, whose dictionaries differ
 * (#testFillPrevCrossColumnRejectsSymbolSource, at the key's name).
 */
function keyFill(
  o: A.FillOption & { kind: "prev" },
  key: { index: number; type: ColumnType },
  agg: AggregateCall,
): FillSpec {
  const to = agg.binding.returns;
  if (key.type.tag === "SYMBOL" || to.tag === "SYMBOL") {
    throw new SqlError(
      `FILL(PREV(${o.of})) is not supported on SYMBOL columns; use bare FILL(PREV) instead`,
      o.ofPos ?? o.pos,
    );
  }
  if (key.type.tag !== to.tag) {
    throw new SqlError(
      `FILL(PREV(${o.of})) needs a column of the same type [expected=${to.tag}, actual=${key.type.tag}]`,
      o.ofPos ?? o.pos,
    );
  }
  return { kind: "key", index: key.index };
}

/**
 * FILL(LINEAR) interpolates numbers only: an aggregate of a decimal, geohash, text, binary or
 * array type fails at the aggregate, as QuestDB's group-by functions without the LINEAR sample-by
 * flag (SampleByTest#testDecimalInterpolated, #testGeoHashInterpolated; the array_agg and
 * ohlc_bar tests).
 */
const NOT_INTERPOLABLE = new Set(["DECIMAL", "ARRAY", "BINARY", "STRING", "VARCHAR", "GEOHASH"]);

function checkLinearFill(options: A.FillOption[], aggs: AggregateCall[], positions: number[]): void {
  const linearAt = (i: number) => {
    const o = options.length === 1 ? options[0] : options[i];
    return o?.kind === "linear";
  };
  aggs.forEach((a, i) => {
    if (NOT_INTERPOLABLE.has(a.binding.returns.tag) && linearAt(i)) {
      throw new SqlError(`support for LINEAR fill is not yet implemented [function=${a.name}]`, positions[i]);
    }
    // Nor does array_agg take a constant (ArrayAggDoubleGroupByFunctionFactoryTest
    // #testSampleByFillValueRejected: FILL(42), at the aggregate); first(array) still converts
    // the value and fails there (ArrayOperationsTest, `first(a)` with FILL(1)).
    const o = options.length === 1 ? options[0] : options[i];
    if (a.name === "array_agg" && o?.kind === "value") {
      throw new SqlError(`support for VALUE fill is not yet implemented [function=${a.name}]`, positions[i]);
    }
  });
}

function fillSpecs(
  options: A.FillOption[],
  columns: { aggs: AggregateCall[]; keys: BoundExpr[] },
  pc: PlanContext,
  aggOfName: Map<string, number>,
): FillSpec[] {
  const { aggs, keys } = columns;
  if (options.length === 0 || options.every((o) => o.kind === "none")) return [];
  // QuestDB's FillTest#testInvalidFillDiagnosticsAndCompilerRecovery: NONE stands alone, at the NONE.
  const none = options.find((o) => o.kind === "none");
  if (none) throw new SqlError("FILL(NONE) cannot be combined with other fill values", none.pos);
  // A value is placed at its expression (`40+2` at its operator), as QuestDB's fill errors are.
  const at = (o: A.FillOption) => (o.kind === "value" ? o.value.pos : o.pos);
  // A lone PREV / NULL / LINEAR / NONE applies to every aggregate; a lone constant does not:
  // QuestDB wants one value per aggregate and points at the first value given
  // (SampleByFillTest#testFillInsufficientFillValues).
  // PREV(col) does not broadcast either (SampleByFillTest#testFillPrevCrossColumnBroadcastRejection).
  const broadcast = options.length === 1 && options[0].kind !== "value" &&
    !(options[0].kind === "prev" && options[0].of);
  // A lone PREV(col) names one source: QuestDB does not spread it over several aggregates
  // (SampleByFillPrevTest#testFillPrevCrossColumnBroadcastRejection, at the PREV).
  const only = options[0];
  if (options.length === 1 && aggs.length > 1 && only.kind === "prev" && only.of) {
    throw new SqlError(
      `FILL(PREV(${only.of})) cannot be broadcast across aggregates; specify one fill value per aggregate`,
      only.pos,
    );
  }
  if (!broadcast && options.length < aggs.length) {
    // FillTest#testInvalidFillDiagnosticsAndCompilerRecovery says "not enough fill values" where
    // SampleByFillTest#testFillInsufficientFillValues says this; both place it at the first value.
    throw new SqlError(
      `insufficient fill values for SAMPLE BY FILL: expected ${aggs.length} values but only ${options.length} provided`,
      at(options[0]),
    );
  }
  if (options.length > 1 && options.length > aggs.length) {
    throw new SqlError("too many values in FILL", options[aggs.length].pos);
  }
  const specs = aggs.map((a, i): FillSpec => {
    const o = options.length === 1 ? options[0] : options[i];
    switch (o.kind) {
      case "value": {
        const b = bindExpr(o.value, bindContext(new Scope([]), pc, "FILL"));
        if (!isConst(b)) throw new SqlError("constant expected in FILL", o.pos);
        const t = a.binding.returns;
        if (isTimestamp(t) && b.value !== null && typeof b.value !== "string") {
          throw new SqlError(
            `Invalid fill value: '${
              String(b.value)
            }'. Timestamp fill value must be in quotes. Example: '2019-01-01T00:00:00.000Z'`,
            o.value.pos,
          );
        }
        if (isTimestamp(t) && typeof b.value === "string") {
          const ts = parseTimestamp(b.value, "us");
          // SampleByFillTest#testFillRejectInvalidQuotedTimestamp
          if (ts === undefined) throw new SqlError(`invalid fill value: '${b.value}'`, o.value.pos);
          return { kind: "value", value: ts };
        }
        if (t.tag === "ARRAY" && b.value !== null) {
          // No constant converts to an array (FirstArrayGroupByFunctionFactoryTest
          // #testSampleByFillValueRejectedWithArrayColumns).
          throw new SqlError(
            `fill value of type ${typeName(b.type)} cannot fill column of type ${typeName(t)}`,
            o.value.pos,
          );
        }
        const c = castTo(b, t, o.value.pos);
        return { kind: "value", value: isConst(c) ? c.value : null };
      }
      case "prev":
        if (o.of) {
          // spec/sql.md §10.3: the previous value of another aggregate of the same type.
          const index = aggOfName.get(o.of.toLowerCase());
          if (index === undefined) {
            throw new SqlError(`PREV(col): column not found in output: ${o.of}`, o.ofPos ?? o.pos);
          }
          if (Number.isNaN(index)) {
            throw new SqlError("PREV cannot reference the designated timestamp column", o.ofPos ?? o.pos);
          }
          if (index < 0) return keyFill(o, { index: -1 - index, type: keys[-1 - index].type }, a);
          const from = aggs[index].binding.returns, to = a.binding.returns;
          // Errors point at the source column, as QuestDB's (SampleByFillTest#testFillPrevCrossColumn*).
          if (from.tag === "SYMBOL") {
            throw new SqlError(
              `FILL(PREV(${o.of})) needs an aggregate of the same type [expected=${to.tag}, actual=${from.tag}]`,
              o.ofPos ?? o.pos,
            );
          }
          if (!sameType(from, to)) {
            // The type, and decimal precision/scale, geohash width, array dimensions, timestamp
            // unit, must match (SampleByFillPrevTest#testFillPrevCrossColumnTimestampUnitMismatch:
            // 'source type TIMESTAMP cannot fill target column of type TIMESTAMP_NS').
            throw new SqlError(
              `FILL(PREV(${o.of})): source type ${typeName(from)} cannot fill target column of type ${
                typeName(to)
              }`,
              o.ofPos ?? o.pos,
            );
          }
          return index === i ? { kind: "prev" } : { kind: "prevOf", index };
        }
        return { kind: "prev" };
      case "none":
        throw new SqlError("FILL(NONE) cannot be combined with other fill values", o.pos);
      default:
        return { kind: o.kind };
    }
  });
  // A column may take another column's previous value only when that column fills itself
  // (SampleByFillTest#testFillPrevRejectMutualChain, #testFillPrevRejectThreeHopChain).
  specs.forEach((spec, i) => {
    if (spec.kind === "prevOf" && specs[spec.index].kind === "prevOf") {
      throw new SqlError(
        "FILL(PREV) chains are not supported: source column is itself a cross-column PREV",
        options[i].pos,
      );
    }
    // FillTest#testInvalidFillDiagnosticsAndCompilerRecovery refuses `FILL(PREV(b), 0)` ("FILL(PREV)
    // cannot reference a column that is itself filled with a constant"), SampleByFillTest
    // #testFillPrevAcceptPrevToConstant accepts it: kept accepted.
  });
  return specs;
}

/** A lone subquery source without `TIMESTAMP(col)`: QuestDB's FROM/TO fill does not see its timestamp. */
function undeclaredSubquery(core: A.SelectCore): boolean {
  const first = core.from?.first;
  return !!first && core.from!.joins.length === 0 && first.kind === "subquerySource" && !first.timestamp &&
    !first.pivot && !first.unpivot;
}
