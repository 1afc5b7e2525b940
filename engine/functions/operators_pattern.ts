/**
 * Pattern operators: `LIKE` / `ILIKE` (whole-value match, `%` any run, `_` one character, `\`
 * escapes the next character; spec/sql.md §7.12) and the regular-expression operators `~` /
 * `!~` (find semantics: the pattern may match anywhere; §7.4). A constant pattern is compiled
 * once at bind; a per-row pattern is compiled when it changes.
 *
 * A NULL value or pattern never matches, so `!~` (evaluated as not-match, like QuestDB) is
 * true for it.
 */
import { T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { isTextArg, noMatchOp, scalar } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/;

/** Translates a LIKE pattern into an anchored JS RegExp. */
export function likeToRegExp(pattern: string, caseInsensitive: boolean): RegExp {
  let src = "^";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\" && i + 1 < pattern.length) {
      const next = pattern[++i];
      src += REGEX_SPECIAL.test(next) ? "\\" + next : next;
    } else if (c === "%") {
      src += "[\\s\\S]*";
    } else if (c === "_") {
      src += "[\\s\\S]";
    } else {
      src += REGEX_SPECIAL.test(c) ? "\\" + c : c;
    }
  }
  return new RegExp(src + "$", caseInsensitive ? "i" : "");
}

/**
 * Compiles a Java-style regular expression as a JS RegExp; a leading `(?i)` (common in
 * QuestDB queries) becomes the `i` flag. Returns undefined when the pattern is invalid.
 */
export function compileRegex(pattern: string): RegExp | undefined {
  let src = pattern, flags = "";
  if (src.startsWith("(?i)")) {
    src = src.slice(4);
    flags = "i";
  }
  try {
    return new RegExp(src, flags);
  } catch {
    return undefined;
  }
}

/** A matcher for the pattern argument: fixed when constant, cached per distinct pattern otherwise. */
function matcher(
  pattern: BoundArg,
  compile: (p: string) => RegExp | undefined,
): ((value: string, p: Value) => boolean) | string {
  if (pattern.constant) {
    const p = pattern.value ?? null;
    if (p === null) return () => false;
    const re = compile(p as string);
    if (!re) return `invalid regex: ${p}`;
    return (value) => re.test(value);
  }
  let lastPattern: string | undefined, lastRe: RegExp | undefined;
  return (value, p) => {
    if (p === null) return false;
    if (p !== lastPattern) {
      lastPattern = p as string;
      lastRe = compile(p as string);
    }
    return lastRe ? lastRe.test(value) : false;
  };
}

function bindMatch(
  op: string,
  args: BoundArg[],
  compile: (p: string) => RegExp | undefined,
  negated: boolean,
): ScalarBinding | string {
  if (args.length !== 2 || !isTextArg(args[0].type) || !isTextArg(args[1].type)) return noMatchOp(op, args);
  const m = matcher(args[1], compile);
  if (typeof m === "string") return m;
  return {
    returns: T.BOOLEAN,
    eval: ([v, p]) => (v !== null && m(v as string, p)) !== negated,
  };
}

/** Binary `~`: regex find. Exported for the `~` dispatcher in operators.ts. */
export function bindRegexMatch(args: BoundArg[]): ScalarBinding | string {
  return bindMatch("~", args, compileRegex, false);
}

/** `like`, `ilike`, `!~` (the binary `~` is registered by operators.ts). */
export const PATTERN_OPERATORS: ScalarFunction[] = [
  scalar("like", (args) => bindMatch("like", args, (p) => likeToRegExp(p, false), false)),
  scalar("ilike", (args) => bindMatch("ilike", args, (p) => likeToRegExp(p, true), false)),
  scalar("!~", (args) => bindMatch("!~", args, compileRegex, true)),
];
