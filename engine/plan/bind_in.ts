/**
 * Binds `x [NOT] IN (...)`: a constant list (typed against the key as QuestDB's in() functions
 * do, text items read as the key's type), interval texts for timestamps, a subquery (planned
 * here; a SYMBOL key takes text columns only), and PIVOT's FOR filter. Split from bind_expr.ts,
 * whose binder it calls back for the key and the items.
 */
import { SqlError } from "../base/errors.ts";
import {
  type ColumnType,
  isIntegral,
  isStringLike,
  isTimestamp,
  numericRank,
  sameType,
  T,
  typeName,
} from "../base/types.ts";
import type { Interval, Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { castValue, parseText } from "../functions/cast.ts";
import type { ScalarBinding } from "../functions/registry_types.ts";
import { parseIntervalString } from "../functions/interval_string.ts";
import { parseTimestamp } from "../functions/timestamp_parse.ts";
import { type BoundExpr, isConst, isRuntimeConst } from "./bound.ts";
import {
  type BindContext,
  bindExpr,
  callByName,
  castTo,
  constant,
  inferParam,
  inIntervals,
  inIntervalValue,
  INT_WIDTH,
  intArithmeticAsLong,
  negate,
  normKey,
  planSub,
} from "./bind_expr.ts";

/** The first select item of a query's leftmost SELECT block, when written. */
function firstSelectItem(q: A.Query): A.SelectItem | undefined {
  let body: A.QueryBody = q.body;
  while (body.kind !== "select") body = body.kind === "query" ? body.body : body.left;
  return body.items?.[0];
}

const PIVOT_IN_REFUSED = new Set(["BOOLEAN", "DECIMAL", "GEOHASH", "LONG128"]);

export function bindIn(e: A.InExpr, ctx: BindContext): BoundExpr {
  const arg = bindExpr(e.expr, ctx);
  // PIVOT filters its FOR column with QuestDB's `in` function, which has no form for these types
  // (PivotTest#testPivotSubqueryWithBooleanType, ...Decimal*Type, ...GeoHashType).
  if (e.pivot && PIVOT_IN_REFUSED.has(arg.type.tag)) {
    throw new SqlError(
      `there is no matching operator \`IN\` with the argument type: ${typeName(arg.type)}`,
      e.pos,
    );
  }
  if (!Array.isArray(e.list)) {
    // TimestampQueryTest#testTimestampStringComparisonBetweenInvalidValue: a timestamp is not
    // tested against a subquery's rows.
    if (isTimestamp(arg.type)) {
      throw new SqlError(`cannot compare ${typeName(arg.type)} with type CURSOR`, e.list.pos);
    }
    const { plan, outer } = planSub(e.list, ctx);
    const first = plan.columns[0]?.type;
    if (arg.type.tag === "SYMBOL" && first && !isStringLike(first) && first.tag !== "NULL") {
      // On the LATEST ON key QuestDB reads the subquery as the key list and refuses a column that
      // is not text at that column (SqlCodeGenerator.validateSubQueryColumnAndGetGetter,
      // SqlCodeGeneratorTest#testLatestBySubQueryIndexedIntColumn).
      const item = firstSelectItem(e.list);
      if (item && e.expr.kind === "column" && e.expr.name.toLowerCase() === ctx.latestKey) {
        throw new SqlError(
          `unsupported column type: ${plan.columns[0].name}: ${typeName(first)}`,
          item.expr.pos,
        );
      }
      // QuestDB's symbol IN (cursor) reads text only, and says so at IN before it counts columns
      // (InSymbolCursorFunctionFactoryTest#testUnsupportedColumnType).
      throw new SqlError(
        `supported column types are VARCHAR, SYMBOL and STRING, found: ${typeName(first)}`,
        e.pos,
      );
    }
    if (plan.columns.length !== 1) throw new SqlError("select must provide exactly one column", e.list.pos);
    return { kind: "inSubquery", type: T.BOOLEAN, arg, plan, not: e.not, ...outer };
  }
  const items = e.list.map((x) => inferParam(bindExpr(x, ctx), arg.type, ctx));
  checkTextInList(arg.type, items, e.list);
  if (!e.pivot) checkIntegralInList(arg.type, items, e.list);
  if (!e.pivot) checkComparableInList(arg.type, items, e.list);
  if (!e.pivot) checkIPv4InList(arg.type, items, e.list);
  if (isTimestamp(arg.type) && items.length === 1) {
    const only = items[0];
    const text = only.type.tag === "STRING" || only.type.tag === "VARCHAR" || only.type.tag === "SYMBOL";
    if (isConst(only) && text) {
      // NULL text is the NULL timestamp (SqlCompilerImplTest#testSelectTimestampInNullString).
      if (only.value === null) return { kind: "isNull", type: T.BOOLEAN, arg, not: e.not };
      // Text from now() that is no interval matches nothing (TimestampQueryTest
      // #testTimestampStringComparisonInString: `nts in (now() || 'invalid')`).
      if (isRuntimeConst(only)) {
        const parsed = tryIntervals(only.value as string, arg.type, ctx);
        return inIntervals(arg, parsed ?? [], e.not);
      }
      const intervals = intervalsOf(only.value as string, e.list[0].pos, arg.type, ctx);
      return inIntervals(arg, intervals, e.not);
    }
    // Text known only per row is an interval read per row (TimestampQueryTest:
    // `nts in ('2020-01-' || rnd_str('01', '01'))` is the whole day).
    if (text) return inRuntimeIntervals(arg, only, e.not, ctx);
    if (isConst(only) && only.type.tag === "INTERVAL") {
      return inIntervalValue(arg, only.value as Interval | null, e.not);
    }
  }
  if (items.every(isConst)) {
    const keys = new Set<unknown>();
    // An INT `+ - *` key is read at LONG width against LONG-width items (LONG, TIMESTAMP, text
    // beyond INT) and at INT width against the others, as QuestDB's InLongFunctionFactory does.
    const wideArg = intArithmeticAsLong(arg, e.pos, ctx);
    const wideKeys = new Set<unknown>();
    let hasNull = false;
    items.forEach((item, i) => {
      const v = pointValueFor(arg.type, item as { type: ColumnType; value: Value }, (e.list as A.Expr[])[i]);
      const intWide = INT_WIDTH.has(item.type.tag) ||
        (isStringLike(item.type) && Math.abs(Number(v)) <= 2147483647);
      if (v === null) hasNull = true;
      else (wideArg === arg || intWide ? keys : wideKeys).add(normKey(v));
    });
    const set: BoundExpr = { kind: "inSet", type: T.BOOLEAN, arg, keys, hasNull, not: false };
    if (wideKeys.size === 0) return { ...set, not: e.not } as BoundExpr;
    const wide: BoundExpr = {
      kind: "inSet",
      type: T.BOOLEAN,
      arg: wideArg,
      keys: wideKeys,
      hasNull: false,
      not: false,
    };
    const either: BoundExpr = { kind: "or", type: T.BOOLEAN, args: [set, wide] };
    return e.not ? negate(either) : either;
  }
  let acc: BoundExpr | undefined;
  for (const item of items) {
    // A text column in a number's IN list is parsed as that number (InTest#testInDouble_nonConst:
    // `d IN (fixed_string, fixed_symbol, fixed_varchar)`).
    const text = item.type.tag === "STRING" || item.type.tag === "VARCHAR" || item.type.tag === "SYMBOL";
    // An integer's list reads text as a LONG (QuestDB's InLongFunctionFactory), so '5000000000'
    // next to an INT key matches nothing rather than failing (InLongFunctionFactoryTest
    // #testNarrowKeyMixedWidthVarList).
    const parsed = !text || numericRank(arg.type) === 0
      ? item
      : isIntegral(arg.type) && isConst(item)
      ? constant(
        T.LONG,
        item.value === null ? null : longInListText(String(item.value), e.list[items.indexOf(item)].pos),
      )
      : castTo(item, isIntegral(arg.type) ? T.LONG : arg.type, e.pos);
    const eq = callByName("=", [arg, parsed], e.pos, ctx);
    acc = acc ? { kind: "or", type: T.BOOLEAN, args: [acc, eq] } : eq;
  }
  return e.not ? negate(acc!) : acc!;
}

/**
 * Text tested against a numeric IN item is QuestDB's error at the item (TimestampQueryTest
 * #testTimestampStringComparisonInvalidValue: `'2020-01-01' in (0.34)`; a SYMBOL wants text
 * constants, #testTimestampSymbolComparisonInvalidValue).
 */
function checkTextInList(t: ColumnType, items: BoundExpr[], asts: A.Expr[]): void {
  if (t.tag !== "STRING" && t.tag !== "VARCHAR" && t.tag !== "SYMBOL") return;
  items.forEach((item, i) => {
    // A STRING or VARCHAR list holds constants: a column is refused before its type
    // (InStrTest#testColumn, InVarcharTest#testColumn).
    const fixed = isConst(item) || isRuntimeConst(item) || item.kind === "param";
    if (t.tag !== "SYMBOL" && !fixed) throw new SqlError("constant expected", asts[i].pos);
    if (numericRank(item.type) === 0) return;
    throw new SqlError(
      t.tag === "SYMBOL"
        ? "STRING constant expected"
        : `cannot compare ${typeName(t)} with type ${typeName(item.type)}`,
      asts[i].pos,
    );
  });
}

/** IN-list item types a timestamp or a DOUBLE / FLOAT key cannot be compared with. */
const NOT_COMPARABLE_IN_ITEMS = new Set(["BOOLEAN", "UUID", "IPV4", "LONG256", "GEOHASH", "BINARY", "ARRAY"]);

/**
 * A timestamp or floating-point key tested against an IN list takes numbers, timestamps, text
 * and NULL; a BOOLEAN, a geohash and the like are `cannot compare TIMESTAMP with type BOOLEAN`
 * at the item (InTimestampTimestampTest#testListOfTimestampsUnsupportedType,
 * InDoubleTest#testUnsupportedConstType).
 */
function checkComparableInList(t: ColumnType, items: BoundExpr[], asts: A.Expr[]): void {
  const floating = t.tag === "DOUBLE" || t.tag === "FLOAT";
  if (!isTimestamp(t) && !floating) return;
  items.forEach((item, i) => {
    const tag = item.type.tag;
    if (!NOT_COMPARABLE_IN_ITEMS.has(tag) && !(tag === "CHAR" && !floating)) return;
    throw new SqlError(`cannot compare ${typeName(t)} with type ${typeName(item.type)}`, asts[i].pos);
  });
}

const IPV4_IN_ITEMS = new Set(["NULL", "IPV4", "STRING", "VARCHAR", "SYMBOL"]);

/**
 * An IPv4 tested against an IN list takes constant addresses, text and NULL: a column is
 * `constant expected`, a number `cannot compare IPv4 with type INT`, at the item (InIPv4Test
 * #testColumnInList, #testBadType).
 */
function checkIPv4InList(t: ColumnType, items: BoundExpr[], asts: A.Expr[]): void {
  if (t.tag !== "IPV4") return;
  items.forEach((item, i) => {
    if (item.kind === "param") return;
    if (!IPV4_IN_ITEMS.has(item.type.tag)) {
      throw new SqlError(`cannot compare IPv4 with type ${typeName(item.type)}`, asts[i].pos);
    }
    if (!isConst(item) && !isRuntimeConst(item)) throw new SqlError("constant expected", asts[i].pos);
  });
}

const INTEGRAL_IN_ITEMS = new Set([
  "NULL",
  "TIMESTAMP",
  "LONG",
  "INT",
  "SHORT",
  "BYTE",
  "STRING",
  "SYMBOL",
  "VARCHAR",
]);

/**
 * An integer tested against an IN list is QuestDB's `in(LV)`: items are integers, timestamps,
 * text or NULL; anything else is `cannot compare LONG with type X` at the item (InLongFunctionFactory).
 */
function checkIntegralInList(t: ColumnType, items: BoundExpr[], asts: A.Expr[]): void {
  if (!isIntegral(t)) return;
  items.forEach((item, i) => {
    if (item.kind === "param" || INTEGRAL_IN_ITEMS.has(item.type.tag)) return;
    throw new SqlError(`cannot compare LONG with type ${typeName(item.type)}`, asts[i].pos);
  });
}

/** Text in an integer's IN list, read as a LONG (InLongFunctionFactory.tryParseLong). */
function longInListText(text: string, pos: number): bigint {
  if (!/^-?\d+$/.test(text)) throw new SqlError(`invalid LONG value [${text}]`, pos);
  const v = BigInt(text);
  if (v > 9223372036854775807n || v <= -9223372036854775808n) {
    throw new SqlError(`invalid LONG value [${text}]`, pos);
  }
  return v;
}

/** The intervals of `text`, or undefined when it is no interval text. */
function tryIntervals(text: string, t: ColumnType, ctx: BindContext): Interval[] | undefined {
  try {
    return intervalsOf(text, 0, t, ctx);
  } catch (err) {
    if (err instanceof SqlError) return undefined;
    throw err;
  }
}

/** `ts [NOT] IN text` with text computed per row; text that is no interval matches nothing. */
function inRuntimeIntervals(arg: BoundExpr, text: BoundExpr, not: boolean, ctx: BindContext): BoundExpr {
  let lastText: string | undefined, lastIntervals: Interval[] = [];
  const binding: ScalarBinding = {
    returns: T.BOOLEAN,
    deterministic: false,
    eval: ([v, s]) => {
      if (v === null || s === null) return not;
      if (s !== lastText) {
        lastText = s as string;
        lastIntervals = tryIntervals(lastText, arg.type, ctx) ?? [];
      }
      const ts = v as bigint;
      return lastIntervals.some((iv) => ts >= iv.lo && ts <= iv.hi) !== not;
    },
  };
  return { kind: "call", type: T.BOOLEAN, name: not ? "not in" : "in", binding, args: [arg, text] };
}

function intervalsOf(text: string, pos: number, t: ColumnType, ctx: BindContext): Interval[] {
  try {
    return parseIntervalString(text, {
      nowMicros: ctx.evalContext.nowMicros,
      unit: t.tag === "TIMESTAMP_NS" ? "ns" : "us",
    });
  } catch (err) {
    if (err instanceof SqlError) throw new SqlError(err.message, pos, "semantic");
    throw err;
  }
}

/** A constant of an IN list converted to the tested value's domain (§7.12, §8.1 list of points). */
function pointValueFor(target: ColumnType, item: { type: ColumnType; value: Value }, ast: A.Expr): Value {
  if (target.tag === "UUID") return uuidPoint(item, ast);
  if (item.value === null) return null;
  if (sameType(target, item.type)) return item.value;
  const textual = item.type.tag === "STRING" || item.type.tag === "VARCHAR" || item.type.tag === "CHAR" ||
    item.type.tag === "SYMBOL";
  const targetTextual = target.tag === "STRING" || target.tag === "VARCHAR" || target.tag === "SYMBOL" ||
    target.tag === "CHAR";
  // A CHAR's list holds chars ('' too); other constants are QuestDB's InCharFunctionFactory error.
  if (
    target.tag === "CHAR" && item.type.tag !== "CHAR" && !(textual && [...String(item.value)].length <= 1)
  ) {
    throw new SqlError("CHAR constant expected", ast.pos);
  }
  // '' against a CHAR is the zero char, CHAR's NULL (InTest#testInChar_const: `ch in ('')`).
  if (textual && target.tag === "CHAR" && item.value === "") return null;
  if (textual && targetTextual) return item.value;
  if (textual && isIntegral(target)) return longInListText(String(item.value), ast.pos);
  if (textual && target.tag === "IPV4") {
    // InIPv4Test#testInvalidIPv4StringConstant: text that is no address fails at the item.
    const v = parseText(String(item.value), target);
    if (v === undefined) throw new SqlError(`invalid IPv4 format: ${item.value}`, ast.pos);
    return v;
  }
  if (typeof item.value === "number" || typeof item.value === "bigint") {
    if (
      typeof item.value === "number" &&
      (target.tag === "INT" || target.tag === "LONG" || target.tag === "DOUBLE" || target.tag === "FLOAT" ||
        target.tag === "SHORT" || target.tag === "BYTE")
    ) return item.value;
    if (typeof item.value === "bigint" && !isTimestamp(target)) return item.value;
  }
  if (isTimestamp(target) && textual) {
    const v = parseTimestamp(item.value as string, target.tag === "TIMESTAMP_NS" ? "ns" : "us");
    if (v === undefined) throw new SqlError(`Invalid date [str=${item.value}]`, ast.pos);
    return v;
  }
  return castValue(item.value, item.type, target, { constant: true, pos: ast.pos });
}

/**
 * QuestDB's UUID IN list (UuidTest#testIn, #testIn_null, #testIn_unexpectedType): text or UUID
 * constants only, no NULL; text that is no UUID matches nothing.
 */
function uuidPoint(item: { type: ColumnType; value: Value }, ast: A.Expr): Value {
  const textual = item.type.tag === "STRING" || item.type.tag === "VARCHAR" || item.type.tag === "SYMBOL";
  if (item.type.tag !== "UUID" && item.type.tag !== "NULL" && !textual) {
    throw new SqlError("STRING or UUID constant expected in IN list", ast.pos);
  }
  if (item.value === null) throw new SqlError("NULL is not allowed in IN list", ast.pos);
  if (item.type.tag === "UUID") return item.value;
  const parsed = parseText(item.value as string, T.UUID);
  return parsed === undefined || parsed === null ? `\u0000${item.value}` : parsed;
}
