/**
 * Result types of DECIMAL arithmetic and of mixing DECIMAL with integers (spec/sql.md §23.3):
 * integers take part as DECIMAL(digits of the type, 0).
 */
import { type ColumnType, decimalType, isIntegral } from "../base/types.ts";
import { capPrecision } from "./decimal_math.ts";

/** Digits an integer type holds: BYTE 3, SHORT 5, INT 10, LONG 19. */
const INTEGER_DIGITS: Record<string, number> = { BYTE: 3, SHORT: 5, INT: 10, LONG: 19 };

/** The DECIMAL an operand is treated as: itself, or an integer type at scale 0; undefined otherwise. */
export function asDecimal(t: ColumnType): ColumnType | undefined {
  if (t.tag === "DECIMAL") return t;
  if (isIntegral(t)) return decimalType(INTEGER_DIGITS[t.tag], 0);
  return undefined;
}

/** `a + b`, `a - b`: scale max(s1, s2), integer digits max + 1. */
export function addType(a: ColumnType, b: ColumnType): ColumnType {
  const s = Math.max(a.scale!, b.scale!);
  const ints = Math.max(a.precision! - a.scale!, b.precision! - b.scale!);
  return decimalType(capPrecision(ints + s + 1), s);
}

/** `a * b`: scale s1 + s2, precision p1 + p2 (capped). */
export function mulType(a: ColumnType, b: ColumnType): ColumnType {
  const s = Math.min(76, a.scale! + b.scale!);
  return decimalType(Math.max(s, capPrecision(a.precision! + b.precision!)), s);
}

/** `a / b`, `a % b`: scale max(s1, s2), precision wide enough for the dividend's integer digits. */
export function divType(a: ColumnType, b: ColumnType): ColumnType {
  const s = Math.max(a.scale!, b.scale!);
  const ints = Math.max(a.precision! - a.scale!, b.precision! - b.scale!) + b.scale!;
  return decimalType(capPrecision(ints + s), s);
}

/** The DECIMAL both sides fit in (CASE branches, UNION, comparisons); undefined when not both decimal-like. */
export function decimalCommonType(a: ColumnType, b: ColumnType): ColumnType | undefined {
  if (a.tag === "NULL") return b;
  if (b.tag === "NULL") return a;
  const da = asDecimal(a), db = asDecimal(b);
  if (!da || !db) return undefined;
  const s = Math.max(da.scale!, db.scale!);
  const ints = Math.max(da.precision! - da.scale!, db.precision! - db.scale!);
  return decimalType(capPrecision(ints + s), s);
}
