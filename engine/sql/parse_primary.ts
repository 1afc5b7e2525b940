/**
 * Primary expressions: literals, bind variables, names, function calls, CASE, CAST, EXISTS,
 * ARRAY[...], typed prefix literals (`TIMESTAMP '...'`), parenthesised expressions and scalar
 * subqueries (spec/sql.md §1.3, §3.1, §7.11).
 */
import { syntaxError } from "../base/errors.ts";
import { bareFunction } from "./pg_spellings.ts";
import type { ArrayLiteral, CaseExpr, Expr, FunctionCall, Literal, Param } from "./ast.ts";
import { PREFIX_LITERAL_TYPES, RESERVED } from "./keywords.ts";
import { INTERVAL_FIELDS } from "./pg_interval.ts";
import type { Token } from "./lexer.ts";
import { decimalCastOperand, geohashLiteral, numberLiteral, stringLiteral } from "./literal.ts";
import { parseExpr, parseExprList } from "./parse_expr.ts";
import { parseQuery } from "./parse_query.ts";
import type { ParseState } from "./parse_state.ts";
import { canonicalTypeName, parseType } from "./parse_type.ts";
import { parseCallTail } from "./parse_window.ts";
import { regnamespaceCast } from "./pg_reg_casts.ts";
import { pgCatalogCast } from "./pg_spellings.ts";
import { rowValue } from "./pg_row_values.ts";
import { arraySubquery } from "./pg_array_subquery.ts";

/** One primary expression at the cursor; the postfix `::` and `[...]` are read by the caller. */
export function parsePrimary(p: ParseState): Expr {
  const t = p.peek();
  switch (t.kind) {
    case "number":
      p.next();
      return numberLiteral(t);
    case "string":
      p.next();
      return stringLiteral(t);
    case "geohash": {
      p.next();
      // `#chars / bits`, spaces allowed: the bit count must be digits (QuestDB's ExpressionParser).
      if (t.text.startsWith("##") || !p.isOp("/")) return geohashLiteral(t);
      const slash = p.next();
      const bits = p.peek();
      if (bits.kind !== "number" || !/^\d+$/.test(bits.text)) {
        const at = bits.kind === "eof" ? slash.pos : bits.pos;
        throw syntaxError("missing bits size for GEOHASH constant", at);
      }
      p.next();
      return geohashLiteral(t, bits.text);
    }
    case "param":
      p.next();
      return param(p, t);
    case "variable":
      // DECLARE variables (`@v`): replaced by their expressions once parsed (sql/declare_vars.ts).
      p.next();
      return { kind: "column", pos: t.pos, name: t.text, variable: true };
    case "word":
    case "quoted":
      return parseName(p);
    case "op":
      if (t.text === "(") return parseParenthesised(p);
      throw p.unexpected();
    default:
      throw p.unexpected();
  }
}

function param(p: ParseState, t: Token): Param {
  if (t.text === "?") return { kind: "param", pos: t.pos, index: ++p.positionalCount };
  if (t.text.startsWith("$")) return { kind: "param", pos: t.pos, index: Number(t.text.slice(1)) };
  const name = t.text.slice(1);
  let index = p.namedParams.get(name);
  if (index === undefined) {
    index = p.namedParams.size + 1;
    p.namedParams.set(name, index);
  }
  return { kind: "param", pos: t.pos, index, name };
}

/** The fields of _pg_expandarray's (x, n) rows. */
const EXPANDARRAY_FIELDS = new Set(["x", "n"]);

/** `( expr )` or `( SELECT ... )`. */
function parseParenthesised(p: ParseState): Expr {
  const open = p.next();
  // `(DECLARE @v := .. SELECT ..)` too: a DECLARE variable may hold such a query (DeclareTest).
  if (p.isWord("select") || p.isWord("with") || (p.isWord("declare") && p.peek(1).kind === "variable")) {
    // QuestDB places a subquery at its first keyword, one past the parenthesis
    // (EqCursorFunctionFactoryTest#testMultiRowCursorFails, #testErrorMultipleColumns).
    const pos = p.peek().pos;
    const query = parseQuery(p);
    p.closeParen(open);
    return { kind: "subquery", pos, query };
  }
  const e = parseExpr(p);
  if (p.isOp(",")) {
    // A row value `(a, b)`, compared element-wise (pg_row_values.ts).
    const items = [e];
    while (p.acceptOp(",")) items.push(parseExpr(p));
    p.closeParen(open);
    return rowValue(items, open.pos);
  }
  p.closeParen(open);
  // `(f(args)).field`: a field of a composite-returning function, which the engine has only as
  // the call `f.field(args)` (functions/pg_expandarray.ts: pgjdbc's `_pg_expandarray(v)).n`).
  if (e.kind === "call" && p.isOp(".") && p.peek(1).kind === "word" && !p.isOp("(", 2)) {
    p.next();
    return { ...e, name: `${e.name}.${p.next().text.toLowerCase()}` };
  }
  // `(keys).x` on a column: the one composite value here is _pg_expandarray's, kept as its
  // vector (pgjdbc's getPrimaryKeys selects `_pg_expandarray(i.indkey) AS keys`, then reads
  // `(result.keys).x`), so the field is the same call on the column.
  if (e.kind === "column" && p.isOp(".") && EXPANDARRAY_FIELDS.has(p.wordAt(1) ?? "") && !p.isOp("(", 2)) {
    p.next();
    const field = p.next().text.toLowerCase();
    return {
      kind: "call",
      pos: e.pos,
      name: `_pg_expandarray.${field}`,
      args: [e],
      distinct: false,
      star: false,
    };
  }
  return e;
}

/** Everything that starts with a word: keywords with their own syntax, calls and columns. */
function parseName(p: ParseState): Expr {
  const t = p.peek();
  const word = t.kind === "word" ? t.text.toLowerCase() : undefined;
  const next = p.peek(1);
  const nextIs = (op: string) => next.kind === "op" && next.text === op;
  switch (word) {
    case "null":
    case "nan":
      p.next();
      return literal(t, "null", null);
    case "true":
    case "false":
      p.next();
      return literal(t, "boolean", word === "true");
    case "case":
      return parseCase(p);
    case "cast":
      if (nextIs("(")) return parseCast(p);
      break;
    case "exists":
      if (nextIs("(")) return parseExists(p);
      break;
    case "array":
      if (nextIs("[")) {
        p.next();
        // QuestDB places an array constructor at its `[` (ArrayTest#testConcatFailsGracefully).
        return { ...parseArray(p, p.peek().pos), keyword: true };
      }
      if (nextIs("(") && (p.wordAt(2) === "select" || p.wordAt(2) === "with")) {
        p.next();
        const open = p.next();
        const query = parseQuery(p);
        p.closeParen(open);
        return arraySubquery(query, t.pos);
      }
      break;
  }
  // `timestamp with time zone '...'` (InsertTest#testInsertTimestampWithTimeZone): a TIMESTAMP
  // literal; without the string QuestDB names what it expected at the next token.
  if (
    (word === "timestamp" || word === "timestamp_ns") && p.isWord("with", 1) && p.isWord("time", 2) &&
    p.isWord("zone", 3)
  ) {
    for (let k = 0; k < 4; k++) p.next();
    const lit = p.peek();
    if (lit.kind !== "string") {
      throw syntaxError("String literal expected after 'timestamp with time zone'", lit.pos);
    }
    p.next();
    const type = { pos: t.pos, name: canonicalTypeName(t.text), text: t.text };
    return { kind: "cast", pos: t.pos, expr: stringLiteral(lit), type, syntax: "prefix" };
  }
  if (word !== undefined && PREFIX_LITERAL_TYPES.has(word) && next.kind === "string") {
    p.next();
    p.next();
    const type = { pos: t.pos, name: canonicalTypeName(t.text), text: t.text };
    const expr = word === "interval" ? intervalQualifier(p, stringLiteral(next)) : stringLiteral(next);
    return { kind: "cast", pos: t.pos, expr, type, syntax: "prefix" };
  }
  return parseNameOrCall(p);
}

/**
 * The SQL-standard field after an interval literal, `INTERVAL '1' HOUR` or
 * `INTERVAL '1:30' HOUR TO MINUTE`: read into the literal's text as PostgreSQL does
 * (`'1 hour'`, `'1:30'`), which pg_interval.ts then reads.
 */
function intervalQualifier(p: ParseState, lit: Literal): Literal {
  const field = p.wordAt();
  if (field === undefined || !INTERVAL_FIELDS.has(field)) return lit;
  p.next();
  if (p.isWord("to") && INTERVAL_FIELDS.has(p.wordAt(1) ?? "")) {
    p.next();
    p.next();
  }
  const text = String(lit.value);
  const value = /[:\s]/.test(text.trim()) ? text : `${text} ${field}`;
  return { ...lit, type: "string", value };
}

function literal(t: Token, type: Literal["type"], value: unknown): Literal {
  return { kind: "literal", pos: t.pos, type, value, text: t.text };
}

/** `a`, `t.a`, `t.*`, `f(...)`, `schema.f(...)`. */
function parseNameOrCall(p: ParseState): Expr {
  const first = p.peek();
  const reserved = first.kind === "word" && RESERVED.has(first.text.toLowerCase());
  // `x <> all(arr)` calls all(); otherwise a reserved word cannot be a name.
  if (reserved && !(first.text.toLowerCase() === "all" && p.isOp("(", 1))) throw p.unexpected();
  const parts = [p.next().value];
  while (p.isOp(".")) {
    const after = p.peek(1);
    if (after.kind === "op" && after.text === "*") {
      p.next();
      p.next();
      return { kind: "star", pos: first.pos, qualifier: parts.join(".") };
    }
    if (after.kind !== "word" && after.kind !== "quoted") break;
    // `a.from` names a column only quoted (KeywordAsTableNameTest#testSelectColumn).
    if (!p.isOp("(", 2)) p.refuseKeyword(after);
    p.next();
    parts.push(p.next().value);
  }
  if (first.kind === "word" && p.isOp("(")) return parseCall(p, { name: parts.join("."), pos: first.pos });
  if (parts.length === 1 && first.kind === "word") {
    const bare = bareFunction(parts[0], first.pos);
    if (bare) return bare;
  }
  const name = parts.pop()!;
  return parts.length === 0
    ? { kind: "column", pos: first.pos, name }
    : { kind: "column", pos: first.pos, qualifier: parts.join("."), name };
}

/**
 * `name(...)` with DISTINCT, `*`, `extract(f FROM x)`, then FILTER / NULLS / OVER; the cursor
 * on `(`, `head` the already read (possibly dotted) name.
 */
export function parseCall(p: ParseState, head: { name: string; pos: number }): FunctionCall {
  const name = head.name;
  const open = p.expectOp("(");
  const call: FunctionCall = { kind: "call", pos: head.pos, name, args: [], distinct: false, star: false };
  if (p.isOp("*") && p.isOp(")", 1)) {
    p.next();
    call.star = true;
  } else if (!p.isOp(")")) {
    const distinct = p.acceptWord("distinct");
    if (distinct) call.distinct = true;
    else p.acceptWord("all");
    // `string_agg(distinct, ',')`: an unquoted column named distinct (StringAggGroupByFunctionFactoryTest
    // #testDistinctColumnNameNotQuoted fails at the keyword).
    if (distinct && (p.isOp(",") || p.isOp(")") || p.isOp("::"))) p.refuseKeyword(distinct);
    if (distinct && p.isOp("*") && name.toLowerCase() === "count") {
      throw syntaxError("count(distinct *) is not supported", distinct.pos);
    }
    const field = p.peek();
    const lower = name.toLowerCase();
    if ((lower === "trim" || lower === "pg_catalog.trim") && trimFrom(p, call)) {
      p.closeParen(open);
      return call;
    }
    if (lower === "extract" && (field.kind === "word" || field.kind === "string") && p.isWord("from", 1)) {
      // extract(YEAR FROM ts) becomes extract('year', ts); the literal's text keeps `YEAR`.
      // The part may be quoted too: extract('doy' FROM ts) (ExtractFunctionTest).
      p.next();
      p.next();
      call.args = [
        {
          kind: "literal",
          pos: field.pos,
          type: "string",
          value: field.value.toLowerCase(),
          text: field.kind === "string" ? field.value : field.text,
        },
        parseExpr(p),
      ];
    } else if (lower === "extract") {
      refuseExpressionPart(p);
      call.args = parseExprList(p);
    } else if (!call.distinct && !RESERVED.has(lower) && (p.isWord("select") || p.isWord("with"))) {
      // `touch(SELECT ...)`: a query as the argument, its parentheses the call's own; placed at
      // its first keyword as a parenthesised subquery is (TouchTableFunctionTest).
      const pos = p.peek().pos;
      call.args = [{ kind: "subquery", pos, query: parseQuery(p) }];
    } else {
      call.args = parseExprList(p);
      // `count(distinct (a, b))`: QuestDB counts one column only and says so at the list's `)`
      // (CountDistinct*GroupByFunctionFactoryTest), before looking at what the list holds.
      if (call.distinct && lower === "count" && call.args.length === 1 && isRowList(call.args[0], field)) {
        throw syntaxError("count distinct aggregation supports a single column only", p.peek(-1).pos);
      }
      // SQL-standard substring(s FROM a [FOR b]) is substring(s, a[, b]).
      if ((lower === "substring" || lower === "pg_catalog.substring") && call.args.length === 1) {
        if (p.acceptWord("from")) {
          call.args.push(parseExpr(p));
          if (p.acceptWord("for")) call.args.push(parseExpr(p));
        }
      }
    }
  }
  p.closeParen(open);
  parseCallTail(p, call);
  return call;
}

/**
 * `extract(1+1 FROM ts)`: the part before FROM must be one word; QuestDB refuses an expression
 * there at its last token (ExtractFunctionTest#testNonLiteralPart). The cursor after `extract(`.
 */
function refuseExpressionPart(p: ParseState): void {
  let depth = 0;
  for (let k = 0;; k++) {
    const t = p.peek(k);
    if (t.kind === "eof") return;
    if (p.isOp("(", k)) depth++;
    else if (p.isOp(")", k) && depth-- === 0) return;
    else if (depth === 0 && k > 0 && p.isWord("from", k)) {
      throw syntaxError("we expect timestamp part here", p.peek(k - 1).pos);
    }
  }
}

/**
 * `trim([BOTH] 'chars' FROM s)` (pgjdbc's getIndexInfo) as btrim(s, 'chars'); the cursor after
 * `trim(`. False, reading nothing, for the dialect's own trim(s).
 */
function trimFrom(p: ParseState, call: FunctionCall): boolean {
  const both = p.isWord("both") ? 1 : 0;
  const chars = p.peek(both);
  if (chars.kind !== "string" || !p.isWord("from", both + 1)) return false;
  for (let k = 0; k < both + 2; k++) p.next();
  call.name = "btrim";
  call.args = [parseExpr(p), stringLiteral(chars)];
  return true;
}

function parseCase(p: ParseState): CaseExpr {
  const kw = p.next();
  const node: CaseExpr = { kind: "case", pos: kw.pos, whens: [] };
  // `select case from t`: the CASE has nothing before the clause (CaseFunctionFactoryTest
  // #testCaseErrors reports it at the CASE).
  if (p.isWord("from") || p.atEnd()) throw syntaxError("unbalanced 'case'", kw.pos);
  if (!p.isWord("when") && !p.isWord("else") && !p.isWord("end")) node.operand = parseExpr(p);
  while (p.acceptWord("when")) {
    const when = parseExpr(p);
    p.expectWord("then");
    node.whens.push({ when, then: parseExpr(p) });
  }
  if (node.whens.length === 0) throw p.expected("'when'");
  if (p.acceptWord("else")) node.else = parseExpr(p);
  p.expectWord("end");
  return node;
}

function parseCast(p: ParseState): Expr {
  const kw = p.next();
  const open = p.next();
  let expr = parseExpr(p);
  p.expectWord("as");
  // `CAST(x AS pg_catalog.regclass)`: the type's schema (the only one there is) is dropped.
  if (p.isWord("pg_catalog") && p.isOp(".", 1)) {
    p.next();
    p.next();
  }
  const type = parseType(p);
  p.closeParen(open);
  expr = decimalCastOperand(expr, type.name);
  // PostgreSQL's catalog types (`CAST(x AS OID)`, Metabase's field sync) as `x::oid` reads them.
  const pg = regnamespaceCast(expr, type.text, kw.pos) ?? pgCatalogCast(expr, type, kw.pos);
  if (pg) return pg.kind === "cast" && pg.expr === expr ? { ...pg, syntax: "cast" } : pg;
  return { kind: "cast", pos: kw.pos, expr, type, syntax: "cast" };
}

function parseExists(p: ParseState): Expr {
  const kw = p.next();
  const open = p.next();
  const query = parseQuery(p);
  p.closeParen(open);
  return { kind: "exists", pos: kw.pos, query };
}

/** After `ARRAY`: `[e, ...]` where an element may itself be a bare `[...]`. */
function parseArray(p: ParseState, pos: number): ArrayLiteral {
  const open = p.expectOp("[");
  p.enter(open);
  const node: ArrayLiteral = { kind: "array", pos, elements: [], bracket: open.pos };
  if (!p.isOp("]")) {
    do {
      node.elements.push(p.isOp("[") ? parseArray(p, p.peek().pos) : parseExpr(p));
    } while (p.acceptOp(","));
  }
  if (!p.acceptOp("]")) throw p.atEnd() ? p.unexpected() : p.expected("']'");
  p.leave();
  return node;
}

/** A parenthesised list `(a, b)` (a call of `row`) opened by the token `open`. */
function isRowList(e: Expr, open: { pos: number }): boolean {
  return e.kind === "call" && e.name === "row" && e.pos === open.pos && e.args.length > 1;
}
