/**
 * The FROM clause (spec/sql.md §7.1, §11.1): sources (tables, subqueries with an optional
 * dynamic `TIMESTAMP(col)`, table functions, `(SHOW ...)`), implicit joins with `,`, and the
 * join kinds with ON, the `ON (col, ...)` shorthand and ASOF/LT TOLERANCE.
 */
import { syntaxError } from "../base/errors.ts";
import { parseTypeName } from "../base/types.ts";
import type {
  ColumnRef,
  Expr,
  FromClause,
  FunctionCall,
  FunctionSource,
  HorizonOffset,
  HorizonSpec,
  Join,
  JoinKind,
  Query,
  Source,
  SubquerySource,
  UnnestColumn,
  WindowJoin,
  WindowJoinBound,
} from "./ast.ts";
import { JOIN_STARTS, RESERVED, SOURCE_ALIAS_STOP } from "./keywords.ts";
import { splitAmountUnit } from "./literal.ts";
import { parseExpr } from "./parse_expr.ts";
import { atPivot, parsePivotTail } from "./parse_pivot.ts";
import { parseCall } from "./parse_primary.ts";
import { parseQuery } from "./parse_query.ts";
import { parseShow } from "./parse_show.ts";
import { parseType } from "./parse_type.ts";
import type { NamePos, ParseState } from "./parse_state.ts";

/** A first source (read here unless given) and the joins after it. */
export function parseFromClause(p: ParseState, first?: Source): FromClause {
  const from: FromClause = first ?? !isJoinGroup(p)
    ? { first: first ?? parseSource(p), joins: [] }
    : joinGroup(p);
  for (;;) {
    const t = p.peek();
    if (p.acceptOp(",")) {
      const lateral = p.acceptWord("lateral") !== undefined;
      const source = lateral ? parseLateralSource(p) : parseSource(p);
      from.joins.push({ kind: "cross", pos: t.pos, source, implicit: true, ...(lateral ? { lateral } : {}) });
    } else if (p.isWord("lateral")) {
      // QuestDB also reads `FROM t alias LATERAL (query) alias`, as `, LATERAL`.
      p.next();
      from.joins.push({
        kind: "cross",
        pos: t.pos,
        source: parseLateralSource(p),
        implicit: true,
        lateral: true,
      });
    } else if (p.isWord("window") && p.isWord("join", 1)) {
      (from.windowJoins ??= []).push(parseWindowJoin(p));
    } else if (p.wordAt() !== undefined && JOIN_STARTS.has(p.wordAt()!)) {
      if (from.windowJoins) {
        throw syntaxError(
          "WINDOW JOIN can be combined with another WINDOW JOIN, but not with other JOIN types",
          t.pos,
        );
      }
      from.joins.push(parseJoin(p));
    } else {
      checkDuplicateAliases(from);
      return from;
    }
  }
}

/**
 * A source's name (its alias, else a table's name) may not repeat an earlier one
 * (SqlParserTest#testDuplicateAlias: `customers a CROSS JOIN orders a` fails at the second
 * `a`; #testJoinDuplicateTables: `tab CROSS JOIN tab` at the second `tab`).
 */
function checkDuplicateAliases(from: FromClause): void {
  const seen = new Set<string>();
  const sources = [from.first, ...from.joins.map((j) => j.source)];
  for (const s of sources) {
    const name = s.alias ?? (s.kind === "table" ? s.name : undefined);
    if (name === undefined) continue;
    const key = name.toLowerCase();
    const at = s.alias !== undefined ? aliasPositions.get(s) : s.pos;
    if (at !== undefined && seen.has(key)) throw syntaxError(`Duplicate table or alias: ${name}`, at);
    seen.add(key);
  }
}

/**
 * `((a JOIN b ON ..) JOIN c ON ..)` as the first FROM item, as psqlODBC writes its catalog
 * queries: a left-deep join group means the same as its joins without the parentheses, so it
 * is read as them (its aliases stay visible). Otherwise `(` opens a subquery, QuestDB's
 * `(trades)` included: a group is told apart by a JOIN at its own depth before its `)`, with
 * a name (not SELECT/WITH/SHOW/VALUES) or a parenthesised item right after its `(`.
 */
const QUERY_STARTS = new Set(["select", "with", "show", "values", "table", "declare"]);
/** A set operation at the group's depth makes it a query: `((WITH ..) UNION ALL .. JOIN ..)`. */
const SET_OPS = new Set(["union", "except", "intersect"]);

function isJoinGroup(p: ParseState): boolean {
  if (!p.isOp("(")) return false;
  let opens = 0;
  while (p.isOp("(", opens)) opens++;
  // `(select ... JOIN ...)` is a query; `((select ...) a JOIN ...)` a group starting with one.
  const w = p.wordAt(opens);
  if (opens === 1 && (w === undefined || QUERY_STARTS.has(w))) return false;
  let depth = 1, joins = false, k = 1;
  for (; depth > 0; k++) {
    const t = p.peek(k);
    if (t.kind === "eof" || (t.kind === "op" && t.text === ";")) return false;
    if (p.isOp("(", k)) depth++;
    else if (p.isOp(")", k)) depth--;
    else if (depth === 1 && t.kind === "word" && SET_OPS.has(t.text.toLowerCase())) return false;
    else if (depth === 1 && t.kind === "word" && JOIN_STARTS.has(t.text.toLowerCase())) joins = true;
  }
  // `(t JOIN u ON ..) alias` stays QuestDB's subquery, whose columns the alias names.
  return joins && !p.isWord("as", k) && !isSourceAlias(p, k);
}

/** The join group at `(` (isJoinGroup), flattened: its first source and joins. */
function joinGroup(p: ParseState): FromClause {
  const open = p.next();
  const inner = parseFromClause(p);
  p.closeParen(open);
  return inner;
}

/** One source with its alias. */
export function parseSource(p: ParseState): Source {
  const t = p.peek();
  if (p.isOp("(")) {
    const open = p.next();
    if (p.isWord("show")) {
      const show = parseShow(p);
      p.closeParen(open);
      return parseSourceTail(p, { kind: "showSource", pos: open.pos, show });
    }
    const query = parseQuery(p);
    p.closeParen(open);
    return parseSourceTail(p, { kind: "subquerySource", pos: open.pos, query });
  }
  if (t.kind === "variable") {
    // `FROM @v`, where DECLARE gave @v a subquery: sql/declare_vars.ts puts the query in.
    p.next();
    const query: Query = {
      kind: "query",
      pos: t.pos,
      with: [],
      body: { kind: "select", pos: t.pos, distinct: false, items: [], windows: [] },
      orderBy: [],
    };
    return parseSourceTail(p, { kind: "subquerySource", pos: t.pos, query, variable: t.text });
  }
  if (t.kind === "word" && t.text.toLowerCase() === "cast" && p.isOp("(", 1)) {
    // `cast(null AS CURSOR)` as a whole query: its type is checked where QuestDB checks it
    // (CastNullTypeFunctionFactoryTest); a cast is no table function.
    const e = parseExpr(p);
    if (e.kind === "cast" && !parseTypeName(e.type.name)) {
      throw syntaxError(`invalid constant: ${e.type.text}`, e.type.pos);
    }
    throw syntaxError("table function expected", t.pos);
  }
  if (t.kind === "word" && isCallAhead(p)) {
    const parts = [p.next().text];
    while (p.acceptOp(".")) parts.push(p.next().text);
    if (parts.length === 1 && parts[0].toLowerCase() === "unnest") return parseUnnest(p, t.pos, parts[0]);
    const call = parseCall(p, { name: parts.join("."), pos: t.pos });
    return parseSourceTail(p, { kind: "functionSource", pos: t.pos, call });
  }
  if (t.kind !== "string" && !p.atName()) {
    // QuestDB's "table name or sub-query expected": a `)` closing the query early is passed
    // over, the error points just past it (SqlParserTest#testMissingTableInSubQuery).
    if (t.kind === "op" && t.text === ")") throw syntaxError("table name or sub-query expected", t.end);
    if (p.atEnd()) throw p.expected("table name or sub-query");
    throw p.expected("table name");
  }
  const name = p.tableName();
  return parseSourceTail(p, { kind: "table", pos: name.pos, name: name.name });
}

/**
 * QuestDB's `UNNEST(expr [COLUMNS(name TYPE, ...)], ...) [WITH ORDINALITY] [[AS] alias [(names)]]`,
 * the cursor on `(`: an argument followed by `COLUMNS(...)` is a JSON array text whose typed
 * fields become the columns (UnnestTest, docs query/sql/unnest.md).
 */
function parseUnnest(p: ParseState, pos: number, name: string): Source {
  const open = p.expectOp("(");
  const call: FunctionCall = { kind: "call", pos, name, args: [], distinct: false, star: false };
  const columns: (UnnestColumn[] | undefined)[] = [];
  if (!p.isOp(")")) {
    do {
      call.args.push(parseExpr(p));
      if (p.isWord("columns") && p.isOp("(", 1)) {
        p.next();
        const inner = p.expectOp("(");
        const list: UnnestColumn[] = [];
        do {
          const at = p.peek();
          if (at.kind === "word" && RESERVED.has(at.text.toLowerCase())) throw keywordName(at);
          const colName = p.anyName("column name").name;
          list.push({ name: colName, type: parseType(p), pos: at.pos });
        } while (p.acceptOp(","));
        p.closeParen(inner);
        columns.push(list);
      } else {
        columns.push(undefined);
      }
    } while (p.acceptOp(","));
  }
  p.closeParen(open);
  const source: FunctionSource = { kind: "functionSource", pos, call };
  if (columns.some((c) => c)) source.unnestColumns = columns;
  if (p.isWord("with") && p.isWord("ordinality", 1)) {
    p.next();
    p.next();
    source.ordinality = true;
  }
  return parseSourceTail(p, source);
}

/** `word(.word)* (` ahead: a table function rather than a table name. */
function isCallAhead(p: ParseState): boolean {
  let k = 0;
  for (;;) {
    if (p.peek(k).kind !== "word") return false;
    if (p.isOp("(", k + 1)) return true;
    if (!p.isOp(".", k + 1)) return false;
    k += 2;
  }
}

/**
 * Alias and `TIMESTAMP(col)` after a source, in either order. A table or table function with
 * `TIMESTAMP(col)` becomes a subquery over it, the one source kind that carries the column.
 */
export function parseSourceTail(p: ParseState, source: Source): Source {
  for (let k = 0; k < 2; k++) {
    if (p.isWord("timestamp") && p.isOp("(", 1)) {
      const timestamp = parseTimestampColumn(p);
      const sub = source.kind === "subquerySource" ? source : wrapInSubquery(source);
      if (sub.timestamp) throw syntaxError("duplicate timestamp clause", timestamp.pos);
      sub.timestamp = timestamp;
      source = sub;
    } else if (source.alias === undefined && readSourceAlias(p, source)) {
      continue;
    } else {
      break;
    }
  }
  // `source [alias] PIVOT (...) [alias]`, repeatable (parse_pivot.ts).
  while (atPivot(p)) {
    source = parsePivotTail(p, source);
    readSourceAlias(p, source);
  }
  return source;
}

function wrapInSubquery(source: Source): SubquerySource {
  const alias = source.alias;
  delete source.alias;
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
  return alias === undefined
    ? { kind: "subquerySource", pos: source.pos, query }
    : { kind: "subquerySource", pos: source.pos, query, alias };
}

/** `TIMESTAMP(col)`, the cursor on TIMESTAMP. */
export function parseTimestampColumn(p: ParseState): ColumnRef {
  p.next();
  const open = p.next();
  const e = parseExpr(p);
  if (e.kind !== "column") throw syntaxError("column name expected", e.pos);
  p.closeParen(open);
  return e;
}

/** Where each source's alias was written, for the duplicate-alias error of parseFromClause. */
const aliasPositions = new WeakMap<Source, number>();

function readSourceAlias(p: ParseState, source: Source): boolean {
  const at = p.peek(p.isWord("as") ? 1 : 0);
  if (p.acceptWord("as")) {
    // `AS 'foo'` too (SqlParserTest#testQuotedTableAliasFollowedByStar).
    source.alias = at.kind === "string" ? p.next().value : p.anyName("alias").name;
  } else if (isSourceAlias(p)) {
    source.alias = p.next().value;
  } else {
    return false;
  }
  // SqlParserTest#testEmptyTableAliasDisallowed: `FROM t ""` is refused at the alias.
  if (source.alias === "") throw syntaxError("non-empty table alias expected", at.pos);
  aliasPositions.set(source, at.pos);
  // `generate_series(1, n) AS s(r)` (pgjdbc's getTypeInfo): the function's columns renamed.
  if (source.kind === "functionSource" && p.isOp("(") && source.call.name.toLowerCase() === "unnest") {
    const names = readUnnestAliases(p);
    source.columnAliases = names.map((n) => n.name);
    source.columnAliasPositions = names.map((n) => n.pos);
  } else if (source.kind === "functionSource" && p.isOp("(")) {
    const names = readNameList(p);
    if (!names) throw p.expected("column name");
    source.columnAliases = names.map((n) => n.name);
    source.columnAliasPositions = names.map((n) => n.pos);
  }
  return true;
}

/**
 * UNNEST's column aliases `u(a, "b", 'a.b')`: quoted in any style, a reserved word only in
 * double quotes (UnnestTest#testColumnAliasKeywordRejected, #testDottedColumnAliasNonStandardQuotes).
 */
function readUnnestAliases(p: ParseState): NamePos[] {
  const open = p.next();
  const names: NamePos[] = [];
  do {
    const t = p.peek();
    if (t.kind === "word" && RESERVED.has(t.text.toLowerCase())) throw keywordName(t);
    if (t.kind !== "word" && t.kind !== "quoted" && t.kind !== "string") throw p.expected("column name");
    p.next();
    names.push({ name: t.value, pos: t.pos });
  } while (p.acceptOp(","));
  p.closeParen(open);
  return names;
}

function keywordName(t: { text: string; pos: number }) {
  return syntaxError(
    `table and column names that are SQL keywords have to be enclosed in double quotes, such as "${t.text}"`,
    t.pos,
  );
}

function isSourceAlias(p: ParseState, ahead = 0): boolean {
  const t = p.peek(ahead);
  // A 'single quoted' alias too (SqlParserTest#testLineCommentAtEnd: `(x WHERE a > 1) 'b a'`).
  if (t.kind === "quoted" || t.kind === "string") return true;
  if (t.kind !== "word") return false;
  const w = t.text.toLowerCase();
  if (w === "timestamp" && p.isOp("(", ahead + 1)) return false;
  return !SOURCE_ALIAS_STOP.has(w);
}

/** After `(query)`: do clauses follow that make it the source of a SELECT block? */
export function continuesAsSource(p: ParseState): boolean {
  if (p.isOp(",")) return true;
  const w = p.wordAt();
  if (w === undefined) return p.peek().kind === "quoted" || p.peek().kind === "string";
  if (["where", "latest", "sample", "group", "having", "window", "as"].includes(w)) return true;
  if (JOIN_STARTS.has(w)) return true;
  if (w === "timestamp" && p.isOp("(", 1)) return true;
  if (atPivot(p)) return true;
  return isSourceAlias(p);
}

const JOIN_WORDS: Record<string, JoinKind> = {
  join: "inner",
  inner: "inner",
  left: "left",
  right: "right",
  full: "full",
  cross: "cross",
  asof: "asof",
  lt: "lt",
  splice: "splice",
  horizon: "asof",
};

function parseJoin(p: ParseState): Join {
  const natural = p.acceptWord("natural");
  const t = p.next();
  const word = t.text.toLowerCase();
  const kind = JOIN_WORDS[word];
  if (natural && !["inner", "left", "right", "full"].includes(kind)) {
    throw syntaxError("NATURAL is only supported with INNER, LEFT, RIGHT or FULL joins", natural.pos);
  }
  if (word !== "join") {
    if (kind === "left" || kind === "right" || kind === "full") p.acceptWord("outer");
    p.expectWord("join");
  }
  const lateral = p.acceptWord("lateral");
  if (lateral && kind !== "inner" && kind !== "left" && kind !== "cross") {
    throw syntaxError("LATERAL is only supported with INNER, LEFT, or CROSS joins", lateral.pos);
  }
  const join: Join = lateral
    ? { kind, pos: t.pos, source: parseLateralSource(p), lateral: true }
    : { kind, pos: t.pos, source: parseSource(p) };
  const horizon = word === "horizon";
  // `HORIZON JOIN quotes RANGE FROM ...` / `LIST (...)`: the keyword is no alias.
  const alias = join.source.alias?.toLowerCase();
  if (horizon && ((alias === "range" && p.isWord("from")) || (alias === "list" && p.isOp("(")))) {
    p.index--;
    delete join.source.alias;
  }
  if (kind === "cross" && !lateral && p.isWord("on")) {
    // SqlParserTest#testCrossJoin: the error points at ON.
    throw syntaxError("Cross joins cannot have join clauses", p.peek().pos);
  }
  if (natural) {
    // The shared column names are known only when the sources are planned (plan_from.ts).
    join.natural = true;
  } else if (p.isWord("on")) {
    const onWord = p.next();
    // SqlParserTest#testInvalidInnerJoin2: nothing after ON is reported at ON.
    if (p.atEnd()) throw syntaxError("Expression expected", onWord.pos);
    const using = p.isOp("(") ? readNameList(p) : undefined;
    if (using) {
      join.using = using;
    } else {
      const on = parseExpr(p);
      // `ON key` names one same-named key column, as `ON (key)` does.
      if (on.kind === "column" && on.qualifier === undefined) join.using = [{ name: on.name, pos: on.pos }];
      else join.on = on;
    }
  } else if (p.isWord("using") && p.isOp("(", 1)) {
    p.next();
    join.using = readNameList(p);
    if (!join.using) throw p.expected("column name");
  } else if (!lateral && !horizon && ["inner", "left", "right", "full"].includes(kind)) {
    // SqlParserTest#testInvalidInnerJoin1: at the token where ON should be, or at the last one
    // when the text ends there.
    const at = p.atEnd() ? p.tokens[p.index - 1] : p.peek();
    throw syntaxError("'on' expected", at.pos);
  }
  if (horizon) join.horizon = parseHorizon(p, t.pos);
  if (p.isWord("tolerance")) {
    p.next();
    const tok = p.next();
    // AsOfJoinTest#testAsOfJoinToleranceNegative: a negative amount is refused after its
    // literal, a zero one (with or without a unit) at it.
    const negated = tok.kind === "op" && tok.text === "-" && splitAmountUnit(p.peek());
    if (negated) {
      const lit = p.peek();
      throw syntaxError("ASOF JOIN TOLERANCE must be positive", lit.pos + lit.text.length);
    }
    const split = splitAmountUnit(tok);
    if (split?.amount === 0 || (tok.kind === "number" && /^0+$/.test(tok.text))) {
      throw syntaxError("zero is not a valid tolerance value", tok.pos);
    }
    if (!split) throw syntaxError("tolerance expected, e.g. 15m", tok.pos);
    join.tolerance = { amount: split.amount, unit: split.unit, pos: tok.pos };
  }
  return join;
}

/** `RANGE FROM a TO b STEP c AS alias` or `LIST (a, ...) AS alias` after HORIZON JOIN's source. */
function parseHorizon(p: ParseState, pos: number): HorizonSpec {
  let spec: Omit<HorizonSpec, "alias">;
  if (p.acceptWord("range")) {
    p.expectWord("from");
    const from = horizonOffset(p);
    p.expectWord("to");
    const to = horizonOffset(p);
    p.expectWord("step");
    const step = horizonOffset(p);
    spec = { pos, range: { from, to, step } };
  } else if (p.acceptWord("list")) {
    const open = p.expectOp("(");
    // HorizonJoinTest#testHorizonJoinEmptyList: at the `)`.
    if (p.isOp(")")) throw syntaxError("at least one offset expression expected", p.peek().pos);
    const list = [horizonOffset(p)];
    while (p.acceptOp(",")) list.push(horizonOffset(p));
    p.closeParen(open);
    spec = { pos, list };
  } else {
    throw p.expected("'range' or 'list'");
  }
  p.acceptWord("as");
  return { ...spec, alias: p.anyName("horizon alias").name };
}

/** `[-]amount unit`, or a bare `0`. */
function horizonOffset(p: ParseState): HorizonOffset {
  const t = p.peek();
  const negative = p.acceptOp("-") !== undefined;
  const tok = p.next();
  const split = splitAmountUnit(tok);
  if (split) return { amount: negative ? -split.amount : split.amount, unit: split.unit, pos: t.pos };
  if (tok.kind === "number" && /^0+$/.test(tok.text)) return { amount: 0, unit: "s", pos: t.pos };
  throw syntaxError("interval literal expected, e.g. 5s", tok.pos);
}

/** The source after LATERAL: a parenthesised query only (QuestDB's error text otherwise). */
function parseLateralSource(p: ParseState): Source {
  const t = p.peek();
  if (!p.isOp("(") || p.isWord("show", 1)) throw syntaxError("LATERAL requires a subquery", t.pos);
  return parseSource(p);
}

/** `(name, name, ...)` when the parentheses hold only plain names; otherwise reads nothing. */
function readNameList(p: ParseState): NamePos[] | undefined {
  let k = 1;
  for (;;) {
    if (!p.atName(k)) return undefined;
    if (p.isOp(")", k + 1)) break;
    if (!p.isOp(",", k + 1)) return undefined;
    k += 2;
  }
  const open = p.next();
  const names: NamePos[] = [];
  do names.push(p.name("column name")); while (p.acceptOp(","));
  p.closeParen(open);
  return names;
}

/** WINDOW JOIN time units (QuestDB docs query/sql/window-join.md) as dateadd letters. */
const WINDOW_JOIN_UNITS: Record<string, string> = {
  nanosecond: "n",
  microsecond: "u",
  millisecond: "T",
  second: "s",
  minute: "m",
  hour: "h",
  day: "d",
};

/** `WINDOW JOIN right [ON cond] RANGE BETWEEN lo AND hi [INCLUDE | EXCLUDE PREVAILING]`. */
function parseWindowJoin(p: ParseState): WindowJoin {
  const kw = p.next();
  p.next();
  const source = parseSource(p);
  // `WINDOW JOIN prices RANGE BETWEEN ...`: RANGE is no alias.
  const rangeAsAlias = "alias" in source && source.alias?.toLowerCase() === "range" && p.isWord("between");
  if (rangeAsAlias) delete (source as { alias?: string }).alias;
  let on: Expr | undefined;
  if (!rangeAsAlias && p.acceptWord("on")) on = parseExpr(p);
  if (!rangeAsAlias) p.expectWord("range");
  p.expectWord("between");
  const lo = windowJoinBound(p);
  p.expectWord("and");
  const hi = windowJoinBound(p);
  let prevailing = true;
  if (p.acceptWord("include")) p.expectWord("prevailing");
  else if (p.acceptWord("exclude")) {
    p.expectWord("prevailing");
    prevailing = false;
  }
  const signed = (b: WindowJoinBound) => (b.preceding ? -b.amount : b.amount) * UNIT_ORDER[b.unit];
  if (signed(hi) < signed(lo)) {
    throw syntaxError("WINDOW join hi value cannot be less than lo value", hi.pos);
  }
  return { pos: kw.pos, source, on, lo, hi, prevailing };
}

const UNIT_ORDER: Record<string, number> = { n: 1, u: 1e3, T: 1e6, s: 1e9, m: 6e10, h: 3.6e12, d: 8.64e13 };

function windowJoinBound(p: ParseState): WindowJoinBound {
  const t = p.peek();
  // At the PRECEDING/FOLLOWING word after UNBOUNDED (WindowJoinTest#testWindowJoinFailsWhenUnboundedIsUsed).
  if (p.isWord("unbounded")) {
    throw syntaxError("unbounded preceding/following is not supported in WINDOW joins", p.peek(1).pos);
  }
  // CURRENT ROW is a zero offset (LateralJoinTest#testT102WindowJoinInsideLateral).
  if (p.isWord("current") && p.isWord("row", 1)) {
    p.next();
    p.next();
    return { amount: 0, unit: "n", preceding: false, pos: t.pos };
  }
  const amount = p.integer("window bound").value;
  const word = (p.wordAt() ?? "").replace(/s$/, "");
  // A zero bound needs no unit: `AND 0 FOLLOWING` (LagLeadSymbolTableTest#testWindowJoinMasterGeneratedNull).
  const bare = amount === 0 && (word === "preceding" || word === "following");
  const unit = bare ? "n" : WINDOW_JOIN_UNITS[word];
  if (!unit) throw p.expected("time unit");
  if (!bare) p.next();
  let preceding: boolean;
  if (p.acceptWord("preceding")) preceding = true;
  else if (p.acceptWord("following")) preceding = false;
  else throw p.expected("'preceding' or 'following'");
  return { amount, unit, preceding, pos: t.pos };
}
