/**
 * SAMPLE BY (spec/sql.md §10.1): the stride with its case-sensitive unit letter, then FROM/TO,
 * FILL(...) and ALIGN TO ... in any order, each at most once.
 */
import { syntaxError } from "../base/errors.ts";
import type { FillOption, SampleBy } from "./ast.ts";
import { splitAmountUnit } from "./literal.ts";
import { parseExpr } from "./parse_expr.ts";
import type { ParseState } from "./parse_state.ts";
import { parseGroupingSets } from "./parse_clauses.ts";

/** Units of SAMPLE BY (Appendix A): n U T s m h d w M y, case matters. */
const SAMPLE_UNITS = new Set(["n", "U", "T", "s", "m", "h", "d", "w", "M", "y"]);

/** The cursor on SAMPLE. */
export function parseSampleBy(p: ParseState): SampleBy {
  const kw = p.next();
  p.next();
  // QuestDB reads the stride as an expression, so it may stand in parentheses: `SAMPLE BY (1m)`
  // (SqlOptimiserTest#testSampleByFromToParallelDeduceTimestampColumn).
  const open = p.acceptOp("(");
  const strideTok = p.peek();
  // The count may be left out (`SAMPLE BY h` = `SAMPLE BY 1h`), as QuestDB's SAMPLE BY page says.
  let split = strideTok.kind === "word" && SAMPLE_UNITS.has(strideTok.text)
    ? { amount: 1, unit: strideTok.text }
    : splitAmountUnit(strideTok);
  if (
    !split &&
    (strideTok.kind === "word" || (strideTok.kind === "number" && /^\d[\d_]*$/.test(strideTok.text)))
  ) {
    // QuestDB's SqlParser#expectSample: a stride that is not `<n><unit>` must be followed by a
    // unit letter (`SAMPLE BY 3 h`); the end of the text is "time interval unit expected",
    // anything else is refused where the unit should be (SqlParserTest#testInvalidGroupBy1:
    // `sample by x,` at the comma).
    p.next();
    const unit = p.peek();
    if (p.atEnd()) throw p.expected("time interval unit");
    if (unit.kind !== "word" || !SAMPLE_UNITS.has(unit.text) || strideTok.kind !== "number") {
      throw syntaxError("one letter sample by period unit expected", unit.pos);
    }
    split = { amount: Number(strideTok.text.replaceAll("_", "")), unit: unit.text };
  }
  if (!split || !SAMPLE_UNITS.has(split.unit) || split.amount <= 0) {
    throw syntaxError("invalid sample by stride, e.g. 15m [units=n,U,T,s,m,h,d,w,M,y]", strideTok.pos);
  }
  p.next();
  if (open) p.closeParen(open);
  const sample: SampleBy = {
    pos: kw.pos,
    stride: split.amount,
    unit: split.unit,
    stridePos: strideTok.pos,
    fill: [],
    align: { kind: "calendar" },
  };
  sample.groupingSets = parseGroupingSets(p);
  let range = false, fill = false, align = false;
  for (;;) {
    if (!range && (p.isWord("from") || p.isWord("to"))) {
      range = true;
      if (p.acceptWord("from")) sample.from = parseExpr(p);
      if (p.acceptWord("to")) sample.to = parseExpr(p);
    } else if (!fill && p.isWord("fill")) {
      // QuestDB's SqlParser: FILL must open a parenthesis ("'(' expected" at what follows).
      if (!p.isOp("(", 1)) throw p.expected("'('", p.peek(1));
      fill = true;
      sample.fill = parseFill(p);
    } else if (!align && p.isWord("align")) {
      align = true;
      sample.align = parseAlign(p);
    } else if (!align && p.isWord("with") && p.isWord("offset", 1)) {
      // `SAMPLE BY 1h WITH OFFSET '00:15'` without ALIGN means calendar alignment (§10.2).
      align = true;
      p.next();
      p.next();
      sample.align = { kind: "calendar", offset: parseExpr(p) };
    } else {
      return sample;
    }
  }
}

/** `FILL(option, ...)`, the cursor on FILL. */
function parseFill(p: ParseState): FillOption[] {
  p.next();
  const open = p.next();
  const options: FillOption[] = [];
  if (p.isOp(")")) throw p.expected("'none', 'prev', 'mid', 'null' or number");
  do {
    const t = p.peek();
    const word = p.wordAt();
    const bare = p.isOp(",", 1) || p.isOp(")", 1);
    if (word === "none" && bare) {
      p.next();
      options.push({ kind: "none", pos: t.pos });
    } else if (word === "null" && bare) {
      p.next();
      options.push({ kind: "null", pos: t.pos });
    } else if (word === "linear" && bare) {
      p.next();
      options.push({ kind: "linear", pos: t.pos });
    } else if (word === "prev" && (bare || p.isOp("(", 1))) {
      p.next();
      const prevOpen = p.acceptOp("(");
      if (prevOpen) {
        // PREV takes one column name: PREV(), PREV(a, b), PREV(abs(a)), PREV($1) are refused at
        // PREV as QuestDB does (SampleByFillTest#testFillPrevReject*).
        if (!p.atName() || !p.isOp(")", 1)) {
          throw syntaxError("PREV argument must be a single column name", t.pos);
        }
        const of = p.name("column name");
        p.closeParen(prevOpen);
        options.push({ kind: "prev", pos: t.pos, of: of.name, ofPos: of.pos });
      } else {
        options.push({ kind: "prev", pos: t.pos });
      }
    } else {
      options.push({ kind: "value", pos: t.pos, value: parseExpr(p) });
    }
  } while (p.acceptOp(","));
  // An unclosed FILL list is "')' expected" at the end, QuestDB's expectTok
  // (SqlParserTest#testSampleByFillMissingCloseBrace).
  if (p.atEnd()) throw p.expected("')'");
  p.closeParen(open);
  return options;
}

/** `ALIGN TO CALENDAR [TIME ZONE tz] [WITH OFFSET off]` or `ALIGN TO FIRST OBSERVATION`. */
function parseAlign(p: ParseState): SampleBy["align"] {
  p.next();
  p.expectWord("to");
  if (p.acceptWord("first")) {
    p.expectWord("observation");
    return { kind: "firstObservation" };
  }
  if (!p.acceptWord("calendar")) throw p.expected("'calendar' or 'first observation'");
  const align: SampleBy["align"] = { kind: "calendar" };
  if (p.acceptWords("time", "zone")) align.timeZone = parseExpr(p);
  if (p.acceptWords("with", "offset")) align.offset = parseExpr(p);
  return align;
}
