/**
 * Text functions of spec/sql.md §15.2, part one: concatenation, length, case mapping and
 * substring extraction. Padding, trimming, splitting and regex replacement live in
 * text_format.ts.
 *
 * Arguments accept STRING, VARCHAR, SYMBOL and CHAR; the result is VARCHAR for VARCHAR input
 * and STRING otherwise (§15.2). Positions are 1-based. NULL in gives NULL out unless noted.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T, typeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { aliases, isIntArg, isTextArg, noMatch, scalar, textOf, textResult, toIntArg } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** Binds a function of one text argument mapping string → Value (NULL → NULL). */
function unaryText(name: string, returns: (t: ColumnType) => ColumnType, f: (s: string) => Value) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== 1 || !isTextArg(args[0].type)) return noMatch(name, args);
    return { returns: returns(args[0].type), eval: ([s]) => (s === null ? null : f(s as string)) };
  };
}

/** Characters of a string: UTF-16 units, or code points (an array) for VARCHAR text with surrogates. */
type Chars = string | string[];
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Binds `name(text, int)` with a string result. `f` sees VARCHAR input as code points, as QuestDB's
 * VARCHAR twins count UTF-8 characters (LeftVarcharFunctionFactoryTest#testVar); STRING counts
 * UTF-16 units.
 */
function textAndInt(name: string, f: (s: Chars, n: number) => Chars | null) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== 2 || !isTextArg(args[0].type) || !isIntArg(args[1].type)) return noMatch(name, args);
    const varchar = args[0].type.tag === "VARCHAR";
    return {
      returns: textResult(args[0].type),
      eval: ([s, n]) => {
        const k = toIntArg(n);
        if (s === null || k === null) return null;
        const chars = varchar && SURROGATE.test(s as string) ? Array.from(s as string) : s as string;
        const out = f(chars, k);
        return out === null || typeof out === "string" ? out : out.join("");
      },
    };
  };
}

/**
 * `concat(a, b, …)` and `a || b`: the text form of each argument joined; NULL arguments
 * contribute nothing (§15.2, unconfirmed), so the result is never NULL.
 */
export function bindConcat(args: BoundArg[]): ScalarBinding | string {
  if (args.length === 0) return "no arguments provided"; // ConcatFunctionFactoryTest#testNoArgs
  // QuestDB concatenates no arrays (ArrayTest#testConcatFailsGracefully), at the array.
  const array = args.find((a) => a.type.tag === "ARRAY");
  if (array) throw new SqlError(`unsupported type: ${typeName(array.type)}`, array.pos);
  const types = args.map((a) => a.type);
  return {
    returns: T.STRING,
    eval: (vals) => {
      let out = "";
      for (let i = 0; i < vals.length; i++) out += concatText(vals[i], types[i]);
      return out;
    },
  };
}

/**
 * One concat argument as QuestDB's ConcatFunctionFactory adapters write it: a DATE as its
 * epoch milliseconds, a BINARY as `[]`, a NULL DECIMAL as `null` (ConcatFunctionFactoryTest
 * #testAllTypes, #testDecimals); other NULLs add nothing.
 */
export function concatText(v: Value, t: ColumnType): string {
  if (t.tag === "BINARY") return "[]";
  if (v === null) return t.tag === "DECIMAL" ? "null" : "";
  if (t.tag === "DATE") return String(v);
  return textOf(v, t) ?? "";
}

/** Number of Unicode code points: VARCHAR lengths count characters, not UTF-16 units (§2.1). */
function codePointCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** `length(s)`: characters as INT, **-1 for NULL** (§21.5); BINARY gives its byte count as LONG. */
function bindLength(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1) return noMatch("length", args);
  const t = args[0].type;
  if (t.tag === "BINARY") {
    return { returns: T.LONG, eval: ([b]) => (b === null ? -1n : BigInt((b as Uint8Array).length)) };
  }
  // A UUID is read as its text (UuidTest#testStringOverloadFunction: 36, -1 for NULL).
  if (t.tag === "UUID") return { returns: T.INT, eval: ([s]) => (s === null ? -1 : 36) };
  if (!isTextArg(t)) return noMatch("length", args);
  if (t.tag === "VARCHAR") {
    return { returns: T.INT, eval: ([s]) => (s === null ? -1 : codePointCount(s as string)) };
  }
  return { returns: T.INT, eval: ([s]) => (s === null ? -1 : (s as string).length) };
}

/** UTF-8 byte length of a string without allocating the encoding. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function bindLengthBytes(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1) return noMatch("length_bytes", args);
  if (args[0].type.tag === "BINARY") {
    return { returns: T.INT, eval: ([b]) => (b === null ? -1 : (b as Uint8Array).length) };
  }
  if (!isTextArg(args[0].type)) return noMatch("length_bytes", args);
  return { returns: T.INT, eval: ([s]) => (s === null ? -1 : utf8Length(s as string)) };
}

/** `left(s, n)`: first n characters; a negative n drops the last |n| (PostgreSQL rule). */
function left(s: Chars, n: number): Chars {
  return n >= 0 ? s.slice(0, n) : s.slice(0, Math.max(0, s.length + n));
}

/** `right(s, n)`: last n characters; a negative n drops the first |n|. */
function right(s: Chars, n: number): Chars {
  return n >= 0 ? s.slice(Math.max(0, s.length - n)) : s.slice(Math.min(s.length, -n));
}

/**
 * `substring(s, start, len)` per QuestDB's documented rules: characters from 1-based `start`;
 * with a negative start only positions ≥ 1 are kept, so the result ends at `start + len - 1`;
 * `start + len` below zero gives NULL; a negative length is an error.
 */
function substring(s: string, start: number, len: number | undefined): string | null {
  if (len === undefined) return s.slice(Math.max(0, start - 1));
  // SubStringFunctionFactory: a negative length fails the query, constant or not
  if (len < 0) throw new SqlError("negative substring length is not allowed");
  const end = start + len; // exclusive, 1-based
  if (end < 0) return null;
  return s.slice(Math.max(0, start - 1), Math.max(0, end - 1));
}

function bindSubstring(args: BoundArg[]): ScalarBinding | string {
  if (args.length < 2 || args.length > 3) return noMatch("substring", args);
  if (!isTextArg(args[0].type) || !args.slice(1).every((a) => isIntArg(a.type))) {
    return noMatch("substring", args);
  }
  if (args.length === 3 && args[2].constant && args[2].value !== null && toIntArg(args[2].value!)! < 0) {
    return "negative substring length is not allowed";
  }
  return {
    returns: textResult(args[0].type),
    eval: ([s, st, ln]) => {
      const start = toIntArg(st);
      const len = args.length === 3 ? toIntArg(ln) : undefined;
      if (s === null || start === null || len === null) return null;
      return substring(s as string, start, len);
    },
  };
}

/** `strpos(s, sub)` / `position(s, sub)`: 1-based index of the first occurrence, 0 if absent. */
function bindStrpos(name: string) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== 2 || !isTextArg(args[0].type) || !isTextArg(args[1].type)) return noMatch(name, args);
    // QuestDB's VARCHAR strpos counts characters (UTF-8 lead bytes), STRING counts UTF-16 units
    const varchar = args[0].type.tag === "VARCHAR";
    return {
      returns: T.INT,
      eval: ([s, sub]) => {
        if (s === null || sub === null) return null;
        const i = (s as string).indexOf(sub as string);
        return i <= 0 || !varchar ? i + 1 : codePointCount((s as string).slice(0, i)) + 1;
      },
    };
  };
}

/** QuestDB's cairo.sql.string.function.buffer.max.size: the longest text replace() may build. */
const REPLACE_LENGTH_MAX = 1_048_576;

/** The result length at the first appended piece (kept text or replacement) that exceeds the limit. */
function replaceBreachLength(s: string, from: string, toLength: number): number {
  let len = 0, pos = 0;
  for (let i = s.indexOf(from); i >= 0; i = s.indexOf(from, pos)) {
    if (len + (i - pos) > REPLACE_LENGTH_MAX) return len + (i - pos);
    len += i - pos;
    if (len + toLength > REPLACE_LENGTH_MAX) return len + toLength;
    len += toLength;
    pos = i + from.length;
  }
  return len + s.length - pos;
}

function bindReplace(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 3 || !args.every((a) => isTextArg(a.type))) return noMatch("replace", args);
  // QuestDB's signatures: replace(SSS), and replace(ØØØ) for its VARCHAR twin
  const signature = args[0].type.tag === "VARCHAR" ? "ØØØ" : "SSS";
  return {
    returns: textResult(args[0].type),
    eval: ([s, from, to]) => {
      if (s === null || from === null || to === null) return null;
      if ((from as string) === "") return s;
      const out = (s as string).replaceAll(from as string, to as string);
      if (out.length > REPLACE_LENGTH_MAX) {
        // ReplaceStrFunctionFactoryTest#testWhenChainedCallsExceedsMaxLengthExceptionIsThrown: QuestDB
        // builds the result piece by piece and reports the length of the first piece that breaches
        const required = replaceBreachLength(s as string, from as string, (to as string).length);
        throw new SqlError(
          `breached memory limit set for replace(${signature}) [maxLength=${REPLACE_LENGTH_MAX}, requiredLength=${required}]`,
        );
      }
      return out;
    },
  };
}

function bindStartsWith(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isTextArg(args[0].type) || !isTextArg(args[1].type)) {
    return noMatch("starts_with", args);
  }
  return {
    returns: T.BOOLEAN,
    eval: ([s, p]) => s !== null && p !== null && (s as string).startsWith(p as string),
  };
}

/** `initcap(s)`: first letter of each alphanumeric word upper case, the rest lower (PostgreSQL). */
function initcap(s: string): string {
  return s.toLowerCase().replace(
    /(^|[^\p{L}\p{N}])(\p{L})/gu,
    (_m, sep: string, c: string) => sep + c.toUpperCase(),
  );
}

/**
 * `translate(s, from, to)`: each character of `from` becomes the character of `to` at its
 * position, or is removed when `to` is shorter; a repeated `from` character keeps its first
 * mapping (QuestDB TranslateFunctionFactoryTest, as PostgreSQL).
 */
function translate(s: string, from: string, to: string): string {
  const src = Array.from(from), dst = Array.from(to);
  const map = new Map<string, string>();
  src.forEach((c, i) => {
    if (!map.has(c)) map.set(c, dst[i] ?? "");
  });
  if (map.size === 0) return s;
  let out = "";
  for (const c of s) out += map.get(c) ?? c;
  return out;
}

function bindTranslate(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 3 || !args.every((a) => isTextArg(a.type))) return noMatch("translate", args);
  return {
    returns: textResult(args[0].type),
    eval: ([s, from, to]) =>
      s === null || from === null || to === null
        ? null
        : translate(s as string, from as string, to as string),
  };
}

/** `ascii(s)`: the code point of the first character, 0 for '' (AsciiStrFunctionFactoryTest). */
function bindAscii(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1 || !isTextArg(args[0].type)) return noMatch("ascii", args);
  return { returns: T.INT, eval: ([s]) => (s === null ? null : (s as string).codePointAt(0) ?? 0) };
}

const same = (t: ColumnType) => textResult(t);

/** The text functions of this file. */
export const TEXT_FUNCTIONS: ScalarFunction[] = [
  scalar("concat", bindConcat),
  scalar("length", bindLength),
  scalar("char_length", bindLength),
  scalar("length_bytes", bindLengthBytes),
  ...aliases(["lower", "to_lowercase"], unaryText("lower", same, (s) => s.toLowerCase())),
  ...aliases(["upper", "to_uppercase"], unaryText("upper", same, (s) => s.toUpperCase())),
  scalar("left", textAndInt("left", left)),
  scalar("right", textAndInt("right", right)),
  ...aliases(["substring", "substr"], bindSubstring),
  scalar("strpos", bindStrpos("strpos")),
  scalar("position", bindStrpos("position")),
  scalar("replace", bindReplace),
  scalar("starts_with", bindStartsWith),
  scalar("reverse", unaryText("reverse", same, (s) => Array.from(s).reverse().join(""))),
  scalar("initcap", unaryText("initcap", same, initcap)),
  scalar("translate", bindTranslate),
  scalar("ascii", bindAscii),
];
