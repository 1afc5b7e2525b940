/**
 * User-supplied regular expressions (`~`, `!~`, `regexp_replace`) run on RE2 (npm `re2js`), whose
 * matching time is linear in the input: JavaScript's backtracking `RegExp` let one pattern such as
 * `(a+)+$` hold the event loop for minutes, past any statement timeout (issue #24). RE2 lacks the
 * few Java-regex features that need backtracking; a pattern using one fails with a clear
 * "regex ... not supported" error instead of a silently different meaning (docs/regex.md).
 */
import { RE2JS, RE2JSException } from "re2js";
import { SqlError } from "../base/errors.ts";

export type Regex = RE2JS;

/**
 * Compiles a Java-style pattern. `pos` is the pattern's offset in the SQL text, for errors.
 * Inline flags such as a leading `(?i)` are RE2 syntax too and keep working.
 */
export function compileRegex(pattern: string, pos: number): Regex {
  const unsupported = findUnsupported(pattern);
  if (unsupported) {
    throw new SqlError(
      `regex ${unsupported.feature} not supported: ${unsupported.text} [offset=${unsupported.offset}]`,
      pos,
    );
  }
  try {
    return RE2JS.compile(pattern);
  } catch (e) {
    if (!(e instanceof RE2JSException)) throw e;
    const detail = e.message.replace(/^error parsing regexp: /, "");
    throw new SqlError(
      javaDescription(detail) ?? `invalid regex: ${detail} [pattern=${pattern}]`,
      pos + javaErrorIndex(pattern, detail) + 1,
    );
  }
}

/**
 * Where Java's Pattern reports the error RE2 found, as an index into the pattern: QuestDB points
 * at the pattern literal's offset + index + 1 (RegexUtils.createMatcher), e.g. `XJ**` fails at
 * the dangling second `*` (MatchStrFunctionFactoryTest#testRegexSyntaxError).
 */
function javaErrorIndex(pattern: string, detail: string): number {
  const quoted = /`([^`]*)`/.exec(detail)?.[1];
  const at = quoted ? Math.max(0, pattern.indexOf(quoted)) : 0;
  if (detail.startsWith("missing closing )")) return pattern.length; // Unclosed group
  if (detail.startsWith("missing closing ]")) return pattern.length - 1; // Unclosed character class
  if (detail.startsWith("unexpected )")) return Math.max(0, at - 1); // Unmatched closing ')'
  if (detail.includes("repetition operator") || detail.startsWith("invalid character class range")) {
    return at + Math.max(0, (quoted?.length ?? 1) - 1); // Dangling meta character, Illegal character range
  }
  return at;
}

/**
 * Java's PatternSyntaxException description for the error RE2 found, which QuestDB reports as the
 * message (RegexpReplaceStrFunctionFactoryTest#testRegexSyntaxError: `XJ**` is "Dangling meta
 * character '*'"); undefined for an error kind without a known counterpart.
 */
function javaDescription(detail: string): string | undefined {
  const quoted = /`([^`]*)`/.exec(detail)?.[1] ?? "";
  if (detail.includes("repetition operator")) return `Dangling meta character '${quoted.slice(-1) || "*"}'`;
  if (detail.startsWith("missing closing )")) return "Unclosed group";
  if (detail.startsWith("unexpected )")) return "Unmatched closing ')'";
  if (detail.startsWith("missing closing ]")) return "Unclosed character class";
  // `\p{javaLowerCase}` is a range RE2 lacks, not a syntax error: RE2's reason stays.
  if (detail.startsWith("invalid character class range") && !/^\\[pP]/.test(quoted)) {
    return "Illegal character range";
  }
  if (detail.startsWith("trailing backslash")) return "Unexpected internal error";
  return undefined;
}

/** Java's replacement syntax (`$1`, `${name}`, `\$`) applied to every match, as String.replaceAll. */
export function replaceAllJava(re: Regex, input: string, replacement: string, pos: number): string {
  try {
    return re.matcher(input).replaceAll(replacement, true);
  } catch (e) {
    if (!(e instanceof Error) || e instanceof SqlError) throw e;
    throw new SqlError(`invalid replacement: ${e.message} [replacement=${replacement}]`, pos);
  }
}

interface Unsupported {
  feature: string;
  text: string;
  offset: number;
}

/**
 * The first Java-only construct in `p`, if any. RE2 rejects most of them itself, but with
 * messages that do not name the feature, and it would quietly read a Java class intersection
 * `[a-z&&[^e]]` as a plain set, so those are found here before compiling.
 */
function findUnsupported(p: string): Unsupported | undefined {
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      const next = p[i + 1] ?? "";
      if (next === "Q") {
        const end = p.indexOf("\\E", i + 2);
        if (end < 0) return undefined;
        i = end + 1;
        continue;
      }
      if (/[1-9]/.test(next)) return { feature: "backreference", text: "\\" + next, offset: i };
      if (next === "k" && p[i + 2] === "<") return { feature: "backreference", text: "\\k<", offset: i };
      i++;
    } else if (c === "[") {
      const found = scanClass(p, i);
      if (typeof found !== "number") return found;
      i = found;
    } else if (c === "(" && p[i + 1] === "?") {
      const head = p.slice(i, i + 4);
      if (/^\(\?(=|!|<=|<!)/.test(head)) {
        return { feature: "lookaround", text: head.match(/^\(\?(=|!|<=|<!)/)![0], offset: i };
      }
      if (head.startsWith("(?>")) return { feature: "atomic group", text: "(?>", offset: i };
    } else if ((c === "*" || c === "+" || c === "?" || c === "}") && p[i + 1] === "+") {
      if (c !== "}" || isCountedRepeatEnd(p, i)) {
        return { feature: "possessive quantifier", text: c + "+", offset: i };
      }
    }
  }
  return undefined;
}

/** Skips a character class starting at `start`; answers its closing offset or a Java-only form in it. */
function scanClass(p: string, start: number): number | Unsupported {
  let i = start + 1;
  if (p[i] === "^") i++;
  if (p[i] === "]") i++; // a leading ] is a literal
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") i++;
    else if (c === "]") return i;
    else if (c === "&" && p[i + 1] === "&") {
      return { feature: "character class intersection", text: "&&", offset: i };
    } else if (c === "[" && p[i + 1] === ":") {
      const end = p.indexOf(":]", i + 2);
      if (end > 0) i = end + 1;
    } else if (c === "[") return { feature: "nested character class", text: "[", offset: i };
  }
  return p.length;
}

/** True when the `}` at `end` closes a counted repetition `{n}`, `{n,}` or `{n,m}`. */
function isCountedRepeatEnd(p: string, end: number): boolean {
  const open = p.lastIndexOf("{", end);
  return open >= 0 && /^\{\d+(,\d*)?\}$/.test(p.slice(open, end + 1));
}
