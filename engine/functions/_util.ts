/**
 * Small helpers shared by the function families of this folder: building a `ScalarFunction`,
 * classifying argument types, converting scalar values between JS number and bigint, and the
 * standard "no matching function" messages. Private to engine/functions.
 */
import { type ColumnType, isIntegral, numericRank, T, typeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { formatValue } from "./format_value.ts";
import type {
  AggregateBinding,
  AggregateFunction,
  BoundArg,
  ScalarBinding,
  ScalarFunction,
} from "./registry_types.ts";

/** Text of a whole number, and of a decimal or scientific number, as text meeting a number parses. */
export const INTEGER_TEXT = /^[+-]?\d+$/;
export const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A CHAR meeting a number is its digit ('7' is 7, §4.4); null for any other character. */
export function charDigit(c: string): number | null {
  return c.length === 1 && c >= "0" && c <= "9" ? c.charCodeAt(0) - 48 : null;
}

/** Builds a scalar function entry; overloads are resolved inside `bind`. */
export function scalar(name: string, bind: (args: BoundArg[]) => ScalarBinding | string): ScalarFunction {
  return { name, bind };
}

/** Builds an aggregate function entry. */
export function aggregate(
  name: string,
  bind: (args: BoundArg[], options: { distinct: boolean; star: boolean }) => AggregateBinding | string,
  signature?: string[],
): AggregateFunction {
  return signature ? { name, bind, signature } : { name, bind };
}

/** The same bind registered under several names (aliases such as `ceil` / `ceiling`). */
export function aliases(
  names: string[],
  bind: (args: BoundArg[]) => ScalarBinding | string,
): ScalarFunction[] {
  return names.map((n) => scalar(n, bind));
}

/** STRING, VARCHAR, SYMBOL and CHAR: the types that inter-compare by text (§4.4). */
export function isText(t: ColumnType): boolean {
  return t.tag === "STRING" || t.tag === "VARCHAR" || t.tag === "SYMBOL" || t.tag === "CHAR";
}

/** The type of a bare NULL literal: it adapts to whatever it meets. */
export function isNullType(t: ColumnType): boolean {
  return t.tag === "NULL";
}

export function isNumber(t: ColumnType): boolean {
  return numericRank(t) > 0;
}

/** Integral numeric or NULL: acceptable where an integer count/position is expected. */
export function isIntArg(t: ColumnType): boolean {
  return isIntegral(t) || t.tag === "NULL";
}

/** Numeric or NULL: acceptable where a number is expected. */
export function isNumArg(t: ColumnType): boolean {
  return isNumber(t) || t.tag === "NULL";
}

/** Text or NULL: acceptable where a string is expected. */
export function isTextArg(t: ColumnType): boolean {
  return isText(t) || t.tag === "NULL";
}

/** §15.2: string functions return VARCHAR for VARCHAR input and STRING otherwise. */
export function textResult(t: ColumnType): ColumnType {
  return t.tag === "VARCHAR" ? T.VARCHAR : T.STRING;
}

/** A number or bigint scalar as a JS number; NULL stays null. */
export function toDouble(v: Value): number | null {
  if (v === null) return null;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  return null;
}

/** A number or bigint scalar as a bigint (doubles truncate toward zero); NULL stays null. */
/** The arguments as doubles, or null when one is NULL (numeric functions: NULL in, NULL out). */
export function doublesOf(vals: Value[]): number[] | null {
  const xs: number[] = [];
  for (const v of vals) {
    const x = toDouble(v);
    if (x === null) return null;
    xs.push(x);
  }
  return xs;
}

export function toBigInt(v: Value): bigint | null {
  if (v === null) return null;
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return Number.isFinite(v) ? BigInt(Math.trunc(v)) : null;
  if (typeof v === "boolean") return v ? 1n : 0n;
  return null;
}

/** An integer argument (count, scale, position) as a JS number; NULL stays null. */
export function toIntArg(v: Value): number | null {
  if (v === null) return null;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number") return Math.trunc(v);
  return null;
}

/** The text of a string-like scalar (CHAR is a one-character string already). */
export function toText(v: Value): string | null {
  return typeof v === "string" ? v : null;
}

/** The text form of any value (§18.3 rendering for non-strings); NULL stays null. */
export function textOf(v: Value, t: ColumnType): string | null {
  if (v === null) return null;
  return typeof v === "string" ? v : formatValue(v, t);
}

/** QuestDB-style message for a function called with argument types it does not take. */
export function noMatch(name: string, args: BoundArg[]): string {
  return `there is no matching function \`${name}\` with the argument types: (${
    args.map((a) => typeName(a.type)).join(", ")
  })`;
}

/** QuestDB-style message for an operator applied to operand types it does not take. */
export function noMatchOp(op: string, args: BoundArg[]): string {
  const names = args.map((a) => typeName(a.type));
  const shown = names.length === 1 ? `${op}${names[0]}` : names.join(` ${op} `);
  return `there is no matching operator \`${op}\` with the argument types: ${shown}`;
}

/** §20: the message for constant text that does not convert to the type it meets. */
export function inconvertible(text: string, from: ColumnType, to: ColumnType): string {
  const shown = from.tag === "CHAR" ? text : `\`${text}\``;
  return `inconvertible value: ${shown} [${typeName(from)} -> ${typeName(to)}]`;
}

/** Reads a constant argument's value, or undefined when the argument is not constant. */
export function constValue(a: BoundArg): Value | undefined {
  return a.constant ? (a.value ?? null) : undefined;
}
