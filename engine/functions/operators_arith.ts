/**
 * Arithmetic operators `+ - * / %` and unary minus (`neg`), registered under their symbols so
 * the binder resolves `a + b` as the function "+" (spec/sql.md §4.3, §3.3).
 *
 * Operands are widened inside the evaluator rather than through binder casts: the widening is
 * a JS number → bigint or bigint → number step, cheaper than a cast node per row.
 */
import { type ColumnType, isIntegral, T } from "../base/types.ts";
import { dbl, int32, int64, type Value } from "../base/values.ts";
import { parseIPv4 } from "./_ipv4.ts";
import {
  charDigit,
  DECIMAL_TEXT,
  inconvertible,
  INTEGER_TEXT,
  isNullType,
  noMatchOp,
  scalar,
  toBigInt,
  toDouble,
} from "./_util.ts";
import { SqlError } from "../base/errors.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import { bindArrayArith, negArray } from "./array_ops.ts";
import { bindDecimalArith, negDecimal } from "./decimal_ops.ts";

/** How a numeric operation computes: 32-bit int, 64-bit bigint, float32 or float64. */
export type NumKind = "int" | "long" | "float" | "double";

export type ArithOp = "+" | "-" | "*" | "/" | "%";

/** The computation kind of a numeric type; NULL and non-numeric types have none. */
export function numKindOf(t: ColumnType): NumKind | undefined {
  switch (t.tag) {
    case "BYTE":
    case "SHORT":
    case "INT":
      return "int";
    case "LONG":
      return "long";
    case "FLOAT":
      return "float";
    case "DOUBLE":
      return "double";
    default:
      return undefined;
  }
}

const KIND_RANK: Record<NumKind, number> = { int: 1, long: 2, float: 3, double: 4 };

/** The result type of a numeric kind. */
export const KIND_TYPE: Record<NumKind, ColumnType> = {
  int: T.INT,
  long: T.LONG,
  float: T.FLOAT,
  double: T.DOUBLE,
};

/**
 * §3.3 widening: BYTE/SHORT promote to INT (Java-style), INT op LONG is LONG, anything with
 * DOUBLE is DOUBLE, and LONG op FLOAT is DOUBLE because a float cannot hold a long's digits.
 * An absent kind (a NULL literal) adopts the other side; two NULLs compute as DOUBLE.
 */
export function widenKinds(a: NumKind | undefined, b: NumKind | undefined): NumKind {
  if (!a) return b ?? "double";
  if (!b) return a;
  if ((a === "long" && b === "float") || (a === "float" && b === "long")) return "double";
  return KIND_RANK[a] >= KIND_RANK[b] ? a : b;
}

const INT_OPS: Record<ArithOp, (a: number, b: number) => number | null> = {
  "+": (a, b) => int32(a + b),
  "-": (a, b) => int32(a - b),
  "*": (a, b) => int32(Math.imul(a, b)),
  // Integer division truncates toward zero; by zero it is NULL (§4.3).
  "/": (a, b) => (b === 0 ? null : int32(Math.trunc(a / b))),
  "%": (a, b) => (b === 0 ? null : int32(a % b)),
};

const LONG_OPS: Record<ArithOp, (a: bigint, b: bigint) => bigint | null> = {
  "+": (a, b) => int64(a + b),
  "-": (a, b) => int64(a - b),
  "*": (a, b) => int64(a * b),
  "/": (a, b) => (b === 0n ? null : int64(a / b)),
  "%": (a, b) => (b === 0n ? null : int64(a % b)),
};

const DOUBLE_OPS: Record<ArithOp, (a: number, b: number) => number> = {
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "%": (a, b) => a % b,
};

/** The evaluator of a numeric operation of kind `kind`; NULL in, NULL out. */
export function numericBinding(op: ArithOp, kind: NumKind): ScalarBinding {
  const returns = KIND_TYPE[kind];
  switch (kind) {
    case "int": {
      const f = INT_OPS[op];
      return { returns, eval: ([a, b]) => (a === null || b === null ? null : f(a as number, b as number)) };
    }
    case "long": {
      const f = LONG_OPS[op];
      return {
        returns,
        eval: ([a, b]) => {
          const x = toBigInt(a), y = toBigInt(b);
          return x === null || y === null ? null : f(x, y);
        },
      };
    }
    case "float": {
      const f = DOUBLE_OPS[op];
      return {
        returns,
        eval: ([a, b]) => (a === null || b === null ? null : dbl(Math.fround(f(a as number, b as number)))),
      };
    }
    case "double": {
      const f = DOUBLE_OPS[op];
      return {
        returns,
        eval: ([a, b]) => {
          const x = toDouble(a), y = toDouble(b);
          return x === null || y === null ? null : dbl(f(x, y));
        },
      };
    }
  }
}

function isTime(t: ColumnType): boolean {
  return t.tag === "DATE" || t.tag === "TIMESTAMP" || t.tag === "TIMESTAMP_NS";
}

function isFloating(t: ColumnType): boolean {
  return t.tag === "DOUBLE" || t.tag === "FLOAT";
}

function isIpv4OrText(t: ColumnType): boolean {
  return t.tag === "IPV4" || t.tag === "STRING" || t.tag === "VARCHAR";
}

/** An IPv4 operand as its number; text is parsed, 0.0.0.0 and malformed text are NULL. */
function ipv4Of(v: Value): number | null {
  if (typeof v === "string") {
    const n = parseIPv4(v);
    return n === undefined || n === 0 ? null : n;
  }
  return v === null ? null : Number(v);
}

function isIntOrNull(t: ColumnType): boolean {
  return isIntegral(t) || isNullType(t);
}

/** Ticks per second of each time type: DATE ms, TIMESTAMP µs, TIMESTAMP_NS ns (§2.1). */
const TICKS_PER_SECOND: Record<string, bigint> = {
  DATE: 1_000n,
  TIMESTAMP: 1_000_000n,
  TIMESTAMP_NS: 1_000_000_000n,
};

/** TIMESTAMP ± n adds ticks of the timestamp's own unit and keeps its type (§4.3). */
function timeShift(op: "+" | "-", type: ColumnType, timeFirst: boolean): ScalarBinding {
  const sign = op === "+" ? 1n : -1n;
  return {
    returns: type,
    eval: ([a, b]) => {
      const t = toBigInt(timeFirst ? a : b), n = toBigInt(timeFirst ? b : a);
      return t === null || n === null ? null : int64(t + sign * n);
    },
  };
}

/** TIMESTAMP - TIMESTAMP: a LONG count of ticks of the finer of the two units (§4.3 unconfirmed). */
function timeDiff(a: ColumnType, b: ColumnType): ScalarBinding {
  const fine = TICKS_PER_SECOND[a.tag] > TICKS_PER_SECOND[b.tag]
    ? TICKS_PER_SECOND[a.tag]
    : TICKS_PER_SECOND[b.tag];
  const sa = fine / TICKS_PER_SECOND[a.tag], sb = fine / TICKS_PER_SECOND[b.tag];
  return {
    returns: T.LONG,
    eval: ([x, y]) => (x === null || y === null ? null : int64((x as bigint) * sa - (y as bigint) * sb)),
  };
}

/**
 * IPv4 ± n; a result outside the 32-bit address space is NULL, as is 0.0.0.0 (§15.4; QuestDB's
 * IPv4PlusInt / IPv4MinusInt, IPv4Test#testIPv4MinusIntConstOverflow). A CHAR digit is its
 * number (#testIPv4MinusIPv4Char: ipv4 '1.1.1.1' - '9').
 */
function ipv4Shift(op: "+" | "-", ipFirst: boolean): ScalarBinding {
  const sign = op === "+" ? 1 : -1;
  const num = (v: Value) => (typeof v === "string" ? charDigit(v) : toDouble(v));
  return {
    returns: T.IPV4,
    eval: ([a, b]) => {
      const ip = toDouble(ipFirst ? a : b), n = num(ipFirst ? b : a);
      if (ip === null || n === null) return null;
      const v = ip + sign * n;
      return v <= 0 || v >= 2 ** 32 ? null : v;
    },
  };
}

function isIntOrDigit(t: ColumnType): boolean {
  return isIntOrNull(t) || t.tag === "CHAR";
}

function bindAdditive(op: "+" | "-", args: BoundArg[]): ScalarBinding | string {
  const [a, b] = [args[0].type, args[1].type];
  if (isTime(a) && isIntOrNull(b)) return timeShift(op, a, true);
  // A CHAR operand is read as a LONG, its digit ('1' is 1, a letter 'inconvertible value'):
  // SubTimestampFunctionFactoryTest (`ts - '1'`, `now() - '1'` in a WHERE).
  if (isTime(a) && b.tag === "CHAR") return { ...timeShift(op, a, true), argTypes: [a, T.LONG] };
  // integer + TIMESTAMP is a LONG of ticks: QuestDB has only +(NL) for time shifts, so the
  // operands meet in +(LL) (TimestampAtTimeZoneTest#testPlusBindsLooserThanAtTimeZone).
  if (op === "+" && isIntOrNull(a) && isTime(b)) return { ...timeShift(op, b, false), returns: T.LONG };
  if (op === "-" && isTime(a) && isTime(b)) return timeDiff(a, b);
  if (a.tag === "IPV4" && isIntOrDigit(b)) return ipv4Shift(op, true);
  if (op === "+" && isIntOrDigit(a) && b.tag === "IPV4") return ipv4Shift(op, false);
  // QuestDB reads a string operand of IPv4 - IPv4 as an address (its STRING -> IPv4 cast), and
  // two strings too (IPv4StrMinusIPv4Str, IPv4Test#testIPv4StrMinusIPv4Str).
  if (op === "-" && isIpv4OrText(a) && isIpv4OrText(b)) {
    return {
      returns: T.LONG,
      eval: ([x, y]) => {
        const p = ipv4Of(x), q = ipv4Of(y);
        return p === null || q === null ? null : BigInt(p) - BigInt(q);
      },
    };
  }
  // TIMESTAMP ± DOUBLE resolves to DOUBLE arithmetic on the ticks (QuestDB's +(DD) overload:
  // a timestamp widens to DOUBLE, a DOUBLE never narrows to LONG).
  if (isTime(a) && isFloating(b) || (isFloating(a) && isTime(b))) {
    const f = op === "+" ? (x: number, y: number) => x + y : (x: number, y: number) => x - y;
    return {
      returns: T.DOUBLE,
      eval: ([x, y]) => {
        const p = toDouble(x), q = toDouble(y);
        return p === null || q === null ? null : dbl(f(p, q));
      },
    };
  }
  // LONG256 + LONG256 wraps modulo 2^256, NULL when either is (QuestDB's +(HH),
  // AddLong256FunctionFactoryTest); there is no LONG256 subtraction.
  if (op === "+" && a.tag === "LONG256" && b.tag === "LONG256") {
    return {
      returns: T.LONG256,
      eval: ([x, y]) => x === null || y === null ? null : BigInt.asUintN(256, (x as bigint) + (y as bigint)),
    };
  }
  return bindNumeric(op, args);
}

/** Binds a purely numeric operation (also used by `mod()`); non-numeric operands do not match. */
export function bindNumeric(op: ArithOp, args: BoundArg[]): ScalarBinding | string {
  const [a, b] = [args[0].type, args[1].type];
  const ka = numKindOf(a), kb = numKindOf(b);
  if ((!ka && !isNullType(a)) || (!kb && !isNullType(b))) return noMatchOp(op, args);
  return numericBinding(op, widenKinds(ka, kb));
}

function binary(op: ArithOp): ScalarFunction {
  return scalar(op, (args) => {
    if (args.length !== 2) return noMatchOp(op, args);
    // Arrays (§22.4) and DECIMAL (§23.3) have their own element-wise / exact forms.
    const special = bindArrayArith(op, args) ?? bindDecimalArith(op, args);
    if (special !== undefined) return special;
    if (op === "%" || op === "*" || op === "/") {
      // A timestamp modulo an integer is its ticks' LONG modulo, as QuestDB's implicit
      // TIMESTAMP -> LONG (AsOfJoinTest#testLtJoinOnSymbolWithSyntheticMasterSymbol: ts % 3);
      // so are its product and quotient (CountColumnTest inserts `3600L*1000000::timestamp`).
      const ticks = (t: ColumnType) => t.tag === "TIMESTAMP" || t.tag === "TIMESTAMP_NS";
      const [a, b] = [args[0].type, args[1].type];
      if ((ticks(a) && isIntOrNull(b)) || (isIntOrNull(a) && ticks(b))) {
        return numericBinding(op, widenKinds("long", numKindOf(ticks(a) ? b : a)));
      }
    }
    const text = bindTextOperand(op, args);
    if (text !== undefined) return text;
    return op === "+" || op === "-" ? bindAdditive(op, args) : bindNumeric(op, args);
  });
}

/** A text operand's value in `kind`, or undefined when it does not convert. */
function textNumber(v: string, from: ColumnType, kind: NumKind): number | bigint | undefined {
  if (from.tag === "CHAR") return charDigit(v) ?? undefined;
  const s = v.trim();
  if (kind === "int" || kind === "long") {
    if (!INTEGER_TEXT.test(s)) return undefined;
    const n = BigInt(s);
    if (kind === "long") return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
    return n >= -(2n ** 31n) && n < 2n ** 31n ? Number(n) : undefined;
  }
  return DECIMAL_TEXT.test(s) ? Number(s) : undefined;
}

/**
 * A STRING, VARCHAR or CHAR operand meeting a number converts to that number's type, as
 * QuestDB's implicit casts do: `'256' - 1` is 255, `'2' - 1` digit-parses the CHAR, `'100' *
 * price` is a DOUBLE (SqlCodeGeneratorTest#testFunctionArgsImplicitCast,
 * #testImplicitCastStrToDouble). Constant text that does not convert fails at 0 (`inconvertible
 * value: m [CHAR -> INT]`); row text that does not convert fails too, at 0, as QuestDB's
 * StrFunction.getDouble/getInt (SqlUtil.implicitCastStrAsDouble) does per row.
 */
function bindTextOperand(op: ArithOp, args: BoundArg[]): ScalarBinding | string | undefined {
  const isText = (t: ColumnType) => t.tag === "STRING" || t.tag === "VARCHAR" || t.tag === "CHAR";
  const [a, b] = [args[0].type, args[1].type];
  if (isText(a) === isText(b)) return undefined;
  const ti = isText(a) ? 0 : 1;
  const kind = numKindOf(args[1 - ti].type);
  if (!kind) return undefined;
  const from = args[ti].type;
  const target = { int: T.INT, long: T.LONG, float: T.FLOAT, double: T.DOUBLE }[kind];
  const base = numericBinding(op, kind);
  const arg = args[ti];
  if (arg.constant) {
    const v = arg.value ?? null;
    const c = v === null ? null : textNumber(String(v), from, kind);
    if (c === undefined) throw new SqlError(inconvertible(String(v), from, target), 0);
    return {
      returns: base.returns,
      eval: (xs, ctx) => base.eval(ti === 0 ? [c, xs[1]] : [xs[0], c], ctx),
    };
  }
  const conv = (x: Value) => {
    if (x === null) return null;
    const n = textNumber(String(x), from, kind);
    if (n === undefined) throw new SqlError(inconvertible(String(x), from, target), 0);
    return n;
  };
  return {
    returns: base.returns,
    eval: (xs, ctx) => base.eval(ti === 0 ? [conv(xs[0]), xs[1]] : [xs[0], conv(xs[1])], ctx),
  };
}

/** Unary minus keeps the operand's type; BYTE and SHORT wrap in their width. */
function bindNeg(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1) return noMatchOp("-", args);
  const t = args[0].type;
  switch (t.tag) {
    case "BYTE":
      return { returns: t, eval: ([a]) => ((-(a as number) << 24) >> 24) };
    case "SHORT":
      return { returns: t, eval: ([a]) => ((-(a as number) << 16) >> 16) };
    case "INT":
      return { returns: t, eval: ([a]) => (a === null ? null : int32(-(a as number))) };
    case "LONG":
      return { returns: t, eval: ([a]) => (a === null ? null : int64(-(a as bigint))) };
    case "FLOAT":
    case "DOUBLE":
      return { returns: t, eval: ([a]) => (a === null ? null : -(a as number)) };
    case "NULL":
      return { returns: T.DOUBLE, eval: () => null };
    case "ARRAY":
      return negArray(t);
    case "DECIMAL":
      return negDecimal(t);
    default:
      return noMatchOp("-", args);
  }
}

/** `+ - * / %` and `neg`. */
export const ARITHMETIC_OPERATORS: ScalarFunction[] = [
  binary("+"),
  binary("-"),
  binary("*"),
  binary("/"),
  binary("%"),
  scalar("neg", bindNeg),
];
