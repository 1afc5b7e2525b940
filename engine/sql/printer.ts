/**
 * Prints expressions back to text in two modes. `exprToText` gives the canonical text QuestDB
 * uses for result column names (spec/sql.md §18.1 rule 3): single spaces around operators,
 * parentheses only where precedence needs them, keywords in lower case, casts as `::`, and
 * `||` as a flattened `concat(...)`. The SQL mode used by `statementToText` keeps what the
 * tree records (CAST vs `::`, `||`) so that printing and parsing again gives the same tree.
 */
import type { Expr, FrameBound, FunctionCall, WindowSpec } from "./ast.ts";
import { QUOTE_REQUIRED, RESERVED } from "./keywords.ts";
import { BINARY_PREC, exprPrec, PREC } from "./precedence.ts";
import { queryToText } from "./print_query.ts";

/** Words that would not read back as a name if printed bare. */
const QUOTE_WORDS = new Set([...RESERVED, "null", "nan", "true", "false", "case"]);

/** The canonical text of an expression, as used for result column names. */
export function exprToText(e: Expr): string {
  return print(e, false);
}

/**
 * The text two expressions share when they mean the same: `exprToText` with names lower-cased
 * (identifiers and keywords are case-insensitive) and quoted string literals kept as written,
 * so `max(CASE WHEN s = 'a' ...)` and `max(CASE WHEN s = 'A' ...)` stay two aggregates.
 */
export function exprKey(e: Expr): string {
  // Printed strings and quoted names double their inner quotes, so toggling at every quote keeps
  // `'it''s'` whole; a single quote inside a "quoted name" opens no string.
  let out = "", from = 0, quote = "";
  const text = print(e, false);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== "'" && c !== '"') continue;
    if (quote === "") {
      out += text.slice(from, i).toLowerCase();
      from = i;
      quote = c;
    } else if (c === quote) {
      out += quote === "'" ? text.slice(from, i) : text.slice(from, i).toLowerCase();
      from = i;
      quote = "";
    }
  }
  const rest = text.slice(from);
  return out + (quote === "'" ? rest : rest.toLowerCase());
}

/** SQL text of an expression that parses back to the same tree. */
export function exprToSql(e: Expr): string {
  return print(e, true);
}

/** A name as it must be written to read back: bare when it can be, else "double quoted". */
/**
 * A table name, a defined column's name or an alias: also quoted when it is one of QuestDB's
 * keywords, which the parser refuses bare there (keywords.ts QUOTE_REQUIRED).
 */
export function nameToText(name: string): string {
  return QUOTE_REQUIRED.has(name.toLowerCase()) ? `"${name.replaceAll('"', '""')}"` : identToText(name);
}

export function identToText(name: string): string {
  const plain = /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*$/.test(name) && !/\s/.test(name);
  if (plain && !QUOTE_WORDS.has(name.toLowerCase())) return name;
  if (/^@[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return name;
  return `"${name.replaceAll('"', '""')}"`;
}

/** A possibly dotted name (`pg_catalog.pg_class`), each part quoted as needed. */
export function dottedToText(name: string): string {
  return name.split(".").map(identToText).join(".");
}

/** A string value as a SQL literal. */
export function quoteString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function print(e: Expr, sql: boolean): string {
  const sub = (x: Expr, minPrec: number) => wrap(x, minPrec, sql);
  switch (e.kind) {
    case "literal":
      return e.text;
    case "column":
      return e.qualifier === undefined
        ? identToText(e.name)
        : `${dottedToText(e.qualifier)}.${identToText(e.name)}`;
    case "star":
      return e.qualifier === undefined ? "*" : `${dottedToText(e.qualifier)}.*`;
    case "param":
      return e.name !== undefined ? `:${e.name}` : `$${e.index}`;
    case "call":
      return callText(e, sql);
    case "binary": {
      if (e.op === "||" && !sql) return `concat(${concatArgs(e).map((a) => print(a, sql)).join(", ")})`;
      if (e.op === "within") {
        return `${sub(e.left, PREC.in)} within (${
          (e.list ?? [e.right]).map((a) => print(a, sql)).join(", ")
        })`;
      }
      const prec = BINARY_PREC[e.op];
      return `${sub(e.left, prec)} ${e.op} ${sub(e.right, prec + 1)}`;
    }
    case "unary":
      if (e.op === "not") return `not ${sub(e.operand, PREC.is)}`;
      // `- -x` must not print as the comment `--x`.
      if (e.operand.kind === "unary" && e.operand.op !== "not") return `${e.op}(${print(e.operand, sql)})`;
      return `${e.op}${sub(e.operand, PREC.unary)}`;
    case "cast":
      if (sql && e.syntax === "cast") return `cast(${print(e.expr, sql)} as ${e.type.text})`;
      if (sql && e.syntax === "prefix") return `${e.type.text} ${print(e.expr, sql)}`;
      return `${sub(e.expr, PREC.postfix)}::${e.type.text}`;
    case "case": {
      const parts = ["case"];
      if (e.operand) parts.push(print(e.operand, sql));
      for (const w of e.whens) parts.push(`when ${print(w.when, sql)} then ${print(w.then, sql)}`);
      if (e.else) parts.push(`else ${print(e.else, sql)}`);
      parts.push("end");
      return parts.join(" ");
    }
    case "in": {
      const list = Array.isArray(e.list) ? e.list.map((a) => print(a, sql)).join(", ") : queryToText(e.list);
      return `${sub(e.expr, PREC.in)} ${e.not ? "not in" : "in"} (${list})`;
    }
    case "between":
      return `${sub(e.expr, PREC.in)} ${e.not ? "not between" : "between"} ${sub(e.lo, PREC.in + 1)} and ${
        sub(e.hi, PREC.in + 1)
      }`;
    case "like": {
      const op = `${e.not ? "not " : ""}${e.caseInsensitive ? "ilike" : "like"}`;
      const escape = e.escape ? ` escape ${sub(e.escape, PREC.equality + 1)}` : "";
      return `${sub(e.expr, PREC.equality)} ${op} ${sub(e.pattern, PREC.equality + 1)}${escape}`;
    }
    case "isNull":
      return `${sub(e.expr, PREC.is)} is ${e.not ? "not null" : "null"}`;
    case "subquery":
      return `(${queryToText(e.query)})`;
    case "exists":
      return `exists (${queryToText(e.query)})`;
    case "array":
      return `ARRAY${arrayBody(e, sql)}`;
    case "index": {
      const target = sub(e.expr, PREC.postfix);
      // The parser reads `arr[1][2]` and `arr[1, 2]` as the same node. Plain indexes print as
      // QuestDB names the chained form (`arr[10][2]`, spec/sql.md §18.1); with a range selector
      // the one-bracket form is kept, where each selector plainly applies to its own dimension.
      if (!e.ranges) return `${target}${e.indexes.map((i) => `[${print(i, sql)}]`).join("")}`;
      return `${target}[${
        e.indexes.map((i, k) => {
          const r = e.ranges?.[k];
          return r ? `${print(i, sql)}:${r.hi ? print(r.hi, sql) : ""}` : print(i, sql);
        }).join(", ")
      }]`;
    }
  }
}

/** Prints `e` in parentheses when it binds more loosely than its position needs. */
function wrap(e: Expr, minPrec: number, sql: boolean): string {
  let prec = exprPrec(e);
  if (e.kind === "cast" && !sql) prec = PREC.postfix;
  if (e.kind === "binary" && e.op === "||" && !sql) prec = PREC.primary;
  const text = print(e, sql);
  return prec < minPrec ? `(${text})` : text;
}

/** The operands of a chain of `||`, left to right. */
function concatArgs(e: Expr): Expr[] {
  if (e.kind !== "binary" || e.op !== "||") return [e];
  return [...concatArgs(e.left), ...concatArgs(e.right)];
}

/**
 * An element written `ARRAY[...]` keeps its keyword, a bare `[...]` does not: QuestDB names
 * `array[array[1]]` `ARRAY[ARRAY[1]]` (ColumnAliasExpressionTest#testSelectArray).
 */
function arrayBody(e: Expr & { kind: "array" }, sql: boolean): string {
  const element = (x: Expr) => (x.kind === "array" && !x.keyword ? arrayBody(x, sql) : print(x, sql));
  return `[${e.elements.map(element).join(", ")}]`;
}

function callText(e: FunctionCall, sql: boolean): string {
  let args: string;
  if (e.star) args = "*";
  else if (e.name.toLowerCase() === "extract" && e.args.length === 2 && e.args[0].kind === "literal") {
    args = `${e.args[0].text} from ${print(e.args[1], sql)}`;
  } else args = (e.distinct ? "distinct " : "") + e.args.map((a) => print(a, sql)).join(", ");
  let text = `${e.name}(${args})`;
  if (e.filter) text += ` filter (where ${print(e.filter, sql)})`;
  if (e.nulls) text += ` ${e.nulls} nulls`;
  if (e.over) text += ` over ${windowToText(e.over, sql)}`;
  return text;
}

/** `w` or `(w partition by ... order by ... rows between ... and ... exclude ...)`. */
export function windowToText(w: WindowSpec, sql = true): string {
  const bare = w.partitionBy.length === 0 && w.orderBy.length === 0 && !w.frame;
  if (w.baseName !== undefined && bare) return identToText(w.baseName);
  const parts: string[] = [];
  if (w.baseName !== undefined) parts.push(identToText(w.baseName));
  if (w.partitionBy.length > 0) {
    parts.push(`partition by ${w.partitionBy.map((x) => print(x, sql)).join(", ")}`);
  }
  if (w.orderBy.length > 0) parts.push(`order by ${orderItemsToText(w.orderBy, sql)}`);
  if (w.frame) {
    const f = w.frame;
    parts.push(`${f.unit} between ${boundText(f.start, sql)} and ${boundText(f.end, sql)}`);
    if (f.exclude) parts.push(`exclude ${EXCLUDE_TEXT[f.exclude]}`);
  }
  return `(${parts.join(" ")})`;
}

const EXCLUDE_TEXT = { currentRow: "current row", noOthers: "no others", group: "group", ties: "ties" };

function boundText(b: FrameBound, sql: boolean): string {
  switch (b.kind) {
    case "unboundedPreceding":
      return "unbounded preceding";
    case "unboundedFollowing":
      return "unbounded following";
    case "currentRow":
      return "current row";
    default: {
      const offset = wrap(b.offset!, PREC.bitOr, sql);
      return `${offset}${b.timeUnit ? ` ${b.timeUnit}` : ""} ${b.kind}`;
    }
  }
}

/** `a desc nulls last, b`. */
export function orderItemsToText(items: { expr: Expr; desc: boolean; nulls?: string }[], sql = true): string {
  return items.map((o) =>
    `${print(o.expr, sql)}${o.desc ? " desc" : ""}${o.nulls ? ` nulls ${o.nulls}` : ""}`
  )
    .join(", ");
}
