/**
 * Bitwise operators `&`, `|`, `^` (XOR, not power: spec/sql.md §1.4) and unary `~` over
 * integers, plus the IPv4 forms `ipv4 & ipv4`, `ipv4 | ipv4` and `~ipv4` (§15.4). The binary `~` is the
 * regex operator; operators.ts routes `~` by argument count.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T } from "../base/types.ts";
import { int32, int64, type Value } from "../base/values.ts";
import { parseIPv4 } from "./_ipv4.ts";
import { charDigit, inconvertible, isNullType, isText, noMatchOp, scalar, toBigInt } from "./_util.ts";
import { numKindOf, widenKinds } from "./operators_arith.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

type BitOp = "&" | "|" | "^";

const INT_BITS: Record<BitOp, (a: number, b: number) => number> = {
  "&": (a, b) => a & b,
  "|": (a, b) => a | b,
  "^": (a, b) => a ^ b,
};

const LONG_BITS: Record<BitOp, (a: bigint, b: bigint) => bigint> = {
  "&": (a, b) => a & b,
  "|": (a, b) => a | b,
  "^": (a, b) => a ^ b,
};

function isIntKind(t: ColumnType): boolean {
  const k = numKindOf(t);
  return k === "int" || k === "long";
}

/** An IPv4 operand: an IPV4 value, or text converted to one (constant text checked at bind). */
function ipv4Operand(a: BoundArg): ((v: Value) => number | null) | string {
  if (a.type.tag === "IPV4" || isNullType(a.type)) return (v) => (v as number | null);
  // CHAR is not IPv4 text: `ipv4 '1.1.1.1' & '0'` has no matching operator (IPv4Test#testIPv4BitwiseAndChar).
  if (!isText(a.type) || a.type.tag === "CHAR") return "";
  if (a.constant) {
    const text = (a.value ?? null) as string | null;
    const ip = text === null ? null : parseIPv4(text);
    if (ip === undefined) return inconvertible(text!, a.type, T.IPV4);
    return () => ip;
  }
  return (v) => (v === null ? null : parseIPv4(v as string) ?? null);
}

/** `ipv4 & ipv4` and `ipv4 | ipv4`, either side may be IPv4 text (QuestDB's *IPv4Str factories). */
function bindIPv4Bits(op: "&" | "|", args: BoundArg[]): ScalarBinding | string {
  const l = ipv4Operand(args[0]), r = ipv4Operand(args[1]);
  if (l === "" || r === "") return noMatchOp(op, args);
  if (typeof l === "string") return l;
  if (typeof r === "string") return r;
  return {
    returns: T.IPV4,
    eval: ([a, b]) => {
      const x = l(a), y = r(b);
      if (x === null || y === null) return null;
      const v = (op === "&" ? x & y : x | y) >>> 0;
      return v === 0 ? null : v;
    },
  };
}

function bitwise(op: BitOp): ScalarFunction {
  return scalar(op, (args) => {
    if (args.length !== 2) return noMatchOp(op, args);
    const [a, b] = [args[0].type, args[1].type];
    // Two text operands are IPv4 addresses too (IPv4Test#testIPv4BitwiseAndStr, #testIPv4BitwiseOrStr).
    if (op !== "^" && (a.tag === "IPV4" || b.tag === "IPV4" || (isText(a) && isText(b)))) {
      return bindIPv4Bits(op, args);
    }
    if ((!isIntKind(a) && !isNullType(a)) || (!isIntKind(b) && !isNullType(b))) return noMatchOp(op, args);
    const kind = widenKinds(numKindOf(a), numKindOf(b));
    if (kind === "int") {
      const f = INT_BITS[op];
      return {
        returns: T.INT,
        eval: ([x, y]) => (x === null || y === null ? null : int32(f(x as number, y as number))),
      };
    }
    const f = LONG_BITS[op];
    return {
      returns: T.LONG,
      eval: ([x, y]) => {
        const p = toBigInt(x), q = toBigInt(y);
        return p === null || q === null ? null : int64(f(p, q));
      },
    };
  });
}

/** Unary `~`: bitwise NOT of an integer (BYTE/SHORT promote to INT) or an IPv4 address. */
export function bindBitNot(args: BoundArg[]): ScalarBinding | string {
  const t = args[0].type;
  switch (t.tag) {
    case "BYTE":
    case "SHORT":
    case "INT":
      return { returns: T.INT, eval: ([a]) => (a === null ? null : int32(~(a as number))) };
    case "LONG":
      return { returns: T.LONG, eval: ([a]) => (a === null ? null : int64(~(a as bigint))) };
    case "IPV4":
      return {
        returns: T.IPV4,
        eval: ([a]) => {
          if (a === null) return null;
          const v = ~(a as number) >>> 0;
          return v === 0 ? null : v;
        },
      };
    case "NULL":
      return { returns: T.INT, eval: () => null };
    case "CHAR": {
      // A CHAR is digit-parsed to an INT, as QuestDB's implicit CHAR -> INT cast: `~'m'` fails
      // `inconvertible value: m [CHAR -> INT]` at 0 (SqlCodeGeneratorTest#testFunctionArgsImplicitCast).
      const arg = args[0];
      if (
        arg.constant && arg.value !== null && arg.value !== undefined && charDigit(String(arg.value)) === null
      ) {
        throw new SqlError(inconvertible(String(arg.value), t, T.INT), 0);
      }
      return {
        returns: T.INT,
        eval: ([a]) => {
          const d = a === null ? null : charDigit(String(a));
          return d === null ? null : ~d;
        },
      };
    }
    default: {
      // `~ '1.1.1.1'`: text is read as an IPv4 address (QuestDB's BitwiseNotIPv4StrFunctionFactory).
      const ip = isText(t) ? ipv4Operand(args[0]) : "";
      if (ip === "") return noMatchOp("~", args);
      if (typeof ip === "string") return ip;
      return {
        returns: T.IPV4,
        eval: ([a]) => {
          const x = ip(a);
          if (x === null) return null;
          const v = ~x >>> 0;
          return v === 0 ? null : v;
        },
      };
    }
  }
}

/** `&`, `|`, `^`. */
export const BITWISE_OPERATORS: ScalarFunction[] = [bitwise("&"), bitwise("|"), bitwise("^")];
