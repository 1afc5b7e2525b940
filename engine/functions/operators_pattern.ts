/**
 * Pattern operators: `LIKE` / `ILIKE` (whole-value match, `%` any run, `_` one character, `\`
 * escapes the next character; spec/sql.md §7.12) and the regular-expression operators `~` /
 * `!~` (find semantics: the pattern may match anywhere; §7.4). A constant pattern is compiled
 * once at bind; a per-row pattern is compiled when it changes. Neither kind backtracks: LIKE
 * has its own matcher (like_match.ts) and regexes run on RE2 (regex.ts), so no value or
 * pattern can make a match take more than linear time.
 *
 * A NULL value or pattern never matches, so `!~` (evaluated as not-match, like QuestDB) is
 * true for it.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { isTextArg, noMatchOp, scalar } from "./_util.ts";
import { likeMatcher } from "./like_match.ts";
import { compileRegex } from "./regex.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

type Test = (value: string) => boolean;

/** A matcher for the pattern argument: fixed when constant, cached per distinct pattern otherwise. */
function matcher(
  pattern: BoundArg,
  compile: (p: string, pos: number) => Test,
): (value: string, p: Value) => boolean {
  if (pattern.constant) {
    const p = pattern.value ?? null;
    if (p === null) return () => false;
    const test = compile(p as string, pattern.pos);
    return (value) => test(value);
  }
  let lastPattern: string | undefined, lastTest: Test | undefined;
  return (value, p) => {
    if (p === null) return false;
    if (p !== lastPattern || !lastTest) {
      lastTest = compile(p as string, pattern.pos);
      lastPattern = p as string;
    }
    return lastTest(value);
  };
}

function bindMatch(
  op: string,
  args: BoundArg[],
  compile: (p: string, pos: number) => Test,
  negated: boolean,
): ScalarBinding | string {
  if (args.length !== 2 || !isTextArg(args[0].type) || !isTextArg(args[1].type)) return noMatchOp(op, args);
  const m = matcher(args[1], compile);
  // a NULL pattern matches nothing, negated or not: `name !~ null` selects no rows
  // (NotMatchVarcharFunctionFactoryTest#testNullRegex)
  const nullPattern = args[1].constant && (args[1].value ?? null) === null;
  return {
    returns: T.BOOLEAN,
    eval: ([v, p]) => {
      if (negated && (nullPattern || p === null)) return false;
      return (v !== null && m(v as string, p)) !== negated;
    },
  };
}

function regexTest(p: string, pos: number): Test {
  const re = compileRegex(p, pos);
  return (value) => re.test(value);
}

/** Binary `~`: regex find. Exported for the `~` dispatcher in operators.ts. */
export function bindRegexMatch(args: BoundArg[]): ScalarBinding | string {
  return bindMatch("~", args, regexTest, false);
}

/**
 * A LIKE pattern written with a custom escape character, rewritten to the `\` escapes
 * likeMatcher reads: `esc x` becomes `\x`, a plain `\` becomes `\\` (LikeEscapeClauseTest). A
 * trailing escape is reported at its offset inside the pattern, as QuestDB does for a trailing
 * `\` (LikeEscapeClauseTest#testTrailingEscapeCharIsAnError).
 */
export function withEscape(pattern: string, esc: string): string {
  if (esc === "\\") return pattern;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === esc) {
      if (i + 1 >= pattern.length) throw new SqlError("LIKE pattern must not end with escape character", i);
      out += "\\" + pattern[++i];
    } else out += c === "\\" ? "\\\\" : c;
  }
  return out;
}

/**
 * A LIKE matcher for pattern `p`; an empty pattern matches nothing, the empty value included:
 * QuestDB folds `LIKE ''` to constant false without reading the value, for STRING, VARCHAR and
 * SYMBOL alike (TextPredicateOwnershipTest, SymbolPredicateOwnershipTest).
 */
function likeTest(p: string, caseInsensitive: boolean): Test {
  return p === "" ? () => false : likeMatcher(p, caseInsensitive);
}

/** `x LIKE p [ESCAPE 'c']`: the escape must be a constant single character. */
function bindLike(op: string, caseInsensitive: boolean) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length !== 3) {
      const pattern = args[1];
      if (args.length === 2 && pattern.perRow && isTextArg(args[0].type) && isTextArg(pattern.type)) {
        // LikeFunctionFactoryTest#testNonConstantExpression: `name like rnd_str(...)`
        throw new SqlError("use constant or bind variable", pattern.pos);
      }
      if (
        args.length === 2 && pattern.constant && typeof pattern.value === "string" && isTextArg(args[0].type)
      ) {
        const p = pattern.value;
        const trailing = p.length - p.replace(/\\+$/, "").length;
        if (trailing % 2 === 1) {
          // QuestDB points at the escape's offset inside the pattern, not in the statement
          // (LikeFunctionFactoryTest#testLikeEscapeAtEndRegConstFunc)
          throw new SqlError(
            `found [tok='${p}', len=${p.length}] LIKE pattern must not end with escape character`,
            p.length - 1,
          );
        }
        // on STRING a pattern of only `%` matches every row, NULL too (LikeFunctionFactoryTest /
        // ILikeFunctionFactoryTest#testSimplePatternLikeString); VARCHAR and SYMBOL keep NULL out
        // (LikeVarcharFunctionFactoryTest, LikeSymbolFunctionFactoryTest#testSimplePatternLike)
        if (args[0].type.tag === "STRING" && /^%+$/.test(p)) return { returns: T.BOOLEAN, eval: () => true };
      }
      return bindMatch(op, args, (p) => likeTest(p, caseInsensitive), false);
    }
    const esc = args[2];
    if (!isTextArg(esc.type)) return noMatchOp(op, args);
    if (!esc.constant) throw new SqlError("ESCAPE expression must be a constant", esc.pos);
    if (typeof esc.value !== "string" || esc.value.length !== 1) {
      throw new SqlError("ESCAPE expression must be a single character", esc.pos);
    }
    const c = esc.value;
    const b = bindMatch(
      op,
      args.slice(0, 2),
      (p) => likeTest(withEscape(p, c), caseInsensitive),
      false,
    );
    if (typeof b === "string") return b;
    return { ...b, eval: ([v, p], ctx) => b.eval([v, p], ctx) };
  };
}

/**
 * A glob as a whole-value regular expression (GlobStrFunctionFactoryTest): `*` (and `**`) any
 * run, `?` one character, `[abc]` / `[a-z]` a class, `[!…]` its complement; the rest literal.
 */
export function globToRegex(glob: string): string {
  let re = "^";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      while (glob[i + 1] === "*") i++;
      re += ".*";
    } else if (c === "?") re += ".";
    else if (c === "[" && glob.indexOf("]", i + 2) > 0) {
      const end = glob.indexOf("]", i + 2);
      let body = glob.slice(i + 1, end);
      const negated = body.startsWith("!");
      if (negated) body = body.slice(1);
      re += `[${negated ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
      i = end;
    } else re += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return re + "$";
}

/** `glob(s, pattern)`: s matches the whole glob; NULL s or pattern is false. */
function bindGlob(args: BoundArg[]): ScalarBinding | string {
  return bindMatch("glob", args, (p, pos) => regexTest(globToRegex(p), pos), false);
}

/** `like`, `ilike`, `!~` (the binary `~` is registered by operators.ts). */
export const PATTERN_OPERATORS: ScalarFunction[] = [
  scalar("like", bindLike("like", false)),
  scalar("ilike", bindLike("ilike", true)),
  scalar("glob", bindGlob),
  scalar("!~", (args) => bindMatch("!~", args, regexTest, true)),
];
