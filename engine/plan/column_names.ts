/**
 * Result column names (spec/sql.md §18.1): the expression text in the default mode, QuestDB's
 * legacy names (`avg`, `column`, `cast`) when `cairo.sql.column.alias.expression.enabled` is
 * false, and the de-duplication suffixes of each mode.
 */
import { COLUMN_ALIAS_LENGTH_MAX } from "../base/limits.ts";
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import { exprToText } from "../sql/printer.ts";
import { regKindOf } from "./reg_types.ts";
import { JSON_TYPED } from "../functions/json_typed.ts";
import type { TypeTag } from "../base/types.ts";
import { isArraySubquery } from "../sql/pg_array_subquery.ts";

export function baseName(item: A.SelectItem, legacy: boolean): string {
  if (item.alias !== undefined) return item.alias;
  const e = item.expr;
  if (e.kind === "column") return e.name;
  if (e.kind === "literal" && e.type !== "null") return literalName(e, legacy);
  if (isArraySubquery(e)) return "array"; // ARRAY(subquery), as PostgreSQL names it
  // PostgreSQL's names for a reg* cast (reg_types.ts): the column's (`c.oid::regclass` is
  // `oid`), else the type's (`'int4'::regtype` is `regtype`), which drivers' catalog queries read.
  const reg = e.kind === "cast" ? regKindOf(e.type) : undefined;
  if (reg && e.kind === "cast") return e.expr.kind === "column" ? e.expr.name : reg;
  if (legacy) {
    if (e.kind === "call") {
      // The function name as written: QuestDB's SqlParser aliases a call by its token text
      // (IPv4Test: `select isOrdered(ip)` is named `isOrdered`).
      // QuestDB's parser rewrites count(DISTINCT x) to count_distinct(x) (IPv4Test#testIPv4CountDistinct).
      // and string_agg(DISTINCT x, ...) to string_distinct_agg (StringDistinctAggGroupByFunctionFactoryTest).
      if (e.distinct && e.name.toLowerCase() === "count") return "count_distinct";
      if (e.distinct && e.name.toLowerCase() === "string_agg") return "string_distinct_agg";
      return e.nulls === "ignore" ? `${e.name}_ignore_nulls` : e.name.replace(/^pg_catalog\./i, "");
    }
    // QuestDB's parser turns `json_extract(doc, path)::type` into the call `json_extract(doc,
    // path, type)` for the types json_extract converts itself (JsonExtractVarcharFunctionFactoryTest).
    if (e.kind === "cast" && isTypedJsonExtract(e)) return "json_extract";
    // `x::int` is QuestDB's cast function whatever its operand (CastTest#testCharToBoolean names
    // `a::boolean` `cast`), and so is a typed literal (`ipv4 '1.1.1.1'`, IPv4Test#testStrIPv4Cast).
    if (e.kind === "cast") return "cast";
    // The simple form is QuestDB's `switch` function (ConditionalExpressionTest names it so).
    if (e.kind === "case") return e.operand || switchLike(e) ? "switch" : "case";
    // EXISTS is a function in QuestDB (ExistsFunctionFactoryTest names it `exists`).
    if (e.kind === "exists") return "exists";
    if (e.kind === "binary" && e.op === "||") return "concat";
    // The array constructor is QuestDB's `ARRAY` function (ArrayTest#testSelectLiteral).
    if (e.kind === "array") return "ARRAY";
    // Array access and slicing is QuestDB's `[]` function (ArrayAccessTest names `a[1]`, `a[2:]` `[]`).
    if (e.kind === "index") return "[]";
    return "column";
  }
  return exprToText(asQuestDbParsed(e)).slice(0, COLUMN_ALIAS_LENGTH_MAX).trimEnd();
}

/**
 * PostgreSQL type names a `::` cast names by QuestDB's type (SqlParser.rewritePgCast; the
 * `cast(x as float)` form keeps its text): an array suffix follows the element type.
 */
const PG_CAST_TYPES: Record<string, string> = {
  float: "DOUBLE",
  float8: "DOUBLE",
  "double precision": "DOUBLE",
  float4: "FLOAT",
  int4: "INT",
  int8: "LONG",
  int2: "SHORT",
};

/**
 * The expression as QuestDB's parser has rewritten it before it takes the default name from its
 * text (SqlParser.expr runs rewriteKnownStatements first): `count(*)` is `count()`, and `x::float8`
 * is `x::DOUBLE`.
 */
function asQuestDbParsed(e: A.Expr): A.Expr {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    const node = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(node)) out[k] = walk(node[k]);
    if (out.kind === "call" && out.star === true && String(out.name).toLowerCase() === "count") {
      out.star = false;
      out.args = [];
    }
    if (out.kind === "cast" && out.syntax === "colon") {
      const type = out.type as A.TypeSpec;
      const m = /^(.*?)((?:\s*\[\s*\])*)$/.exec(type.text.toLowerCase().replace(/\s+/g, " ").trim());
      const mapped = m && PG_CAST_TYPES[m[1]];
      if (mapped) out.type = { ...type, text: mapped + "[]".repeat((m[2].match(/\[/g) ?? []).length) };
    }
    if (out.kind === "case") return switchOf(out as unknown as A.CaseExpr) ?? out;
    return out;
  };
  const text = exprToText(e);
  return /\(\*\)|::|\bcase\b/i.test(text) ? walk(e) as A.Expr : e;
}

/**
 * QuestDB's `switch` call for a simple CASE, and for a searched CASE whose WHENs compare one
 * column to constants (SqlParser.rewriteCase), printed as `switch(x, k1, v1, ..., else)`; a
 * searched CASE without ELSE gets a `null` one.
 */
function switchOf(e: A.CaseExpr): A.FunctionCall | undefined {
  const call = (args: A.Expr[]): A.FunctionCall => ({
    kind: "call",
    pos: e.pos,
    name: "switch",
    args,
    distinct: false,
    star: false,
  });
  if (e.operand) {
    return call([e.operand, ...e.whens.flatMap((w) => [w.when, w.then]), ...(e.else ? [e.else] : [])]);
  }
  if (!switchLike(e)) return undefined;
  let column: A.Expr | undefined;
  const args: A.Expr[] = [];
  for (const w of e.whens) {
    const c = w.when as A.BinaryExpr;
    const [col, k] = c.left.kind === "column" ? [c.left, c.right] : [c.right, c.left];
    column ??= col;
    args.push(k, w.then);
  }
  const otherwise: A.Expr = e.else ??
    { kind: "literal", pos: e.pos, type: "null", value: null, text: "null" };
  return call([column!, ...args, otherwise]);
}

/**
 * A searched CASE whose every WHEN compares one column to a constant: QuestDB's parser turns it
 * into its `switch` (CaseBranchesTest; CaseFunctionFactoryTest#testVarcharCast names
 * `case when x = 97 then a else '' end` `switch`).
 */
function switchLike(e: A.CaseExpr): boolean {
  let column: string | undefined;
  for (const w of e.whens) {
    const c = w.when;
    if (c.kind !== "binary" || c.op !== "=") return false;
    const [col, k] = c.left.kind === "column" ? [c.left, c.right] : [c.right, c.left];
    if (col.kind !== "column" || !isConstant(k)) return false;
    if (column !== undefined && column !== col.name.toLowerCase()) return false;
    column = col.name.toLowerCase();
  }
  return column !== undefined;
}

function isTypedJsonExtract(e: A.CastExpr): boolean {
  const c = e.expr;
  return c.kind === "call" && c.name.toLowerCase() === "json_extract" && c.args.length === 2 && !c.over &&
    !e.type.arrayDims && JSON_TYPED.has(e.type.name as TypeTag);
}

function isConstant(e: A.Expr): boolean {
  if (e.kind === "literal") return true;
  if (e.kind === "unary" && e.op === "-") return isConstant(e.operand);
  return e.kind === "cast" && isConstant(e.expr);
}

/**
 * §18.1 rule 3: a select item that is a bare literal is named by its text without quotes
 * (`SELECT 'C1', 2022` → `C1`, `2022`); an empty string gets `column`, and in the legacy mode
 * so does a number with a `.` (`1.5`).
 */
function literalName(e: A.Literal, legacy: boolean): string {
  if (e.type === "string" || e.type === "char") {
    const text = String(e.value ?? "");
    return text === "" ? "column" : text.slice(0, COLUMN_ALIAS_LENGTH_MAX);
  }
  if (legacy && e.text.includes(".")) return "column";
  return e.text.slice(0, COLUMN_ALIAS_LENGTH_MAX);
}

/**
 * The name of a select item taken from `names`. In the legacy mode a constant with a `.` (`1.5`,
 * `'a.b'`) is `column` plus a counter that starts at 1 and moves on past the names already taken, as
 * QuestDB's SqlParser.createConstColumnAlias does (WithClauseTest: `SELECT 1.5, 2.5` names
 * `column1`, `column2`); QuestDB keeps the counter for a whole statement, here it lives as long
 * as the allocator (one select list).
 */
export function takeItemName(item: A.SelectItem, legacy: boolean, names: NameAllocator): string {
  const e = item.expr;
  // A quoted string with a `.` counts too: QuestDB tests the constant's token, quotes included
  // (SqlParserTest#testDottedConstAlias: `SELECT '.f.e.j.hve'` names `column1`).
  if (
    legacy && item.alias === undefined && e.kind === "literal" && e.type !== "null" && e.type !== "char" &&
    (e.type === "string" ? String(e.value ?? "").includes(".") : e.text.includes("."))
  ) {
    return names.takeConst();
  }
  return names.take(baseName(item, legacy));
}

/**
 * An explicit alias given twice is refused at the second one's AS (or the alias when AS is left
 * out), as QuestDB's SqlParser (SampleByFillTest#testFillNullDuplicateAlias).
 */
export function checkDuplicateAliases(items: A.SelectItem[]): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (item.alias === undefined || item.expr.kind === "star") continue;
    const key = item.alias.toLowerCase();
    if (seen.has(key)) {
      throw new SqlError(`Duplicate column [name=${item.alias}]`, item.aliasPos ?? item.expr.pos);
    }
    seen.add(key);
  }
}

/** Assigns unique names (case-insensitive): default mode `x_2`, legacy and `*` expansion `x1`. */
export class NameAllocator {
  #taken = new Set<string>();
  #digit = 1;
  constructor(private readonly legacy: boolean) {}

  /** `column<n>` for a legacy dotted constant (see takeItemName). */
  takeConst(): string {
    while (this.#taken.has(`column${this.#digit}`)) this.#digit++;
    const name = `column${this.#digit}`;
    this.#taken.add(name);
    return name;
  }

  take(name: string, numericSuffix = this.legacy): string {
    let candidate = name;
    // Legacy mode: a repeated numeric name (`SELECT 1, 1`) falls back to `column` first.
    if (this.legacy && /^\d+$/.test(name) && this.#taken.has(name)) candidate = name = "column";
    if (this.#taken.has(candidate.toLowerCase())) {
      for (let k = numericSuffix ? 1 : 2;; k++) {
        candidate = numericSuffix ? `${name}${k}` : `${name}_${k}`;
        if (!this.#taken.has(candidate.toLowerCase())) break;
      }
    }
    this.#taken.add(candidate.toLowerCase());
    return candidate;
  }
}
