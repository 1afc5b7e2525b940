/**
 * CAST and assignment for the parameterised types: DECIMAL(p, s) (spec/sql.md §23.4) and DOUBLE
 * arrays (§22.2). engine/functions/cast.ts hands these pairs over here.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, isIntegral, isNumeric, typeName } from "../base/types.ts";
import { DoubleArray, type Value } from "../base/values.ts";
import { formatDouble } from "./double_format.ts";
import { formatArrayJson, parseArrayText } from "./array_text.ts";
import {
  decimalFromNumber,
  decimalToNumber,
  fitsPrecision,
  formatDecimal,
  parseDecimalText,
  pow10,
  rescale,
} from "./decimal_math.ts";

function isTextType(t: ColumnType): boolean {
  return t.tag === "STRING" || t.tag === "VARCHAR" || t.tag === "SYMBOL" || t.tag === "CHAR";
}

/** Whether the pair is handled here. */
export function isSpecialCast(from: ColumnType, to: ColumnType): boolean {
  return from.tag === "DECIMAL" || to.tag === "DECIMAL" || from.tag === "ARRAY" || to.tag === "ARRAY";
}

/** True when CAST(from AS to) is defined for a pair of which one side is DECIMAL or ARRAY. */
export function canCastSpecial(from: ColumnType, to: ColumnType): boolean {
  if (from.tag === "NULL") return true;
  if (to.tag === "ARRAY") return (from.tag === "ARRAY" && from.dims === to.dims) || isTextType(from);
  if (from.tag === "ARRAY") return to.tag === "STRING" || to.tag === "VARCHAR";
  // DECIMAL on one side
  const other = to.tag === "DECIMAL" ? from : to;
  return other.tag === "DECIMAL" || isNumeric(other) || isTextType(other) || other.tag === "BOOLEAN";
}

/** May a `from` value be stored in a `to` column without CAST (§3.4, §23.1)? */
export function assignableSpecial(from: ColumnType, to: ColumnType): boolean {
  if (from.tag === "NULL") return true;
  if (to.tag === "ARRAY") return (from.tag === "ARRAY" && from.dims === to.dims) || isTextType(from);
  if (from.tag === "ARRAY") return to.tag === "STRING" || to.tag === "VARCHAR";
  if (to.tag === "DECIMAL") return from.tag === "DECIMAL" || isIntegral(from) || isTextType(from);
  // DECIMAL into another type: numbers and text (QuestDB renders it)
  return isNumeric(to) || to.tag === "STRING" || to.tag === "VARCHAR" || to.tag === "SYMBOL";
}

function unsupported(from: ColumnType, to: ColumnType, pos: number): SqlError {
  return new SqlError(`unsupported cast [from=${typeName(from)}, to=${typeName(to)}]`, pos);
}

function inconvertible(text: string, from: ColumnType, to: ColumnType, pos: number): SqlError {
  const shown = isTextType(from) ? `\`${text}\`` : text;
  return new SqlError(`inconvertible value: ${shown} [${typeName(from)} -> ${typeName(to)}]`, pos);
}

/**
 * Converts a non-null value; `strict` (constants, assignment) turns a value that does not
 * convert into an error, otherwise it becomes NULL.
 */
export function castSpecial(v: Value, from: ColumnType, to: ColumnType, strict: boolean, pos = -1): Value {
  if (to.tag === "ARRAY") {
    if (from.tag === "ARRAY") return v;
    const parsed = parseArrayText(String(v), to.dims ?? 1);
    if (parsed === undefined) {
      if (strict) throw inconvertible(String(v), from, to, pos);
      return null;
    }
    return parsed;
  }
  if (from.tag === "ARRAY") {
    if (to.tag === "STRING" || to.tag === "VARCHAR") return formatArrayJson(v as DoubleArray);
    throw unsupported(from, to, pos);
  }
  if (to.tag === "DECIMAL") {
    const scale = to.scale ?? 0, precision = to.precision ?? 18;
    let unscaled: bigint | undefined;
    if (from.tag === "DECIMAL") unscaled = rescale(v as bigint, from.scale ?? 0, scale);
    else if (typeof v === "bigint") unscaled = v * pow10(scale);
    else if (typeof v === "boolean") unscaled = (v ? 1n : 0n) * pow10(scale);
    else if (typeof v === "number") {
      // A DOUBLE/FLOAT keeps the digits that fit the scale, the rest dropped: QuestDB's explicit
      // cast is lossy by truncation (CastDoubleToDecimalFunctionFactoryTest#testLossy: 123.456
      // is 123.45), and one too wide for the precision fails even per row (#testRuntimeCastOverflow).
      unscaled = Number.isInteger(v) && isIntegral(from)
        ? BigInt(v) * pow10(scale)
        : decimalFromNumber(from.tag === "FLOAT" ? floatDigits(v) : v, scale, true);
      if (unscaled === undefined) return null; // NaN/Inf are NULL doubles already
      if (!isIntegral(from) && !fitsPrecision(unscaled, precision)) {
        throw inconvertible(formatDouble(from.tag === "FLOAT" ? floatDigits(v) : v), from, to, pos);
      }
    } else if (typeof v === "string") {
      // Text that is no DECIMAL of the precision fails per row too, at the operand
      // (CastStrToDecimalFunctionFactoryTest#testRuntimeCastOverflowScaled).
      const p = parseDecimalText(v);
      if (p === undefined) throw inconvertible(v, from, to, pos);
      unscaled = rescale(p.unscaled, p.scale, scale);
    }
    if (unscaled === undefined) throw unsupported(from, to, pos);
    // A value too wide for the precision fails per row too (CastLongToDecimalFunctionFactoryTest
    // #testRuntimeCastOverflowUnscaled: `inconvertible value: 128 [LONG -> DECIMAL(2,0)]`).
    if (!fitsPrecision(unscaled, precision)) {
      const text = from.tag === "DECIMAL" ? formatDecimal(v as bigint, from.scale ?? 0) : String(v);
      throw inconvertible(text, from, to, pos);
    }
    return unscaled;
  }
  // DECIMAL → another type
  const d = v as bigint, scale = from.scale ?? 0;
  switch (to.tag) {
    case "STRING":
    case "VARCHAR":
    case "SYMBOL":
      return formatDecimal(d, scale);
    case "DOUBLE":
      return decimalToNumber(d, scale);
    case "FLOAT":
      return Math.fround(decimalToNumber(d, scale));
    case "BOOLEAN":
      return d !== 0n;
    case "LONG":
    case "INT":
    case "SHORT":
    case "BYTE": {
      // Truncated toward zero; a value out of the type's range fails as QuestDB's
      // CastDecimalTo*FunctionFactory does (CastDecimalToShortFunctionFactoryTest
      // #testRuntimeCastOverflowScaled: `inconvertible value: 32768.5 [DECIMAL(6,1) -> SHORT]`).
      const i = rescale(d, scale, 0, true);
      const bits = to.tag === "LONG" ? 64 : to.tag === "INT" ? 32 : to.tag === "SHORT" ? 16 : 8;
      if (BigInt.asIntN(bits, i) !== i) throw inconvertible(formatDecimal(d, scale), from, to, pos);
      if (to.tag === "LONG") return i === -(2n ** 63n) ? null : i;
      const n = Number(i);
      return to.tag === "INT" && n === -2147483648 ? null : n;
    }
    default:
      throw unsupported(from, to, pos);
  }
}

/** The common type of two types where one is DECIMAL or ARRAY; undefined when there is none. */
export function commonSpecial(a: ColumnType, b: ColumnType): ColumnType | undefined {
  if (a.tag === "NULL") return b;
  if (b.tag === "NULL") return a;
  if (a.tag === "ARRAY" || b.tag === "ARRAY") return a.tag === b.tag && a.dims === b.dims ? a : undefined;
  return undefined;
}

export { DoubleArray };

/**
 * The double nearest the shortest decimal that reads back as the FLOAT `x` (Java's
 * Float.toString digits): 123.45f is 123.45 to a DECIMAL, not 123.44999694824219
 * (CastFloatToDecimalFunctionFactoryTest#testRuntimeCast).
 */
function floatDigits(x: number): number {
  if (!Number.isFinite(x)) return x;
  for (let p = 1; p <= 9; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return y;
  }
  return x;
}
