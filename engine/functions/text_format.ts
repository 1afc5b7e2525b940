/**
 * Text functions of spec/sql.md §15.2, part two: trimming, padding, splitting, identifier
 * quoting and regular-expression replacement. Result types follow text.ts: VARCHAR for VARCHAR
 * input, STRING otherwise; NULL in gives NULL out.
 */
import { SqlError } from "../base/errors.ts";
import { isIntArg, isTextArg, noMatch, scalar, textResult, toIntArg } from "./_util.ts";
import { compileRegex, type Regex, replaceAllJava } from "./regex.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

function bindTrim(name: string, f: (s: string) => string) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== 1 || !isTextArg(args[0].type)) return noMatch(name, args);
    return { returns: textResult(args[0].type), eval: ([s]) => (s === null ? null : f(s as string)) };
  };
}

/**
 * `lpad`/`rpad(s, len [, fill])`: pads to `len` characters with `fill` (default space). As in
 * QuestDB (LPadStrFunctionFactoryTest, RPadStrFunctionFactoryTest), longer input keeps its first
 * `len` characters for lpad and its last `len` for rpad; a negative length or an empty fill is NULL.
 */
function pad(s: string, len: number, fill: string, atStart: boolean): string | null {
  if (len < 0 || fill === "") return null;
  if (len === 0) return "";
  if (s.length >= len) return atStart ? s.slice(0, len) : s.slice(s.length - len);
  const need = len - s.length;
  const padding = fill.repeat(Math.ceil(need / fill.length)).slice(0, need);
  return atStart ? padding + s : s + padding;
}

/** QuestDB's cairo.sql.string.function.buffer.max.size: the longest text lpad/rpad may build. */
const PAD_LENGTH_MAX = 1_048_576;

function bindPad(name: string, atStart: boolean) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length < 2 || args.length > 3) return noMatch(name, args);
    if (
      !isTextArg(args[0].type) || !isIntArg(args[1].type) || (args.length === 3 && !isTextArg(args[2].type))
    ) {
      return noMatch(name, args);
    }
    // QuestDB's signatures in its buffer-limit error: lpad(SI), lpad(SIS), lpad(ØI), lpad(ØIØ)
    const text = args[0].type.tag === "VARCHAR" ? "Ø" : "S";
    const signature = `${name}(${text}I${args.length === 3 ? text : ""})`;
    return {
      returns: textResult(args[0].type),
      eval: ([s, n, f]) => {
        const len = toIntArg(n);
        const fill = args.length === 3 ? f : " ";
        if (s === null || len === null || fill === null) return null;
        if (len > PAD_LENGTH_MAX) {
          // LPadRPadFunctionsTest#testCheckMaxBuffer (reported at position 0)
          throw new SqlError(
            `breached memory limit set for ${signature} [maxLength=${PAD_LENGTH_MAX}, requiredLength=${len}]`,
            0,
          );
        }
        return pad(s as string, len, fill as string, atStart);
      },
    };
  };
}

/** `split_part(s, delim, n)`: the n-th field (1-based; negative counts from the end); past the end → ''. */
function splitPart(s: string, delim: string, n: number): string | null {
  if (n === 0) return null;
  const parts = delim === "" ? [s] : s.split(delim);
  const i = n > 0 ? n - 1 : parts.length + n;
  return i >= 0 && i < parts.length ? parts[i] : "";
}

function bindSplitPart(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 3 || !isTextArg(args[0].type) || !isTextArg(args[1].type) || !isIntArg(args[2].type)) {
    return noMatch("split_part", args);
  }
  // QuestDB's SplitPartFunctionFactory reports both index errors at the index argument
  if (args[2].constant && args[2].value !== null && toIntArg(args[2].value!) === 0) {
    throw new SqlError("field position must not be zero", args[2].pos);
  }
  if (args[2].perRow) {
    throw new SqlError("index must be either a constant expression or a placeholder", args[2].pos);
  }
  return {
    returns: textResult(args[0].type),
    eval: ([s, d, n]) => {
      const k = toIntArg(n);
      return s === null || d === null || k === null ? null : splitPart(s as string, d as string, k);
    },
  };
}

/**
 * `quote_ident(s)`: double-quotes `s` (doubling inner quotes) when it holds a character other than
 * a letter, a digit, `_` or `$`, as QuestDB's QuoteIdentFunctionFactory: case and a leading digit
 * need no quotes, and '' stays '' (QuoteIdentFunctionFactoryTest).
 */
export function quoteIdent(s: string): string {
  return /^[\p{L}\p{Nd}_$]*$/u.test(s) ? s : `"${s.replaceAll('"', '""')}"`;
}

/**
 * `regexp_replace(s, regex, repl)`: every match replaced, with Java's replacement syntax (`$1`,
 * `${name}`, `\\$` for a dollar) as QuestDB's String.replaceAll has it; RE2 matching (regex.ts).
 */
function bindRegexpReplace(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 3 || !args.every((a) => isTextArg(a.type))) return noMatch("regexp_replace", args);
  const patternPos = args[1].pos, replacementPos = args[2].pos;
  let fixed: Regex | undefined;
  if (args[1].constant && args[1].value !== null) fixed = compileRegex(args[1].value as string, patternPos);
  if (fixed && args[0].type.tag === "VARCHAR" && args[2].constant) {
    // QuestDB's VARCHAR twin reads an anchored `^...$` pattern with a `$N` replacement as one
    // group and checks it exists up front (RegexpReplaceVarcharFunctionFactoryTest#testNonExistingGroupIndex)
    const p = args[1].value as string, r = args[2].value as string | null;
    if (r !== null && p.length > 2 && p.startsWith("^") && p.endsWith("$") && /^\$\d+$/.test(r)) {
      const group = Number(r.slice(1));
      if (group > fixed.groupCount()) throw new SqlError(`no group ${group}`, replacementPos);
    }
  }
  let lastPattern: string | undefined, last: Regex | undefined;
  return {
    returns: textResult(args[0].type),
    eval: ([s, p, r]) => {
      if (s === null || p === null || r === null) return null;
      let re = fixed;
      if (!re) {
        if (p !== lastPattern || !last) {
          [last, lastPattern] = [compileRegex(p as string, patternPos), p as string];
        }
        re = last;
      }
      const out = replaceAllJava(re, s as string, r as string, replacementPos);
      if (out.length > REGEXP_REPLACE_LENGTH_MAX) {
        // RegexpReplaceStrFunctionFactoryTest#testWhenChainedCallsExceedsMaxLengthExceptionIsThrown
        throw new SqlError(
          `breached memory limit set for regexp_replace(SSS) [maxLength=${REGEXP_REPLACE_LENGTH_MAX}]`,
        );
      }
      return out;
    },
  };
}

/** QuestDB's cairo.sql.string.function.buffer.max.size: the longest text regexp_replace() may build. */
const REGEXP_REPLACE_LENGTH_MAX = 1_048_576;

/** `trim`, `ltrim`, `rtrim`, `lpad`, `rpad`, `split_part`, `quote_ident`, `regexp_replace`. */
export const TEXT_FORMAT_FUNCTIONS: ScalarFunction[] = [
  scalar("trim", bindTrim("trim", (s) => s.trim())),
  scalar("ltrim", bindTrim("ltrim", (s) => s.trimStart())),
  scalar("rtrim", bindTrim("rtrim", (s) => s.trimEnd())),
  scalar("lpad", bindPad("lpad", true)),
  scalar("rpad", bindPad("rpad", false)),
  scalar("split_part", bindSplitPart),
  scalar("quote_ident", (args) => {
    if (args.length !== 1 || !isTextArg(args[0].type)) return noMatch("quote_ident", args);
    return {
      returns: textResult(args[0].type),
      eval: ([s]) => (s === null ? null : quoteIdent(s as string)),
    };
  }),
  scalar("regexp_replace", bindRegexpReplace),
];
