/**
 * DECIMAL operators (spec/sql.md §23.3): exact `+ - * / %` with the result scales of
 * decimal_types.ts, comparisons by value across scales and with integers, unary minus.
 * DECIMAL with FLOAT/DOUBLE computes in DOUBLE (the decimal converted to its nearest double).
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, isIntegral, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { isNullType } from "./_util.ts";
import { decimalToNumber, fitsPrecision, pow10, rescale } from "./decimal_math.ts";
import { addType, asDecimal, divType, mulType } from "./decimal_types.ts";
import type { BoundArg, ScalarBinding } from "./registry_types.ts";

/** A non-null operand value as an unscaled bigint at `scale`, from its type. */
function unscaledAt(v: Value, t: ColumnType, scale: number): bigint {
  if (t.tag === "DECIMAL") return rescale(v as bigint, t.scale ?? 0, scale);
  return BigInt(v as number | bigint) * pow10(scale);
}

/** A non-null operand value as a double. */
function asNumber(v: Value, t: ColumnType): number {
  return t.tag === "DECIMAL" ? decimalToNumber(v as bigint, t.scale ?? 0) : Number(v);
}

/**
 * QuestDB's Decimal arithmetic failure, named by operator: `-` adds the negation, so it reports
 * an addition (AddDecimalFunctionFactoryTest#testAddDecimal128Overflow,
 * SubDecimalFunctionFactoryTest#testSubDecimal128Overflow, MulDecimalFunctionFactoryTest
 * #testMulDecimal128Overflow).
 */
function overflow(op: string): SqlError {
  const what = op === "*" ? "multiplication" : "addition";
  return new SqlError(`'${op}' operation failed: Overflow in ${what}: result exceeds maximum precision`);
}

/** `a op b` with a DECIMAL operand; undefined when neither side is DECIMAL. */
export function bindDecimalArith(op: string, args: BoundArg[]): ScalarBinding | string | undefined {
  let [a, b] = [args[0].type, args[1].type];
  if (a.tag !== "DECIMAL" && b.tag !== "DECIMAL") return undefined;
  if (isNullType(a)) a = b;
  if (isNullType(b)) b = a;
  if (a.tag === "DOUBLE" || a.tag === "FLOAT" || b.tag === "DOUBLE" || b.tag === "FLOAT") {
    const [ta, tb] = [a, b];
    const f: Record<string, (x: number, y: number) => number> = {
      "+": (x, y) => x + y,
      "-": (x, y) => x - y,
      "*": (x, y) => x * y,
      "/": (x, y) => x / y,
      "%": (x, y) => x % y,
    };
    const g = f[op];
    if (!g) return undefined;
    return {
      returns: T.DOUBLE,
      eval: ([x, y]) => {
        if (x === null || y === null) return null;
        const r = g(asNumber(x, ta), asNumber(y, tb));
        return Number.isFinite(r) ? r : null;
      },
    };
  }
  const da = asDecimal(a), db = asDecimal(b);
  if (!da || !db) {
    return `there is no matching operator \`${op}\` for DECIMAL and ${b.tag === "DECIMAL" ? a.tag : b.tag}`;
  }
  const [ta, tb] = [a, b];
  switch (op) {
    case "+":
    case "-": {
      const r = addType(da, db), s = r.scale!, p = r.precision!;
      const sign = op === "+" ? 1n : -1n;
      return {
        returns: r,
        eval: ([x, y]) => {
          if (x === null || y === null) return null;
          const v = unscaledAt(x, ta, s) + sign * unscaledAt(y, tb, s);
          if (!fitsPrecision(v, p)) throw overflow(op);
          return v;
        },
      };
    }
    case "*": {
      const r = mulType(da, db), p = r.precision!;
      return {
        returns: r,
        eval: ([x, y]) => {
          if (x === null || y === null) return null;
          const v = unscaledAt(x, ta, da.scale!) * unscaledAt(y, tb, db.scale!);
          if (!fitsPrecision(v, p)) throw overflow(op);
          return v;
        },
      };
    }
    case "/":
    case "%": {
      const r = divType(da, db), s = r.scale!;
      return {
        returns: r,
        eval: ([x, y]) => {
          if (x === null || y === null) return null;
          const l = unscaledAt(x, ta, s), d = unscaledAt(y, tb, s);
          // QuestDB fails rather than answering NULL (DivDecimalFunctionFactoryTest
          // #testDivDecimal64DivideByZero, RemDecimalFunctionFactoryTest#testRemDecimal64DivideByZero).
          if (d === 0n) throw new SqlError(`'${op}' operation failed: Division by zero`);
          // (l / 10^s) / (d / 10^s) at scale s = l * 10^s / d, truncated toward zero (§23.3).
          return op === "/" ? (l * pow10(s)) / d : l % d;
        },
      };
    }
    default:
      return undefined;
  }
}

/** The comparison of two non-null operands where one is DECIMAL: negative, zero or positive. */
export function decimalComparator(
  args: BoundArg[],
): ((x: Value, y: Value) => number) | string | undefined {
  let [a, b] = [args[0].type, args[1].type];
  if (a.tag !== "DECIMAL" && b.tag !== "DECIMAL") return undefined;
  if (isNullType(a)) a = b;
  if (isNullType(b)) b = a;
  const [ta, tb] = [a, b];
  const cmp = <N extends number | bigint>(x: N, y: N) => (x < y ? -1 : x > y ? 1 : 0);
  if ((ta.tag === "DECIMAL" || isIntegral(ta)) && (tb.tag === "DECIMAL" || isIntegral(tb))) {
    const s = Math.max(ta.scale ?? 0, tb.scale ?? 0);
    return (x, y) => cmp(unscaledAt(x, ta, s), unscaledAt(y, tb, s));
  }
  if (ta.tag === "DOUBLE" || ta.tag === "FLOAT" || tb.tag === "DOUBLE" || tb.tag === "FLOAT") {
    return (x, y) => cmp(asNumber(x, ta), asNumber(y, tb));
  }
  return `cannot compare DECIMAL with ${ta.tag === "DECIMAL" ? tb.tag : ta.tag}`;
}

/** Unary minus of a DECIMAL keeps its type. */
export function negDecimal(t: ColumnType): ScalarBinding {
  return { returns: t, eval: ([x]) => (x === null ? null : -(x as bigint)) };
}
