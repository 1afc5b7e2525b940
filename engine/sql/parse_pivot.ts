/**
 * `source PIVOT (...)` and `source UNPIVOT (...)` (QuestDB 9): read after a source and its
 * alias; the reshaped result is a new SubquerySource over `SELECT * FROM source` carrying the
 * clause (ast_pivot.ts), and may take its own alias (`... PIVOT (...) AS p`).
 */
import { SqlError } from "../base/errors.ts";
import type { Query, Source, SubquerySource } from "./ast.ts";
import type { PivotAggregate, PivotClause, PivotFor, PivotValue, UnpivotClause } from "./ast_pivot.ts";
import { PREC } from "./precedence.ts";
import { parseExpr, parseExprList, parseOrderItems } from "./parse_expr.ts";
import { parseLimit, parseQuery } from "./parse_query.ts";
import type { ParseState } from "./parse_state.ts";

/** Whether PIVOT/UNPIVOT with its parenthesis (or NULLS option) starts here. */
export function atPivot(p: ParseState): boolean {
  if (p.isWord("pivot")) return p.isOp("(", 1);
  if (!p.isWord("unpivot")) return false;
  return p.isOp("(", 1) || ((p.isWord("include", 1) || p.isWord("exclude", 1)) && p.isWord("nulls", 2));
}

/** Reads one PIVOT or UNPIVOT clause (the cursor on its keyword) over `source`. */
export function parsePivotTail(p: ParseState, source: Source): SubquerySource {
  const kw = p.next();
  const query: Query = {
    kind: "query",
    pos: source.pos,
    with: [],
    body: {
      kind: "select",
      pos: source.pos,
      distinct: false,
      from: { first: source, joins: [] },
      windows: [],
    },
    orderBy: [],
  };
  const out: SubquerySource = { kind: "subquerySource", pos: source.pos, query };
  if (kw.text.toLowerCase() === "pivot") out.pivot = parsePivot(p, kw.pos);
  else out.unpivot = parseUnpivot(p, kw.pos);
  return out;
}

function parsePivot(p: ParseState, pos: number): PivotClause {
  const open = p.expectOp("(");
  const aggregates: PivotAggregate[] = [];
  do {
    const agg: PivotAggregate = { expr: parseExpr(p) };
    const alias = readAlias(p, ["for"]);
    if (alias !== undefined) agg.alias = alias;
    aggregates.push(agg);
  } while (p.acceptOp(","));
  const fors: PivotFor[] = [];
  p.expectWord("for");
  do {
    fors.push(parseFor(p));
    p.acceptWord("for");
  } while (!p.isOp(")") && !p.isWord("group") && !p.isWord("order") && !p.isWord("limit") && !p.atEnd());
  let groupBy: PivotClause["groupBy"] = [];
  if (p.acceptWords("group", "by")) groupBy = parseExprList(p);
  const clause: PivotClause = { pos, aggregates, fors, groupBy };
  if (p.acceptWords("order", "by")) clause.orderBy = parseOrderItems(p);
  if (p.isWord("limit")) clause.limit = parseLimit(p);
  p.closeParen(open);
  return clause;
}

function parseFor(p: ParseState): PivotFor {
  const t = p.peek();
  // Tighter than IN, so that `year IN (...)` stays two parts.
  const expr = parseExpr(p, PREC.in + 1);
  p.expectWord("in");
  const open = p.expectOp("(");
  const f: PivotFor = { pos: t.pos, expr };
  if (
    p.isWord("select") || p.isWord("with") || (p.isOp("(") && (p.isWord("select", 1) || p.isWord("with", 1)))
  ) {
    f.query = parseQuery(p);
  } else {
    const values: PivotValue[] = [];
    if (p.isOp(")")) throw new SqlError("missing constant", p.peek().pos);
    if (p.isOp("*")) throw new SqlError("too few arguments for '*' [found=0,expected=2]", p.peek().pos);
    do {
      const v: PivotValue = { expr: parseExpr(p) };
      const alias = readAlias(p, []);
      if (alias !== undefined) v.alias = alias;
      values.push(v);
    } while (p.acceptOp(","));
    f.values = values;
  }
  p.closeParen(open);
  return f;
}

/** `AS name`, `AS 'text'`, or a bare name that is not one of `stop`. */
function readAlias(p: ParseState, stop: string[]): string | undefined {
  if (p.acceptWord("as")) {
    const t = p.peek();
    if (t.kind !== "word" && t.kind !== "quoted" && t.kind !== "string" && t.kind !== "number") {
      throw p.expected("alias");
    }
    p.next();
    return t.kind === "number" ? t.text : t.value;
  }
  const t = p.peek();
  if (t.kind === "quoted" || (t.kind === "word" && p.atName() && !stop.includes(t.text.toLowerCase()))) {
    p.next();
    return t.value;
  }
  return undefined;
}

function parseUnpivot(p: ParseState, pos: number): UnpivotClause {
  let includeNulls = false;
  if (p.acceptWord("include")) {
    p.expectWord("nulls");
    includeNulls = true;
  } else if (p.acceptWord("exclude")) {
    p.expectWord("nulls");
  }
  const open = p.expectOp("(");
  const valueColumn = p.anyName("value column name").name;
  p.expectWord("for");
  const nameColumn = p.anyName("name column name").name;
  p.expectWord("in");
  const listOpen = p.expectOp("(");
  const columns: UnpivotClause["columns"] = [];
  do {
    // A pivoted column is named by a number or text too: `UNPIVOT (v FOR year IN (2000, 2010))`,
    // `... FOR symbol IN ('BTC-USD')` (UnpivotTest#testPivotUnpivotRoundTripCities, ...Trades).
    const t = p.peek();
    const c = t.kind === "number" || t.kind === "string"
      ? (p.next(), { name: t.kind === "number" ? t.text : t.value, pos: t.pos })
      : p.anyName("column name");
    const alias = readAlias(p, []);
    columns.push(alias === undefined ? c : { ...c, alias });
  } while (p.acceptOp(","));
  p.closeParen(listOpen);
  p.closeParen(open);
  return { pos, valueColumn, nameColumn, columns, includeNulls };
}
