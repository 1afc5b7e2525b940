/**
 * The clauses of a SELECT block after its sources (spec/sql.md §7.1): WHERE, LATEST ON / BY
 * (§9), SAMPLE BY (§10), GROUP BY, HAVING, WINDOW (§12) and SUBSAMPLE. Each may appear once; a second
 * one is left for the caller, which reports it as an unexpected token.
 */
import { syntaxError } from "../base/errors.ts";
import type { Expr, LatestOn, SelectCore } from "./ast.ts";
import { parseExpr, parseExprList } from "./parse_expr.ts";
import { parseSampleBy } from "./parse_sample_by.ts";
import type { ParseState } from "./parse_state.ts";
import { parseWindowSpec } from "./parse_window.ts";

/** Reads the clauses after the sources into `core`, in the order of spec/sql.md §7.1. */
export function parseSelectClauses(p: ParseState, core: SelectCore): void {
  // Legacy `LATEST BY` came before WHERE in older QuestDB releases; both orders are read.
  if (p.isWord("latest")) core.latestOn = parseLatest(p, core);
  const where = p.peek();
  if (p.acceptWord("where")) {
    // SqlParserTest#testEmptyWhere: a WHERE with nothing after it is reported at the keyword.
    if (p.atEnd() || p.isOp(";")) throw syntaxError("empty where clause", where.pos);
    core.where = parseExpr(p);
  }
  if (p.isWord("latest") && !core.latestOn) core.latestOn = parseLatest(p, core);
  if (p.isWord("sample")) {
    // SqlParserTest#testSampleByMissing: `sample on 3h` is "'by' expected" at the word after.
    if (!p.isWord("by", 1)) throw p.expected("'by'", p.peek(1));
    core.sampleBy = parseSampleBy(p);
    if (core.sampleBy.groupingSets) core.groupingSets = core.sampleBy.groupingSets;
  }
  if (p.acceptWords("group", "by")) parseGroupBy(p, core);
  if (p.acceptWord("having")) core.having = parseExpr(p);
  if (p.isWord("window") && p.isWord("join", 1)) {
    // QuestDB's WINDOW JOIN (aggregates over the right rows in a time range around each left
    // row) is not implemented here: say so rather than "window name expected".
    throw syntaxError("WINDOW JOIN is not supported", p.peek().pos);
  }
  if (p.isWord("window")) {
    // QuestDB's WINDOW clause (WindowFunctionTest#testNamedWindowMissingNameInWindowClause,
    // ...NumberAsName, ...DuplicateNameError): a name must follow, a first name without AS is
    // read as a WINDOW JOIN ("'join' expected" at WINDOW), and names are unique.
    const kw = p.next();
    let first = true;
    do {
      const t = p.peek();
      if (t.kind === "number") throw syntaxError("identifier should start with a letter or '_'", t.pos);
      if (!p.atName()) throw syntaxError("window name expected after 'window'", t.pos);
      const name = p.name("window name");
      if (first && !p.isWord("as")) throw syntaxError("'join' expected", kw.pos);
      p.expectWord("as");
      if (core.windows.some((w) => w.name.toLowerCase() === name.name.toLowerCase())) {
        throw syntaxError("duplicate window name", name.pos);
      }
      core.windows.push({ name: name.name, pos: name.pos, spec: parseWindowSpec(p) });
      first = false;
    } while (p.acceptOp(","));
  }
  if (p.isWord("subsample")) {
    const kw = p.next();
    const method = p.anyName("subsample method");
    // SubsampleTest#testSubsampleWithoutMethodErrors: `SUBSAMPLE ORDER BY ts` fails at BY.
    if (!p.isOp("(")) throw syntaxError("'(' expected after subsample method name", p.peek().pos);
    const open = p.next();
    const args = p.isOp(")") ? [] : parseExprList(p);
    p.closeParen(open);
    core.subsample = { pos: kw.pos, method: method.name, methodPos: method.pos, args };
  }
}

/**
 * `LATEST ON ts PARTITION BY a, b` or the legacy `LATEST BY a, b`. The keys are column names
 * (SqlParserTest#testLatestBySyntax8: `PARTITION BY x+1` fails at `+`), and a WHERE may not
 * follow the new form (#testLatestBySyntax9); the legacy form keeps its trailing WHERE.
 */
function parseLatest(p: ParseState, core: SelectCore): LatestOn {
  const kw = p.next();
  if (p.isWord("by")) {
    // The legacy form reads a table only: over a subquery QuestDB wants ON at BY
    // (LatestByPlanningTest#testDerivedLatestDiagnosticsAndRecovery).
    if (core.from?.first.kind === "subquerySource") throw p.expected("'on'", p.peek());
    p.next();
    return { pos: kw.pos, partitionBy: partitionKeys(p) };
  }
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

/**
 * GROUP BY keys, with QuestDB's grouping sets (query/sql/grouping-sets.md): plain keys plus one
 * `ROLLUP(a, b)` (sets (a,b), (a), ()), `CUBE(a, b)` (every subset) or `GROUPING SETS ((a, b),
 * (a), ())`; the plain keys belong to every set.
 */
function parseGroupBy(p: ParseState, core: SelectCore): void {
  const plain: Expr[] = [];
  let sets: Expr[][] | undefined;
  do {
    const t = p.peek();
    const found = parseGroupingSets(p);
    if (found) {
      if (sets) throw syntaxError("only one ROLLUP, CUBE or GROUPING SETS is supported", t.pos);
      sets = found;
    } else {
      plain.push(parseExpr(p));
    }
  } while (p.acceptOp(","));
  if (!sets) {
    core.groupBy = plain;
    return;
  }
  core.groupingSets = sets.map((s) => [...plain, ...s]);
  const all: Expr[] = [...plain];
  for (const s of sets) {
    for (const e of s) if (!all.some((x) => sameKey(x, e))) all.push(e);
  }
  core.groupBy = all;
}

/**
 * `ROLLUP(a, b)` (sets (a,b), (a), ()), `CUBE(a, b)` (every subset) or `GROUPING SETS ((a, b),
 * (a), ())` at the cursor, as key sets; undefined when none is there. Also after SAMPLE BY's
 * stride (`SAMPLE BY 1h ROLLUP(symbol)`).
 */
export function parseGroupingSets(p: ParseState): Expr[][] | undefined {
  const t = p.peek();
  const w = p.wordAt();
  // `GROUPING x`: a name after GROUPING can only be a misspelt SETS (a column named grouping is
  // followed by `,`, a clause or the end), reported at GROUPING
  // (GroupingSetsTest#testGroupingSetsParserError).
  if (w === "grouping" && !p.isWord("sets", 1) && p.atName(1)) {
    throw syntaxError("expected SETS after GROUPING", t.pos);
  }
  if (w === "grouping" && p.isWord("sets", 1)) {
    p.next();
    p.next();
    const open = p.expectOp("(");
    const sets: Expr[][] = [];
    do {
      if (p.isOp("(")) {
        const inner = p.next();
        sets.push(p.isOp(")") ? [] : parseExprList(p));
        p.closeParen(inner);
      } else sets.push([parseExpr(p)]);
    } while (p.acceptOp(","));
    p.closeParen(open);
    return sets;
  }
  if ((w !== "rollup" && w !== "cube") || !p.isOp("(", 1)) return undefined;
  p.next();
  const open = p.next();
  // GroupingSetsTest#testRollupParserError, #testCubeParserError: at the keyword.
  if (p.isOp(")")) throw syntaxError(`${w.toUpperCase()} requires at least one column`, t.pos);
  const cols = parseExprList(p);
  p.closeParen(open);
  for (const c of cols) {
    if (c.kind !== "column") {
      throw syntaxError("only column references are allowed in " + w.toUpperCase(), c.pos);
    }
  }
  const sets: Expr[][] = [];
  if (w === "rollup") {
    for (let n = cols.length; n >= 0; n--) sets.push(cols.slice(0, n));
  } else {
    if (cols.length > 15) throw syntaxError("CUBE supports at most 15 columns", t.pos);
    const n = cols.length;
    for (let mask = 0; mask < 1 << n; mask++) {
      sets.push(cols.filter((_, i) => (mask & (1 << (n - 1 - i))) === 0));
    }
  }
  return sets;
}

/** Whether two GROUP BY keys name the same column. */
export function sameKey(a: Expr, b: Expr): boolean {
  return a.kind === "column" && b.kind === "column" && a.name.toLowerCase() === b.name.toLowerCase();
}
