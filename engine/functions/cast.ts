/**
 * Conversions between types: explicit CAST (spec/sql.md §3.2), implicit assignment on
 * INSERT/UPDATE (§3.4) and the common type of CASE branches, UNION columns and coalesce()
 * arguments (§7.10, §7.11).
 *
 * Values are in scalar form (engine/base/values.ts). Text that does not parse is an error when
 * it is a constant (the binder folds constant casts, so the error points at the query text) and
 * NULL otherwise (§3.2, recommended behaviour for column values); assignment always errors.
 */
import { SqlError } from "../base/errors.ts";
import {
  type ColumnType,
  isIntegral,
  isNumeric,
  isTimestamp,
  numericRank,
  sameType,
  T,
  typeName,
  type TypeTag,
} from "../base/types.ts";
import { int32, int64, LONG_NULL, nullValueOf, type Value } from "../base/values.ts";
import { parseIPv4 } from "./_ipv4.ts";
import { convertUnit, type TimeUnit } from "./datetime_calendar.ts";
import { formatValue, GEOHASH_ALPHABET } from "./format_value.ts";
import { parseTimestamp } from "./timestamp_parse.ts";
import { assignableSpecial, canCastSpecial, castSpecial, isSpecialCast } from "./cast_special.ts";
import { decimalCommonType } from "./decimal_types.ts";
import { fitsPrecision, parseDecimalText, rescale } from "./decimal_math.ts";
import { parseArrayText } from "./array_text.ts";

/** How a cast is being applied. */
export interface CastOptions {
  /** True when the value is a constant of the query: unparseable text is then an error. */
  constant?: boolean;
  /** Offset of the value in the SQL text, for that error. */
  pos?: number;
  /**
   * A function argument's cast: text that does not read as the number (the empty text too) is
   * an error per row, at position 0, as QuestDB's SqlUtil.implicitCastStrAsDouble/Int/Long.
   */
  implicit?: boolean;
}

const TEXT_TAGS = new Set<TypeTag>(["STRING", "VARCHAR", "SYMBOL"]);
const TIME_UNITS: Partial<Record<TypeTag, TimeUnit>> = { DATE: "ms", TIMESTAMP: "us", TIMESTAMP_NS: "ns" };
const LONG_MAX = 9223372036854775807n;
const INT_RANGE: Partial<Record<TypeTag, [number, number]>> = {
  BYTE: [-128, 127],
  SHORT: [-32768, 32767],
  INT: [-2147483647, 2147483647],
};

function isText(t: ColumnType): boolean {
  return TEXT_TAGS.has(t.tag);
}

/** STRING, VARCHAR, SYMBOL or CHAR. */
function isTextOrChar(t: ColumnType): boolean {
  return TEXT_TAGS.has(t.tag) || t.tag === "CHAR";
}

/** The time unit of DATE, TIMESTAMP and TIMESTAMP_NS; undefined for other types. */
export function timeUnitOf(t: ColumnType): TimeUnit | undefined {
  return TIME_UNITS[t.tag];
}

/**
 * The §20 error for a value that does not convert: string sources are back-quoted
 * (``inconvertible value: `abc` [STRING -> INT]``), others are not (`… 300 [INT -> BYTE]`).
 */
export function inconvertibleValue(v: Value, from: ColumnType, to: ColumnType, pos = -1): SqlError {
  const text = isText(from) ? `\`${v}\`` : formatValue(v, from) ?? "null";
  return new SqlError(`inconvertible value: ${text} [${typeName(from)} -> ${typeName(to)}]`, pos);
}

/** True when CAST(from AS to) is defined at all (values may still fail to convert). */
export function canCast(from: ColumnType, to: ColumnType): boolean {
  if (isSpecialCast(from, to)) return canCastSpecial(from, to);
  if (from.tag === "NULL" || from.tag === to.tag) return from.tag !== "CURSOR";
  if (to.tag === "CURSOR" || from.tag === "CURSOR" || to.tag === "NULL") return false;
  if (from.tag === "BINARY" || to.tag === "BINARY") return false;
  if (TEXT_TAGS.has(to.tag)) return true;
  if (from.tag === "INTERVAL" || to.tag === "INTERVAL") return false;
  if (isTextOrChar(from)) return true;
  const scalarish = (t: ColumnType) =>
    isNumeric(t) || t.tag === "BOOLEAN" || t.tag === "CHAR" || timeUnitOf(t) !== undefined;
  if (scalarish(from) && scalarish(to)) return true;
  if (to.tag === "IPV4" || from.tag === "IPV4") return isIntegral(from) || isIntegral(to);
  if (to.tag === "LONG256") return isIntegral(from);
  return false;
}

/**
 * Converts `v` from type `from` to type `to` as CAST does (§3.2). NULL becomes the target's
 * NULL (false/0 for BOOLEAN, BYTE, SHORT). Throws SqlError for constant text that does not
 * parse and for a CHAR that is not a digit where a number is wanted.
 */
export function castValue(v: Value, from: ColumnType, to: ColumnType, options: CastOptions = {}): Value {
  if (v === null) return nullValueOf(to);
  if (isSpecialCast(from, to)) return castSpecial(v, from, to, options.constant === true, options.pos);
  if (from.tag === to.tag && from.tag !== "GEOHASH") return v;
  if (isTextOrChar(from) && !TEXT_TAGS.has(to.tag) && to.tag !== "CHAR") {
    return castText(v as string, from, to, options);
  }
  switch (to.tag) {
    case "STRING":
    case "VARCHAR":
    case "SYMBOL":
      return formatValue(v, from);
    case "BOOLEAN":
      return typeof v === "bigint" ? v !== 0n : v !== 0 && v !== false;
    case "BYTE":
    case "SHORT":
    case "INT":
    case "LONG":
    case "FLOAT":
    case "DOUBLE":
      return toNumeric(v, from, to);
    case "CHAR":
      return toChar(v, from, to, options);
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return toTime(v, from, TIME_UNITS[to.tag]!);
    case "IPV4": {
      const n = typeof v === "bigint" ? Number(BigInt.asUintN(32, v)) : (v as number) >>> 0;
      return n === 0 ? null : n;
    }
    case "LONG256":
      if (typeof v === "bigint") return BigInt.asUintN(64, v);
      if (typeof v === "boolean") return v ? 1n : 0n;
      if (typeof v === "number" && Number.isFinite(v)) return BigInt.asUintN(64, BigInt(Math.trunc(v)));
      if (typeof v === "number") return null;
      throw new SqlError(`unsupported cast [from=${typeName(from)}, to=${typeName(to)}]`, options.pos ?? -1);
    case "GEOHASH":
      return narrowGeohash(v as bigint, from, to, options);
    default:
      throw new SqlError(`unsupported cast [from=${typeName(from)}, to=${typeName(to)}]`, options.pos ?? -1);
  }
}

/** Numbers, booleans, chars and times to a numeric type (truncation, then two's complement). */
function toNumeric(v: Value, from: ColumnType, to: ColumnType): Value {
  if (typeof v === "boolean") return castNumber(v ? 1 : 0, to);
  if (from.tag === "CHAR") return castNumber(charDigit(v as string, from, to), to);
  if (typeof v === "bigint") return castBigInt(v, to);
  return castNumber(v as number, to);
}

function castBigInt(v: bigint, to: ColumnType): Value {
  switch (to.tag) {
    case "LONG":
      return int64(v);
    case "INT":
      return int32(Number(BigInt.asIntN(32, v)));
    case "SHORT":
      return Number(BigInt.asIntN(16, v));
    case "BYTE":
      return Number(BigInt.asIntN(8, v));
    case "FLOAT":
      return Math.fround(Number(v));
    default:
      return Number(v);
  }
}

/**
 * Java semantics: (int)d and (long)d truncate, except that a value outside the INT or LONG range
 * is NULL (QuestDB's CastDoubleToIntFunctionFactory; AlterTableChangeColumnTypeTest
 * #testIntOverflowConversions: `cast(-7.1788016931764132E18 as int)` is null); (short)/(byte)
 * narrow the saturated int.
 */
function castNumber(x: number, to: ColumnType): Value {
  if (!Number.isFinite(x)) return to.tag === "BYTE" || to.tag === "SHORT" ? 0 : null;
  switch (to.tag) {
    case "DOUBLE":
      return x;
    case "FLOAT": {
      const f = Math.fround(x);
      return Number.isFinite(f) ? f : null;
    }
    case "LONG": {
      if (Number.isInteger(x) && Math.abs(x) <= Number.MAX_SAFE_INTEGER) return BigInt(x);
      const t = Math.trunc(x);
      if (t > 9223372036854775807) return null;
      if (t === 9223372036854775807) return LONG_MAX; // 2^63 itself: Java's (long) saturates
      if (t <= -9223372036854775808) return null; // LONG_MIN is the NULL sentinel
      return BigInt(t);
    }
    case "INT":
      return x >= -2147483648 && x <= 2147483647 ? int32(Math.trunc(x) | 0) : null;
    default: {
      const i = Math.trunc(x) > 2147483647
        ? 2147483647
        : Math.trunc(x) < -2147483648
        ? -2147483648
        : Math.trunc(x) | 0;
      return to.tag === "SHORT" ? (i << 16) >> 16 : (i << 24) >> 24;
    }
  }
}

/** CHAR → number parses the digit (§3.2: QuestDB tests, not the code point). */
function charDigit(c: string, from: ColumnType, to: ColumnType): number {
  const d = c.charCodeAt(0) - 48;
  // QuestDB reports a CHAR that is no digit at position 0 (CastTest#testCharToNumbersException).
  if (d < 0 || d > 9) {
    throw new SqlError(`inconvertible value: ${c} [${typeName(from)} -> ${typeName(to)}]`, 0);
  }
  return d;
}

/**
 * Number → CHAR is the code point, as QuestDB's `(char) value` (CastIntToCharFunctionFactory;
 * InTest#testInChar_const: `(x-1)::char` of x = 1 is the zero char, which is NULL).
 */
function toChar(v: Value, from: ColumnType, to: ColumnType, options: CastOptions): Value {
  if (typeof v === "boolean") return v ? "T" : "F"; // CastTest#testBooleanToChar
  if (typeof v === "string") {
    if (v.length === 1) return v;
    if (v.length === 0) return null;
    if (options.constant) throw inconvertibleValue(v, from, to, options.pos);
    // Per row, longer text keeps its first character (CastTest#testStrToChar: 'BC' is 'B').
    return v[0];
  }
  const n = typeof v === "bigint" ? Number(BigInt.asIntN(32, v)) : Math.trunc(v as number);
  const code = n & 0xffff;
  return code === 0 ? null : String.fromCharCode(code);
}

/** Integers and other time types → DATE/TIMESTAMP/TIMESTAMP_NS (integers are already ticks). */
function toTime(v: Value, from: ColumnType, unit: TimeUnit): Value {
  const fromUnit = TIME_UNITS[from.tag];
  if (fromUnit !== undefined) return convertUnit(v as bigint, fromUnit, unit);
  if (typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1n : 0n;
  return typeof v === "number" ? castNumber(v, T.LONG) : null;
}

function narrowGeohash(v: bigint, from: ColumnType, to: ColumnType, options: CastOptions): Value {
  // A LONG keeps its low bits (CastLongToGeoHashFunctionFactoryTest: 99889L as geohash(1c) is 'j').
  if (from.tag === "LONG") return BigInt.asUintN(to.geoBits, BigInt(v));
  if (from.tag !== "GEOHASH" || from.geoBits < to.geoBits) {
    throw new SqlError(`inconvertible types: ${typeName(from)} -> ${typeName(to)}`, options.pos ?? -1);
  }
  return v >> BigInt(from.geoBits - to.geoBits);
}

/** Text (STRING, VARCHAR, SYMBOL, CHAR) to a non-text type: parse, or NULL / error. */
function castText(s: string, from: ColumnType, to: ColumnType, options: CastOptions): Value {
  if (from.tag === "CHAR") {
    // CastTest#testCharToBoolean, #testCharToDate, #testCharToLong256: T/t/1 and F/f/0 are
    // booleans, a digit is a number of ticks or a LONG256; anything else is inconvertible.
    if (to.tag === "BOOLEAN") {
      if ("Tt1".includes(s)) return true;
      if ("Ff0".includes(s)) return false;
      throw new SqlError(`inconvertible value: ${s} [CHAR -> BOOLEAN]`, 0);
    }
    if (isNumeric(to)) return toNumeric(s, from, to);
    if (TIME_UNITS[to.tag] || to.tag === "LONG256") return BigInt(charDigit(s, from, to));
  }
  if (to.tag === "BOOLEAN") return s.toLowerCase() === "true"; // QuestDB: anything else is false
  // QuestDB's implicitCastStrAsTimestamp reads a whole number as ticks before trying ISO text
  // (InsertTest: '123456' into a TIMESTAMP column is 1970-01-01T00:00:00.123456Z). Four digits
  // or fewer stay a year ('2021'), which comparisons with timestamps rely on here.
  if (TIME_UNITS[to.tag] && /^-?\d{5,19}$/.test(s)) {
    const n = BigInt(s);
    if (n <= LONG_MAX && n > LONG_NULL) return n;
  }
  const parsed = options.implicit && s === "" ? undefined : parseText(s, to);
  if (parsed !== undefined) return parsed;
  if (options.constant) throw inconvertibleValue(s, from, to, options.pos);
  if (options.implicit) throw inconvertibleValue(s, from, to, 0);
  return nullValueOf(to);
}

/**
 * Parses text as a value of type `to`; undefined when it does not parse. The empty string is
 * NULL for every non-text type, as QuestDB reads it.
 */
export function parseText(s: string, to: ColumnType): Value | undefined {
  if (s === "" && to.tag !== "STRING" && to.tag !== "VARCHAR" && to.tag !== "SYMBOL") return nullValueOf(to);
  switch (to.tag) {
    case "BOOLEAN": {
      const l = s.toLowerCase();
      return l === "true" ? true : l === "false" ? false : undefined;
    }
    case "BYTE":
    case "SHORT":
    case "INT": {
      const n = parseIntegerText(s);
      if (n === undefined) return undefined;
      const [lo, hi] = to.tag === "INT" ? [-2147483648n, 2147483647n] : INT_RANGE[to.tag]!.map(BigInt);
      if (n < lo || n > hi) return undefined;
      return to.tag === "INT" ? int32(Number(n)) : Number(n);
    }
    case "LONG": {
      const n = parseIntegerText(s);
      return n === undefined || n > LONG_MAX || n < LONG_NULL ? undefined : int64(n);
    }
    case "FLOAT":
    case "DOUBLE": {
      const d = parseDoubleText(s);
      return d === undefined ? undefined : castNumber(d, to) ?? null;
    }
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      return parseTimestamp(s, TIME_UNITS[to.tag]!);
    case "UUID":
      return parseUuidText(s);
    case "IPV4": {
      const ip = parseIPv4(s);
      return ip === undefined ? undefined : ip === 0 ? null : ip;
    }
    case "LONG256":
      return parseLong256Text(s);
    case "GEOHASH":
      return parseGeohashText(s, to.geoBits);
    case "CHAR":
      return s.length === 1 ? s : undefined;
    case "STRING":
    case "VARCHAR":
    case "SYMBOL":
      return s;
    case "DECIMAL": {
      const p = parseDecimalText(s);
      if (p === undefined) return undefined;
      const v = rescale(p.unscaled, p.scale, to.scale ?? 0);
      return fitsPrecision(v, to.precision ?? 18) ? v : undefined;
    }
    case "ARRAY":
      return parseArrayText(s, to.dims ?? 1);
    default:
      return undefined;
  }
}

/**
 * Text stored into a column: as parseText, except that a whole number is ticks for the time
 * types before any ISO reading, as QuestDB's implicitCastStrAsTimestamp (SqlUtilTest
 * #testParseStrTimestamp: '200' is 1970-01-01T00:00:00.000200Z; InsertCastTest
 * #testCastStrToDateLit: '45' into a DATE is 45 ms). Comparisons keep '2021' a year.
 */
export function parseStoredText(s: string, to: ColumnType): Value | undefined {
  // Stored into a LONG256 column the `0x` is optional (QuestDB's SqlUtil.implicitCastStrAsLong256;
  // SqlCompilerImplTest#testInsertLong256 inserts '6bbf…3c'), unlike CAST (parseLong256Text).
  if (to.tag === "LONG256" && /^([0-9a-fA-F]{2}){1,32}$/.test(s)) return BigInt("0x" + s);
  if (TIME_UNITS[to.tag]) {
    const n = parseIntegerText(s);
    if (n !== undefined && n <= LONG_MAX && n > LONG_NULL) return n;
  }
  return parseText(s, to);
}

/** `[+-]digits` with an optional `L` suffix, as a bigint; undefined otherwise. */
export function parseIntegerText(s: string): bigint | undefined {
  return /^[+-]?\d+[lL]?$/.test(s) ? BigInt(s.replace(/[lL]$/, "")) : undefined;
}

/**
 * Decimal or exponent notation (optional `d`/`f` suffix); NaN/Infinity read as NaN. A number
 * beyond the DOUBLE range does not parse (SqlUtilTest#testParseStrDouble: '1e450' is
 * 'inconvertible value: `1e450` [STRING -> DOUBLE]').
 */
export function parseDoubleText(s: string): number | undefined {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/.test(s)) {
    const x = Number(s.replace(/[dDfF]$/, ""));
    return Number.isFinite(x) ? x : undefined;
  }
  if (/^[+-]?(NaN|Infinity)$/.test(s)) return NaN;
  return undefined;
}

/** Canonical 8-4-4-4-12 hex UUID text (any case) → lowercase; undefined otherwise. */
export function parseUuidText(s: string): string | undefined {
  return /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(s)
    ? s.toLowerCase()
    : undefined;
}

/**
 * `0x` followed by an even count of 2-64 hex digits → bigint; undefined otherwise. QuestDB's
 * Numbers.parseLong256 reads whole bytes only (CastTest#testSymbolNocacheToLong256Sort: '0x880'
 * is NULL).
 */
export function parseLong256Text(s: string): bigint | undefined {
  return /^0[xX]([0-9a-fA-F]{2}){1,32}$/.test(s) ? BigInt("0x" + s.slice(2)) : undefined;
}

/**
 * Base-32 geohash text → the top `bits` bits; undefined when too short or not geohash text.
 * As QuestDB's GeoHashes.fromStringTruncatingNl, only the characters the precision needs are
 * read (GeoHashQueryTest#testGeoHashReadAllCharLengths stores '1234567890quest' in a
 * geohash(12c) as '1234567890qu'; UnionAllCastTest#testStrGeoShort casts 'xkl921', whose 'l' is
 * no geohash character, to 'xk').
 */
export function parseGeohashText(text: string, bits: number): bigint | undefined {
  const s = text.slice(0, Math.ceil(bits / 5));
  if (s.length * 5 < bits) return undefined;
  let v = 0n;
  for (const c of s) {
    const i = GEOHASH_ALPHABET.indexOf(c.toLowerCase());
    if (i < 0) return undefined;
    v = (v << 5n) | BigInt(i);
  }
  return v >> BigInt(s.length * 5 - bits);
}

/**
 * May a value of `from` be stored in a `to` column without an explicit CAST (§3.4)?
 * `constantValue`, when given, is the value of a constant source: integer constants that fit
 * may go into narrower integer columns.
 */
export function assignable(from: ColumnType, to: ColumnType, constantValue?: Value): boolean {
  if (from.tag === "NULL" || sameType(from, to)) return true;
  if (isSpecialCast(from, to)) return assignableSpecial(from, to);
  if (isIntegral(from) && isIntegral(to) && numericRank(from) > numericRank(to)) {
    return constantValue !== undefined && fitsInteger(constantValue, to);
  }
  const textSource = isText(from);
  switch (to.tag) {
    case "BOOLEAN":
      return textSource;
    case "BYTE":
    case "SHORT":
    case "INT":
    case "LONG":
      return isIntegral(from) || isTextOrChar(from) || (to.tag === "LONG" && timeUnitOf(from) !== undefined);
    case "FLOAT":
    case "DOUBLE":
      // QuestDB widens along its type order BYTE < SHORT < CHAR < INT < LONG < DATE < TIMESTAMP
      // < FLOAT < DOUBLE (ColumnType.isToSameOrWider): a date or timestamp stores as its ticks
      // (OrderByWithFilterTest#testOrderByPrefixedColumnNotOnSelectList1 inserts x::timestamp
      // into a DOUBLE column).
      return isNumeric(from) || isTextOrChar(from) || timeUnitOf(from) !== undefined;
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
      // A CHAR digit stores as that many ticks (InsertCastTest#testCastCharToDateLit).
      return isIntegral(from) || timeUnitOf(from) !== undefined || textSource || from.tag === "CHAR";
    case "STRING":
    case "VARCHAR":
    case "SYMBOL":
      // §3.4 lists the text types; QuestDB also renders other scalars as text on assignment.
      return !["BINARY", "INTERVAL", "CURSOR"].includes(from.tag);
    case "CHAR":
      // BYTE and SHORT widen to CHAR in that order; INT and LONG do not (UpdateTest
      // #testUpdateDifferentColumnTypes: `SET xchar = (xshort + 48)::short` is stored,
      // `SET xchar = xlong` is refused).
      return textSource || from.tag === "BYTE" || from.tag === "SHORT";
    case "UUID":
    case "IPV4":
    case "LONG256":
      return textSource;
    case "GEOHASH":
      // A CHAR is a one-character geohash (InsertCastTest#testCastCharToGeoByteLit): its 5 bits
      // narrow but do not widen (SqlCompilerImplTest#testCreateAsSelectCharToGeoWiderByte: CHAR -> GEOHASH(6b)).
      return textSource || (from.tag === "CHAR" && to.geoBits <= 5) ||
        (from.tag === "GEOHASH" && from.geoBits >= to.geoBits);
    default:
      return false;
  }
}

function fitsInteger(v: Value, to: ColumnType): boolean {
  if (v === null) return true;
  const n = typeof v === "bigint" ? v : typeof v === "number" && Number.isInteger(v) ? BigInt(v) : undefined;
  if (n === undefined) return false;
  const range = INT_RANGE[to.tag];
  if (range) return n >= BigInt(range[0]) && n <= BigInt(range[1]);
  return n > LONG_NULL && n <= LONG_MAX;
}

/**
 * Converts a value for storing in a `to` column (§3.4), with §20's errors: a type pair that is
 * not assignable (`inconvertible types: LONG -> INT`), an integer that does not fit
 * (`inconvertible value: 300 [INT -> BYTE]`), text that does not parse
 * (``inconvertible value: `abc` [STRING -> INT]``).
 */
export function convertForAssign(
  v: Value,
  from: ColumnType,
  to: ColumnType,
  pos: number,
  designated = false,
): Value {
  if (!assignable(from, to, v)) {
    if (isIntegral(from) && isIntegral(to)) throw inconvertibleValue(v, from, to, pos);
    throw new SqlError(`inconvertible types: ${typeName(from)} -> ${typeName(to)}`, pos);
  }
  if (v === null) return nullValueOf(to);
  if (from.tag === "CHAR" && (isNumeric(to) || TIME_UNITS[to.tag])) {
    return castText(v as string, from, to, {});
  }
  if (isTextOrChar(from) && !isTextOrChar(to)) {
    // The designated timestamp of VALUES keeps the literal reading ('2000' is a year,
    // InsertCastTest#testCastVarcharToDesignatedTimestamp); other columns store text as ticks first.
    const parsed = designated ? parseText(v as string, to) : parseStoredText(v as string, to);
    if (parsed === undefined) throw inconvertibleValue(v, from, to, pos);
    return parsed;
  }
  // Empty text is the NULL char, longer text fails (SqlUtil.implicitCastStrAsChar).
  if (to.tag === "CHAR" && typeof v === "string" && v.length > 1) {
    throw inconvertibleValue(v, from, to, pos);
  }
  return castValue(v, from, to, { constant: true, pos });
}

/**
 * The type two branches, set-operation columns or coalesce() arguments are converted to
 * (§7.10, §7.11). Follows QuestDB's ColumnType.commonWideningType:
 * - text with text is STRING (VARCHAR + STRING → STRING, SYMBOL + SYMBOL → STRING, since symbol
 *   dictionaries cannot be merged);
 * - text with a parseable type (timestamps, UUID, IPv4, LONG256, GEOHASH) keeps the text type;
 * - NULL with anything is the other type (CHAR and SYMBOL become STRING);
 * - LONG with a time type is the time type; two time types give the finer one;
 * - otherwise VARCHAR, then STRING, win over anything; BOOLEAN with a non-boolean is STRING;
 * - numbers widen along BYTE → SHORT → INT → LONG → FLOAT → DOUBLE, except LONG + FLOAT is
 *   DOUBLE (§3.3 recommendation: a float cannot hold every long).
 */
export function commonType(a: ColumnType, b: ColumnType): ColumnType {
  if (a.tag === "DECIMAL" || b.tag === "DECIMAL") {
    const d = decimalCommonType(a, b);
    if (d) return d;
  }
  if (a.tag === "ARRAY" || b.tag === "ARRAY") {
    if (a.tag === "NULL") return b;
    if (b.tag === "NULL") return a;
    if (a.tag === b.tag && a.dims === b.dims) return a;
    return T.STRING;
  }
  if (a.tag === b.tag) {
    if (a.tag === "SYMBOL") return T.STRING;
    if (a.tag === "GEOHASH") return a.geoBits <= b.geoBits ? a : b;
    return a;
  }
  if (isText(a) && isText(b)) return T.STRING;
  if (isText(a) && isParseable(b)) return a.tag === "SYMBOL" ? T.STRING : a;
  if (isText(b) && isParseable(a)) return b.tag === "SYMBOL" ? T.STRING : b;
  if (a.tag === "NULL") return b.tag === "SYMBOL" || b.tag === "CHAR" ? T.STRING : b;
  if (b.tag === "NULL") return a.tag === "SYMBOL" || a.tag === "CHAR" ? T.STRING : a;
  const ua = timeUnitOf(a), ub = timeUnitOf(b);
  if (ua !== undefined && ub !== undefined) return finerTime(a, b);
  if (ua !== undefined && isIntegral(b)) return a;
  if (ub !== undefined && isIntegral(a)) return b;
  if (a.tag === "VARCHAR" || b.tag === "VARCHAR") return T.VARCHAR;
  if (a.tag === "STRING" || b.tag === "STRING") return T.STRING;
  if (a.tag === "BOOLEAN" || b.tag === "BOOLEAN") return T.STRING;
  if (isNumeric(a) && isNumeric(b)) {
    if ((a.tag === "LONG" && b.tag === "FLOAT") || (a.tag === "FLOAT" && b.tag === "LONG")) return T.DOUBLE;
    return numericRank(a) >= numericRank(b) ? a : b;
  }
  return T.STRING;
}

function isParseable(t: ColumnType): boolean {
  return isTimestamp(t) || t.tag === "DATE" || t.tag === "UUID" || t.tag === "IPV4" || t.tag === "LONG256" ||
    t.tag === "GEOHASH";
}

function finerTime(a: ColumnType, b: ColumnType): ColumnType {
  const rank = (t: ColumnType) => (t.tag === "TIMESTAMP_NS" ? 3 : t.tag === "TIMESTAMP" ? 2 : 1);
  return rank(a) >= rank(b) ? a : b;
}
