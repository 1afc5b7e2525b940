/**
 * Builds literal nodes from number, string and geohash tokens (spec/sql.md §1.3), and splits
 * `<n><unit>` tokens such as `15m` for SAMPLE BY, TOLERANCE and TTL.
 */
import { syntaxError } from "../base/errors.ts";
import type { Expr, Literal } from "./ast.ts";
import type { Token } from "./lexer.ts";

const INT_MAX = 2147483647n;
const INT_MIN = -2147483648n;
const LONG_MAX = 9223372036854775807n;
const GEOHASH_ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz";
const GEOHASH_BITS_MAX = 60;

function invalid(t: Token) {
  return syntaxError(`invalid constant: ${t.text}`, t.pos);
}

/**
 * A numeric literal: INT when an unsuffixed integer fits in 32 bits, else LONG, else DOUBLE; `L` long,
 * `f` float, `d` double, `m` decimal, `0x` long256. Any other suffix is an invalid constant.
 */
export function numberLiteral(t: Token): Literal {
  const text = t.text;
  const lit = (type: Literal["type"], value: unknown): Literal => ({
    kind: "literal",
    pos: t.pos,
    type,
    value,
    text,
  });
  if (/^0[xX]/.test(text)) {
    const hex = text.slice(2).replaceAll("_", "");
    if (!/^[0-9a-fA-F]{1,64}$/.test(hex)) throw invalid(t);
    return lit("long256", BigInt("0x" + hex));
  }
  const m = /^((?:\d[\d_]*)?(?:\.[\d_]*)?(?:[eE][+-]?\d+)?)([A-Za-z]*)$/.exec(text);
  if (!m || !/\d/.test(m[1])) throw invalid(t);
  const body = m[1].replaceAll("_", "");
  const suffix = m[2];
  const integral = /^\d+$/.test(body);
  switch (suffix) {
    case "": {
      if (!integral) return lit("double", Number(body));
      const v = BigInt(body);
      if (v <= INT_MAX && v >= INT_MIN) return lit("int", Number(v));
      if (v <= LONG_MAX) return lit("long", v);
      // Beyond LONG it is a DOUBLE, as QuestDB's constant parsing falls back to
      // (ModeLongGroupByFunctionFactoryTest#testModeWithLargeValues: 9223372036854775808).
      return lit("double", Number(body));
    }
    case "L":
    case "l": {
      if (!integral) throw invalid(t);
      const v = BigInt(body);
      if (v > LONG_MAX) throw invalid(t);
      return lit("long", v);
    }
    case "f":
    case "F":
      return lit("float", Number(body));
    case "d":
    case "D":
      return lit("double", Number(body));
    case "m":
    case "M":
      return lit("decimal", body);
    default:
      throw invalid(t);
  }
}

/** A string token as a literal: one character makes a CHAR, anything else a STRING. */
export function stringLiteral(t: Token): Literal {
  return {
    kind: "literal",
    pos: t.pos,
    type: t.value.length === 1 ? "char" : "string",
    value: t.value,
    text: t.text,
  };
}

/**
 * `#u33d8` (5 bits per char), `#u33d/18` (chars cut to 18 bits, `bitsText` the digits after
 * the `/`), `##0101` (bits). QuestDB's errors, at the literal (SqlCompilerImplTest
 * #testCreateAsSelectGeoHashCharsLiteralWithWrongBits): a bit count of 0 or over 60 is an
 * `invalid bits size`; more than two digits of it, a bad character, more than 12 characters or
 * fewer bits than asked are an `invalid constant`.
 */
export function geohashLiteral(t: Token, bitsText?: string): Literal {
  const text = bitsText === undefined ? t.text : `${t.text}/${bitsText}`;
  const invalid = () => syntaxError(`invalid constant: ${text}`, t.pos);
  let bits: number;
  let value = 0n;
  if (text.startsWith("##")) {
    const digits = text.slice(2);
    if (!/^[01]+$/.test(digits) || digits.length > GEOHASH_BITS_MAX) throw invalid();
    bits = digits.length;
    value = BigInt("0b" + digits);
  } else {
    const chars = t.text.slice(1).toLowerCase();
    if (bitsText !== undefined) {
      bits = Number(bitsText);
      if (bits < 1 || bits > GEOHASH_BITS_MAX) {
        throw syntaxError(`invalid bits size for GEOHASH constant: ${text}`, t.pos);
      }
      if (bitsText.length > 2) throw invalid();
    }
    if (chars.length === 0) throw invalid();
    for (const c of chars) {
      const v = GEOHASH_ALPHABET.indexOf(c);
      if (v < 0) throw invalid();
      value = (value << 5n) | BigInt(v);
    }
    const charBits = chars.length * 5;
    bits = bitsText === undefined ? charBits : Number(bitsText);
    if (bits > charBits || charBits > GEOHASH_BITS_MAX) throw invalid();
    value >>= BigInt(charBits - bits);
  }
  return { kind: "literal", pos: t.pos, type: "geohash", value: { bits, value }, text };
}

/** Splits `15m` into 15 and "m"; undefined when the token is not digits followed by letters. */
export function splitAmountUnit(t: Token): { amount: number; unit: string } | undefined {
  if (t.kind !== "number") return undefined;
  const m = /^(\d[\d_]*)([A-Za-z]+)$/.exec(t.text);
  if (!m) return undefined;
  return { amount: Number(m[1].replaceAll("_", "")), unit: m[2] };
}

/**
 * A plain number literal cast to DECIMAL keeps the digits as written: QuestDB's
 * `cast(123456789012345678.123456789012345678 as DECIMAL(36,18))` is exact
 * (CaseFunctionFactoryTest#testDecimal128), where reading it as a DOUBLE first would round it.
 */
export function decimalCastOperand(expr: Expr, typeName: string): Expr {
  if (typeName !== "DECIMAL" || expr.kind !== "literal") return expr;
  // Integers are exact already (and keep QuestDB's INT -> DECIMAL error text).
  if (expr.type !== "double" && expr.type !== "float") return expr;
  // `1000.0f` reads as its digits too (CastFloatToDecimalFunctionFactoryTest).
  const text = expr.text.replaceAll("_", "").replace(/[fF]$/, "");
  // An integer too wide for a LONG is a DOUBLE literal, but a DECIMAL cast keeps its digits
  // (CastDecimalToDecimalFunctionFactoryTest#testWidenDecimal256: 40 nines as DECIMAL(40)).
  if (!/^\d+\.\d*$|^\.\d+$|^\d+$/.test(text)) return expr;
  return { ...expr, type: "decimal", value: text };
}
