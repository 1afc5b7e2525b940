/**
 * What may follow a function call's `)` (aggregate `FILTER (WHERE ...)`, `IGNORE | RESPECT
 * NULLS`, `OVER ...`) and window specifications with their frames (spec/sql.md §12.1).
 */
import type { Expr, FrameBound, FunctionCall, WindowFrame, WindowSpec } from "./ast.ts";
import { parseExpr, parseExprList, parseOrderItems } from "./parse_expr.ts";
import type { ParseState } from "./parse_state.ts";
import { PREC } from "./precedence.ts";
import { durationLiteral } from "./pg_interval.ts";
import { syntaxError } from "../base/errors.ts";

/** RANGE offset units, singular (`5 minutes` → "minute"). */
const TIME_UNITS = new Set([
  "nanosecond",
  "microsecond",
  "millisecond",
  "second",
  "minute",
  "hour",
  "day",
  "week",
]);

/** Words that open the body of a window spec rather than naming a base window. */
const SPEC_WORDS = new Set(["partition", "order", "rows", "range", "groups", "cumulative", "exclude"]);

/** Reads FILTER, IGNORE/RESPECT NULLS and OVER after a call into `call`. */
export function parseCallTail(p: ParseState, call: FunctionCall): void {
  if (p.isWord("filter") && p.isOp("(", 1)) {
    // QuestDB GroupByFunctionTest#testFilterParserErrors: `'where' expected` after the
    // parenthesis (at it when the text ends there), `filter condition expected` at WHERE when
    // the text ends, or at `)` when the condition is empty.
    p.next();
    const open = p.next();
    if (!p.isWord("where")) throw p.expected("'where'", p.atEnd() ? open : p.peek());
    const where = p.next();
    if (p.atEnd()) throw syntaxError("filter condition expected", where.pos);
    if (p.isOp(")")) throw syntaxError("filter condition expected", p.peek().pos);
    call.filter = parseExpr(p);
    if (p.atEnd()) throw p.expected("')'", p.peek(-1));
    p.closeParen(open);
  }
  if ((p.isWord("ignore") || p.isWord("respect")) && p.isWord("nulls", 1)) {
    call.nullsPos = p.peek().pos;
    call.nulls = p.next().text.toLowerCase() as "ignore" | "respect";
    p.next();
    // QuestDB (WindowFunctionTest#testWindowOnlyFunctionFailsInNonWindowContext): IGNORE/RESPECT
    // NULLS must be followed by OVER, `'over' expected` at the next token.
    if (!p.isWord("over")) throw p.expected("'over'");
  }
  const over = p.peek();
  if (p.isWord("over") && !(p.isOp("(", 1) || p.atName(1))) {
    // QuestDB's OVER without a specification or a usable name (WindowFunctionTest
    // #testNamedWindowMissingNameInOverClause, ...KeywordAsName, ...NumberAsName).
    const next = p.peek(1);
    if (next.kind === "eof" || (next.kind === "op" && next.text === ";")) {
      throw syntaxError("'(' or window name expected after OVER", over.pos);
    }
    if (next.kind === "number") throw syntaxError("identifier should start with a letter or '_'", next.pos);
    if (next.kind === "word") {
      throw syntaxError("SQL keywords have to be enclosed in double quotes", next.pos);
    }
  }
  if (p.isWord("over") && (p.isOp("(", 1) || p.atName(1))) {
    p.next();
    if (p.isOp("(")) {
      call.over = parseWindowSpec(p);
    } else {
      const base = p.name("window name");
      call.over = { pos: over.pos, baseName: base.name, partitionBy: [], orderBy: [] };
    }
  }
}

/** `( [base] [PARTITION BY ...] [ORDER BY ...] [frame] )`, the cursor on `(`. */
export function parseWindowSpec(p: ParseState): WindowSpec {
  const open = p.expectOp("(");
  const spec: WindowSpec = { pos: open.pos, partitionBy: [], orderBy: [] };
  const w = p.wordAt();
  // `OVER (by b ...)`: BY without PARTITION or ORDER is no window name
  // (SqlParserTest#testUnexpectedTokenInWindowFunction).
  if (w === "by") throw p.expected("'partition' or 'order'");
  if (p.atName() && !(w !== undefined && SPEC_WORDS.has(w))) {
    spec.baseNamePos = p.peek().pos;
    spec.baseName = p.name("window name").name;
  }
  // QuestDB's ExpressionParser#parseWindowSpec: PARTITION or ORDER without BY fails at the next
  // token, and the text ending inside the spec fails at its last token
  // (WindowFunctionTest#testWindowSpecErrorOrderWithoutBy, ...PartitionByEndOfInput, ...OrderByEndOfInput).
  if (p.isWord("partition")) {
    const partition = p.next();
    if (spec.baseName !== undefined) {
      // SQL standard: a window naming a base window takes its PARTITION BY from it
      // (WindowFunctionTest#testWindowInheritancePartitionByInChildError).
      throw syntaxError("PARTITION BY not allowed in window referencing another window", partition.pos);
    }
    if (!p.acceptWord("by")) throw syntaxError("'by' expected after 'partition'", lastOrNext(p));
    spec.partitionBy = parseExprList(p);
    if (p.atEnd()) throw syntaxError("'order', ',' or ')' expected", p.peek(-1).pos);
  }
  if (p.isWord("order")) {
    p.next();
    if (!p.acceptWord("by")) throw syntaxError("'by' expected after 'order'", lastOrNext(p));
    spec.orderBy = parseOrderItems(p);
    if (p.atEnd()) throw syntaxError("')' expected to close window specification", p.peek(-1).pos);
  }
  const frameWord = p.wordAt();
  if (frameWord === "groups" && spec.orderBy.length === 0) {
    // QuestDB 9 (SqlParserTest#testACGroupsWithMissingOrderBy), at the GROUPS keyword.
    throw syntaxError("GROUPS mode requires an ORDER BY clause", p.peek().pos);
  }
  if (frameWord === "cumulative" && spec.orderBy.length === 0 && spec.baseName === undefined) {
    // QuestDB's SqlParser, at the CUMULATIVE keyword (ExpressionParserTest#testWindowFunctionCumulativeWithoutOrderBy).
    throw syntaxError("CUMULATIVE requires an ORDER BY clause", p.peek().pos);
  }
  if (frameWord === "rows" || frameWord === "range" || frameWord === "groups" || frameWord === "cumulative") {
    spec.frame = parseFrame(p);
  }
  if (p.isWord("exclude")) {
    // EXCLUDE without a frame applies to the default frame, written out so that it has a home.
    spec.frame ??= {
      pos: p.peek().pos,
      unit: "range",
      start: { kind: "unboundedPreceding" },
      end: { kind: spec.orderBy.length > 0 ? "currentRow" : "unboundedFollowing" },
    };
    spec.frame.excludePos = p.peek(1).pos;
    spec.frame.exclude = parseExclude(p);
  }
  if (p.atEnd()) throw syntaxError("')' expected to close window specification", p.peek(-1).pos);
  p.closeParen(open);
  if (spec.frame) checkFrameOffsets(spec);
  return spec;
}

/** The next token's position, or the last token's when the text ends (QuestDB's lastTokenPosition). */
function lastOrNext(p: ParseState): number {
  return p.atEnd() ? p.peek(-1).pos : p.peek().pos;
}

/**
 * The checks QuestDB's SqlParser makes once the window clause is read: a negative offset is
 * refused at its sign (SqlParserTest#testACRequiredNonNegativePrecedingAndFollowingValues), and
 * a RANGE offset needs exactly one ORDER BY column, reported at the first offset bound's
 * PRECEDING or FOLLOWING (#testACRangeRequiredOrderByOnNonDefaultFrameBoundaries).
 */
function checkFrameOffsets(spec: WindowSpec): void {
  const frame = spec.frame!;
  for (const b of [frame.start, frame.end]) {
    const o = b.offset;
    const negative = (o?.kind === "unary" && o.op === "-") ||
      (o?.kind === "literal" && (typeof o.value === "number" || typeof o.value === "bigint") && o.value < 0);
    if (negative) throw syntaxError("non-negative integer expression expected", o!.pos);
  }
  if (frame.unit !== "range" || spec.baseName !== undefined || spec.orderBy.length === 1) return;
  const bound = [frame.start, frame.end].find((b) => b.offset !== undefined);
  if (bound) {
    throw syntaxError(
      "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column",
      bound.pos ?? frame.pos,
    );
  }
}

function parseFrame(p: ParseState): WindowFrame {
  const t = p.next();
  const unit = t.text.toLowerCase();
  if (unit === "cumulative") {
    return { pos: t.pos, unit: "rows", start: { kind: "unboundedPreceding" }, end: { kind: "currentRow" } };
  }
  const frame: WindowFrame = {
    pos: t.pos,
    unit: unit as WindowFrame["unit"],
    start: { kind: "currentRow" },
    end: { kind: "currentRow" },
  };
  if (p.acceptWord("between")) {
    frame.start = parseBound(p, frame.unit, true);
    if (!p.isWord("and")) throw syntaxError("'and' expected", p.peek().pos);
    p.next();
    frame.end = parseBound(p, frame.unit, false);
    // QuestDB's SqlParser#parseWindowFrameClause: an end PRECEDING needs a PRECEDING start.
    if (frame.end.kind === "preceding" || frame.end.kind === "unboundedPreceding") {
      if (frame.start.kind === "currentRow") {
        throw syntaxError(
          "frame starting from CURRENT ROW must end with CURRENT ROW or FOLLOWING",
          frame.end.pos!,
        );
      }
      if (frame.start.kind === "following") {
        throw syntaxError("frame starting from FOLLOWING must end with FOLLOWING", frame.end.pos!);
      }
    }
    checkConstantOrder(frame.start, frame.end);
  } else {
    frame.start = parseBound(p, frame.unit, true);
    if (frame.start.kind === "following") {
      throw syntaxError(
        "single-bound frame specification requires PRECEDING, use BETWEEN for FOLLOWING",
        frame.start.pos!,
      );
    }
  }
  return frame;
}

/** Nanoseconds per RANGE offset unit, to compare two constant bounds. */
const UNIT_NANOS: Record<string, bigint> = {
  nanosecond: 1n,
  microsecond: 1_000n,
  millisecond: 1_000_000n,
  second: 1_000_000_000n,
  minute: 60_000_000_000n,
  hour: 3_600_000_000_000n,
  day: 86_400_000_000_000n,
  week: 604_800_000_000_000n,
};

/** A bound's constant signed offset (PRECEDING negative), or undefined when not constant. */
function constantOffset(b: FrameBound): bigint | undefined {
  if (b.kind === "currentRow") return 0n;
  if (b.kind !== "preceding" && b.kind !== "following") return undefined;
  const o = b.offset;
  if (o?.kind !== "literal" || (typeof o.value !== "number" && typeof o.value !== "bigint")) return undefined;
  if (typeof o.value === "number" && !Number.isInteger(o.value)) return undefined;
  const n = BigInt(o.value) * (b.timeUnit ? UNIT_NANOS[b.timeUnit] ?? 1n : 1n);
  return b.kind === "preceding" ? -n : n;
}

/**
 * QuestDB refuses constant bounds whose start lies after the end at the start's value
 * (SqlParserTest#testACExprFollowingExprFollowingClauseInvalid: `between 22 following and
 * 3 following`, `between 10 preceding and 20 preceding`).
 */
function checkConstantOrder(start: FrameBound, end: FrameBound): void {
  if (start.kind === "currentRow" || end.kind === "currentRow") return;
  const lo = constantOffset(start);
  const hi = constantOffset(end);
  if (lo === undefined || hi === undefined || start.timeUnit !== end.timeUnit) return;
  if (lo > hi) throw syntaxError("start of window must be lower than end of window", start.offset!.pos);
}

/**
 * One frame bound, with QuestDB's SqlParser#parseWindowFrameBound errors: PRECEDING or
 * FOLLOWING without a value, UNBOUNDED FOLLOWING as the start or UNBOUNDED PRECEDING as the
 * end, CURRENT without ROW, and a time unit outside a RANGE frame.
 */
function parseBound(p: ParseState, unit: WindowFrame["unit"], lower: boolean): FrameBound {
  const first = p.peek();
  const w = p.wordAt();
  if (w === "preceding" || w === "following") {
    throw syntaxError(`frame bound value expected before '${first.text}'`, first.pos);
  }
  if (w === "unbounded") {
    p.next();
    const k = p.peek();
    if (p.acceptWord("preceding")) {
      if (!lower) {
        throw syntaxError("frame end cannot be UNBOUNDED PRECEDING, use UNBOUNDED FOLLOWING", k.pos);
      }
      return { kind: "unboundedPreceding", pos: k.pos };
    }
    if (p.acceptWord("following")) {
      if (lower) {
        throw syntaxError("frame start cannot be UNBOUNDED FOLLOWING, use UNBOUNDED PRECEDING", k.pos);
      }
      return { kind: "unboundedFollowing", pos: k.pos };
    }
    throw syntaxError("'preceding' or 'following' expected after 'unbounded'", k.pos);
  }
  if (w === "current") {
    p.next();
    const k = p.peek();
    if (!p.acceptWord("row")) throw syntaxError("'row' expected after 'current'", k.pos);
    return { kind: "currentRow", pos: k.pos };
  }
  let offset: Expr = parseExpr(p, PREC.bitOr);
  const bound: FrameBound = { kind: "preceding", offset };
  // PostgreSQL's `INTERVAL '5' MINUTE PRECEDING` / `interval '5 minutes' PRECEDING`: QuestDB's
  // `5 MINUTE PRECEDING` counted in microseconds (a day is 24 hours; months have no fixed length).
  const duration = durationLiteral(offset);
  if (duration) {
    if (duration.months !== 0) throw syntaxError("a month or year RANGE offset is not supported", offset.pos);
    const micros = BigInt(duration.days) * 86_400_000_000n + duration.micros;
    offset = { kind: "literal", pos: offset.pos, type: "long", value: micros, text: String(micros) };
    return finishBound(p, { kind: "preceding", offset, timeUnit: "microsecond" });
  }
  const word = p.wordAt();
  if (word !== undefined) {
    const singular = word.endsWith("s") ? word.slice(0, -1) : word;
    if (TIME_UNITS.has(singular)) {
      if (unit !== "range") {
        throw syntaxError("time units are only valid with RANGE frames, not ROWS or GROUPS", p.peek().pos);
      }
      p.next();
      bound.timeUnit = singular;
    }
  }
  return finishBound(p, bound);
}

/** The PRECEDING or FOLLOWING after a bound's offset. */
function finishBound(p: ParseState, bound: FrameBound): FrameBound {
  bound.pos = p.peek().pos;
  if (p.acceptWord("following")) bound.kind = "following";
  else if (!p.acceptWord("preceding")) throw p.expected("'preceding' or 'following'");
  return bound;
}

function parseExclude(p: ParseState): WindowFrame["exclude"] {
  p.expectWord("exclude");
  // QuestDB's SqlParser: after CURRENT or NO the second word is expected where it is missing
  // (SqlParserTest#testACExprPrecedingUnboundedFollowingExcludeCurrentRowInvalid, ...NoOthersInvalid).
  if (p.acceptWord("current")) {
    if (!p.acceptWord("row")) throw syntaxError("'row' expected after 'current'", lastOrNext(p));
    return "currentRow";
  }
  if (p.acceptWord("no")) {
    if (!p.acceptWord("others")) throw syntaxError("'others' expected after 'no'", lastOrNext(p));
    return "noOthers";
  }
  if (p.acceptWord("group")) return "group";
  if (p.acceptWord("ties")) return "ties";
  throw p.expected("'current', 'group', 'ties' or 'no other'");
}
