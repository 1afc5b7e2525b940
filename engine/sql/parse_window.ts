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
    call.nulls = p.next().text.toLowerCase() as "ignore" | "respect";
    p.next();
    // QuestDB (WindowFunctionTest#testWindowOnlyFunctionFailsInNonWindowContext): IGNORE/RESPECT
    // NULLS must be followed by OVER, `'over' expected` at the next token.
    if (!p.isWord("over")) throw p.expected("'over'");
  }
  const over = p.peek();
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
  if (p.atName() && !(w !== undefined && SPEC_WORDS.has(w))) spec.baseName = p.name("window name").name;
  if (p.acceptWords("partition", "by")) spec.partitionBy = parseExprList(p);
  if (p.acceptWords("order", "by")) spec.orderBy = parseOrderItems(p);
  const frameWord = p.wordAt();
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
    spec.frame.exclude = parseExclude(p);
  }
  p.closeParen(open);
  return spec;
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
    frame.start = parseBound(p);
    p.expectWord("and");
    frame.end = parseBound(p);
  } else {
    frame.start = parseBound(p);
  }
  return frame;
}

function parseBound(p: ParseState): FrameBound {
  const second = p.peek(1).pos;
  if (p.acceptWords("unbounded", "preceding")) return { kind: "unboundedPreceding", pos: second };
  if (p.acceptWords("unbounded", "following")) return { kind: "unboundedFollowing", pos: second };
  if (p.acceptWords("current", "row")) return { kind: "currentRow", pos: second };
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
  const unit = p.wordAt();
  if (unit !== undefined) {
    const singular = unit.endsWith("s") ? unit.slice(0, -1) : unit;
    if (TIME_UNITS.has(singular)) {
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
  if (p.acceptWords("current", "row")) return "currentRow";
  if (p.acceptWords("no", "others")) return "noOthers";
  if (p.acceptWord("group")) return "group";
  if (p.acceptWord("ties")) return "ties";
  throw p.expected("'current row' or 'no others'");
}
