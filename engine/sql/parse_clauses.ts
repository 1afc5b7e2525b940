/**
 * The clauses of a SELECT block after its sources (spec/sql.md §7.1): WHERE, LATEST ON / BY
 * (§9), SAMPLE BY (§10), GROUP BY, HAVING and WINDOW (§12). Each may appear once; a second
 * one is left for the caller, which reports it as an unexpected token.
 */
import { syntaxError } from "../base/errors.ts";
import type { LatestOn, SelectCore } from "./ast.ts";
import { parseExpr, parseExprList } from "./parse_expr.ts";
import { parseSampleBy } from "./parse_sample_by.ts";
import type { ParseState } from "./parse_state.ts";
import { parseWindowSpec } from "./parse_window.ts";

/** Reads the clauses after the sources into `core`, in the order of spec/sql.md §7.1. */
export function parseSelectClauses(p: ParseState, core: SelectCore): void {
  // Legacy `LATEST BY` came before WHERE in older QuestDB releases; both orders are read.
  if (p.isWord("latest")) core.latestOn = parseLatest(p);
  const where = p.peek();
  if (p.acceptWord("where")) {
    // SqlParserTest#testEmptyWhere: a WHERE with nothing after it is reported at the keyword.
    if (p.atEnd() || p.isOp(";")) throw syntaxError("empty where clause", where.pos);
    core.where = parseExpr(p);
  }
  if (p.isWord("latest") && !core.latestOn) core.latestOn = parseLatest(p);
  if (p.isWord("sample")) {
    // SqlParserTest#testSampleByMissing: `sample on 3h` is "'by' expected" at the word after.
    if (!p.isWord("by", 1)) throw p.expected("'by'", p.peek(1));
    core.sampleBy = parseSampleBy(p);
  }
  if (p.acceptWords("group", "by")) core.groupBy = parseExprList(p);
  if (p.acceptWord("having")) core.having = parseExpr(p);
  if (p.isWord("window") && p.isWord("join", 1)) {
    // QuestDB's WINDOW JOIN (aggregates over the right rows in a time range around each left
    // row) is not implemented here: say so rather than "window name expected".
    throw syntaxError("WINDOW JOIN is not supported", p.peek().pos);
  }
  if (p.acceptWord("window")) {
    do {
      const name = p.name("window name");
      p.expectWord("as");
      core.windows.push({ name: name.name, pos: name.pos, spec: parseWindowSpec(p) });
    } while (p.acceptOp(","));
  }
}

/**
 * `LATEST ON ts PARTITION BY a, b` or the legacy `LATEST BY a, b`. The keys are column names
 * (SqlParserTest#testLatestBySyntax8: `PARTITION BY x+1` fails at `+`), and a WHERE may not
 * follow the new form (#testLatestBySyntax9); the legacy form keeps its trailing WHERE.
 */
function parseLatest(p: ParseState): LatestOn {
  const kw = p.next();
  if (p.acceptWord("by")) return { pos: kw.pos, partitionBy: partitionKeys(p) };
  // SqlParserTest#testLatestBySyntax: `LATEST` alone is reported at LATEST.
  if (!p.isWord("on")) throw syntaxError("'by' expected", p.atEnd() ? kw.pos : p.peek().pos);
  p.next();
  const ts = parseExpr(p);
  if (ts.kind !== "column") throw syntaxError("column name expected", ts.pos);
  p.expectWord("partition");
  p.expectWord("by");
  const latest = { pos: kw.pos, ts, partitionBy: partitionKeys(p) };
  const where = p.peek();
  if (p.isWord("where")) throw syntaxError("unexpected where clause after 'latest on'", where.pos);
  return latest;
}

function partitionKeys(p: ParseState) {
  const keys = parseExprList(p);
  for (const k of keys) if (k.kind !== "column") throw syntaxError("column name expected", k.pos);
  return keys;
}
