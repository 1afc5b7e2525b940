/**
 * Prints queries back to SQL that parses to the same tree: WITH, set operations, SELECT
 * blocks (with or without SELECT), sources, joins and every clause.
 */
import type {
  Expr,
  FillOption,
  FromClause,
  Limit,
  Query,
  QueryBody,
  SampleBy,
  SelectCore,
  Source,
} from "./ast.ts";
import { SOURCE_ALIAS_STOP } from "./keywords.ts";
import { exprToSql as x, identToText, nameToText, orderItemsToText, windowToText } from "./printer.ts";
import { showToText } from "./print_statement.ts";
import { pivotToText } from "./print_pivot.ts";

/** SQL text of a whole query. */
export function queryToText(q: Query): string {
  const parts: string[] = [];
  if (q.with.length > 0) {
    parts.push(`WITH ${q.with.map((c) => `${identToText(c.name)} AS (${queryToText(c.query)})`).join(", ")}`);
  }
  parts.push(bodyToText(q.body));
  if (q.orderBy.length > 0) parts.push(`ORDER BY ${orderItemsToText(q.orderBy)}`);
  if (q.limit) parts.push(limitToText(q.limit));
  return parts.join(" ");
}

function bodyToText(b: QueryBody): string {
  switch (b.kind) {
    case "query":
      return `(${queryToText(b)})`;
    case "setop":
      return `${bodyToText(b.left)} ${b.op.toUpperCase()}${b.all ? " ALL" : ""} ${operandToText(b.right)}`;
    case "select":
      return selectToText(b);
  }
}

/** A right operand that is itself a set operation needs parentheses to keep its grouping. */
function operandToText(b: QueryBody): string {
  if (b.kind !== "setop") return bodyToText(b);
  return `(${bodyToText(b)})`;
}

function selectToText(s: SelectCore): string {
  const parts: string[] = [];
  if (s.items) {
    let head = "SELECT";
    if (s.distinctOn) head += ` DISTINCT ON (${s.distinctOn.map(x).join(", ")})`;
    else if (s.distinct) head += " DISTINCT";
    const items = s.items.map((
      i,
    ) => (i.alias === undefined ? x(i.expr) : `${x(i.expr)} AS ${nameToText(i.alias)}`));
    parts.push(`${head} ${items.join(", ")}`);
    if (s.from) parts.push(`FROM ${fromToText(s.from)}`);
  } else if (s.from) {
    parts.push(fromToText(s.from));
  }
  if (s.where) parts.push(`WHERE ${x(s.where)}`);
  if (s.latestOn) {
    const l = s.latestOn;
    const keys = l.partitionBy.map(x).join(", ");
    parts.push(l.ts ? `LATEST ON ${x(l.ts)} PARTITION BY ${keys}` : `LATEST BY ${keys}`);
  }
  if (s.sampleBy) parts.push(sampleByToText(s.sampleBy));
  if (s.groupingSets) {
    parts.push(
      `GROUP BY GROUPING SETS (${s.groupingSets.map((g) => `(${g.map(x).join(", ")})`).join(", ")})`,
    );
  } else if (s.groupBy) parts.push(`GROUP BY ${s.groupBy.map(x).join(", ")}`);
  if (s.having) parts.push(`HAVING ${x(s.having)}`);
  if (s.windows.length > 0) {
    parts.push(
      `WINDOW ${s.windows.map((w) => `${identToText(w.name)} AS ${windowSpecText(w.spec)}`).join(", ")}`,
    );
  }
  return parts.join(" ");
}

/** A named window's definition always needs its parentheses, even when it is just a base name. */
function windowSpecText(spec: Parameters<typeof windowToText>[0]): string {
  const text = windowToText(spec);
  return text.startsWith("(") ? text : `(${text})`;
}

/** Sources and joins. */
export function fromToText(f: FromClause): string {
  let text = sourceToText(f.first);
  for (const j of f.joins) {
    const lateral = j.lateral ? "LATERAL " : "";
    if (j.implicit) {
      text += `, ${lateral}${sourceToText(j.source)}`;
      continue;
    }
    const natural = j.natural ? "NATURAL " : "";
    text += ` ${natural}${j.kind === "inner" ? "" : j.kind.toUpperCase() + " "}JOIN ${lateral}${
      sourceToText(j.source)
    }`;
    if (j.using) text += ` ON (${j.using.map((u) => identToText(u.name)).join(", ")})`;
    else if (j.on) text += ` ON ${x(j.on)}`;
    if (j.tolerance) text += ` TOLERANCE ${j.tolerance.amount}${j.tolerance.unit}`;
  }
  return text;
}

function sourceToText(s: Source): string {
  let text: string;
  switch (s.kind) {
    case "table":
      text = tableNameToText(s.name);
      break;
    case "functionSource":
      text = x(s.call);
      if (s.columnAliases) {
        const names = `(${s.columnAliases.map(identToText).join(", ")})`;
        return `${text}${aliasToText(s.alias!)}${names}`;
      }
      break;
    case "showSource":
      text = `(${showToText(s.show)})`;
      break;
    case "subquerySource":
      if (s.pivot || s.unpivot) {
        text = pivotToText(s, sourceToText);
        break;
      }
      text = `(${queryToText(s.query)})`;
      if (s.timestamp) text += ` TIMESTAMP(${x(s.timestamp)})`;
      break;
  }
  return s.alias === undefined ? text : `${text}${aliasToText(s.alias)}`;
}

/** ` t`, or ` AS left` when the alias would read as a keyword after a source. */
export function aliasToText(alias: string): string {
  const text = nameToText(alias);
  return text === alias && SOURCE_ALIAS_STOP.has(alias.toLowerCase()) ? ` AS ${text}` : ` ${text}`;
}

/** A table name: dotted parts bare when each part can be, else the whole name quoted. */
export function tableNameToText(name: string): string {
  const parts = name.split(".");
  if (parts.every((p) => nameToText(p) === p)) return name;
  return `"${name.replaceAll('"', '""')}"`;
}

function groupingSetsText(sets: Expr[][]): string {
  return `GROUPING SETS (${sets.map((g) => `(${g.map(x).join(", ")})`).join(", ")})`;
}

function sampleByToText(s: SampleBy): string {
  let text = `SAMPLE BY ${s.stride}${s.unit}`;
  if (s.groupingSets) text += ` ${groupingSetsText(s.groupingSets)}`;
  if (s.from) text += ` FROM ${x(s.from)}`;
  if (s.to) text += ` TO ${x(s.to)}`;
  if (s.fill.length > 0) text += ` FILL(${s.fill.map(fillToText).join(", ")})`;
  if (s.align.kind === "firstObservation") text += " ALIGN TO FIRST OBSERVATION";
  else if (s.align.timeZone || s.align.offset) {
    text += " ALIGN TO CALENDAR";
    if (s.align.timeZone) text += ` TIME ZONE ${x(s.align.timeZone)}`;
    if (s.align.offset) text += ` WITH OFFSET ${x(s.align.offset)}`;
  }
  return text;
}

function fillToText(f: FillOption): string {
  switch (f.kind) {
    case "value":
      return x(f.value);
    case "prev":
      return f.of === undefined ? "PREV" : `PREV(${identToText(f.of)})`;
    default:
      return f.kind.toUpperCase();
  }
}

export function limitToText(l: Limit): string {
  let text = "LIMIT ";
  if (l.comma) text += `${l.lo ? x(l.lo) : ""}, ${l.hi ? x(l.hi) : ""}`.trim();
  else text += l.lo ? x(l.lo) : "";
  if (l.offset) text += ` OFFSET ${x(l.offset)}`;
  return text;
}
