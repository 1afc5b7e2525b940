/**
 * Queries (spec/sql.md §7.1, §7.2): WITH, set operations chained left to right, SELECT blocks
 * and the dialect's forms without SELECT (`trades WHERE ...`, `(query) WHERE ...`,
 * `long_sequence(3)`), then the trailing ORDER BY and LIMIT of the whole query.
 */
import { syntaxError } from "../base/errors.ts";
import type { Cte, Limit, Query, QueryBody, SelectCore, SelectItem, Source } from "./ast.ts";
import { SELECT_ALIAS_STOP, SET_OPERATORS } from "./keywords.ts";
import type { Token } from "./lexer.ts";
import { parseSelectClauses } from "./parse_clauses.ts";
import { parseExpr, parseExprList, parseOrderItems } from "./parse_expr.ts";
import { continuesAsSource, parseFromClause, parseSourceTail } from "./parse_from.ts";
import { parseShow } from "./parse_show.ts";
import { parseDeclareVars } from "./parse_misc.ts";
import { substituteNested } from "./declare_vars.ts";
import { seriesItemAsSource } from "./pg_select_series.ts";
import type { ParseState } from "./parse_state.ts";
import { atPivot } from "./parse_pivot.ts";

/** A WITH already read by the caller, and where the statement (the WITH) starts. */
export interface WithPrefix {
  with: Cte[];
  pos: number;
}

/** A whole query; `ctes` are given when the caller already read a WITH (WITH ... INSERT). */
export function parseQuery(p: ParseState, ctes?: WithPrefix): Query {
  // A subquery, CTE body or CREATE TABLE AS (...) may open with its own DECLARE (QuestDB's
  // parseDml0); its variables go in here and shadow an enclosing DECLARE's.
  if (!ctes && p.isWord("declare") && (p.peek(1).kind === "variable" || p.isWord("overridable", 1))) {
    const kw = p.next();
    p.enter(kw);
    const vars = parseDeclareVars(p);
    const query = substituteNested(vars, parseQuery(p));
    p.leave();
    return query;
  }
  const start = p.peek();
  p.enter(start);
  const query: Query = {
    kind: "query",
    pos: ctes?.pos ?? start.pos,
    with: ctes?.with ?? (p.isWord("with") ? parseWith(p) : []),
    body: parseOperand(p),
    orderBy: [],
  };
  query.body = parseSetChain(p, query.body, { n: 0 });
  const clause = p.isWord("order") || p.isWord("limit") ? p.peek() : undefined;
  if (p.acceptWords("order", "by")) query.orderBy = parseOrderItems(p);
  if (p.isWord("limit")) query.limit = parseLimit(p);
  // ORDER BY or LIMIT ends a set operation: a branch other than the last cannot hold one
  // unparenthesised (UnionTest#testSetOperationsRejectsOrderByAndLimitInAllButLastDirectQuery).
  if (clause && p.wordAt() !== undefined && SET_OPERATORS.has(p.wordAt()!)) {
    throw syntaxError(`unexpected token '${clause.text.toLowerCase()}'`, clause.pos);
  }
  p.leave();
  return query;
}

/**
 * Set operations chained left to right after `body`. A branch may open with its own WITH, whose
 * CTEs the branches after it see too (QuestDB WithClauseTest
 * #testSetOperationBranchWithShadowsEarlierCte): that branch and the rest of the chain become
 * one nested query holding the WITH.
 */
function parseSetChain(p: ParseState, body: QueryBody, chain: { n: number }): QueryBody {
  while (p.wordAt() !== undefined && SET_OPERATORS.has(p.wordAt()!)) {
    const op = p.next();
    p.checkChain(++chain.n, op);
    const all = p.acceptWord("all") !== undefined;
    if (!all) p.acceptWord("distinct");
    const kind = op.text.toLowerCase() as "union" | "except" | "intersect";
    if (p.isWord("with")) {
      const pos = p.peek().pos;
      const branchWith = parseWith(p);
      const rest = parseSetChain(p, parseOperand(p), chain);
      const right: Query = { kind: "query", pos, with: branchWith, body: rest, orderBy: [] };
      return { kind: "setop", pos: op.pos, op: kind, all, left: body, right };
    }
    const right = parseOperand(p);
    body = { kind: "setop", pos: op.pos, op: kind, all, left: body, right };
  }
  return body;
}

/** `WITH name AS (query) [, ...]`, the cursor on WITH. */
export function parseWith(p: ParseState): Cte[] {
  p.expectWord("with");
  const ctes: Cte[] = [];
  do {
    const name = p.name("cte name");
    // SqlParserTest#testEmptyCommonTableExpressionNameDisallowed.
    if (name.name === "") throw syntaxError("empty common table expression name", name.pos);
    p.expectWord("as");
    const open = p.expectOp("(");
    const query = parseQuery(p);
    p.closeParen(open);
    ctes.push({ name: name.name, pos: name.pos, query });
  } while (p.acceptOp(","));
  return ctes;
}

/**
 * One operand of a set operation. A parenthesised query stays a nested Query unless clauses
 * follow it (`(q) WHERE x > 5`, `(q) TIMESTAMP(ts)`, `(q) t JOIN ...`): then it is the source
 * of a SELECT block without SELECT.
 */
function parseOperand(p: ParseState): QueryBody {
  if (p.isWord("show")) {
    // `SHOW CREATE TABLE t1 UNION SHOW CREATE TABLE t2` (ShowCreateTableTest#testShowCreateTableUnion).
    const start = p.peek();
    return finishCore(p, start, { kind: "showSource", pos: start.pos, show: parseShow(p) });
  }
  if (!p.isOp("(")) return parseSelectCore(p);
  const open = p.next();
  if (p.isWord("show")) {
    const show = parseShow(p);
    p.closeParen(open);
    const source = parseSourceTail(p, { kind: "showSource", pos: open.pos, show });
    return finishCore(p, open, source);
  }
  const inner = parseQuery(p);
  p.closeParen(open);
  if (!continuesAsSource(p)) return inner;
  const source = parseSourceTail(p, { kind: "subquerySource", pos: open.pos, query: inner });
  return finishCore(p, open, source);
}

function finishCore(p: ParseState, start: Token, first: Source): SelectCore {
  const core: SelectCore = { kind: "select", pos: start.pos, distinct: false, windows: [] };
  core.from = parseFromClause(p, first);
  parseSelectClauses(p, core);
  return core;
}

/** `SELECT [DISTINCT [ON (...)]] items [FROM ...] clauses`, or clauses on a bare source. */
export function parseSelectCore(p: ParseState): SelectCore {
  const start = p.peek();
  const core: SelectCore = { kind: "select", pos: start.pos, distinct: false, windows: [] };
  if (p.acceptWord("select")) {
    if (p.acceptWord("distinct")) {
      core.distinct = true;
      if (p.isWord("on") && p.isOp("(", 1)) {
        p.next();
        const open = p.next();
        core.distinctOn = parseExprList(p);
        p.closeParen(open);
      }
    } else {
      p.acceptWord("all");
    }
    core.items = parseSelectItems(p);
    if (p.acceptWord("from")) core.from = parseFromClause(p);
    else {
      // `select *` reads from nothing: "'from' expected" at the star (SqlParserTest#testSelectWildcardOnly).
      const star = core.items.find((it) => it.expr.kind === "star" && !it.expr.qualifier);
      if (star && p.atEnd()) throw syntaxError("'from' expected", star.expr.pos);
    }
  } else {
    // A SELECT block without SELECT is its source and clauses, with or without a leading FROM:
    // QuestDB's pivot tests write both `test PIVOT (...)` and `FROM Cities PIVOT (...)`.
    p.acceptWord("from");
    core.from = parseFromClause(p);
    parseSelectClauses(p, core);
    // `t WHERE cond PIVOT (...)`: the filtered source is what is pivoted (PivotTest#testPivotWithWhere).
    if (core.where && atPivot(p)) {
      const filtered: Query = { kind: "query", pos: core.pos, with: [], body: core, orderBy: [] };
      const source = parseSourceTail(p, { kind: "subquerySource", pos: core.pos, query: filtered });
      const outer: SelectCore = { kind: "select", pos: core.pos, distinct: false, windows: [] };
      outer.from = { first: source, joins: [] };
      parseSelectClauses(p, outer);
      return outer;
    }
    seriesItemAsSource(core);
    return core;
  }
  parseSelectClauses(p, core);
  seriesItemAsSource(core);
  return core;
}

/** `item [, ...]` where an item is `*`, `t.*` or `expr [[AS] alias]`. */
export function parseSelectItems(p: ParseState): SelectItem[] {
  const items: SelectItem[] = [];
  do {
    const t = p.peek();
    if (p.isOp("*")) {
      p.next();
      items.push({ expr: { kind: "star", pos: t.pos } });
      continue;
    }
    const item: SelectItem = { expr: parseExpr(p) };
    // `2*x over()`: OVER follows no function call (SqlParserTest#testSelectWindowOperator).
    if (p.isWord("over") && item.expr.kind !== "call") {
      throw syntaxError("Window function expected", item.expr.pos);
    }
    readAlias(p, item);
    // `t.* x`: QuestDB's SqlParserTest#testSelectWildcardAlias, at the alias.
    if (item.expr.kind === "star" && item.alias !== undefined) {
      throw syntaxError("wildcard cannot have alias", item.aliasPos ?? item.expr.pos);
    }
    items.push(item);
    // QuestDB accepts a trailing comma before FROM (`SELECT a, b, FROM t`).
  } while (p.acceptOp(",") && !p.isWord("from"));
  return items;
}

function readAlias(p: ParseState, item: SelectItem): void {
  const t = p.peek();
  if (p.acceptWord("as")) {
    const a = p.peek();
    if (a.kind !== "word" && a.kind !== "quoted" && a.kind !== "string") throw p.expected("alias");
    p.refuseKeyword(a);
    p.next();
    item.alias = a.value;
    // QuestDB places a duplicate alias at its AS (SqlParserTest#testCreateAsSelectDuplicateColumnNonAscii).
    item.aliasPos = t.pos;
    if (item.alias === "") throw syntaxError("non-empty identifier expected", a.pos);
  } else if (t.kind === "word" && t.text.toLowerCase() === "case") {
    // `select x case end ...`: QuestDB reads the CASE as x's alias and refuses the keyword there
    // (CaseFunctionFactoryTest#testNoArgs).
    throw syntaxError(
      `table and column names that are SQL keywords have to be enclosed in double quotes, such as "${t.text}"`,
      t.pos,
    );
  } else if (t.kind === "quoted" || (t.kind === "word" && !SELECT_ALIAS_STOP.has(t.text.toLowerCase()))) {
    p.next();
    item.alias = t.value;
    item.aliasPos = t.pos;
  }
  // SqlParserTest#testEmptyColumnAliasDisallowed: `x AS ''` and `x AS ""` are refused at the alias.
  if (item.alias === "") throw syntaxError("non-empty identifier expected", item.aliasPos!);
}

/** LIMIT forms of spec/sql.md §7.8: `n`, `-n`, `a, b`, `a,`, `, b`, and `n OFFSET m`. */
export function parseLimit(p: ParseState): Limit {
  const kw = p.next();
  const limit: Limit = { pos: kw.pos, comma: false };
  if (p.acceptOp(",")) {
    limit.comma = true;
    limit.hi = parseExpr(p);
  } else {
    limit.lo = parseExpr(p);
    if (p.acceptOp(",")) {
      limit.comma = true;
      if (startsExpression(p)) limit.hi = parseExpr(p);
    }
  }
  if (p.acceptWord("offset")) limit.offset = parseExpr(p);
  return limit;
}

/** Whether an expression can start here (used after `LIMIT n,`). */
function startsExpression(p: ParseState): boolean {
  const t = p.peek();
  if (p.atEnd()) return false;
  if (t.kind === "op") return t.text === "(" || t.text === "-" || t.text === "+" || t.text === "~";
  if (t.kind === "word") return p.atName() || p.isWord("not");
  return true;
}
