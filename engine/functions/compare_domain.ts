/**
 * Decides how two operands of a comparison meet (spec/sql.md §4.4): which common domain their
 * values are converted to, and how. Mixed numerics compare by value, text inter-compares by
 * code unit, a string meeting a timestamp is parsed as a point in time (§3.5), a string meeting
 * a number is parsed as that number, a CHAR meeting a number is digit-parsed.
 *
 * Constant operands are converted once here, so unparseable constant text is a bind error
 * (`inconvertible value: ...`, §20); non-constant text that does not parse reads as NULL
 * (§3.2, recommended behaviour).
 */
import { type ColumnType, isIntegral, typeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { SqlError } from "../base/errors.ts";
import { parseIPv4 } from "./_ipv4.ts";
import {
  charDigit,
  DECIMAL_TEXT,
  inconvertible,
  INTEGER_TEXT,
  isNullType,
  isNumber,
  isText,
  noMatchOp,
} from "./_util.ts";
import type { BoundArg } from "./registry_types.ts";
import { parseTimestamp } from "./timestamp_parse.ts";

/** Converts one operand's value into the comparison domain; undefined = does not convert. */
type Parse = (v: Value) => Value | undefined;

/** An operand converter: domain value, or null for NULL (and for unparseable row text). */
export type Conv = (v: Value) => Value;

export interface ComparePlan {
  left: Conv;
  right: Conv;
  /**
   * True when NULL is a sentinel value of the domain (numbers, times, booleans, text): then
   * `<=`/`>=` hold for two NULLs (§4.2). UUID, IPv4 and LONG256 met by text answer false to
   * every ordering comparison with a NULL operand.
   */
  sentinelNull: boolean;
}

const ID: Conv = (v) => v;

function isTime(t: ColumnType): boolean {
  return t.tag === "DATE" || t.tag === "TIMESTAMP" || t.tag === "TIMESTAMP_NS";
}

/** Ticks of each time type per tick of the domain unit: DATE is scaled up to µs, µs to ns. */
function timeScale(t: ColumnType, ns: boolean): bigint {
  if (t.tag === "DATE") return ns ? 1_000_000n : 1_000n;
  if (t.tag === "TIMESTAMP") return ns ? 1_000n : 1n;
  return 1n;
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_TEXT = /^0x[0-9a-f]{1,64}$/i;

/** How text (or a CHAR) becomes a value of `target`'s domain. */
function textParser(from: ColumnType, target: ColumnType, ns: boolean): Parse | undefined {
  if (isTime(target)) {
    // A SYMBOL meeting a timestamp reads digits as ticks before trying a date, as QuestDB's
    // implicitCastStrAsTimestamp (EqSymTimestampFunctionFactoryTest#testDynamicCast: `sym = t`).
    if (from.tag === "SYMBOL" && target.tag !== "DATE") {
      return (
        v,
      ) => (INTEGER_TEXT.test(v as string)
        ? BigInt(v as string)
        : parseTimestamp(v as string, ns ? "ns" : "us"));
    }
    return (v) => parseTimestamp(v as string, ns ? "ns" : "us");
  }
  if (isNumber(target)) {
    if (from.tag === "CHAR") {
      // §4.4: a CHAR meeting a number is digit-parsed ('7' = 7; 'a' > 2 is an error).
      return (v) => charDigit(v as string) ?? undefined;
    }
    if (isIntegral(target)) return (v) => (INTEGER_TEXT.test(v as string) ? BigInt(v as string) : undefined);
    return (v) => (DECIMAL_TEXT.test((v as string).trim()) ? Number(v) : undefined);
  }
  switch (target.tag) {
    case "BOOLEAN":
      return (v) => {
        const s = (v as string).toLowerCase();
        return s === "true" ? true : s === "false" ? false : undefined;
      };
    case "UUID":
      // QuestDB compares text that is no UUID as text: it equals no UUID and is not NULL
      // (UuidTest#testEqConstStringToUuid, #testComparisonWithSymbols, #testEqVarBadStringToVarNullUuid).
      return (v) => (UUID_TEXT.test(v as string) ? (v as string).toLowerCase() : `\u0000${v}`);
    case "IPV4":
      return (v) => parseIPv4(v as string);
    case "LONG256":
      return (v) => (HEX_TEXT.test(v as string) ? BigInt(v as string) : undefined);
    default:
      return undefined;
  }
}

/**
 * PostgreSQL's other boolean input spellings (`ix.indisprimary = 'f'`, as SQLAlchemy and psql
 * write them), read for constants only: QuestDB refuses them as inconvertible, so no query of
 * its dialect changes meaning, and a text column compared with a BOOLEAN still reads only
 * true/false.
 */
const PG_BOOLEAN_TEXT: Record<string, boolean> = {
  t: true,
  f: false,
  y: true,
  n: false,
  yes: true,
  no: false,
  on: true,
  off: false,
  "1": true,
  "0": false,
};

function constantBoolean(v: Value): boolean | undefined {
  return PG_BOOLEAN_TEXT[String(v).trim().toLowerCase()];
}

/** Builds the converter of one operand; a constant is converted now (error string if it fails). */
function converter(arg: BoundArg, parse: Parse | undefined, target: ColumnType): Conv | string {
  if (!parse) return ID;
  if (arg.constant) {
    const v = arg.value ?? null;
    if (v === null) return () => null;
    const c = parse(v) ?? (target.tag === "BOOLEAN" ? constantBoolean(v) : undefined);
    if (c === undefined) {
      // QuestDB's implicit text -> IPv4 cast fails while folding the comparison, reported at 0
      // (IPv4Test#testImplicitCastStrIPv4BadStr, #testBindVariableInEqFilterInvalid).
      if (target.tag === "IPV4") throw new SqlError(`invalid IPv4 format: ${v}`, 0);
      // At the constant, as QuestDB reports it (TimestampQueryTest
      // #testTimestampStringComparisonInvalidValue: `nts > 'invalid'` fails at the literal).
      throw new SqlError(inconvertible(String(v), arg.type, target), arg.pos);
    }
    return () => c;
  }
  // QuestDB's IPv4-with-STRING comparisons take only a constant (or bind variable) string
  // (IPv4Test#testStrColumnInEqFilter, #testStrColumnInLtFilter: `b = a` fails at `a`).
  if (target.tag === "IPV4" && arg.type.tag === "STRING" && !arg.param) {
    throw new SqlError("STRING constant expected", arg.pos);
  }
  if (arg.subquery && isTime(target)) {
    // The subquery's text must be a timestamp (EqTimestampCursorFunctionFactoryTest
    // #testCompareTimestampWithNull: `ts = (select 'hello')` fails at the subquery).
    return (v) => {
      if (v === null) return null;
      const c = parse(v);
      if (c === undefined) throw new SqlError(`the cursor selected invalid timestamp value: ${v}`, arg.pos);
      return c;
    };
  }
  return (v) => (v === null ? null : parse(v) ?? null);
}

function scaled(t: ColumnType, ns: boolean): Parse | undefined {
  const k = timeScale(t, ns);
  return k === 1n ? undefined : (v) => (v as bigint) * k;
}

/**
 * Constant text naming an instant finer than a microsecond: a TIMESTAMP meets it in nanoseconds,
 * so `ts = '...03.000000001Z'` holds for no microsecond value (EqTimestampFunctionFactoryTest
 * #testMixedMicrosAndNanos).
 */
function subMicroText(arg: BoundArg): boolean {
  if (!arg.constant || typeof arg.value !== "string") return false;
  const v = parseTimestamp(arg.value, "ns");
  return v !== undefined && v % 1000n !== 0n;
}

/** Types QuestDB refuses to compare with a scalar subquery at all (StrCursorFunctionFactoryTest). */
const NO_CURSOR_COMPARE = new Set(["DATE", "UUID", "IPV4"]);

/**
 * QuestDB compares a column with a scalar subquery `(SELECT ...)` only within one family: a
 * timestamp with a timestamp or text it parses, text with text, a number with a number
 * (EqCursorFunctionFactoryTest, StrCursorFunctionFactoryTest, EqTimestampCursorFunctionFactoryTest).
 * Anything else fails at bind time: `cannot compare TIMESTAMP and INT` at the subquery, or
 * `cannot compare DATE with a scalar sub-query` at the other operand.
 */
function checkScalarSubquery(op: string, other: BoundArg, sub: BoundArg): void {
  const [o, s] = [other.type, sub.type];
  if (isNullType(o) || isNullType(s)) return;
  const equality = op === "=" || op === "!=" || op === "<>";
  if (equality && (s.tag === "DOUBLE" || s.tag === "FLOAT") && (o.tag === "STRING" || o.tag === "VARCHAR")) {
    // QuestDB routes text = (double subquery) to its DOUBLE cursor equality, which refuses the
    // text at the column (EqCursorFunctionFactoryTest#testErrorUnsupportedLeftOperand).
    throw new SqlError(`left operand must be a DOUBLE or FLOAT, found: ${typeName(o)}`, other.pos);
  }
  if (NO_CURSOR_COMPARE.has(o.tag)) {
    throw new SqlError(`cannot compare ${typeName(o)} with a scalar sub-query`, other.pos);
  }
  const fits = isTime(o)
    ? isTime(s) || s.tag === "STRING" || s.tag === "VARCHAR"
    : isText(o)
    ? isText(s)
    : isNumber(o)
    ? isNumber(s)
    : true;
  if (!fits) throw new SqlError(`cannot compare ${typeName(o)} and ${typeName(s)}`, sub.pos);
}

/** Plans the comparison of `args[0]` with `args[1]` for operator `op` (used in messages). */
export function planComparison(op: string, args: BoundArg[]): ComparePlan | string {
  if (args[0].subquery !== args[1].subquery) {
    const sub = args[0].subquery ? 1 : 0;
    checkScalarSubquery(op, args[sub], args[1 - sub]);
  }
  const [a, b] = [args[0].type, args[1].type];
  let pa: Parse | undefined, pb: Parse | undefined;
  let target: ColumnType = a;
  let sentinelNull = true;
  if (isNullType(a) || isNullType(b) || (isNumber(a) && isNumber(b)) || (isText(a) && isText(b))) {
    // Text too: `s <= null` holds for a NULL s (LtNullComparisonTest
    // #testNullComparisonAgainstNullValueHonoursEqualityConvention).
  } else if (isTime(a) && isTime(b)) {
    const ns = a.tag === "TIMESTAMP_NS" || b.tag === "TIMESTAMP_NS";
    pa = scaled(a, ns);
    pb = scaled(b, ns);
  } else if ((isTime(a) && isNumber(b)) || (isNumber(a) && isTime(b))) {
    // A timestamp against a number compares raw ticks: `ts > 0` is after the epoch.
  } else if (isText(a) !== isText(b)) {
    const [textType, other] = isText(a) ? [a, b] : [b, a];
    // §2.1 refuses a SYMBOL against a number; QuestDB takes INT and LONG (their text parsed,
    // unparseable rows NULL) but not DOUBLE (SqlCodeGeneratorTest#testFunctionArgsImplicitCast).
    if (textType.tag === "SYMBOL" && isNumber(other) && other.tag !== "INT" && other.tag !== "LONG") {
      return noMatchOp(op, args);
    }
    const ns = other.tag === "TIMESTAMP_NS" ||
      (other.tag === "TIMESTAMP" && subMicroText(args[isText(a) ? 0 : 1]));
    const parse = textParser(textType, other, ns);
    if (!parse) return noMatchOp(op, args);
    const otherScale = isTime(other) ? scaled(other, ns) : undefined;
    if (isText(a)) [pa, pb, target] = [parse, otherScale, b];
    else [pa, pb, target] = [otherScale, parse, a];
    sentinelNull = !(other.tag === "UUID" || other.tag === "IPV4" || other.tag === "LONG256");
  } else if (a.tag === b.tag && a.geoBits === b.geoBits) {
    sentinelNull = a.tag === "BOOLEAN";
  } else {
    return noMatchOp(op, args);
  }
  const left = converter(args[0], pa, target);
  if (typeof left === "string") return left;
  const right = converter(args[1], pb, target);
  if (typeof right === "string") return right;
  return { left, right, sentinelNull };
}
