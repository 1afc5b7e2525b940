/**
 * Binds AST expressions to typed, resolved `BoundExpr`s: column references to input indexes,
 * operators and functions to registry bindings (with the casts they ask for), constants
 * folded. Aggregates are handled through `AggregateBinder` (the caller decides where they
 * may appear).
 */
import { SCALAR_OVERLOADED_AGGREGATES } from "../functions/aggregate_array_elem.ts";
import { SqlError } from "../base/errors.ts";
import { someExpr } from "../sql/expr_walk.ts";
import { NESTING_DEPTH_MAX } from "../base/limits.ts";
import {
  ARRAY_DIMS_MAX,
  arrayType,
  type ColumnType,
  DECIMAL_PRECISION_MAX,
  decimalType,
  geohashType,
  isTimestamp,
  numericRank,
  parseTypeName,
  sameType,
  T,
  typeName,
} from "../base/types.ts";
import type { Interval, Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { castValue, parseText } from "../functions/cast.ts";
import { caseBranchType } from "../functions/conditional.ts";
import { lookupScalar } from "../functions/registry.ts";
import type { BoundArg, EvalContext, ScalarBinding } from "../functions/registry_types.ts";
import { bindJsonExtractAs, JSON_TYPED } from "../functions/json_extract.ts";
import { parseTimestamp } from "../functions/timestamp_parse.ts";
import { parseIPv4 } from "../functions/_ipv4.ts";
import { formatValue } from "../functions/format_value.ts";
import { type BoundExpr, isConst, isRuntimeConst, valueKey, walkBound } from "./bound.ts";
import type { PlanNode } from "./plan_node.ts";
import type { Scope } from "./scope.ts";
import { type OuterRefs, resolveOuter } from "./outer_refs.ts";
import { DoubleArray } from "../base/double_array.ts";
import {
  bindArrayIndex,
  bindArrayLiteral,
  castArrayDims,
  emptyArrayLiteral,
  explicitArrayCast,
} from "./bind_array.ts";
import { arrayArgumentHint, untypedEmptyArrayArg } from "../functions/arrays.ts";
import { parseDecimalText } from "../functions/decimal_math.ts";
import { bindRegCast, castFromReg, regKindOf } from "./reg_types.ts";
import { bindSystemColumn } from "./system_columns.ts";
import { isTextArrayCast, textArrayCast } from "./pg_text_arrays.ts";
import { bindIn } from "./bind_in.ts";
import { bindTouch } from "./bind_touch.ts";
import { OHLC_AGGREGATE_ARITY_MAX } from "../functions/visualization.ts";

const OHLC_BAR_NAMES = new Set(["ohlc_bar", "ohlc_bar_labels"]);

/** Handles aggregate calls met while binding (GROUP BY / SAMPLE BY select items). */
export interface AggregateBinder {
  /** Returns the expression standing for the aggregate's result. */
  bindAggregate(call: A.FunctionCall): BoundExpr;
  /** For a non-aggregate sub-expression: the grouped key it matches, if any. */
  matchKey(e: A.Expr): BoundExpr | undefined;
}

export interface BindContext {
  scope: Scope;
  /** Evaluates constants at bind time (now(), random seeds, time zone). */
  evalContext: EvalContext;
  /** Plans a subquery (scalar, IN, EXISTS). */
  planSubquery(q: A.Query): PlanNode;
  /** Plans a subquery that may refer to this scope's columns; `outer` are its slot expressions. */
  planCorrelated?(q: A.Query): { plan: PlanNode; outer: BoundExpr[] };
  /** Enclosing scopes, when this expression is inside a subquery. */
  outer?: OuterRefs;
  /** Names of this query that hide enclosing ones though `scope` lacks them (grouped rows). */
  shadows?: Scope;
  aggregates?: AggregateBinder;
  /** Where aggregates are refused, the message names the clause. */
  clause?: string;
  /** Types of bind variables, by 1-based index, when known. */
  paramTypes?: (ColumnType | undefined)[];
  /**
   * Set while preparing (Engine.prepare): placeholders without a type take the type their
   * context gives them (`x > $1` → x's type, `$1::int` → INT, `col IN ($1)`, BETWEEN, LIMIT)
   * and the types are recorded here, by 0-based index.
   */
  inferParams?: (ColumnType | undefined)[];
  depth?: number;
  /**
   * The one LATEST ON PARTITION BY column of a table query, lower case, while its WHERE is bound:
   * `key IN (subquery)` is then QuestDB's latest-by key subquery (see bindIn).
   */
  latestKey?: string;
  /** Conjuncts that fail at position 0 when not boolean (pushed_column_conjuncts.ts). */
  zeroPos?: ReadonlySet<A.Expr>;
}

const COMPARISONS: Record<string, string> = {
  "<": ">=",
  "<=": ">",
  ">": "<=",
  ">=": "<",
  "=": "!=",
  "!=": "=",
  "<>": "=",
};

/**
 * Functions QuestDB evaluates once per execution rather than at compile time ("runtime
 * constants"); folded here too, but marked so text derived from them is not a compile error.
 */
export const RUNTIME_CONSTANTS = new Set(["now", "now_ns", "today", "tomorrow", "yesterday"]);

/**
 * Whether a bound expression may change from row to row (a column, a random function, an outer
 * reference); QuestDB's "neither constant nor runtime constant". Unknown shapes answer false.
 */
function variesPerRow(e: BoundExpr): boolean {
  switch (e.kind) {
    case "column":
      return true;
    case "param":
      return e.outer !== undefined;
    case "subquery":
      return e.outer !== undefined;
    case "call":
      return e.binding.deterministic === false || e.args.some(variesPerRow);
    case "cast":
    case "not":
    case "isNull":
      return variesPerRow(e.arg);
    case "and":
    case "or":
      return e.args.some(variesPerRow);
    case "case":
      return e.whens.some((w) => variesPerRow(w.cond) || variesPerRow(w.then)) || variesPerRow(e.otherwise);
    default:
      return false;
  }
}

export function constant(type: ColumnType, value: Value): BoundExpr {
  return { kind: "const", type, value };
}

function runtimeConstant(type: ColumnType, value: Value): BoundExpr {
  return { kind: "const", type, value, runtime: true };
}

export function bindExpr(e: A.Expr, ctx: BindContext): BoundExpr {
  const depth = (ctx.depth ?? 0) + 1;
  if (depth > NESTING_DEPTH_MAX) throw new SqlError("expression too deeply nested", e.pos, "limit");
  const sub: BindContext = ctx.depth === depth - 1 ? { ...ctx, depth } : ctx;
  if (ctx.aggregates && e.kind !== "call") {
    const key = ctx.aggregates.matchKey(e);
    if (key) return key;
  }
  switch (e.kind) {
    case "literal":
      return bindLiteral(e);
    case "column": {
      if (ctx.aggregates) {
        const key = ctx.aggregates.matchKey(e);
        if (key) return key;
      }
      if (
        ctx.outer && ctx.scope.find(e.name, e.qualifier, e.pos) === undefined &&
        ctx.shadows?.find(e.name, e.qualifier, e.pos) === undefined
      ) {
        const ref = resolveOuter(ctx.outer, e.name, e.qualifier, e.pos);
        if (ref) return ref;
      }
      // SQL's bare `user` (Grafana's `THEN user ELSE` for the search path's "$user") is
      // current_user when no column of that name is in scope, where QuestDB had only an error.
      if (
        !e.qualifier && e.name.toLowerCase() === "user" &&
        ctx.scope.find(e.name, undefined, e.pos) === undefined
      ) {
        return bindCall({
          kind: "call",
          pos: e.pos,
          name: "current_user",
          args: [],
          distinct: false,
          star: false,
        }, sub);
      }
      const system = bindSystemColumn(e, ctx.scope);
      if (system) return system;
      if (e.index !== undefined && ctx.scope.columns[e.index]?.name === e.name) {
        return { kind: "column", type: ctx.scope.columns[e.index].type, index: e.index };
      }
      // A bare name that is no column but a function with a no-argument form is that call:
      // `x * 180.0/PI` is `x * 180.0/pi()` (FunctionFactoryCache.isValidNoArgFunction,
      // TrigonometryTest#testSimpleFromTable), `select now` is `select now()`.
      if (!e.qualifier && ctx.scope.find(e.name, undefined, e.pos) === undefined && hasNoArgForm(e.name)) {
        return bindCall(
          { kind: "call", pos: e.pos, name: e.name, args: [], distinct: false, star: false },
          sub,
        );
      }
      if (e.qualifier !== undefined && unknownQualifier(ctx, e.qualifier)) {
        // A qualifier naming no table or alias in reach is its own error, without the name
        // (QuestDB's FunctionBinder.resolveColumn; NoOpGroupByTest#testNoopGroupByInvalidColumnName1,
        // AggregateTest#testRewriteAggregateOnJoin3: `sum(tabc.x*1)` over taba JOIN tabb).
        throw new SqlError("Invalid table name or alias", e.pos);
      }
      const index = ctx.scope.resolve(e.name, e.qualifier, e.pos);
      return { kind: "column", type: ctx.scope.columns[index].type, index };
    }
    case "star":
      throw new SqlError("'*' is not allowed here", e.pos);
    case "param": {
      const type = ctx.paramTypes?.[e.index - 1] ?? ctx.inferParams?.[e.index - 1] ?? T.STRING;
      return { kind: "param", type, index: e.index, pos: e.pos };
    }
    case "unary":
      return bindUnary(e, sub);
    case "binary":
      return bindBinary(e, sub);
    case "cast":
      return bindCast(e, sub);
    case "case":
      return bindCase(e, sub);
    case "in":
      return bindIn(e, sub);
    case "between":
      return bindBetween(e, sub);
    case "like": {
      const args = [bindExpr(e.expr, sub), bindExpr(e.pattern, sub)];
      const positions = [e.expr.pos, e.pattern.pos];
      if (e.escape) {
        args.push(bindExpr(e.escape, sub));
        positions.push(e.escape.pos);
      }
      const r = callByName(e.caseInsensitive ? "ilike" : "like", args, e.pos, ctx, positions);
      return e.not ? negate(r) : r;
    }
    case "isNull":
      return bindIsNull(bindExpr(e.expr, sub), e.not);
    case "call":
      try {
        return bindCall(e, sub);
      } catch (err) {
        throw unresolvedColumnFirst(e, ctx, err);
      }
    case "subquery": {
      // `(SELECT NULL)` is a NULL of no type, which meets any comparison as the NULL literal
      // does (EqCursorFunctionFactoryTest#testNullLeftColumnFollowsNullEqualsNull).
      if (isBareNullSelect(e.query)) return constant(T.NULL, null);
      const { plan, outer } = planSub(e.query, ctx);
      if (plan.columns.length !== 1) throw new SqlError("select must provide exactly one column", e.pos);
      return { kind: "subquery", type: plan.columns[0].type, plan, pos: e.pos, ...outer };
    }
    case "exists": {
      const { plan, outer } = planSub(e.query, ctx);
      return { kind: "exists", type: T.BOOLEAN, plan, ...outer };
    }
    case "array":
      return bindArrayLiteral(e, sub, bindExpr, castTo);
    case "index":
      return bindArrayIndex(e, sub, bindExpr);
  }
}

/** True when the scalar function `name` accepts no arguments (pi, now, rnd_int...). */
function hasNoArgForm(name: string): boolean {
  const fn = lookupScalar(name);
  if (!fn || !/^[a-z_][a-z0-9_]*$/i.test(name)) return false;
  try {
    return typeof fn.bind([]) !== "string";
  } catch {
    return false;
  }
}

/** `SELECT NULL` alone: no source, filter, grouping, ordering or limit. */
function isBareNullSelect(q: A.Query): boolean {
  const b = q.body;
  if (q.with.length || q.orderBy.length || q.limit || b.kind !== "select") return false;
  const item = b.items?.length === 1 ? b.items[0].expr : undefined;
  return !b.from && !b.where && !b.groupBy && !b.having && item?.kind === "literal" && item.type === "null";
}

/** Plans a subquery, correlated when the context allows; `outer` is spread into the node. */
export function planSub(q: A.Query, ctx: BindContext): { plan: PlanNode; outer: { outer?: BoundExpr[] } } {
  if (!ctx.planCorrelated) return { plan: ctx.planSubquery(q), outer: {} };
  const { plan, outer } = ctx.planCorrelated(q);
  return { plan, outer: outer.length ? { outer } : {} };
}

function bindLiteral(e: A.Literal): BoundExpr {
  switch (e.type) {
    case "int":
      return constant(T.INT, e.value as number);
    case "long":
      return constant(T.LONG, e.value as bigint);
    case "double":
      return constant(T.DOUBLE, e.value as number);
    case "float":
      return constant(T.FLOAT, Math.fround(e.value as number));
    case "decimal": {
      // `123.45m`: DECIMAL with the digits written (§23.2).
      const d = parseDecimalText(String(e.value));
      if (!d || d.precision > DECIMAL_PRECISION_MAX) throw new SqlError("invalid decimal literal", e.pos);
      return constant(decimalType(d.precision, d.scale), d.unscaled);
    }
    case "string":
      return constant(T.STRING, e.value as string);
    case "char":
      return constant(T.CHAR, e.value as string);
    case "boolean":
      return constant(T.BOOLEAN, e.value as boolean);
    case "null":
      return constant(T.NULL, null);
    case "geohash": {
      const g = e.value as { bits: number; value: bigint };
      return constant(geohashType(g.bits), g.value);
    }
    case "long256":
      return constant(T.LONG256, e.value as bigint);
  }
}

function bindUnary(e: A.UnaryExpr, ctx: BindContext): BoundExpr {
  if (e.op === "not") {
    // NOT of a comparison is evaluated as the opposite comparison (§4.2): NOT (5 < NULL) is false.
    const o = e.operand;
    if (o.kind === "binary" && COMPARISONS[o.op]) {
      return bindExpr({ ...o, op: COMPARISONS[o.op] as A.BinaryOp }, ctx);
    }
    // In WHERE QuestDB pushes NOT through AND/OR (De Morgan) down to the comparisons, so a NULL
    // operand fails both NOT (v <= 0 OR v > 1) and its parts
    // (BooleanNotNormalizationTest#testComparisonComplementsAndDeMorganPreserveNulls).
    if (ctx.clause === "WHERE" && o.kind === "binary" && (o.op === "and" || o.op === "or")) {
      const not = (x: A.Expr): A.Expr => ({ kind: "unary", pos: x.pos, op: "not", operand: x });
      return bindExpr(
        { ...o, op: o.op === "and" ? "or" : "and", left: not(o.left), right: not(o.right) },
        ctx,
      );
    }
    const arg = bindExpr(o, ctx);
    if (arg.type.tag !== "BOOLEAN" && arg.type.tag !== "NULL" && arg.kind !== "param") {
      throw new SqlError(
        `argument type mismatch for function \`not\` at #1 expected: BOOLEAN, actual: ${typeName(arg.type)}`,
        o.pos,
      );
    }
    return negate(arg);
  }
  const arg = bindExpr(e.operand, ctx);
  if (e.op === "+") return arg;
  // A BYTE/SHORT constant negates in its width through `neg` (-(32768::short) is -32768:
  // CastShortToDecimalFunctionFactoryTest#testCastToDecimal64 casts it to DECIMAL as -32768).
  if (
    e.op === "-" && isConst(arg) && arg.value !== null && arg.type.tag !== "BYTE" && arg.type.tag !== "SHORT"
  ) {
    if (typeof arg.value === "number") return constant(arg.type, -arg.value);
    if (typeof arg.value === "bigint") return constant(arg.type, -arg.value);
  }
  return callByName(e.op === "-" ? "neg" : "~", [arg], e.pos, ctx);
}

/** NOT x, folding comparisons into their opposites as QuestDB does (§4.2). */
export function negate(x: BoundExpr): BoundExpr {
  if (isConst(x)) return constant(T.BOOLEAN, x.value !== true);
  if (x.kind === "not") return x.arg;
  if (x.kind === "isNull") return { ...x, not: !x.not };
  if (x.kind === "inSet" || x.kind === "inIntervals" || x.kind === "inSubquery") return { ...x, not: !x.not };
  return { kind: "not", type: T.BOOLEAN, arg: x };
}

function bindBinary(e: A.BinaryExpr, ctx: BindContext): BoundExpr {
  const left = bindExpr(e.left, ctx);
  const logical = e.op === "and" || e.op === "or";
  const checkBoolean = (side: BoundExpr, ast: A.Expr) => {
    if (side.type.tag !== "BOOLEAN" && side.type.tag !== "NULL") {
      throw new SqlError(`boolean expression expected`, ctx.zeroPos?.has(ast) ? 0 : ast.pos);
    }
  };
  // A non-boolean left conjunct fails before the right one is bound, in QuestDB's binder order
  // (BindTimePredicateErrorTest#testTypeMismatchOrder: `v - 1 AND v = true` fails at `-`).
  if (logical) checkBoolean(left, e.left);
  const right = bindExpr(e.right, ctx);
  if (e.op === "and" || e.op === "or") {
    checkBoolean(right, e.right);
    if (isConst(left) && isConst(right)) {
      const v = e.op === "and"
        ? left.value === true && right.value === true
        : left.value === true || right.value === true;
      return constant(T.BOOLEAN, v);
    }
    return { kind: e.op, type: T.BOOLEAN, args: [left, right] };
  }
  if (
    (e.op === "=" || e.op === "!=" || e.op === "<>") && isTimestamp(left.type) && right.kind === "const" &&
    right.type.tag === "INTERVAL"
  ) {
    return inIntervalValue(left, right.value as Interval | null, e.op !== "=");
  }
  if (e.op === "within" && e.list) {
    const positions = [e.left.pos, ...e.list.map((x) => x.pos)];
    const prefixes = e.list.map((x) => bindExpr(x, ctx));
    // Under LATEST ON, QuestDB's WhereClauseParser reads WITHIN's prefixes itself: each must be a
    // geohash literal or a constant function (SqlCodeGeneratorTest#testLatestByAllIndexedGeoHashFnNonConst).
    if (ctx.latestKey !== undefined) {
      e.list.forEach((x, i) => {
        if (isConst(prefixes[i]) || prefixes[i].kind === "param") return;
        const fn = x.kind === "call" || x.kind === "binary" || x.kind === "cast";
        throw new SqlError(fn ? "GeoHash const function expected" : "GeoHash literal expected", x.pos);
      });
    }
    return callByName("within", [left, ...prefixes], e.pos, ctx, positions);
  }
  const [l, r] = INFERRING_OPS.has(e.op)
    ? [inferParam(left, right.type, ctx), inferParam(right, left.type, ctx)]
    : [left, right];
  if (COMPARISON_OPS.has(e.op)) {
    // Two scalar subqueries do not compare: QuestDB has no CURSOR op CURSOR operator
    // (DoubleCursorFunctionFactoryTest#testCursorVsCursorFailsCleanly), error at the operator.
    if (l.kind === "subquery" && r.kind === "subquery" && !l.outer && !r.outer) {
      const op = e.op === "<>" ? "!=" : e.op;
      throw new SqlError(
        `there is no matching operator \`${op}\` with the argument types: CURSOR ${op} CURSOR`,
        e.pos,
      );
    }
  }
  return callByName(e.op === "<>" ? "!=" : e.op, [l, r], e.pos, ctx, [e.left.pos, e.right.pos]);
}

/** The comparison operators (the keys of COMPARISONS, their negations). */
const COMPARISON_OPS = new Set(Object.keys(COMPARISONS));

/** Operators whose placeholder operand takes the other operand's type while preparing. */
const INFERRING_OPS = new Set(["=", "!=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"]);

/**
 * While preparing: a placeholder the client gave no type and the binder has not typed yet
 * takes type `t` (the other operand's, a cast's target, a column's), recorded in
 * `ctx.inferParams`. Anything else is returned as is.
 */
export function inferParam(x: BoundExpr, t: ColumnType, ctx: BindContext): BoundExpr {
  const types = ctx.inferParams;
  if (!types || x.kind !== "param" || x.outer !== undefined) return x;
  const i = x.index - 1;
  if (ctx.paramTypes?.[i] !== undefined || types[i] !== undefined) return x;
  if (t.tag === "NULL" || t.tag === "STRING") return x;
  types[i] = t;
  return { ...x, type: t };
}

function bindCast(e: A.CastExpr, ctx: BindContext): BoundExpr {
  const reg = regKindOf(e.type);
  if (reg) return bindRegCast(bindExpr(e.expr, ctx), reg, e.expr.pos, ctx.evalContext);
  if (isTextArrayCast(e.type)) return textArrayCast(bindExpr(e.expr, ctx), e.type, e.pos);
  const to = typeFromSpec(e.type);
  const json = jsonExtractCast(e, to, ctx);
  if (json) return json;
  // `ARRAY[]::DOUBLE[]`: the cast gives the empty literal its type.
  if (to.tag === "ARRAY" && emptyArrayLiteral(e.expr)) return constant(to, DoubleArray.empty(to.dims ?? 1));
  const arg = inferParam(bindExpr(e.expr, ctx), to, ctx);
  const dims = castArrayDims(arg, to, e.pos, ctx) ?? explicitArrayCast(arg, to, e.pos, ctx);
  if (dims) return dims;
  if (to.tag === "IPV4" || to.tag === "UUID") checkIPv4Constant(arg, to, e.expr.pos);
  // A UUID is cast from text only (UuidTest#testLongExplicitCastAsUuid: `cast(l as uuid)`).
  if (to.tag === "UUID" && !["UUID", "NULL", "STRING", "VARCHAR", "SYMBOL"].includes(arg.type.tag)) {
    throw new SqlError(`unsupported cast [from=${typeName(arg.type)}, to=UUID]`, e.pos);
  }
  // Constant text that is no geohash fails at the text (CastGeoHashFunctionFactoryTest
  // #testCastInvalidCharToGeoHash: `cast('a' as geohash(1c))`).
  if (to.tag === "GEOHASH" && isConst(arg) && typeof arg.value === "string" && arg.value !== "") {
    if (
      ["STRING", "VARCHAR", "CHAR", "SYMBOL"].includes(arg.type.tag) && parseText(arg.value, to) === undefined
    ) {
      throw new SqlError("invalid GEOHASH", e.expr.pos);
    }
  }
  // A geohash cast may only drop bits (GeoHashQueryTest#testGeoHashUpcast); QuestDB names the
  // precisions in bits here.
  if (to.tag === "GEOHASH" && arg.type.tag === "GEOHASH" && arg.type.geoBits < to.geoBits) {
    throw new SqlError(
      `CAST cannot narrow values from GEOHASH(${arg.type.geoBits}b) to GEOHASH(${to.geoBits}b)`,
      e.pos,
    );
  }
  // QuestDB folds a constant DATE cast to STRING or VARCHAR, and a constant TIMESTAMP(_NS) cast
  // to VARCHAR, to the tick count, not ISO text (CastTest#testDateToStrConst: `cast(cast(334l as
  // date) as string)` is '334'; #testTimestampToVarcharConst; #testTimestampToStrConst is ISO).
  if (isConst(arg) && !isRuntimeConst(arg) && arg.value !== null && foldsToTicks(arg.type, to)) {
    return constant(to, String(arg.value));
  }
  // QuestDB's Cast{Date,Timestamp}ToSymbolFunctionFactory write the tick count, constant or not
  // (CastTest#testDateToSymbol: a date of 67 ms is the symbol '67', #testTimestampNsToSymbol).
  if (["DATE", "TIMESTAMP", "TIMESTAMP_NS"].includes(arg.type.tag) && to.tag === "SYMBOL") {
    return castTo(castTo(arg, T.LONG, e.pos), to, e.pos);
  }
  if (to.tag === "DECIMAL") {
    checkDecimalLiteral(e.expr, to);
    // A value too wide for the DECIMAL fails at the operand (CastDoubleToDecimalFunctionFactoryTest).
    return castTo(arg, to, e.expr.pos);
  }
  // A cast to a wider number or time reads an INT `+ - *` at LONG width, as QuestDB's casts read
  // getLong/getDouble of AddInt/SubInt/MulInt (IntArithmeticOverflowFoldingTest
  // #testWiderCastsWidenOnBothPaths: `(y + 3)::LONG` with y = 2147483647 is 2147483650).
  if (WIDENING_CASTS.has(to.tag)) return castTo(intArithmeticAsLong(arg, e.pos, ctx), to, e.pos);
  return castTo(arg, to, e.pos);
}

const WIDENING_CASTS = new Set(["LONG", "DOUBLE", "FLOAT", "DATE", "TIMESTAMP"]);

/**
 * A number literal cast to DECIMAL(p, s) must fit in p digits once scaled
 * (CastDoubleToDecimalFunctionFactoryTest#testCastPrecisionValidation: `cast(1000.0 as
 * DECIMAL(4,2))` fails at the literal). Extra decimal places round: decimal.md's
 * `CAST(123.456789 AS DECIMAL(8, 3))` is 123.457, where #testCastScaleValidation fails
 * `cast(123.456 as DECIMAL(5,2))`; the documentation's answer is kept.
 */
function checkDecimalLiteral(e: A.Expr, to: ColumnType): void {
  if (e.kind !== "literal" || e.type !== "decimal" || typeof e.value !== "string") return;
  const int = e.value.split(".")[0];
  const scale = to.scale ?? 0, precision = to.precision ?? 18;
  const digits = int.replace(/^0+/, "").length + scale;
  if (digits > precision) {
    throw new SqlError(
      `decimal '${e.text}' requires precision of ${digits} but is limited to ${precision}`,
      e.pos,
    );
  }
}

/**
 * `json_extract(doc, path)::type` converts the JSON value itself (json.md's table: only JSON
 * `true` is true, numbers truncate, out of range is NULL or 0) instead of casting its text;
 * `::float` is DOUBLE there, json.md's PostgreSQL quirk (`cast(... as float)` stays FLOAT).
 */
function jsonExtractCast(e: A.CastExpr, to: ColumnType, ctx: BindContext): BoundExpr | undefined {
  const call = e.expr;
  if (
    call.kind !== "call" || call.name.toLowerCase() !== "json_extract" || call.over || call.args.length !== 2
  ) {
    return undefined;
  }
  const target = to.tag === "FLOAT" && e.syntax === "colon" ? T.DOUBLE : to;
  if (!JSON_TYPED.has(target.tag)) return undefined;
  const args = call.args.map((a) => bindExpr(a, ctx));
  const bound: BoundArg[] = args.map((a, i) => ({
    type: a.type,
    constant: isConst(a),
    value: isConst(a) ? a.value : undefined,
    pos: call.args[i].pos,
  }));
  const binding = bindJsonExtractAs(bound, target);
  if (typeof binding === "string") throw new SqlError(binding, call.pos);
  if (args.every(isConst)) {
    return constant(target, binding.eval(args.map((a) => (a as { value: Value }).value), ctx.evalContext));
  }
  return { kind: "call", type: target, name: "json_extract", binding, args };
}

/**
 * QuestDB's CastStrToIPv4 / CastStrToUuid factories refuse constant text that is no address /
 * UUID with "invalid IPv4 constant" / "invalid UUID constant" at the text (IPv4Test
 * #testGreaterThanEqIPv4BadStr, UuidTest#testBadConstantUuidWithExplicitCast); non-constant
 * text that does not parse is NULL.
 */
function checkIPv4Constant(arg: BoundExpr, to: ColumnType, pos: number): void {
  if (!isConst(arg) || (arg.type.tag !== "STRING" && arg.type.tag !== "VARCHAR")) return;
  const text = arg.value as string | null;
  if (text === null || text === "") return;
  if (to.tag === "IPV4" && parseIPv4(text) === undefined) throw new SqlError("invalid IPv4 constant", pos);
  if (to.tag === "UUID" && parseText(text, to) === undefined) {
    throw new SqlError("invalid UUID constant", pos);
  }
}

export function typeFromSpec(spec: A.TypeSpec): ColumnType {
  if (spec.arrayDims) {
    // Only DOUBLE elements exist (§22.1); QuestDB's text (ArrayTest#testCreateTableWithUnsupportedColumnType).
    if (spec.name !== "DOUBLE") {
      throw new SqlError(`unsupported array element type [type=${spec.name}]`, spec.pos);
    }
    if (spec.arrayDims > ARRAY_DIMS_MAX) {
      throw new SqlError(`too many array dimensions [max=${ARRAY_DIMS_MAX}]`, spec.pos);
    }
    return arrayType(spec.arrayDims);
  }
  if (spec.name === "GEOHASH") return geohashType(spec.geoBits ?? 60);
  if (spec.name === "DECIMAL") {
    const p = spec.precision ?? 18, s = spec.scale ?? (spec.precision === undefined ? 3 : 0);
    if (p < 1 || p > DECIMAL_PRECISION_MAX) {
      throw new SqlError(
        `invalid DECIMAL type, precision must be between 1 and ${DECIMAL_PRECISION_MAX}`,
        spec.pos,
      );
    }
    if (s < 0 || s > p) {
      throw new SqlError("invalid DECIMAL type, scale must be between 0 and precision", spec.pos);
    }
    return decimalType(p, s);
  }
  const t = parseTypeName(spec.name);
  if (!t) throw new SqlError(`unsupported type: ${spec.text}`, spec.pos);
  return t;
}

const LONG_READERS = new Set(["=", "!=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"]);
const WIDE_INT_OPS = new Set(["+", "-", "*"]);
/**
 * Types that read an INT `+ - *` at LONG width, as QuestDB reads getLong / getTimestamp / getDate
 * of AddInt/SubInt/MulInt: LONG and the timestamps, which count in LONG units. As an operand they
 * make `+ - * / %` and comparisons read the other side wide (`ts - 3600 * 1000000` is an hour
 * earlier); as a function argument or INSERT target they read the value wide (widenedArg). A
 * DOUBLE reads the wrapped INT (IntArithmeticOverflowFoldingTest
 * #testImplicitDoublePromotionWrapsLikeConstantAndColumn).
 */
const LONG_WIDE_TYPES = new Set(["LONG", "DATE", "TIMESTAMP", "TIMESTAMP_NS"]);
export const INT_WIDTH = new Set(["BYTE", "SHORT", "INT"]);

/**
 * An INT `+ - *` read by a LONG operation computes at LONG width: QuestDB's AddInt/SubInt/MulInt
 * implement getLong as `(long) l op r`, and a comparison or arithmetic with a LONG operand reads
 * its INT operand through getLong, so `(a * b) > l` does not wrap where `a * b` alone would
 * (CompiledFilterTest#testIntColumnArithmeticWidenedToLongInLongContext). Only the outermost
 * operation widens; its own operands are still read as INT.
 */
function intArithmeticReadAsLong(
  name: string,
  args: BoundExpr[],
  pos: number,
  ctx: BindContext,
): BoundExpr[] {
  if (args.length !== 2 || !LONG_READERS.has(name) || !args.some((a) => LONG_WIDE_TYPES.has(a.type.tag))) {
    return args;
  }
  return args.map((a) => intArithmeticAsLong(a, pos, ctx));
}

/** `a` computed at LONG width when it is an INT `+ - *` of integers; else `a` itself. */
export function intArithmeticAsLong(a: BoundExpr, pos: number, ctx: BindContext): BoundExpr {
  return a.kind === "call" && a.type.tag === "INT" && WIDE_INT_OPS.has(a.name) && a.args.length === 2 &&
      a.args.every((x) => INT_WIDTH.has(x.type.tag))
    ? callByName(a.name, a.args.map((x) => castTo(x, T.LONG, pos)), pos, ctx)
    : a;
}

/**
 * Text on one side of `=`/`!=`: against a GEOHASH it is read as a geohash of that side's
 * precision, as QuestDB's EqGeoHashStrFunctionFactory and EqStrGeoHashFunctionFactory do
 * (EqGeoHashStrFunctionFactoryTest: `geohash1 = 'sp052w92p1'` on a GEOHASH(10c) column);
 * against a LONG256 it must be a constant.
 */
function equalityTextOperand(
  name: string,
  args: BoundExpr[],
  argPositions: number[] | undefined,
  pos: number,
) {
  if (args.length !== 2 || !["=", "!=", "<>"].includes(name)) return args;
  const text = (a: BoundExpr) => a.type.tag === "STRING" || a.type.tag === "VARCHAR";
  const l = args.findIndex((a) => a.type.tag === "LONG256");
  if (l >= 0 && isConst(args[l]) && args[l].value !== null && numericRank(args[1 - l].type) > 0) {
    // A hex literal against a number is no number (BindTimePredicateErrorTest#testConjunctOrder:
    // `v = 0x123` on an INT is 'invalid constant: 0x123' at the literal).
    throw new SqlError(
      `invalid constant: ${String(formatValue(args[l].value, T.LONG256)).replace(/^0x0+(?=.)/, "0x")}`,
      argPositions?.[l] ?? pos,
    );
  }
  if (l >= 0 && text(args[1 - l]) && !isConst(args[1 - l]) && args[1 - l].kind !== "param") {
    // QuestDB's `=(Hs)` takes only a constant text (EqLong256StrFunctionFactoryTest#testStrColumnInEqFilter).
    throw new SqlError("STRING constant expected", argPositions?.[1 - l] ?? pos);
  }
  const g = args.findIndex((a) => a.type.tag === "GEOHASH");
  const t = 1 - g;
  if (g < 0 || !text(args[t])) return args;
  const out = [...args];
  out[t] = castTo(args[t], args[g].type, argPositions?.[t] ?? pos);
  return out;
}

/**
 * Whether an INT `+ - *` of two INT constants leaves the INT range. Such a call stays unfolded:
 * read as INT it wraps like the same arithmetic over columns (`2147483647 + 1` is NULL, spec/sql.md
 * §4.3), while a cast or a LONG reader can still compute it at LONG width (intArithmeticAsLong):
 * QuestDB keeps both readings of an overflowing constant (IntArithmeticOverflowFoldingTest:
 * `(2147483647 + 3)::LONG` is 2147483650, `to_utc(1720468802 * 1000000, tz)` reads the product).
 */
function overflowingIntConstants(name: string, returns: ColumnType, args: BoundExpr[]): boolean {
  if (returns.tag !== "INT" || args.length !== 2 || !WIDE_INT_OPS.has(name)) return false;
  const [a, b] = args.map((x) => (x.kind === "const" && x.type.tag === "INT" ? x.value : undefined));
  if (typeof a !== "number" || typeof b !== "number") return false;
  const exact = name === "+"
    ? BigInt(a) + BigInt(b)
    : name === "-"
    ? BigInt(a) - BigInt(b)
    : BigInt(a) * BigInt(b);
  return exact > 2147483647n || exact < -2147483647n;
}

/**
 * `a` as a value of type `to` (a function argument, an INSERT value): an INT `+ - *` read at LONG
 * width where `to` reads it so (`INSERT INTO t (l) VALUES (3600 * 1000000)` stores 3600000000).
 */
export function widenedArg(a: BoundExpr, to: ColumnType, pos: number, ctx: BindContext): BoundExpr {
  return a.type.tag === "INT" && LONG_WIDE_TYPES.has(to.tag) ? intArithmeticAsLong(a, pos, ctx) : a;
}

/**
 * Converts `arg` to type `to`: folded for constants (unparseable text is an error), a cast node
 * otherwise. `implicit`: a function argument's cast, whose unreadable text fails per row (bound.ts).
 */
export function castTo(arg: BoundExpr, to: ColumnType, pos: number, implicit = false): BoundExpr {
  const fromReg = castFromReg(arg, to, pos);
  if (fromReg) return fromReg;
  if (sameType(arg.type, to)) return arg;
  if (isRuntimeConst(arg)) {
    return runtimeConstant(to, castValue(arg.value, arg.type, to, { constant: false, pos }));
  }
  if (isConst(arg)) return constant(to, castValue(arg.value, arg.type, to, { constant: true, pos }));
  const cast: BoundExpr = { kind: "cast", type: to, from: arg.type, arg, pos };
  if (implicit && numericRank(to) > 0 && ["STRING", "VARCHAR", "SYMBOL"].includes(arg.type.tag)) {
    cast.implicit = true;
  }
  return rereadsArgument(arg, to)
    ? {
      kind: "case",
      type: to,
      whens: [{ cond: { kind: "isNull", type: T.BOOLEAN, arg, not: false }, then: constant(to, null) }],
      otherwise: cast,
    }
    : cast;
}

/**
 * QuestDB's INT to IPv4 cast reads its argument twice per row, once for the NULL check and once
 * for the value (CastIntToIPv4FunctionFactory), so a drawing argument (rnd_*) takes two draws:
 * `rnd_int()::ipv4` shows every other rnd_int (IPv4Test#testExplicitCastIntToIPv4; text casts
 * read once, #testExplicitCastStrToIPv4). Only a non-deterministic argument can tell.
 */
function rereadsArgument(arg: BoundExpr, to: ColumnType): boolean {
  if (to.tag !== "IPV4" || arg.type.tag !== "INT") return false;
  let draws = false;
  walkBound(arg, (x) => {
    if (x.kind === "call" && x.binding.deterministic === false) draws = true;
  });
  return draws;
}

/** The constant time casts QuestDB's factories fold to a number (bindCast). */
function foldsToTicks(from: ColumnType, to: ColumnType): boolean {
  if (from.tag === "DATE") return to.tag === "STRING" || to.tag === "VARCHAR";
  return (from.tag === "TIMESTAMP" || from.tag === "TIMESTAMP_NS") && to.tag === "VARCHAR";
}

/** Number types a text CASE refuses (bindCase). */
const NUMBER_TAGS = new Set(["BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE", "DECIMAL"]);

/** True when bind variable `$index` has neither a declared nor an inferable type. */
function untypedParam(index: number, ctx: BindContext): boolean {
  return ctx.paramTypes?.[index - 1] === undefined && ctx.inferParams === undefined;
}

function bindCase(e: A.CaseExpr, ctx: BindContext): BoundExpr {
  const operand = e.operand ? bindExpr(e.operand, ctx) : undefined;
  const whens = operand ? switchWhens(e, operand, ctx) : e.whens.map((w) => {
    const cond = bindExpr(w.when, ctx);
    // QuestDB's CaseFunctionFactory (ConditionalExpressionTest): `CASE WHEN i THEN ...`.
    if (cond.type.tag !== "BOOLEAN" && cond.type.tag !== "NULL") {
      throw new SqlError(`BOOLEAN expected, found ${typeName(cond.type)}`, w.when.pos);
    }
    return { cond, then: bindExpr(w.then, ctx), pos: w.then.pos };
  });
  const otherwise0 = e.else ? bindExpr(e.else, ctx) : constant(T.NULL, null);
  // A bind variable of no known type cannot give a branch its type
  // (ConditionalExpressionTest#testConditionalValidationAndOwnershipGatesRecover).
  for (const v of [...whens.map((w) => w.then), otherwise0]) {
    if (v.kind === "param" && untypedParam(v.index, ctx)) {
      throw new SqlError("CASE values cannot be bind variables", v.pos);
    }
  }
  // Branch types meet in order (QuestDB's CaseCommon): a searched CASE's THEN values, then
  // ELSE; a `CASE x WHEN` switch starts from its ELSE (SwitchFunctionFactory).
  // A missing ELSE is a NULL branch.
  const valued = whens.map((w) => ({ t: w.then.type, pos: w.pos }));
  valued[operand ? "unshift" : "push"]({ t: otherwise0.type, pos: e.else?.pos ?? e.pos });
  let type: ColumnType = valued[0].t;
  for (const v of valued.slice(1)) {
    const met = caseBranchType(type, v.t);
    if (typeof met === "string") throw new SqlError(met, v.pos);
    type = met;
  }
  if (type.tag === "NULL") type = T.STRING;
  if (type.tag === "STRING" || type.tag === "VARCHAR") {
    // QuestDB's CASE casts no number to text: `CASE WHEN .. THEN varchar_col ELSE 3 END` fails at
    // the number (CaseFunctionFactoryTest#testIntToVarcharCast, #testIntToStringCastOnBranch).
    const branches = [...whens.map((w) => ({ t: w.then.type, pos: w.pos }))];
    if (e.else) branches.push({ t: otherwise0.type, pos: e.else.pos });
    const text = branches.some((b) => b.t.tag === "STRING" || b.t.tag === "VARCHAR");
    // An IPv4 or UUID branch makes the text ones IPv4 / UUID, unparsable text NULL
    // (#testIPv4ToVarcharCast, #testUuidToVarcharCast).
    const special = text ? branches.find((b) => b.t.tag === "IPV4" || b.t.tag === "UUID") : undefined;
    if (special) type = special.t;
    const num = text && !special ? branches.find((b) => NUMBER_TAGS.has(b.t.tag)) : undefined;
    if (num) {
      const from = typeName(num.t), to = typeName(type);
      throw new SqlError(`inconvertible types: ${from} -> ${to} [from=${from}, to=${to}]`, num.pos);
    }
  }
  const otherwise = castTo(otherwise0, type, e.else?.pos ?? e.pos);
  return {
    kind: "case",
    type,
    whens: whens.map((w) => ({ cond: w.cond, then: castTo(w.then, type, w.pos) })),
    otherwise,
  };
}

/**
 * The branches of `CASE x WHEN v THEN ...`, which QuestDB compiles to its `switch` function
 * (ConditionalExpressionTest#testConditionalValidationAndOwnershipGatesRecover): a constant
 * seen twice is an error at the second, and of several `WHEN null` branches the last one
 * answers for a NULL operand (the switch's key map keeps the last).
 */
function switchWhens(
  e: A.CaseExpr,
  operand: BoundExpr,
  ctx: BindContext,
): { cond: BoundExpr; then: BoundExpr; pos: number }[] {
  const seen = new Set<unknown>();
  if (!SWITCH_KEY_TAGS.has(operand.type.tag) && operand.type.tag !== "NULL") {
    const pos = e.operand?.pos ?? e.pos;
    throw new SqlError(
      `type ${typeName(operand.type)} is not supported in 'switch' type of 'case' statement`,
      pos,
    );
  }
  // A BOOLEAN switch has two keys at most (SwitchFunctionFactoryTest
  // #testBooleanDuplicateWayTooManyBranches).
  if (operand.type.tag === "BOOLEAN" && e.whens.length > 2) {
    throw new SqlError("too many branches", e.whens[2].when.pos);
  }
  const values = e.whens.map((w) => {
    const v = bindExpr(w.when, ctx);
    // SwitchFunctionFactoryTest#testLongVariableKeyError
    if (!isConst(v) && !isRuntimeConst(v)) throw new SqlError("constant expected", w.when.pos);
    return v;
  });
  const lastNull = values.findLastIndex((v) => isConst(v) && v.value === null);
  const out = [];
  const floating = operand.type.tag === "DOUBLE" || operand.type.tag === "FLOAT";
  for (let i = 0; i < values.length; i++) {
    const v = values[i], w = e.whens[i];
    let key: number | Value = null;
    if (isConst(v) && v.value !== null) {
      // Keys are compared as the operand's type: `when '701'` repeats `when 701` of a LONG
      // switch (#testDuplicateBranchStringToLongCast); 0.0 and -0.0 are two keys (#testFloatOrElse).
      key = v.value;
      let keyType = v.type;
      if (v.type.tag !== operand.type.tag) {
        try {
          key = castValue(v.value, v.type, operand.type);
          keyType = operand.type;
        } catch { /* compared by `=` below, which reports it */ }
      }
      const raw = valueKey(key);
      const seenKey = `${keyType.tag}:${Object.is(raw, -0) ? "-0" : String(raw)}`;
      if (seen.has(seenKey)) throw new SqlError("duplicate branch", w.when.pos);
      seen.add(seenKey);
    }
    if (isConst(v) && v.value === null && i !== lastNull) continue;
    const zero = floating && key === 0 ? key : undefined;
    out.push({
      cond: zero === undefined
        ? callByName("=", [operand, v], w.when.pos, ctx)
        : signedZeroKey(operand, zero),
      then: bindExpr(w.then, ctx),
      pos: w.then.pos,
    });
  }
  return out;
}

/** Operand types QuestDB's SwitchFunctionFactory keys on. */
const SWITCH_KEY_TAGS = new Set(
  "BOOLEAN BYTE SHORT CHAR INT IPV4 LONG FLOAT DOUBLE DATE TIMESTAMP TIMESTAMP_NS STRING SYMBOL VARCHAR"
    .split(" "),
);

/** A float switch key 0.0 or -0.0, which matches only the zero of its own sign (bit equality). */
function signedZeroKey(operand: BoundExpr, zero: number): BoundExpr {
  return {
    kind: "call",
    type: T.BOOLEAN,
    name: "=",
    binding: { returns: T.BOOLEAN, eval: (vals) => Object.is(vals[0], zero) },
    args: [operand],
  };
}

export function inIntervals(arg: BoundExpr, intervals: Interval[], not: boolean): BoundExpr {
  return { kind: "inIntervals", type: T.BOOLEAN, arg, intervals, not };
}

/**
 * `ts IN <INTERVAL value>`: an INTERVAL holds microseconds, so a nanosecond operand tests the
 * interval widened to whole nanoseconds (IntervalFunctionTest#testNowNsInInterval:
 * `now_ns() in today()` holds). A NULL interval matches nothing.
 */
export function inIntervalValue(arg: BoundExpr, iv: Interval | null, not: boolean): BoundExpr {
  if (iv === null) return inIntervals(arg, [], not);
  const ns = arg.type.tag === "TIMESTAMP_NS";
  return inIntervals(arg, [ns ? { lo: iv.lo * 1000n, hi: iv.hi * 1000n + 999n } : iv], not);
}

/** Key used by IN sets: numbers and bigints with equal value meet; strings stay strings. */
export function normKey(v: Value): unknown {
  if (typeof v === "number") return Number.isInteger(v) ? `n${v}` : v;
  if (typeof v === "bigint") return `n${v}`;
  if (typeof v === "boolean") return v;
  return valueKey(v);
}

function bindBetween(e: A.BetweenExpr, ctx: BindContext): BoundExpr {
  const x = bindExpr(e.expr, ctx);
  let lo = inferParam(bindExpr(e.lo, ctx), x.type, ctx);
  let hi = inferParam(bindExpr(e.hi, ctx), x.type, ctx);
  let [loPos, hiPos] = [e.lo.pos, e.hi.pos];
  const scalarSub = (b: BoundExpr) => b.kind === "subquery" && !b.outer;
  if ((scalarSub(lo) || scalarSub(hi)) && !isTimestamp(x.type) && x.type.tag !== "NULL") {
    // QuestDB's BETWEEN takes scalar-subquery bounds for timestamps only
    // (BetweenTimestampCursorFunctionFactoryTest#testLeftOperandNotTimestampFails).
    throw new SqlError(`left operand must be a TIMESTAMP, found: ${typeName(x.type)}`, e.expr.pos);
  }
  if (x.type.tag === "TIMESTAMP") {
    // Nanosecond subquery bounds of a microsecond value floor to microseconds first
    // (BetweenTimestampCursorFunctionFactoryTest#testUsColumnWithNanoCursorBounds).
    const floorNs = (b: BoundExpr, pos: number) =>
      scalarSub(b) && b.type.tag === "TIMESTAMP_NS" ? castTo(b, x.type, pos) : b;
    [lo, hi] = [floorNs(lo, loPos), floorNs(hi, hiPos)];
  }
  if (isTimestamp(x.type)) {
    lo = timestampBound(lo, x.type, e.lo.pos);
    hi = timestampBound(hi, x.type, e.hi.pos);
    if (
      isConst(lo) && isConst(hi) && lo.value !== null && hi.value !== null &&
      (lo.value as bigint) > (hi.value as bigint)
    ) {
      [lo, hi, loPos, hiPos] = [hi, lo, hiPos, loPos];
    }
  }
  if ((isConst(lo) && lo.value === null) || (isConst(hi) && hi.value === null)) {
    return constant(T.BOOLEAN, e.not);
  }
  const within = (a: BoundExpr, b: BoundExpr, aPos: number, bPos: number): BoundExpr => ({
    kind: "and",
    type: T.BOOLEAN,
    args: [
      callByName(">=", [x, a], e.pos, ctx, [e.expr.pos, aPos]),
      callByName("<=", [x, b], e.pos, ctx, [e.expr.pos, bPos]),
    ],
  });
  let r = within(lo, hi, loPos, hiPos);
  if (isTimestamp(x.type) && !(isConst(lo) && isConst(hi))) {
    // QuestDB's timestamp BETWEEN takes its bounds in either order, also when one is computed
    // per row (TimestampQueryTest#testTimestampStringComparisonBetween: `nts between
    // '2020-01-02' and dateadd('d', -1, nts)`).
    r = {
      kind: "case",
      type: T.BOOLEAN,
      whens: [{ cond: callByName("<=", [lo, hi], e.pos, ctx, [loPos, hiPos]), then: r }],
      otherwise: within(hi, lo, hiPos, loPos),
    };
  }
  return e.not ? { kind: "not", type: T.BOOLEAN, arg: r } : r;
}

function timestampBound(b: BoundExpr, t: ColumnType, pos: number): BoundExpr {
  if (isConst(b) && (b.type.tag === "STRING" || b.type.tag === "VARCHAR")) {
    if (b.value === null) return constant(t, null);
    const v = parseTimestamp(b.value as string, t.tag === "TIMESTAMP_NS" ? "ns" : "us");
    if (v === undefined && isRuntimeConst(b)) return runtimeConstant(t, null);
    if (v === undefined) throw new SqlError(`Invalid date [str=${b.value}]`, pos);
    return constant(t, v);
  }
  return b;
}

export function bindIsNull(arg: BoundExpr, not: boolean): BoundExpr {
  if (isConst(arg)) return constant(T.BOOLEAN, (arg.value === null) !== not);
  return { kind: "isNull", type: T.BOOLEAN, arg, not };
}

function bindCall(e: A.FunctionCall, ctx: BindContext): BoundExpr {
  if (e.over) {
    // QuestDB names the clause for WHERE and PARTITION BY.
    const named = ctx.clause === "WHERE" || ctx.clause === "PARTITION BY";
    throw new SqlError(
      named
        ? `window function is not allowed in ${ctx.clause} clause`
        // Over grouped rows (a grouped query's ORDER BY), QuestDB's aggregation message
        // (WindowFunctionTest#testNestedWindowFunctionInGroupByContextFails).
        : ctx.aggregates
        ? "Window function is not allowed in context of aggregation. Use sub-query."
        : "window functions are not supported here",
      e.pos,
    );
  }
  const name = e.name.toLowerCase().replace(/^pg_catalog\./, "");
  if (ctx.aggregates) {
    const key = ctx.aggregates.matchKey(e);
    if (key) return key;
  }
  if (isAggregateCall(e)) {
    if (!ctx.aggregates) {
      // QuestDB resolves the column arguments first (SqlCompilerImplTest
      // #testFailOnEmptyColumnName: `WHERE SUM("", "")` fails at the empty name).
      for (const a of e.args) if (a.kind === "column") bindExpr(a, ctx);
      throw new SqlError(`aggregate functions are not allowed in ${ctx.clause ?? "this context"}`, e.pos);
    }
    return ctx.aggregates.bindAggregate(e);
  }
  if (e.filter) throw new SqlError("FILTER is supported only for aggregate functions", e.pos);
  // array_elem_sum(a, b) is no aggregate, yet QuestDB checks its arguments as one's
  // (ArrayElementTest: `array_elem_sum(array_agg(x), ARRAY[1.0])` fails at array_agg).
  if (SCALAR_OVERLOADED_AGGREGATES.has(name)) {
    for (const a of e.args) {
      if (someExpr(a, (x) => (x.kind === "call" && isAggregateCall(x) ? true : undefined))) {
        throw new SqlError("Aggregate function cannot be passed as an argument", a.pos);
      }
    }
  }
  if (e.star) throw new SqlError(`'*' is not allowed in ${name}()`, e.pos);
  if (name === "touch" && e.args.length === 1 && e.args[0].kind === "subquery") {
    return bindTouch(e.args[0], ctx);
  }
  const args = e.args.map((a) => bindCallArg(a, ctx));
  const untyped = e.args.findIndex((a) => a.kind === "array" && emptyArrayLiteral(a));
  if (untyped >= 0) {
    const msg = untypedEmptyArrayArg(
      name,
      untyped,
      args.map((a, i) => i === untyped ? "ARRAY" : typeName(a.type)),
    );
    const at = e.args[untyped] as A.ArrayLiteral;
    if (msg) throw new SqlError(msg, msg.startsWith("argument") ? at.bracket ?? at.pos : e.pos);
  }
  return callByName(name, args, e.pos, ctx, e.args.map((a) => a.pos));
}

/**
 * A scalar function's argument. A subquery's untyped NULL column passes as the NULL literal, as
 * QuestDB hands a NULL-typed column to a function: `to_utc(ts, zone) FROM (SELECT null zone)` is
 * refused at bind time like `to_utc(ts, null)` (ToUTCTimestampFunctionFactoryTest#testVarNullTimezone).
 * An overflowing INT `+ - *` of constants passes at LONG width, as QuestDB's functions read it
 * through getLong: `timestamp_sequence(t0, 3600 * 1000000)` steps by an hour, not by the wrapped
 * -694967296 (SampleByTest and countless scripts write it so).
 */
function bindCallArg(a: A.Expr, ctx: BindContext): BoundExpr {
  const bound = bindExpr(a, ctx);
  if (bound.kind === "column" && ctx.scope.columns[bound.index]?.untypedNull) return constant(T.NULL, null);
  if (bound.kind === "call" && overflowingIntConstants(bound.name, bound.type, bound.args)) {
    return intArithmeticAsLong(bound, a.pos, ctx);
  }
  return bound;
}

let aggregateNames: ((n: string) => boolean) | undefined;

/** Registered by the planner at load time, to avoid an import cycle with the registry. */
export function setAggregateNamePredicate(p: (n: string) => boolean): void {
  aggregateNames = p;
}

export function isAggregateCall(e: A.FunctionCall): boolean {
  if (e.over) return false;
  const name = e.name.toLowerCase();
  // array_elem_sum(a) aggregates a group's arrays; array_elem_sum(a, b) combines two arrays.
  if (SCALAR_OVERLOADED_AGGREGATES.has(name) && e.args.length > 1) return false;
  // ohlc_bar(price, min, max [, width]) aggregates; ohlc_bar(open, high, low, close, ...) does not.
  if (OHLC_BAR_NAMES.has(name) && e.args.length > OHLC_AGGREGATE_ARITY_MAX) return false;
  return aggregateNames ? aggregateNames(name) : false;
}

/** Functions that exist only with OVER: called without it, QuestDB names the missing clause. */
export const WINDOW_ONLY_FUNCTIONS: ReadonlySet<string> = new Set([
  "row_number",
  "rank",
  "dense_rank",
  "percent_rank",
  "cume_dist",
  "ntile",
  "lag",
  "lead",
  "first_value",
  "last_value",
  "nth_value",
]);

export const UNNEST_IN_EXPRESSION = "UNNEST cannot be used as an expression; use it in the FROM clause";

/**
 * Resolves and binds a scalar function or operator by name; folds constant calls. `argPositions`
 * are the arguments' offsets in the SQL text (the call's own offset where not given), so that a
 * function can point an error at the argument at fault (a bad regex pattern).
 */
export function callByName(
  name: string,
  args: BoundExpr[],
  pos: number,
  ctx: BindContext,
  argPositions?: number[],
): BoundExpr {
  const fn = lookupScalar(name);
  if (!fn && WINDOW_ONLY_FUNCTIONS.has(name.toLowerCase())) {
    throw new SqlError("window function called in non-window context, make sure to add OVER clause", pos);
  }
  // QuestDB's UNNEST is a FROM-clause source only (docs query/sql/unnest.md).
  if (!fn && name.toLowerCase() === "unnest") throw new SqlError(UNNEST_IN_EXPRESSION, pos);
  if (!fn) {
    throw new SqlError(`unknown function name: ${name}(${args.map((a) => typeName(a.type)).join(",")})`, pos);
  }
  args = equalityTextOperand(name, intArithmeticReadAsLong(name, args, pos, ctx), argPositions, pos);
  if (ctx.inferParams) {
    // A placeholder where an array function wants its array is typed DOUBLE[] (§22.5).
    args = args.map((a, i) => {
      const hint = arrayArgumentHint(name, i);
      return hint ? inferParam(a, hint, ctx) : a;
    });
  }
  const bound: BoundArg[] = args.map((a, i) => ({
    type: a.type,
    constant: isConst(a),
    value: isConst(a) ? a.value : undefined,
    pos: argPositions?.[i] ?? pos,
    param: a.kind === "param" || undefined,
    subquery: (a.kind === "subquery" && !a.outer) || undefined,
    perRow: variesPerRow(a) || undefined,
  }));
  let binding: ScalarBinding | string;
  try {
    binding = fn.bind(bound);
  } catch (err) {
    if (err instanceof SqlError && err.position < 0) throw new SqlError(err.message, pos, err.kind);
    throw err;
  }
  if (typeof binding === "string") throw new SqlError(binding, pos);
  const finalArgs = binding.argTypes
    ? args.map((a, i) => {
      const to = binding.argTypes![i] ?? a.type;
      return castTo(widenedArg(a, to, pos, ctx), to, pos, true);
    })
    : args;
  const call: BoundExpr = { kind: "call", type: binding.returns, name, binding, args: finalArgs };
  if (binding.deterministic !== false && finalArgs.every(isConst)) {
    if (overflowingIntConstants(name, binding.returns, finalArgs)) return call;
    try {
      const value = binding.eval(finalArgs.map((a) => (a as { value: Value }).value), ctx.evalContext);
      const runtime = RUNTIME_CONSTANTS.has(name.toLowerCase()) || finalArgs.some(isRuntimeConst);
      return runtime ? runtimeConstant(binding.returns, value) : constant(binding.returns, value);
    } catch (err) {
      if (err instanceof SqlError && err.position < 0) throw new SqlError(err.message, pos, err.kind);
      throw err;
    }
  }
  return call;
}

/**
 * Whether `q` names none of the tables and aliases the expression can read: its own scope's,
 * the grouped input's (shadows) and the enclosing queries'. A scope of unqualified columns
 * (a query's output, which ORDER BY reads) cannot tell, so the name stays 'Invalid column'.
 */
function unknownQualifier(ctx: BindContext, q: string): boolean {
  const scopes: Scope[] = [ctx.scope];
  if (ctx.shadows) scopes.push(ctx.shadows);
  for (let o = ctx.outer; o; o = o.parent) scopes.push(o.scope);
  return scopes[0].hasQualifiers() && !scopes.some((s) => s.hasQualifier(q));
}

const RESOLUTION_ERROR = /^(Invalid column|Invalid table name or alias|Ambiguous column)/;

/**
 * The error of a call that failed to bind: QuestDB resolves every column of the expression
 * before it looks any function up, so a column that does not resolve is reported first
 * (BindTimeProjectionErrorTest#testErrorsFollowBinderOrder: `foo(abs(true), nocol)` and
 * `abs(true, nocol)` fail at nocol). Over grouped rows the binder's error stands.
 */
function unresolvedColumnFirst(e: A.FunctionCall, ctx: BindContext, err: unknown): unknown {
  if (!(err instanceof SqlError) || RESOLUTION_ERROR.test(err.message) || ctx.aggregates) return err;
  let first: SqlError | undefined;
  someExpr(e, (x) => {
    if (x.kind !== "column") return undefined;
    try {
      bindExpr(x, ctx);
    } catch (inner) {
      if (inner instanceof SqlError && RESOLUTION_ERROR.test(inner.message)) first = inner;
    }
    return first !== undefined;
  });
  return first ?? err;
}
